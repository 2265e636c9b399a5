/** Report 4's records in the demo tenant, typed against the Graph type packages. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { ZERO_GUID } from '../graph-values.js';
import { asDemoRecord } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

export function managedDevice(value: {
  id: string;
  deviceName: string;
  operatingSystem: string;
  osVersion: string;
  azureADDeviceId: string | null;
  userPrincipalName: string;
  model: string;
  manufacturer: string;
  lastSyncDateTime: string;
  enrolledDateTime: string;
  /** Beta's `joinType`; `/v1.0` leaves it out (v1-schema.ts). Windows devices default to Entra joined. */
  joinType?: Beta.JoinType;
  /**
   * How it enrolled; Entra joined by default. A Microsoft Entra registered Windows device enrolled
   * through "Add work account": `windowsAutoEnrollment`
   * (learn.microsoft.com/graph/api/resources/intune-devices-deviceenrollmenttype).
   */
  deviceEnrollmentType?: Graph.DeviceEnrollmentType;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    userId: null,
    deviceName: value.deviceName,
    managedDeviceOwnerType: 'company',
    enrolledDateTime: value.enrolledDateTime,
    lastSyncDateTime: value.lastSyncDateTime,
    operatingSystem: value.operatingSystem,
    complianceState: 'compliant',
    jailBroken: 'False',
    managementAgent: 'mdm',
    osVersion: value.osVersion,
    azureADRegistered: value.azureADDeviceId !== null && value.azureADDeviceId !== ZERO_GUID,
    deviceEnrollmentType: value.deviceEnrollmentType ?? 'windowsAzureADJoin',
    emailAddress: value.userPrincipalName,
    azureADDeviceId: value.azureADDeviceId,
    deviceRegistrationState: 'registered',
    isSupervised: false,
    isEncrypted: true,
    userPrincipalName: value.userPrincipalName,
    model: value.model,
    manufacturer: value.manufacturer,
    serialNumber: value.id.slice(-10).toUpperCase(),
    userDisplayName: value.userPrincipalName.split('@')[0] ?? '',
    managedDeviceName: `${value.userPrincipalName.split('@')[0]}_${value.operatingSystem}`,
    joinType: value.joinType ?? (value.operatingSystem.toLowerCase() === 'windows' ? 'azureADJoined' : 'azureADRegistered'),
  } satisfies Graph.ManagedDevice & Pick<Beta.ManagedDevice, 'joinType'>);
}

export function deviceLocalCredentialInfo(value: { entraDeviceId: string; deviceName: string; lastBackupDateTime: string; refreshDateTime: string }): DemoRecord {
  // The list never returns `credentials`, whatever the permission; the simulator does not even hold them.
  return asDemoRecord({
    id: value.entraDeviceId,
    deviceName: value.deviceName,
    lastBackupDateTime: value.lastBackupDateTime,
    refreshDateTime: value.refreshDateTime,
  } satisfies Graph.DeviceLocalCredentialInfo);
}

export function bitlockerRecoveryKey(value: {
  id: string;
  entraDeviceId: string;
  createdDateTime: string;
  /** Graph's docs show both the member name and its number; both arrive in practice. */
  volumeType: Graph.VolumeType | 1 | 2 | 3;
}): DemoRecord {
  // `key` is returned only on a single GET with $select=key; the list carries metadata only.
  return asDemoRecord({
    id: value.id,
    createdDateTime: value.createdDateTime,
    deviceId: value.entraDeviceId,
    volumeType: value.volumeType as Graph.VolumeType,
  } satisfies Graph.BitlockerRecoveryKey);
}
