import { describe, expect, it } from 'vitest';
import { REPORTS, loadReport } from '../../src/core/reports/registry.js';
import { applyFaults, readDemoSwitches, withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

describe('the demo switches', () => {
  it.each(REPORTS.ids)('--fault %s:403 fails that report as a whole, through its essential source', async (id) => {
    const switches = readDemoSwitches([], [`${id}:403`], REPORTS);
    if (!switches.ok) throw new Error(switches.message);
    applyFaults(harness.sim, switches.switches.faults);
    const result = await loadReport(id, harness.client());
    expect(result.state).toBe('load-error');
    expect(result.error?.status).toBe(403);
    // The source that failed is the one the report's definition names.
    expect(result.error?.message).toContain(`GET ${REPORTS.definition(id).faultSource}:`);
  });

  it.each(REPORTS.ids)('--fault %s:403 fails that report where it reads on /beta too (complete coverage, the viewer scope)', async (id) => {
    const switches = readDemoSwitches([], [`${id}:403`], REPORTS);
    if (!switches.ok) throw new Error(switches.message);
    applyFaults(harness.sim, switches.switches.faults);
    const graph = harness.client({ betaCoverage: true, scopeTags: true });
    const result = await loadReport(id, graph);
    expect(result.state).toBe('load-error');
    expect(result.error?.status).toBe(403);
    expect(result.error?.message).toContain(`GET ${graph.coveragePath(REPORTS.definition(id).faultSource)}`);
  });

  it('--deny takes away a permission of the demo tenant, and only that one', () => {
    const tenant = buildDemoTenant();
    const denied = withDenied(tenant, ['BitlockerKey.ReadBasic.All']);
    expect(denied.grantedRoles).toEqual(tenant.grantedRoles.filter((role) => role !== 'BitlockerKey.ReadBasic.All'));
  });

  it.each([
    [['bitlockerkey.readbasic.all'], [], '--deny takes one of the app'],
    [['BitlockerKey.Read.All'], [], '--deny takes one of the app'],
    [[], ['startup-reliability'], '--fault takes <report>:<status>'],
    [[], ['weather:503'], '--fault takes <report>:<status>'],
    [[], ['6:200'], '--fault takes <report>:<status>'],
  ])('refuses --deny %j --fault %j, saying what it takes', (deny, faults, message) => {
    const read = readDemoSwitches(deny, faults, REPORTS);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain(message);
  });

  it('takes a report by number too', () => {
    expect(readDemoSwitches([], ['6:503'], REPORTS)).toEqual({ ok: true, switches: { deny: [], faults: [{ report: 'startup-reliability', status: 503 }] } });
  });
});
