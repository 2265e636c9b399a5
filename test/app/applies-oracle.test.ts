import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { createServices } from '../../src/app/create-services.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../../src/sim/tenants/large-tenant.js';
import { recordsOf } from '../../src/sim/tenants/sim-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import type { SimulatorHarness } from '../support/simulated-tenant.js';
import { found } from '../support/applies-answer.js';

/**
 * A question asked first reads the settings of only the policies that may reach its device, and
 * report 2's lists without the audit log (docs/performance.md, "What applies"); with reports 2 and 3
 * loaded, it judges on their records. The answers must be the same, device by device.
 */
const demo = useTestSimulator({ tenant: buildDemoTenant() });
const large = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000, now: new Date('2026-12-01T09:00:00Z') }) });

async function sameAnswers(harness: SimulatorHarness, every: number): Promise<number> {
  const list = recordsOf(harness.sim.tenant, 'managedDevices');
  const devices = Array.from({ length: Math.ceil(list.length / every) }, (_, index) => String(list.at(index * every)?.deviceName));
  const reports = createServices({
    connection: { tenantLabel: 'Oracle', demo: true, tenantKey: 'oracle', graph: harness.client() },
    cacheMaxAgeMs: 10 * 60_000,
    log: () => undefined,
  });
  const loaded = await Promise.all([reports.reports.get('assignment-hygiene'), reports.reports.get('security-posture')]);
  expect(loaded.map((report) => report.state)).toEqual(['loaded', 'loaded']);
  const alone = new AppliesService({ graph: harness.client(), maxAgeMs: 10 * 60_000, log: () => undefined });
  let conflicts = 0;
  for (const device of devices) {
    const fromReports = found(await reports.applies!.applies(device));
    const fromQuestion = found(await alone.applies(device));
    expect(fromQuestion, device).toEqual(fromReports);
    if (fromReports.conflicts.state === 'checked') conflicts += fromReports.conflicts.settings.length;
  }
  return conflicts;
}

describe("a question asked first answers as one judged on reports 2 and 3's records", () => {
  it('on every fourth device of the demo tenant', async () => {
    // The demo plants conflicts: the oracle compares some, not only empty lists.
    expect(await sameAnswers(demo, 4)).toBeGreaterThan(0);
  });

  it('on every fiftieth device of the large tenant', async () => {
    expect(await sameAnswers(large, 50)).toBeGreaterThan(0);
  });
});
