/**
 * Report 4's rows ordered while the device pages arrive (`DeviceNameOrder`, fed page by page by the
 * load) must be today's report exactly: the same rows in the same order, the same findings in the
 * same order with the same fingerprints, as the derive that made every row after the last page and
 * sorted them (`deriveBySorting`, kept as the oracle). Checked on the demo tenant and on a large
 * generated one, over the strict simulator, with the requests each list took.
 */
import { describe, expect, it } from 'vitest';
import { findingFingerprint } from '../../../../src/core/findings/fingerprint.js';
import { deriveEscrowGaps } from '../../../../src/core/reports/escrow-gaps/derive.js';
import type { EscrowRecords } from '../../../../src/core/reports/escrow-gaps/load.js';
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
  const oracle = deriveBySorting(records, context);
  expect(result.rows).toEqual(oracle.rows);
  expect(result.rows.map((row) => row.id)).toEqual(oracle.rows.map((row) => row.id));
  expect(result.columns).toEqual(oracle.columns);
  expect(result.notice).toBe(oracle.notice);
  expect(result.findings.map(({ kind, subjectId, subjectName, detail }) => ({ kind, subjectId, subjectName, detail }))).toEqual(
    oracle.findings.map(({ kind, subjectId, subjectName, detail }) => ({ kind, subjectId, subjectName, detail })),
  );
  expect(result.findings.map((finding) => finding.fingerprint)).toEqual(
    oracle.findings.map((finding) => findingFingerprint('escrow-gaps', finding.kind, finding.subjectId, finding.ruleKey)),
  );
  expect(result.uncheckedSubjects.map(({ kind, subjectId }) => ({ kind, subjectId }))).toEqual(
    (oracle.uncheckedSubjects ?? []).map(({ kind, subjectId }) => ({ kind, subjectId })),
  );
  // Without the load's order (records from elsewhere), derive makes it itself, to the same rows.
  const { nameOrder: _built, ...plain } = records;
  expect(deriveEscrowGaps(plain, context).rows).toEqual(oracle.rows);
}

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
