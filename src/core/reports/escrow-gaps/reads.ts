/** Report 4's Graph reads: the managed Windows devices, and beside them the BitLocker recovery key and LAPS password lists, metadata only. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { UpstreamRead } from '../../graph/upstream-read.js';

/**
 * The managed device fields this report reads: the `$select` and the projection's record type both
 * come from these lists, so the projection cannot read a field the request did not ask for.
 * `operatingSystem` is read for the client-side Windows check, which stays whatever the filter did.
 */
export const DEVICE_FIELDS = [
  'id',
  'deviceName',
  'userPrincipalName',
  'lastSyncDateTime',
  'azureADDeviceId',
  'model',
  'operatingSystem',
] as const satisfies readonly (keyof Graph.ManagedDevice)[];
/**
 * With the join type and the device's scope tags (`roleScopeTagIds`, for the viewer scope,
 * docs/finding-rules.md "Viewer scope"), which only the beta schema declares
 * (learn.microsoft.com/graph/api/resources/intune-devices-manageddevice?view=graph-rest-beta against
 * ?view=graph-rest-1.0): `/v1.0` answers 400 to a `$select` naming either. Read on beta when
 * complete coverage is asked for: no request and no pass over the devices is added for them.
 */
export const BETA_DEVICE_FIELDS = [...DEVICE_FIELDS, 'joinType', 'roleScopeTagIds'] as const satisfies readonly (keyof Beta.ManagedDevice)[];
/**
 * With the viewer scope on and default coverage: the v1.0 read's fields and the device's scope tags,
 * read on beta (the only version that declares `roleScopeTagIds`, "List of Scope Tag IDs for this
 * Device instance", learn.microsoft.com/graph/api/resources/intune-devices-manageddevice?view=graph-rest-beta),
 * in the same requests. Not `joinType`: it tells hybrid-joined and registered devices apart, which
 * changes what the report finds, and that is complete coverage's choice, not the viewer scope's.
 */
export const SCOPE_TAG_DEVICE_FIELDS = [...DEVICE_FIELDS, 'roleScopeTagIds'] as const satisfies readonly (keyof Beta.ManagedDevice)[];

/** The LAPS fields this report reads; `credentials` is never among them (upstream-allow-list.ts, `selectsSecretFields`). */
export const LAPS_FIELDS = ['id', 'lastBackupDateTime'] as const satisfies readonly (keyof Graph.DeviceLocalCredentialInfo)[];

/** List managedDevices (learn.microsoft.com/graph/api/intune-devices-manageddevice-list): DeviceManagementManagedDevices.Read.All. */
export const ESCROW_DEVICES_READ = {
  path: '/v1.0/deviceManagement/managedDevices',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-list',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: DEVICE_FIELDS,
  optional: false,
  betaTwin: true,
  betaSelect: BETA_DEVICE_FIELDS,
  scopeTagsSelect: SCOPE_TAG_DEVICE_FIELDS,
  why: 'The Windows devices whose escrow is checked; on beta, their scope tags too, and under complete coverage their join type.',
} as const satisfies UpstreamRead;

/**
 * List recoveryKeys (learn.microsoft.com/graph/api/bitlocker-list-recoverykeys): BitlockerKey.ReadBasic.All
 * reads the metadata; `key` comes back only when selected (resources/bitlockerrecoverykey), and never is.
 * No `$select`: the report uses each of its four non-secret properties.
 */
export const RECOVERY_KEYS_READ = {
  path: '/v1.0/informationProtection/bitlocker/recoveryKeys',
  permissionsPage: 'https://learn.microsoft.com/graph/api/bitlocker-list-recoverykeys',
  permissions: ['BitlockerKey.ReadBasic.All'],
  optional: true,
  secretFields: ['key'],
  why: 'Which devices have an operating-system volume key escrowed in Entra ID, and since when.',
} as const satisfies UpstreamRead;

/**
 * List deviceLocalCredentials (learn.microsoft.com/graph/api/directory-list-devicelocalcredentials):
 * DeviceLocalCredential.ReadBasic.All reads the metadata; `credentials` comes back only when selected
 * (resources/devicelocalcredentialinfo), and never is.
 */
export const LAPS_PASSWORDS_READ = {
  path: '/v1.0/directory/deviceLocalCredentials',
  permissionsPage: 'https://learn.microsoft.com/graph/api/directory-list-devicelocalcredentials',
  permissions: ['DeviceLocalCredential.ReadBasic.All'],
  select: LAPS_FIELDS,
  optional: true,
  secretFields: ['credentials'],
  why: "When each device's local administrator password was last backed up.",
} as const satisfies UpstreamRead;

export const ESCROW_READS: readonly UpstreamRead[] = [ESCROW_DEVICES_READ, RECOVERY_KEYS_READ, LAPS_PASSWORDS_READ];
