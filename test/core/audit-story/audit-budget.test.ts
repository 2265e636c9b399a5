import { describe, expect, it } from 'vitest';
import { SharedAuditLog } from '../../../src/core/audit-story/shared-audit-log.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import { budgetOf, GRAPH_BUDGETS } from '../../../src/graph/request-budget.js';
import { buildLargeTenant } from '../../../src/sim/tenants/large-tenant.js';
import { pacedBudget } from '../../support/paced-budget.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

/**
 * Intune's audit log is throttled under a table of its own ("Intune auditing service limits",
 * learn.microsoft.com/graph/throttling-limits: 1,000 requests per 20 s per app per tenant, for
 * `auditEvent`), apart from device configuration's 1,000. Report 3's cold load reads both: its
 * policies' settings and a year of the log for its stories. The simulator's windows and the client's
 * pacing share one clock that moves only when the pacing waits, so the test proves what waited, not
 * how fast this machine is.
 */
const now = new Date('2026-11-22T09:00:00Z');
const clock = { now: 0 };
// About 300 configuration units and 800 audit pages: more than one Intune window in all, less than
// the client's 900 in either.
const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000, policies: 600, auditEvents: 40_000, now }), throttleClock: () => clock.now });

describe("Intune's audit log on a budget of its own", () => {
  it('is read beside the policies without waiting for their window, and without a 429', async () => {
    const { budget, slept } = pacedBudget(clock);
    const graph = harness.client({ budget });
    const auditLog = new SharedAuditLog();
    const results = await Promise.all(['assignment-hygiene', 'security-posture'].map((id) => loadReport(id, graph, { now: () => now, auditLog })));
    for (const result of results) expect(result.error).toBeNull();

    const requests = harness.sim.graph.requests;
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    const units = { intune: 0, 'intune-auditing': 0, directory: 0 };
    for (const request of requests) if (request.method === 'GET') units[budgetOf(request.path)] += 1;
    expect(units['intune-auditing']).toBeGreaterThanOrEqual(40_000 / 50);
    expect(units.intune).toBeLessThanOrEqual(GRAPH_BUDGETS.intune.requests);
    // Together past Microsoft's 1,000 for one table, so one budget for both would have waited.
    expect(units.intune + units['intune-auditing']).toBeGreaterThan(1_000);
    expect(slept).toEqual([]);
    expect(clock.now).toBe(0);
  });
});
