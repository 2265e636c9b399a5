/**
 * Report 4's rows ordered while the device pages arrive (`DeviceNameOrder`, fed page by page by the
 * load) must be today's report exactly: the same rows in the same order, the same findings in the
 * same order with the same fingerprints, as the derive that made every row after the last page and
 * sorted them (`deriveBySorting`, kept as the oracle). Checked on the demo tenant and on a large
 * generated one, over the strict simulator, with the requests each list took.
 */
import { describe, expect, it } from 'vitest';
import { findingFingerprint } from '../../../../src/core/findings/fingerprint.js';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import { deriveEscrowGaps } from '../../../../src/core/reports/escrow-gaps/derive.js';
import { EscrowJoin } from '../../../../src/core/reports/escrow-gaps/escrow-join.js';
import { foldLapsPassword, foldRecoveryKey } from '../../../../src/core/reports/escrow-gaps/load.js';
import type { EscrowRecords, RecoveryKeyEscrow, WindowsDevice } from '../../../../src/core/reports/escrow-gaps/load.js';
import { DeviceNameOrder } from '../../../../src/core/reports/escrow-gaps/name-order.js';
import { compareText } from '../../../../src/core/reports/graph-values.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import type { ReportResult } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../../../../src/sim/tenants/large-tenant.js';
import { seededRandom } from '../../../../src/sim/tenants/seeded-random.js';
import { recordsOf } from '../../../../src/sim/tenants/sim-tenant.js';
import { deriveBySorting } from '../../../fixtures/escrow-gaps/derive-by-sorting.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const context = { now, thresholds: DEFAULT_THRESHOLDS };

/** The indices a stable sort by `compareText` gives: what `DeviceNameOrder` must equal. */
function sortedIndices(names: readonly string[]): number[] {
  return names.map((_, index) => index).sort((a, b) => compareText(names[a]!, names[b]!));
}

describe('DeviceNameOrder', () => {
  // Names that compare equal (case, a number written alike) must keep the order they arrived in.
  const random = seededRandom(11);
  const spellings = ['PC-9', 'pc-9', 'PC-10', 'pc-010', 'Laptop', 'LAPTOP', 'laptop-2', 'Élan', 'elan', 'Z', '', 'a b', 'a  b'];
  const names = Array.from({ length: 5_000 }, (_, index) =>
    random() < 0.3 ? spellings[Math.floor(random() * spellings.length)]! : `NW-${Math.floor(random() * 4000)}-${index % 7}`,
  );

  it.each([[1], [7], [1000], [999], [5_000]])('fed %i names a page equals a stable sort of them all', (pageSize) => {
    const order = new DeviceNameOrder();
    for (let start = 0; start < names.length; start += pageSize) order.add(names.slice(start, start + pageSize));
    expect(order.size).toBe(names.length);
    expect(order.indices()).toEqual(sortedIndices(names));
  });

  it('orders pages of uneven sizes, empty ones among them, and may be asked again after more arrive', () => {
    const order = new DeviceNameOrder();
    const sizes = [0, 3, 1000, 0, 17, 2048, 1, 1931];
    let start = 0;
    for (const size of sizes) {
      order.add(names.slice(start, start + size));
      start += size;
      expect(order.indices()).toEqual(sortedIndices(names.slice(0, start)));
    }
    expect(new DeviceNameOrder().indices()).toEqual([]);
  });
});

/** Report 4 loaded, its records kept, and the same records derived by the oracle and without the load's order. */
async function loadWithRecords(graph: Parameters<typeof loadReport>[1]): Promise<{ result: ReportResult; records: EscrowRecords }> {
  let records: EscrowRecords | undefined;
  const result = await loadReport('escrow-gaps', graph, { now: () => now, onRecords: (kept) => (records = kept as EscrowRecords) });
  expect(result.state).toBe('loaded');
  return { result, records: records! };
}

/** The page-by-page result equals the oracle's: rows and their order, findings, their order and fingerprints, notice, unchecked. */
function expectSameAsSorting(result: ReportResult, records: EscrowRecords): void {
  expect(records.nameOrder?.size).toBe(records.devices.length);
  expect(records.join?.devices).toBe(records.devices);
  const oracle = deriveBySorting(records, context);
  expect(result.rows).toEqual(oracle.rows);
  // Each row's cells in the same order too, as the JSON contract writes them.
  expect(JSON.stringify(result.rows)).toBe(JSON.stringify(oracle.rows));
  expect(result.columns).toEqual(oracle.columns);
  expect(result.notice).toBe(oracle.notice);
  // Each finding's properties in the oracle's order, its fingerprint last.
  expect(JSON.stringify(result.findings)).toBe(
    JSON.stringify(oracle.findings.map(({ ruleKey, ...finding }) => ({ ...finding, fingerprint: findingFingerprint('escrow-gaps', finding.kind, finding.subjectId, ruleKey) }))),
  );
  expect(result.uncheckedSubjects.map(({ kind, subjectId }) => ({ kind, subjectId }))).toEqual(
    (oracle.uncheckedSubjects ?? []).map(({ kind, subjectId }) => ({ kind, subjectId })),
  );
  // Derived again from the same records (the join's rows already taken), it makes rows of its own,
  // the same, and leaves the first result's rows as they were.
  const shown = JSON.stringify(result.rows);
  expectSameReport(deriveEscrowGaps(records, context), oracle);
  expect(JSON.stringify(result.rows)).toBe(shown);
  // Without what the load built (records from elsewhere), derive looks up and orders itself, to the same report.
  const { nameOrder: _built, join: _join, ...plain } = records;
  expectSameReport(deriveEscrowGaps(plain, context), oracle);
}

