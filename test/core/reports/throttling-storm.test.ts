import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../src/core/reports/registry.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/graph/retry-policy.js';
import { blankTenant, managedDevice, useTestSimulator } from '../../support/simulated-tenant.js';

// Issue 11, point 7. Intune counts an app's requests in 20-second windows, and its 429 may come
// without Retry-After (learn.microsoft.com/graph/throttling-limits, Intune service limits). Waits are
// recorded and skipped: a storm is counted in the attempts it meets, at one attempt per window.
const tenant = blankTenant({
  collections: { ...blankTenant().collections, managedDevices: Array.from({ length: 12 }, (_, index) => managedDevice(index + 1)) },
  grantedRoles: ['DeviceManagementManagedDevices.Read.All', 'BitlockerKey.ReadBasic.All', 'DeviceLocalCredential.ReadBasic.All'],
});
const harness = useTestSimulator({ tenant });
const DEVICES = '/v1.0/deviceManagement/managedDevices';

function recordedClient() {
  const sleeps: number[] = [];
  const graph = harness.client({ sleep: async (ms) => void sleeps.push(ms) });
  return { graph, sleeps };
}

describe('a 429 storm without Retry-After', () => {
  it('lasting 25 s: the report loads, each retry having waited out a 20-second window', async () => {
    // At a window between attempts, a 25-second storm meets the first two attempts.
    harness.sim.faults.add({ path: DEVICES, status: 429, times: 2 });
    const { graph, sleeps } = recordedClient();
    const report = await loadReport('escrow-gaps', graph);
    expect(report.state).toBe('loaded');
    expect(report.rows).toHaveLength(12);
    expect(sleeps).toHaveLength(2);
    for (const slept of sleeps) {
      expect(slept).toBeGreaterThanOrEqual(DEFAULT_RETRY_POLICY.throttleWindowMs);
      expect(slept).toBeLessThan(DEFAULT_RETRY_POLICY.throttleWindowMs + 1000);
    }
  });

  it('lasting 3 minutes: a load error naming 429 once two minutes of waiting are spent', async () => {
    harness.sim.faults.add({ path: DEVICES, status: 429, times: 9 });
    const { graph, sleeps } = recordedClient();
    const report = await loadReport('escrow-gaps', graph);
    expect(report).toMatchObject({ state: 'load-error', error: { status: 429 }, rows: [] });
    const waited = sleeps.reduce((sum, ms) => sum + ms, 0);
    expect(waited).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxTotalDelayMs);
    expect(waited).toBeGreaterThan(DEFAULT_RETRY_POLICY.maxTotalDelayMs - DEFAULT_RETRY_POLICY.throttleWindowMs - 1000);
  });
});
