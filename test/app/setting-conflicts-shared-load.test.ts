import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { AppServices } from '../../src/app/create-services.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { settingConflictsReport } from '../../src/core/reports/setting-conflicts/definition.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const registry = REPORTS;
const harness = useTestSimulator({ tenant: buildDemoTenant({ registry }) });

/** The first of each shared report's lists: each upstream load of the report reads it once. */
const POLICY_LIST = '/beta/deviceManagement/configurationPolicies';
const ASSIGNMENT_LIST = '/v1.0/deviceManagement/deviceConfigurations';
/** Its one read of its own: what devices already reported. */
const CONFLICT_SUMMARY = '/beta/deviceManagement/deviceConfigurationConflictSummary';
const loadsOf = (path: string) => harness.sim.graph.requests.filter((request) => request.path === path && !request.inBatch).length;

function services(lines: string[] = []): AppServices {
  return createServices({
    connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
    registry,
    cacheMaxAgeMs: 60_000,
    log: (line) => lines.push(line),
  });
}

describe("the setting conflicts report shares reports 3's and 2's loads through the report cache", () => {
  it('loads them through the cache when it is asked first, so their viewers then load nothing, and reads only the conflict summary of its own', async () => {
    const lines: string[] = [];
    const app = services(lines);
    const conflicts = await app.reports.get(settingConflictsReport.id);
    expect(conflicts.state).toBe('loaded');
    expect(conflicts.findings.length).toBeGreaterThan(0);
    const afterConflicts = harness.sim.graph.requests.length;

    expect((await app.reports.get('security-posture')).state).toBe('loaded');
    expect((await app.reports.get('assignment-hygiene')).state).toBe('loaded');
    expect(harness.sim.graph.requests.length).toBe(afterConflicts);
    // One upstream load of each: report 3's list may be paged, report 2's first list is one page here.
    expect(lines.filter((line) => line === 'report security-posture: loading from Microsoft Graph')).toHaveLength(1);
    expect(lines.filter((line) => line === 'report assignment-hygiene: loading from Microsoft Graph')).toHaveLength(1);
    expect(loadsOf(ASSIGNMENT_LIST)).toBe(1);
    expect(loadsOf(CONFLICT_SUMMARY)).toBe(1);
  });

  it("makes no request but its own when reports 3 and 2 were loaded first and kept their records: the conflict summary, and in $batch the device restrictions profiles and users' devices", async () => {
    harness.sim.graph.clearLog();
    const app = services();
    // The first conflicts load asks the cache to keep their records; reports loaded after that keep them.
    await app.reports.get(settingConflictsReport.id);
    await app.reports.get('security-posture', { refresh: true });
    await app.reports.get('assignment-hygiene', { refresh: true });
    const before = harness.sim.graph.requests.length;
    expect(loadsOf(POLICY_LIST)).toBeGreaterThan(0);

    const conflicts = await app.reports.get(settingConflictsReport.id, { refresh: true });
    expect(conflicts.state).toBe('loaded');
    const own = harness.sim.graph.requests.slice(before);
    expect(own.filter((request) => !request.inBatch).map((request) => request.path)).toEqual(expect.arrayContaining([CONFLICT_SUMMARY]));
    // Every other request is a $batch call or one of its sub-requests for a profile or a user's devices: nothing of reports 3 and 2 is read again.
    const others = own.filter((request) => request.path !== CONFLICT_SUMMARY);
    expect(others.filter((request) => !request.inBatch).every((request) => request.path === '/v1.0/$batch')).toBe(true);
    expect(
      others.filter((request) => request.inBatch).every((request) => /^\/v1\.0\/(deviceManagement\/deviceConfigurations\/[^/]+|users\/[^/]+\/managedDevices)$/.test(request.path)),
    ).toBe(true);
  });
});
