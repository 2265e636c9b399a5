import type { UpstreamRead } from '../graph/upstream-read.js';

/**
 * The Graph reads "what applies" makes of its own (docs/finding-rules.md, "What applies"). It also
 * makes report 2's assignment reads, which report 2's folder declares, and looks groups up by id
 * (`/v1.0/groups/{id}`), which report 2 declares too.
 */

/** The managed device fields read: who the device is, its primary user, its platform, and what filter rules read. */
export const APPLIES_DEVICE_FIELDS = [
  'id',
  'deviceName',
  'userId',
  'userPrincipalName',
  'azureADDeviceId',
  'operatingSystem',
  'manufacturer',
  'model',
  'osVersion',
  'managedDeviceOwnerType',
  'enrollmentProfileName',
] as const;

export const APPLIES_DEVICES_READ = {
  path: '/v1.0/deviceManagement/managedDevices',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: APPLIES_DEVICE_FIELDS,
  optional: false,
  betaTwin: true,
  why: 'The device a question names, its primary user, its platform, and the properties assignment filters read.',
} as const satisfies UpstreamRead;

/** `GET /groups/{id}/members`: a group's direct members (learn.microsoft.com/graph/api/group-list-members). */
export const APPLIES_GROUP_MEMBERS_READ = {
  path: '/v1.0/groups/{id}/members',
  permissions: ['Group.Read.All'],
  select: ['id'],
  optional: true,
  why: 'The members of the groups assignments name, and of the groups nested in them; a group not read is unknown.',
} as const satisfies UpstreamRead;

export const APPLIES_READS: readonly UpstreamRead[] = [APPLIES_DEVICES_READ, APPLIES_GROUP_MEMBERS_READ];
