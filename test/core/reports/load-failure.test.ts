import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../src/core/reports/registry.js';
import * as records from '../../../src/core/reports/assignment-hygiene/demo-records.js';
import { blankTenant, useTestSimulator } from '../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = blankTenant();
const groupIds = Array.from({ length: 100 }, (_, index) => `7a0c4e10-0000-4000-8000-${index.toString(16).padStart(12, '0')}`);
tenant.collections.deviceConfigurations = groupIds.map((groupId, index) =>
  records.deviceConfiguration({ id: `cfg-${index}`, displayName: `Profile ${index}`, targets: [{ kind: 'include', groupId }], now }),
);
const harness = useTestSimulator({ tenant, pageSizes: { deviceConfigurations: 10 } });

describe('a report whose source fails', () => {
  it('abandons its other sources and sends no further pages or group look-ups', async () => {
    // Every page of profiles takes a while (long enough that, even on a loaded machine, the first
    // has not arrived to start the next); the scripts list fails at once for want of its permission.
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/deviceConfigurations', latencyMs: 400, times: 100 });
    const app = harness.sim.addApplication({ roles: ['DeviceManagementConfiguration.Read.All', 'DeviceManagementApps.Read.All', 'Group.Read.All'] });
    const graph = harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });
    const report = await loadReport('assignment-hygiene', graph, { now: () => now });

    expect(report.state).toBe('load-error');
    expect(report.error?.status).toBe(403);
    // The simulator logs a request when it answers; give an abandoned one time to show up.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const profilePages = harness.sim.graph.requests.filter((entry) => entry.path === '/v1.0/deviceManagement/deviceConfigurations').length;
    // The first page was on its way when the scripts list failed; no page after it was asked for.
    expect(profilePages).toBeLessThanOrEqual(1);
    expect(harness.sim.graph.requests.filter((entry) => entry.path === '/v1.0/$batch')).toEqual([]);
    const settled = harness.sim.graph.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    // A first page asked for before the failure may still reach the simulator late (its connection
    // opened on a busy machine after the client gave up on it); no later page, and no look-up, may.
    const late = harness.sim.graph.requests.slice(settled);
    expect(late.filter((entry) => entry.query.includes('skiptoken') || entry.path === '/v1.0/$batch')).toEqual([]);
  });
});

describe('a report whose source fails while another is retrying', () => {
  it("does not wait out the other source's retries", async () => {
    harness.sim.faults.add({ path: '/beta/deviceManagement/intents', status: 503, retryAfterSeconds: 30, times: 10 });
    harness.sim.faults.add({ path: '/beta/deviceManagement/templates', latencyMs: 100, status: 404, times: 1 });
    const sleeps: number[] = [];
    // A sleep that never ends unless cut short: only the abort can end the intents source's wait.
    const graph = harness.client({ sleep: (ms) => (sleeps.push(ms), new Promise<void>(() => undefined)) });
    const report = await loadReport('security-posture', graph, { now: () => now });
    expect(report.state).toBe('load-error');
    expect(report.error?.status).toBe(404);
    expect(sleeps).toEqual([30_000]);
  });
});
