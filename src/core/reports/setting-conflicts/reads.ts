/**
 * Report 7's own Graph reads. Its policies and their settings are report 3's reads, and its targets
 * report 2's (definition.ts lists them with these); its own are what devices already reported, and
 * the enrolled devices of the users whose devices decide an overlap.
 */

import type { UpstreamRead } from '../../graph/upstream-read.js';

/**
 * The conflicts devices reported between device configuration profiles
 * (intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta: beta only,
 * DeviceManagementConfiguration.Read.All). Optional: its failure leaves that part unchecked, never
 * the report unloaded.
 */
export const CONFLICT_SUMMARY_READ = {
  path: '/beta/deviceManagement/deviceConfigurationConflictSummary',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'The conflicts between device configuration profiles that devices have reported to Intune.',
} as const satisfies UpstreamRead;

/**
 * A user's enrolled devices: `GET /users/{id}/managedDevices`, the user's `managedDevices`
 * relationship ("The managed devices associated with the user", the Intune user resource,
 * learn.microsoft.com/graph/api/resources/intune-devices-user; declared in the v1.0 metadata as the
 * user's contained navigation to `managedDevice`), a list of the managedDevice objects whose page,
 * "List managedDevices", gives the application permissions (DeviceManagementManagedDevices.Read.All;
 * its earlier versions listed `GET /users/{usersId}/managedDevices` among its requests). Made only
 * for the few users a policy to All devices meets through another policy's group
 * (docs/finding-rules.md, "Setting conflicts", "A user's enrolled devices"), twenty to a `$batch`.
 * Optional: without it such an overlap stays possible, as before.
 */
export const MEMBER_DEVICES_READ = {
  path: '/v1.0/users/{id}/managedDevices',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-list',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: ['id', 'deviceName', 'operatingSystem'],
  optional: true,
  why: 'The enrolled devices of a user in a group one policy targets, where another policy targets All devices: a device of that user gets both.',
} as const satisfies UpstreamRead;

/**
 * A device restrictions profile read whole, its fields the settings it sets: `GET
 * /deviceManagement/deviceConfigurations/{id}` (learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfiguration-get:
 * DeviceManagementConfiguration.Read.All, which report 2 holds), without `$select`, as the fields
 * differ by type; only for the types compared (classic-profiles.ts), none of which holds a secret,
 * twenty to a `$batch`. Optional: a profile that cannot be read is "could not check", as a policy
 * whose settings could not be read.
 */
export const CLASSIC_PROFILE_READ = {
  path: '/v1.0/deviceManagement/deviceConfigurations/{id}',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfiguration-get',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'The fields a device restrictions profile sets, compared with those of other profiles and of settings catalog policies that reach the same devices.',
} as const satisfies UpstreamRead;

export const SETTING_CONFLICT_READS: readonly UpstreamRead[] = [CONFLICT_SUMMARY_READ, MEMBER_DEVICES_READ, CLASSIC_PROFILE_READ];