/** Two derived reports the same, down to the order of each row's cells and each finding's properties. */
function expectSameReport(derived: ReturnType<typeof deriveEscrowGaps>, oracle: ReturnType<typeof deriveBySorting>): void {
  expect(JSON.stringify(derived.rows)).toBe(JSON.stringify(oracle.rows));
  expect(JSON.stringify(derived.findings)).toBe(JSON.stringify(oracle.findings));
  expect(derived.notice).toBe(oracle.notice);
  expect(derived.uncheckedSubjects).toEqual(oracle.uncheckedSubjects);
  expect(derived.state).toBe(oracle.state);
}

describe('EscrowJoin, the devices tied to their escrow as the three lists arrive in any order', () => {
  /**
   * A tenant's three lists with what makes tying hard: devices sharing an Entra id, devices without
   * one, keys and backups of devices that are not listed, a device's data-volume key before its
   * operating-system one, several keys of a device with their dates out of order, and, when asked,
   * a device's LAPS record twice.
   */
  function lists(seed: number, lapsTwice: boolean) {
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const entraIds = Array.from({ length: 400 }, (_, index) => `0000${index}-aaaa-4bbb-8ccc-${String(index).padStart(12, '0')}`);
    const devices: WindowsDevice[] = Array.from({ length: 600 }, (_, index) => ({
      id: `md-${index}`,
      deviceName: pick(['PC-9', 'pc-10', 'Laptop', `NW-${Math.floor(random() * 300)}`, `nw-${Math.floor(random() * 300)}`]),
      userPrincipalName: random() < 0.8 ? `user${index}@contoso.com` : null,
      lastSyncDateTime: random() < 0.9 ? `2026-11-${String(1 + Math.floor(random() * 20)).padStart(2, '0')}T08:00:00Z` : null,
      entraDeviceId: random() < 0.1 ? null : pick(entraIds),
      joinType: pick([null, 'azureADJoined', 'hybridAzureADJoined', 'azureADRegistered']),
      cloudPc: random() < 0.05,
    }));
    const keyOwners = [...entraIds.filter(() => random() < 0.8), 'not-a-listed-device'];
    const keys = keyOwners.flatMap((deviceId) =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        deviceId: random() < 0.5 ? deviceId.toUpperCase() : deviceId,
        volumeType: pick(['operatingSystemVolume', 'fixedDataVolume', 1, undefined]) as string | undefined,
        createdDateTime: random() < 0.9 ? `2026-${String(1 + Math.floor(random() * 11)).padStart(2, '0')}-01T00:00:00Z` : undefined,
      })),
    );
    const lapsOwners = [...entraIds.filter(() => random() < 0.7), 'not-a-listed-device'];
    const laps = lapsOwners.map((id) => ({ id, lastBackupDateTime: random() < 0.9 ? `2026-11-${String(1 + Math.floor(random() * 20)).padStart(2, '0')}T00:00:00Z` : null }));
    if (lapsTwice) laps.push(...lapsOwners.slice(0, 30).map((id) => ({ id, lastBackupDateTime: '2026-11-21T00:00:00Z' })));
    return { devices, keys, laps, random };
  }

  /** The three lists read in pages of `pageSize`, a page of one list or another next at random, folded as the load folds them. */
  function joined(seed: number, pageSize: number, lapsTwice = false, readDevicesAgainAfter = Infinity): EscrowRecords {
    const { devices, keys, laps, random } = lists(seed, lapsTwice);
    const keysByDevice = new Map<string, RecoveryKeyEscrow>();
    const lapsByDevice = new Map<string, string | null>();
    let join = new EscrowJoin(keysByDevice, lapsByDevice);
    const read = { devices: 0, keys: 0, laps: 0 };
    for (let step = 0; read.devices < devices.length || read.keys < keys.length || read.laps < laps.length; step += 1) {
      if (step === readDevicesAgainAfter) {
        // The device list read again from its first page (the load's answer to a refused filter),
        // the escrow lists going on: a fresh join, from what they folded so far.
        join = new EscrowJoin(keysByDevice, lapsByDevice);
        read.devices = 0;
      }
      const list = pick3(random, read, devices.length, keys.length, laps.length);
      const from = read[list];
      read[list] = Math.min(from + pageSize, list === 'devices' ? devices.length : list === 'keys' ? keys.length : laps.length);
      if (list === 'devices') join.addDevices(devices.slice(from, read.devices));
      else if (list === 'keys') for (const key of keys.slice(from, read.keys)) foldRecoveryKey(keysByDevice, key as never, join);
      else for (const info of laps.slice(from, read.laps)) foldLapsPassword(lapsByDevice, info as never, join);
    }
    return {
      devices: join.devices,
      nameOrder: join.nameOrder,
      join,
      joinTypeKnown: true,
      recoveryKeys: { available: true, byDevice: keysByDevice },
      lapsPasswords: { available: true, byDevice: lapsByDevice },
    };
  }

  function pick3(random: () => number, read: { devices: number; keys: number; laps: number }, devices: number, keys: number, laps: number): 'devices' | 'keys' | 'laps' {
    const left = (['devices', 'keys', 'laps'] as const).filter((list) => read[list] < (list === 'devices' ? devices : list === 'keys' ? keys : laps));
    return left[Math.floor(random() * left.length)]!;
  }

  it.each([
    [1, 1],
    [2, 7],
    [3, 50],
    [4, 1000],
  ])("derives, from the lists read in seed %i's order %i a page, the report a look-up after the last page gives", (seed, pageSize) => {
    const records = joined(seed, pageSize);
    const oracle = deriveBySorting(records, context);
    expect(oracle.findings.length).toBeGreaterThan(50);
    expect(oracle.rows.some((row) => row.note?.toString().includes('Only data-volume keys'))).toBe(true);
    const first = deriveEscrowGaps(records, context);
    expectSameReport(first, oracle);
    const shown = JSON.stringify(first.rows);
    // Again, from the same records: the same report, and the first one's rows untouched.
    expectSameReport(deriveEscrowGaps(records, context), oracle);
    expect(JSON.stringify(first.rows)).toBe(shown);
  });

  it("keeps a device's later LAPS record, as the map does, when a device has two", () => {
    const records = joined(5, 13, true);
    const oracle = deriveBySorting(records, context);
    expect(oracle.rows.some((row) => row.lapsPassword === '2026-11-21T00:00:00Z')).toBe(true);
    expectSameReport(deriveEscrowGaps(records, context), oracle);
  });

  it.each([[3], [20], [60]])('begins from what the escrow lists folded so far when the devices are read again after %i pages', (pages) => {
    const records = joined(7, 10, true, pages);
    const oracle = deriveBySorting(records, context);
    expect(records.devices.length).toBe(600);
    expectSameReport(deriveEscrowGaps(records, context), oracle);
  });

  it('is not used for escrow maps or devices other than its own', () => {
    const records = joined(6, 20);
    const keys = new Map(records.recoveryKeys.available ? records.recoveryKeys.byDevice : []);
    keys.clear();
    const otherKeys: EscrowRecords = { ...records, recoveryKeys: { available: true, byDevice: keys } };
    expectSameReport(deriveEscrowGaps(otherKeys, context), deriveBySorting(otherKeys, context));
    const fewerDevices: EscrowRecords = { ...records, devices: records.devices.slice(1) };
    expectSameReport(deriveEscrowGaps(fewerDevices, context), deriveBySorting(fewerDevices, context));
    // A source not granted is not read at all, joined or not.
    const noLaps: EscrowRecords = {
      ...records,
      lapsPasswords: {
        available: false,
        error: new GraphError({ kind: 'http', status: 403, message: 'Forbidden', method: 'GET', path: '/v1.0/directory/deviceLocalCredentials', attempts: 1 }),
      },
    };
    expectSameReport(deriveEscrowGaps(noLaps, context), deriveBySorting(noLaps, context));
  });
});

