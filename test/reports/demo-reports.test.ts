import { describe, expect, it } from 'vitest';
import { REPORT_IDS } from '../../src/core/reports/report-model.js';
import type { ReportId } from '../../src/core/reports/report-model.js';
import { loadReport } from '../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant });

const key = (finding: { kind: string; subjectId: string }) => `${finding.kind} ${finding.subjectId.toLowerCase()}`;

describe('the six reports on the demo tenant', () => {
  it('tells how far a load has got, per source, in records', async () => {
    const progress: Array<{ report: string; source: string; records: number }> = [];
    await loadReport('escrow-gaps', harness.client(), { now: () => now, onProgress: (step) => progress.push(step) });
    const devices = progress.filter((step) => step.source === 'managedDevices');
    expect(devices.at(-1)).toEqual({ report: 'escrow-gaps', source: 'managedDevices', records: tenant.collections.managedDevices.length });
    expect(new Set(progress.map((step) => step.source))).toEqual(new Set(['managedDevices', 'recoveryKeys', 'deviceLocalCredentials']));
    harness.sim.graph.clearLog();
  });

  it.each(REPORT_IDS)('%s finds exactly what the scenario declares, each request once', async (id: ReportId) => {
    const graph = harness.client();
    const result = await loadReport(id, graph, { now: () => now });
    expect(result.error).toBeNull();
    expect(result.state).toBe('loaded');
    const declared = new Set(tenant.declaredFindings.filter((finding) => finding.report === id).map(key));
    expect(new Set(result.findings.map(key))).toEqual(declared);
    expect(declared.size).toBeGreaterThan(0);

    const requests = harness.sim.graph.requests.map((request) => `${request.method} ${request.path}?${request.query}`);
    expect(new Set(requests).size).toBe(requests.length);
    expect(harness.sim.graph.requests.every((request) => request.method === 'GET' || request.path === '/v1.0/$batch')).toBe(true);
    harness.sim.graph.clearLog();
  });
});

describe("report 2 on the demo tenant: what is Microsoft's own is left out, not reported", () => {
  it('names no catalogue app or built-in script as a finding, and says it left them out', async () => {
    const report = await loadReport('assignment-hygiene', harness.client());
    expect(report.notice).toBe("Left out, as the Intune admin center leaves them out: 2 Microsoft catalogue apps and 1 built-in remediation script (Microsoft's own, present in every tenant).");
    const names = report.findings.map((finding) => finding.subjectName).join('\n');
    for (const name of ['Microsoft Outlook', 'Microsoft Edge', 'Restart Office Click-to-Run service']) expect(names).not.toContain(name);
  });
});

describe('report 2 when Graph leaves out an object\'s assignments', () => {
  it('shows the object as not checked, and makes no "never assigned" finding of it', async () => {
    harness.sim.faults.add({
      path: '/v1.0/deviceAppManagement/mobileApps',
      rawBody: () => JSON.stringify({ value: [{ '@odata.type': '#microsoft.graph.win32LobApp', id: '0d5c1e2a-0000-4000-8000-00000000a551', displayName: 'Contoso Timesheets' }] }),
      times: 1,
    });
    const report = await loadReport('assignment-hygiene', harness.client());
    expect(report.rows.find((row) => row.name === 'Contoso Timesheets')).toMatchObject({ status: 'Could not check: Graph returned no assignments for it' });
    expect(report.findings.filter((finding) => finding.subjectName.includes('Contoso Timesheets'))).toEqual([]);
  });
});
