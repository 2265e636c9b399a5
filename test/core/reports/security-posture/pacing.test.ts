import { describe, expect, it } from 'vitest';
import { configurationPolicy } from '../../../../src/core/reports/demo-records.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { asrRulesSetting } from '../../../../src/core/reports/security-posture/demo-records.js';
import { GRAPH_BUDGETS } from '../../../../src/graph/request-budget.js';
import { emptyCollections } from '../../../../src/sim/tenants/sim-tenant.js';
import { pacedBudget } from '../../../support/paced-budget.js';
import { blankTenant, useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * Report 3 on more policies than Intune lets an app read in one throttling window (1,000 requests
 * per 20 s, each `$batch` sub-request counted), against the simulator's strict limits. The
 * simulator's windows and the client's pacing share one clock that moves only when the pacing
 * waits, so the test proves the order of things, not how fast this machine is.
 */
const POLICIES = 1_100;
const now = new Date('2026-11-22T09:00:00Z');
const clock = { now: 0 };
const collections = emptyCollections();
for (let index = 0; index < POLICIES; index += 1) {
  collections.configurationPolicies.push(
    configurationPolicy({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      name: `ASR ${index}`,
      templateFamily: 'endpointSecurityAttackSurfaceReduction',
      settings: [asrRulesSetting({ blockpersistencethroughwmieventsubscription: 'audit' })],
      targets: [{ kind: 'allDevices' }],
      now,
    }),
  );
}
const harness = useTestSimulator({ tenant: blankTenant({ collections }), throttleClock: () => clock.now });

describe("report 3 paced under Intune's limit", () => {
  it('reads every policy and its settings past one window without a single 429, spending each sub-request', async () => {
    const { budget, slept } = pacedBudget(clock);
    const result = await loadReport('security-posture', harness.client({ budget }), { now: () => now });

    expect(result.error).toBeNull();
    expect(result.findings.filter((finding) => finding.kind === 'asr-rule-audit')).toHaveLength(POLICIES);
    const requests = harness.sim.graph.requests;
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    const settingsReads = requests.filter((request) => request.inBatch && request.path.endsWith('/settings'));
    expect(settingsReads).toHaveLength(POLICIES);
    // 20 sub-requests to a call, 25 policies to a list page: no request more than the rules need.
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(Math.ceil(POLICIES / 20));
    expect(requests.filter((request) => request.path === '/beta/deviceManagement/configurationPolicies')).toHaveLength(Math.ceil(POLICIES / 25));
    // More than one window's worth was sent, so the pacing waited for a window to pass, once.
    expect(requests.filter((request) => request.path.startsWith('/beta/deviceManagement') && request.method === 'GET').length).toBeGreaterThan(1_000);
    expect(slept.length).toBeGreaterThan(0);
    expect(clock.now).toBeGreaterThanOrEqual(GRAPH_BUDGETS.intune.windowMs);
    expect(clock.now).toBeLessThan(2 * GRAPH_BUDGETS.intune.windowMs);
  });
});
