import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { ASSIGNMENT_HYGIENE_STORIES } from '../../../../src/core/reports/assignment-hygiene/demo.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

describe("report 2's findings tell their story", () => {
  it('each object the demo declares a story for carries its last successful change; the log is read once for its year', async () => {
    const result = await loadReport('assignment-hygiene', harness.client(), { now: () => now });
    expect(result.error).toBeNull();
    for (const { objectName, lastChange } of ASSIGNMENT_HYGIENE_STORIES) {
      const findings = result.findings.filter((finding) => finding.subjectName.endsWith(`: ${objectName}`));
      expect(findings.length, objectName).toBeGreaterThan(0);
      for (const finding of findings) expect(finding.lastChange, objectName).toMatchObject(lastChange);
    }
    const reads = harness.sim.graph.requests.filter((request) => request.path === '/v1.0/deviceManagement/auditEvents' && !request.query.includes('skiptoken'));
    expect(reads).toHaveLength(1);
    // The lists do not select when each object last changed: the window is the log's year.
    expect(new URLSearchParams(reads[0]!.query).get('$filter')).toBe('activityDateTime ge 2025-11-22T09:00:00Z');
  });
});