describe('report 4 ordered while its pages arrive, on the demo tenant', () => {
  const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

  it.each([false, true])('is the report derived after the last page (beta coverage: %s)', async (betaCoverage) => {
    const { result, records } = await loadWithRecords(harness.client({ betaCoverage }));
    expect(result.rows.length).toBeGreaterThan(200);
    expectSameAsSorting(result, records);
  });
});

describe('report 4 ordered while its pages arrive, on a large generated tenant', () => {
  const devices = 12_000;
  const tenant = buildLargeTenant({ devices, now, seed: 3 });
  const harness = useTestSimulator({ tenant });

  it('is the report derived after the last page, each list read one request a page', async () => {
    const { result, records } = await loadWithRecords(harness.client());
    const windows = records.devices.length;
    expect(windows).toBeGreaterThan(8_000);
    expectSameAsSorting(result, records);
    // Managed devices and both escrow lists come 1,000 a page: one request each, none read twice.
    const requests = (path: string) => harness.sim.graph.requests.filter((request) => request.path === path).length;
    expect(requests('/v1.0/deviceManagement/managedDevices')).toBe(Math.ceil(windows / 1000));
    expect(requests('/v1.0/informationProtection/bitlocker/recoveryKeys')).toBe(Math.ceil(recordsOf(tenant, 'bitlockerRecoveryKeys').length / 1000));
    expect(requests('/v1.0/directory/deviceLocalCredentials')).toBe(Math.ceil(recordsOf(tenant, 'deviceLocalCredentials').length / 1000));
  });
});
