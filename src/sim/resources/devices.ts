import * as entity from '../entity-properties.js';
import { BETA_ONLY_MANAGED_DEVICE_PROPERTIES } from '../v1-schema.js';
import { BOTH, MANAGED_DEVICES_PERMISSIONS } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/**
 * Managed devices, and the recovery secrets escrowed for them in Entra ID: Windows LAPS passwords'
 * metadata and BitLocker recovery keys (report 4). The escrow lists are directory reads, throttled
 * and refused as the directory is.
 */

export const DEVICE_LOCAL_CREDENTIALS = {
  kind: 'collection',
  path: '/directory/deviceLocalCredentials',
  source: 'deviceLocalCredentials',
  versions: BOTH,
  permissions: ['DeviceLocalCredential.ReadBasic.All', 'DeviceLocalCredential.Read.All'],
  workload: 'directory',
  entitySet: 'directory/deviceLocalCredentials',
  navigation: [],
  defaultPageSize: 1000,
  requiresUserAgent: true,
  properties: entity.DEVICE_LOCAL_CREDENTIAL_INFO,
} as const satisfies SimResource;

export const BITLOCKER_RECOVERY_KEYS = {
  kind: 'collection',
  path: '/informationProtection/bitlocker/recoveryKeys',
  source: 'bitlockerRecoveryKeys',
  versions: BOTH,
  permissions: ['BitlockerKey.ReadBasic.All', 'BitlockerKey.Read.All'],
  workload: 'directory',
  entitySet: 'informationProtection/bitlocker/recoveryKeys',
  navigation: [],
  defaultPageSize: 1000,
  requiresUserAgent: true,
  rejectsTop: true,
  properties: entity.BITLOCKER_RECOVERY_KEY,
} as const satisfies SimResource;

export const MANAGED_DEVICES = {
  kind: 'collection',
  path: '/deviceManagement/managedDevices',
  source: 'managedDevices',
  versions: BOTH,
  permissions: MANAGED_DEVICES_PERMISSIONS,
  workload: 'intune-devices',
  entitySet: 'deviceManagement/managedDevices',
  navigation: [],
  defaultPageSize: 1000,
  v1Omits: { properties: BETA_ONLY_MANAGED_DEVICE_PROPERTIES },
  properties: entity.MANAGED_DEVICE,
  // Graph answers `operatingSystem eq '…'` on both versions (microsoft-graph-explorer-v4#3125: "Filter works
  // correctly for other properties, such as operatingSystem", v1.0 and beta). How it compares case is not
  // documented; the look-alike matches exactly, as OData's `eq` does (`tolower` exists for the other case),
  // so a device whose `operatingSystem` is spelt otherwise is not in the filtered list: the strict case,
  // which report 4's own check of every device answers (src/core/reports/escrow-gaps/load.ts).
  //
  // `deviceName eq '…'` and `userPrincipalName eq '…'`: how one device, or one user's devices, are found
  // by name. The list page documents no per-property filter table; Microsoft's answer on Q&A shows
  // `Get-MgDeviceManagementManagedDevice -Filter "deviceName eq '…'"`, which sends this `$filter`
  // (learn.microsoft.com/answers/questions/1686350). Compared without case, as Graph compares a
  // directory object's name and as a person types one (`sameFilterString`, src/sim/odata-query.ts,
  // gives the sources and what is not documented).
  filterable: ['operatingSystem', 'deviceName', 'userPrincipalName'],
  filterIgnoresCase: ['deviceName', 'userPrincipalName'],
} as const satisfies SimResource;
