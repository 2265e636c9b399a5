import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { daysAgo, daysFromNow, hoursAgo } from '../demo-records.js';
import { ZERO_GUID } from '../graph-values.js';
import type { DemoRecord, DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { EscrowFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

type Tenant = DemoTenantBuilder<EscrowFindingKind>;

const WINDOWS_MODELS = [
  ['Latitude 7440', 'Dell Inc.'],
  ['EliteBook 840 G10', 'HP'],
  ['ThinkPad T14 Gen 4', 'LENOVO'],
  ['Surface Laptop 5', 'Microsoft Corporation'],
  ['OptiPlex 7010', 'Dell Inc.'],
] as const;

function addDevice(
  tenant: Tenant,
  index: number,
  operatingSystem: string,
  entraDeviceId: string | null,
  model: string,
  manufacturer: string,
  joinType?: Beta.JoinType,
): DemoRecord {
  const { now } = tenant;
  const id = tenant.guid();
  const device = records.managedDevice({
    ...(joinType ? { joinType } : {}),
    ...(joinType === 'azureADRegistered' ? { deviceEnrollmentType: 'windowsAutoEnrollment' as const } : {}),
    id,
    deviceName: operatingSystem.toLowerCase() === 'windows' ? `CONTOSO-${String(index).padStart(4, '0')}` : `${operatingSystem}-${index}`,
    operatingSystem,
    osVersion: operatingSystem.toLowerCase() === 'windows' ? '10.0.22631.4460' : '17.6',
    azureADDeviceId: entraDeviceId,
    userPrincipalName: `user${index % tenant.users.length}@contoso-demo.example`,
    model,
    manufacturer,
    lastSyncDateTime: hoursAgo(now, 1 + Math.floor(tenant.random() * 240)),
    enrolledDateTime: daysAgo(now, 30 + Math.floor(tenant.random() * 700)),
  });
  tenant.add('managedDevices', device);
  return device;
}

function laps(tenant: Tenant, device: DemoRecord, entraDeviceId: string): void {
  tenant.add(
    'deviceLocalCredentials',
    records.deviceLocalCredentialInfo({
      entraDeviceId,
      deviceName: String(device.deviceName),
      lastBackupDateTime: daysAgo(tenant.now, Math.floor(tenant.random() * 20)),
      refreshDateTime: daysFromNow(tenant.now, 10),
    }),
  );
}

function key(tenant: Tenant, entraDeviceId: string, volumeType: Parameters<typeof records.bitlockerRecoveryKey>[0]['volumeType']): void {
  tenant.add(
    'bitlockerRecoveryKeys',
    records.bitlockerRecoveryKey({ id: tenant.guid(), entraDeviceId, createdDateTime: daysAgo(tenant.now, Math.floor(tenant.random() * 300)), volumeType }),
  );
}

/**
 * Report 4 in the demo tenant: its managed devices (which report 6 measures, too), with escrow
 * gaps planted among them at about the shares the research notes suggest, and the cases the rules
 * call out: a device not registered in Entra ID, one with data-volume keys only, Windows spelt in
 * lower case, Cloud PCs (no BitLocker) and hybrid-joined devices (whose keys may be on premises).
 */
export const escrowGapsDemo: readonly DemoStep<EscrowFindingKind>[] = [
  {
    step: 6,
    plant(tenant) {
      for (let index = 1; index <= 240; index += 1) {
        const [model, manufacturer] = tenant.pick(WINDOWS_MODELS);
        const entraDeviceId = tenant.guid();
        const device = addDevice(tenant, index, 'Windows', entraDeviceId, model, manufacturer);
        const roll = tenant.random();
        // Planted gaps: about 3 % miss both, 5 % miss the key, 10 % miss the LAPS password.
        const missingKey = roll < 0.08;
        const missingLaps = roll < 0.03 || (roll >= 0.08 && roll < 0.18);
        if (missingKey) tenant.declare('missing-recovery-key', device.id);
        else key(tenant, entraDeviceId, tenant.random() < 0.2 ? 1 : 'operatingSystemVolume');
        if (missingLaps) tenant.declare('missing-laps-password', device.id);
        else laps(tenant, device, entraDeviceId);
        // Some devices have extra data-volume keys and re-escrowed OS keys.
        if (tenant.random() < 0.15) key(tenant, entraDeviceId, 'fixedDataVolume');
      }
      // Special cases the rules call out.
      const unregistered = addDevice(tenant, 241, 'Windows', ZERO_GUID, 'Latitude 7440', 'Dell Inc.');
      tenant.declare('missing-recovery-key', unregistered.id);
      tenant.declare('missing-laps-password', unregistered.id);
      const noEntraId = addDevice(tenant, 242, 'Windows', null, 'OptiPlex 7010', 'Dell Inc.');
      tenant.declare('missing-recovery-key', noEntraId.id);
      tenant.declare('missing-laps-password', noEntraId.id);
      const dataOnlyId = tenant.guid();
      const dataOnly = addDevice(tenant, 243, 'Windows', dataOnlyId, 'ThinkPad T14 Gen 4', 'LENOVO');
      key(tenant, dataOnlyId, 'fixedDataVolume');
      key(tenant, dataOnlyId, 'removableDataVolume');
      laps(tenant, dataOnly, dataOnlyId);
      tenant.declare('missing-recovery-key', dataOnly.id);
      const lowerCaseId = tenant.guid();
      // Intune's operatingSystem is free text. Graph's `eq` filter matches 'Windows' as spelt, so this
      // device is read only where the filter is refused and the list read whole; the client-side
      // check then takes it in any case (docs/finding-rules.md, report 4).
      const lowerCase = addDevice(tenant, 244, 'windows', lowerCaseId.toUpperCase(), 'Surface Laptop 5', 'Microsoft Corporation');
      key(tenant, lowerCaseId, 'operatingSystemVolume');
      laps(tenant, lowerCase, lowerCaseId);
      for (let index = 0; index < 60; index += 1) {
        const platform = tenant.pick([
          ['iOS', 'iPhone 15', 'Apple'],
          ['Android', 'Pixel 8', 'Google'],
          ['macOS', 'MacBook Air', 'Apple'],
        ] as const);
        addDevice(tenant, 300 + index, platform[0], tenant.guid(), platform[1], platform[2]);
      }
    },
  },
  {
    // What /v1.0 cannot show (issue 11, point 6).
    step: 10,
    plant(tenant) {
      // Windows 365 Cloud PCs have no BitLocker: no recovery-key finding, but LAPS still applies.
      for (const [index, withLaps] of [
        [245, true],
        [246, false],
      ] as const) {
        const entraDeviceId = tenant.guid();
        const device = addDevice(tenant, index, 'Windows', entraDeviceId, 'Cloud PC Enterprise 2vCPU/8GB/128GB', 'Microsoft Corporation');
        if (withLaps) laps(tenant, device, entraDeviceId);
        else tenant.declare('missing-laps-password', device.id);
      }
      // Hybrid joined: a key missing from Entra ID may be in on-premises AD. Only /beta gives the join
      // type, so /v1.0 still calls it the High finding and the report says why it cannot tell.
      for (const index of [247, 248]) {
        const entraDeviceId = tenant.guid();
        const device = addDevice(tenant, index, 'Windows', entraDeviceId, 'OptiPlex 7010', 'Dell Inc.', 'hybridAzureADJoined');
        laps(tenant, device, entraDeviceId);
        tenant.declare('missing-recovery-key', device.id, 'v1.0');
        tenant.declare('recovery-key-not-in-entra', device.id, 'beta');
      }
    },
  },
  {
    step: 12,
    plant(tenant) {
      // A hybrid-joined device whose key is in Entra ID after all: not a finding.
      const hybridWithKeyId = tenant.guid();
      const hybridWithKey = addDevice(tenant, 249, 'Windows', hybridWithKeyId, 'OptiPlex 7010', 'Dell Inc.', 'hybridAzureADJoined');
      key(tenant, hybridWithKeyId, 'operatingSystemVolume');
      laps(tenant, hybridWithKey, hybridWithKeyId);
    },
  },
  {
    // The join type for LAPS (docs/finding-rules.md, report 4). Windows LAPS does not support Microsoft
    // Entra registered devices ("Devices that are workplace-joined (WPJ) aren't supported by Intune for
    // LAPS"), and backs up to "one directory type or the other, but not both"
    // (learn.microsoft.com/mem/intune/protect/windows-laps-overview). Only /beta gives the join type,
    // so /v1.0 still calls both a missing password.
    step: 16,
    plant(tenant) {
      // Workplace joined (Entra registered), its BitLocker key in Entra ID, no LAPS record: not supported, no finding.
      const registeredId = tenant.guid();
      const registered = addDevice(tenant, 250, 'Windows', registeredId, 'Surface Laptop 5', 'Microsoft Corporation', 'azureADRegistered');
      key(tenant, registeredId, 'operatingSystemVolume');
      tenant.declare('missing-laps-password', registered.id, 'v1.0');
      // Hybrid joined, its key in Entra ID, no LAPS record there: it may back up to AD, so no finding.
      const hybridId = tenant.guid();
      const hybrid = addDevice(tenant, 251, 'Windows', hybridId, 'OptiPlex 7010', 'Dell Inc.', 'hybridAzureADJoined');
      key(tenant, hybridId, 'operatingSystemVolume');
      tenant.declare('missing-laps-password', hybrid.id, 'v1.0');
      // The look-alike: Entra joined, its key escrowed, no LAPS record: missing however it is read.
      const joinedId = tenant.guid();
      const joined = addDevice(tenant, 252, 'Windows', joinedId, 'Surface Laptop 5', 'Microsoft Corporation', 'azureADJoined');
      key(tenant, joinedId, 'operatingSystemVolume');
      tenant.declare('missing-laps-password', joined.id);
    },
  },
];
