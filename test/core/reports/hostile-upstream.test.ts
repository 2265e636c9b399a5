import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/graph/http-transport.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import { blankTenant, managedDevice, useTestSimulator } from '../../support/simulated-tenant.js';

// Issue 11, point 9: a broken or hostile upstream must never crash, hang or produce a false table.
const tenant = blankTenant({
  collections: { ...blankTenant().collections, managedDevices: Array.from({ length: 30 }, (_, index) => managedDevice(index + 1)) },
  grantedRoles: ['DeviceManagementManagedDevices.Read.All', 'BitlockerKey.ReadBasic.All', 'DeviceLocalCredential.ReadBasic.All'],
});
const harness = useTestSimulator({ tenant, pageSizes: { managedDevices: 10 } });
const DEVICES = '/v1.0/deviceManagement/managedDevices';
const requestsFor = (path: string) => harness.sim.graph.requests.filter((entry) => entry.path === path).length;

describe('a hostile or broken upstream', () => {
  it('a nextLink that points back at its own page: a load error after at most two requests, not an endless table', async () => {
    harness.sim.faults.add({ path: DEVICES, nextLinkSelf: true });
    const report = await loadReport('escrow-gaps', harness.client());
    expect(report).toMatchObject({ state: 'load-error', rows: [], findings: [] });
    expect(report.error?.message).toContain('repeats a page already read');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requestsFor(DEVICES)).toBeLessThanOrEqual(2);
  });

  it('a record that is not an object: a load error naming it, not a 500 or a row of nothing', async () => {
    harness.sim.faults.add({ path: DEVICES, rawBody: () => JSON.stringify({ value: [null, { id: 'x', deviceName: 'PC', operatingSystem: 'Windows' }] }), times: 1 });
    const report = await loadReport('escrow-gaps', harness.client());
    expect(report).toMatchObject({ state: 'load-error', rows: [] });
    expect(report.error?.message).toContain('a record of the collection is not an object');
  });

  it(`a page larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB: refused while it arrives, not held and parsed`, async () => {
    const record = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', deviceName: 'X'.repeat(1000), operatingSystem: 'Windows' });
    const count = Math.ceil((MAX_BODY_BYTES + 8 * 1024 * 1024) / record.length);
    harness.sim.faults.add({ path: DEVICES, rawBody: () => `{"value":[${Array.from({ length: count }, () => record).join(',')}]}`, times: 1 });
    const report = await loadReport('escrow-gaps', harness.client());
    expect(report).toMatchObject({ state: 'load-error', rows: [] });
    expect(report.error?.message).toContain(`larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB`);
    expect(requestsFor(DEVICES)).toBe(1);
  });

  it('reads the same tenant whole once upstream behaves again', async () => {
    const report = await loadReport('escrow-gaps', harness.client());
    expect(report.state).toBe('loaded');
    expect(report.rows).toHaveLength(30);
  });
});
