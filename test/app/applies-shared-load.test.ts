import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { createServices } from '../../src/app/create-services.js';
import type { AppServices } from '../../src/app/create-services.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { reportResult } from '../fixtures/report-result.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { found } from '../support/applies-answer.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** The first of report 2's lists: each upstream assignment load reads it once. */
const ASSIGNMENT_LIST = '/v1.0/deviceManagement/deviceConfigurations';
const assignmentLoads = () => harness.sim.graph.requests.filter((request) => request.path === ASSIGNMENT_LIST).length;

function services(lines: string[] = [], options: { cacheClock?: () => number } = {}): AppServices {
  return createServices({
    connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
    cacheMaxAgeMs: 60_000,
    ...options,
    log: (line) => lines.push(line),
  });
}

describe("what applies shares report 2's load through the report cache", () => {
  it("answers from the assignments report 2's load read, reading only its own sources, with the answer a load of its own gives", async () => {
    const app = services();
    // Report 3's too: a device's answer judges its conflicts on what each policy sets (applies-conflicts.test.ts).
    const reports = await Promise.all([app.reports.get('assignment-hygiene'), app.reports.get('security-posture')]);
    expect(reports.map((report) => report.state)).toEqual(['loaded', 'loaded']);
    expect(assignmentLoads()).toBe(1);
    harness.sim.graph.clearLog();

    const shared = await app.applies!.applies(APPLIES_DEMO.device);
    expect(assignmentLoads()).toBe(0);
    // Its requests are its own reads only, about the device: none of report 2's lists.
    const sent = harness.sim.graph.requests.filter((request) => !request.inBatch);
    expect(shared.requests).toBe(sent.length);
    for (const request of sent)
      expect(request.path).toMatch(
        /^\/v1\.0\/(deviceManagement\/managedDevices|groups|users\/[^/]+\/(transitiveMemberOf|memberOf)|devices\(deviceId='[^']+'\)(\/(transitiveMemberOf|memberOf))?|\$batch)$/,
      );

    const alone = await new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined }).applies(APPLIES_DEMO.device);
    expect(shared.requests).toBeLessThan(alone.requests);
    expect(found(shared)).toEqual(found(alone));
  });

  it("reads report 2's lists without its audit log for a question asked first, and takes report 2's records once a load of them is at hand", async () => {
    const lines: string[] = [];
    const app = services(lines);
    const first = await app.applies!.applies(APPLIES_DEMO.device);
    expect(first.requests).toBe(harness.sim.graph.requests.filter((request) => !request.inBatch).length);
    expect(assignmentLoads()).toBe(1);
    // The audit log is read only for report 2's findings' stories, which no answer shows.
    expect(harness.sim.graph.requests.filter((request) => request.path.endsWith('/auditEvents'))).toEqual([]);
    expect(lines.filter((line) => line === 'report assignment-hygiene: loading from Microsoft Graph')).toHaveLength(0);

    // Report 2's viewers load it with its stories; later questions take its records.
    const report = await app.reports.get('assignment-hygiene');
    expect(report.state).toBe('loaded');
    expect(assignmentLoads()).toBe(2);
    const user = await app.applies!.applies(APPLIES_DEMO.user);
    expect(found(user).subject).toMatchObject({ kind: 'user' });
    expect(assignmentLoads()).toBe(2);
  });

  it('makes one assignment load when report 2 and a question ask at once', async () => {
    const app = services();
    const [report, answer] = await Promise.all([app.reports.get('assignment-hygiene'), app.applies!.applies(APPLIES_DEMO.user)]);
    expect(report.state).toBe('loaded');
    expect(found(answer).subject).toMatchObject({ kind: 'user' });
    expect(assignmentLoads()).toBe(1);
  });

  it("takes report 2's records no older than the cache period, and reads the assignments afresh on a refresh", async () => {
    let clock = 0;
    const app = services([], { cacheClock: () => clock });
    await app.reports.get('assignment-hygiene');
    const fresh = await app.applies!.applies(APPLIES_DEMO.device);
    expect(fresh.kind).toBe('found');
    expect(assignmentLoads()).toBe(1);
    clock = 61_000; // report 2's result has aged: a question reads the assignments again, without the audit log
    const aged = await app.applies!.applies(APPLIES_DEMO.device);
    expect(aged.kind).toBe('found');
    expect(assignmentLoads()).toBe(2);
    expect((await app.reports.open('assignment-hygiene')).refreshing).toBe(true);
    await app.reports.settled();

    const refreshed = await app.applies!.applies(APPLIES_DEMO.device, { refresh: true });
    expect(refreshed.requests).toBeGreaterThan(0);
    expect(assignmentLoads()).toBe(4);
  });

  it("fails with Graph's own answer when report 2's load fails, keeps nothing, and answers at the next question", async () => {
    const app = services();
    // Report 2's load, then the question's own read of the assignments.
    const removeFault = harness.sim.faults.add({ path: ASSIGNMENT_LIST, status: 403, times: 2 });
    try {
      const failed = await app.applies!.applies(APPLIES_DEMO.device);
      expect(failed).toMatchObject({ kind: 'failed', query: APPLIES_DEMO.device });
      expect(failed.kind === 'failed' && failed.words).toMatch(/^The tenant could not be read: .*403/);
    } finally {
      removeFault();
    }
    expect((await app.reports.open('assignment-hygiene')).result.state).toBe('loaded');
    const answered = await app.applies!.applies(APPLIES_DEMO.device);
    expect(found(answered).subject).toMatchObject({ kind: 'device', name: APPLIES_DEMO.device });
  });

  it('reads the assignments itself when the reports are loaded some other way', async () => {
    const app = createServices({
      connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
      load: async () => reportResult('2026-11-23T08:00:00Z', []),
      log: () => undefined,
    });
    const answer = await app.applies!.applies(APPLIES_DEMO.device);
    expect(found(answer).subject).toMatchObject({ kind: 'device', name: APPLIES_DEMO.device });
    expect(assignmentLoads()).toBe(1);
  });
});
