import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { ASSIGNMENT_HYGIENE_STORIES } from '../../../../src/core/reports/assignment-hygiene/demo.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { MAX_AUDIT_SLICES } from '../../../../src/core/audit-story/read-audit-log.js';
import { expectWindowTiled } from '../../../support/audit-window.js';
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
    const firstPages = harness.sim.graph.requests
      .filter((request) => request.path === '/v1.0/deviceManagement/auditEvents' && !request.query.includes('skiptoken'))
      .map((request) => new URLSearchParams(request.query).get('$filter'));
    // The lists do not select when each object last changed: the window is the log's year, read in
    // slices side by side, each once.
    expect(expectWindowTiled(firstPages, '2025-11-22T09:00:00Z')).toBe(MAX_AUDIT_SLICES);
  });
});
