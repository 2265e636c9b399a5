import { describe, expect, it } from 'vitest';
import { loadReport } from '../../src/core/reports/registry.js';
import * as records from '../../src/sim/tenants/records.js';
import { blankTenant, useTestSimulator } from '../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = blankTenant();
const groupIds = Array.from({ length: 100 }, (_, index) => `7a0c4e10-0000-4000-8000-${index.toString(16).padStart(12, '0')}`);
tenant.collections.deviceConfigurations = groupIds.map((groupId, index) =>
  records.deviceConfiguration({ id: `cfg-${index}`, displayName: `Profile ${index}`, targets: [{ kind: 'include', groupId }], now }),
);
const harness = useTestSimulator({ tenant, pageSizes: { deviceConfigurations: 10 } });

describe('a report whose source fails', () => {
  it('stops its other sources at the next page and sends no further group look-ups', async () => {
    // Every page of profiles takes a while; the scripts list fails at once for want of its permission.
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/deviceConfigurations', latencyMs: 60, times: 100 });
    const app = harness.sim.addApplication({ roles: ['DeviceManagementConfiguration.Read.All', 'DeviceManagementApps.Read.All', 'Group.Read.All'] });
    const graph = harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });
    const report = await loadReport('assignment-hygiene', graph, { now: () => now });

    expect(report.state).toBe('load-error');
    expect(report.error?.status).toBe(403);
    const requests = harness.sim.graph.requests;
    const profilePages = requests.filter((entry) => entry.path === '/v1.0/deviceManagement/deviceConfigurations').length;
    expect(profilePages).toBeGreaterThanOrEqual(1);
    expect(profilePages).toBeLessThan(10);
    // Nothing is still in flight once the report has answered.
    const settled = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.sim.graph.requests.length).toBe(settled);
  });
});
