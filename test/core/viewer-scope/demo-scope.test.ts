import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { VIEWER_SCOPE_DEMO } from '../../../src/core/viewer-scope/demo.js';
import { loadRbacRecords } from '../../../src/core/viewer-scope/load.js';
import { ROW_SCOPE_TAGS_KEY, scopeReport } from '../../../src/core/viewer-scope/scope-report.js';
import { viewerScopeOf } from '../../../src/core/viewer-scope/scope.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

describe('the demo tenant through each administrator’s scope', () => {
  it("report 3's rows carry their policy's scope tags, and the regional administrator sees Europe's policies and their findings only", async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('security-posture', graph), loadRbacRecords(graph)]);
    expect(result.state).toBe('loaded');
    expect(result.rows.every((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string')).toBe(true);
    const { central, regional } = harness.sim.tenant.demoAdministrators!;

    const whole = scopeReport(result, viewerScopeOf(rbac, { objectId: central }));
    expect(whole.ok && whole.result).toBe(result);

    const europe = scopeReport(result, viewerScopeOf(rbac, { objectId: regional }));
    expect(europe.ok).toBe(true);
    if (!europe.ok) return;
    const policies = new Set(europe.result.rows.map((row) => row.policy));
    expect([...policies].sort()).toEqual([...VIEWER_SCOPE_DEMO.europePolicies, ...VIEWER_SCOPE_DEMO.bothPolicies].sort());
    expect(europe.result.findings.map((finding) => `${finding.kind} ${finding.subjectName}`).sort()).toEqual([
      'asr-rule-audit ASR - Standard protection',
      'baseline-outdated Security baseline for Windows (23H2)',
    ]);
    // The shared result's findings include those the regional administrator does not see.
    expect(result.findings.some((finding) => finding.subjectName === VIEWER_SCOPE_DEMO.americasPolicies[0])).toBe(true);
    expect(europe.result.notice).toMatch(/^Showing what your Intune role assignments let you see: scope tag Europe \(\d+ of \d+ rows\)\./);
  });

  it('connectors are tenant-wide: refused to the regional administrator, shown whole to the central one', async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('connector-health', graph), loadRbacRecords(graph)]);
    const { central, regional } = harness.sim.tenant.demoAdministrators!;
    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: central }))).toEqual({ ok: true, result });
    const refused = scopeReport(result, viewerScopeOf(rbac, { objectId: regional }));
    expect(refused).toMatchObject({ ok: false, explanation: expect.stringMatching(/covers the whole tenant/) });
  });
});
