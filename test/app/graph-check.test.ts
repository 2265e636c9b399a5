import { describe, expect, it } from 'vitest';
import { GRAPH_CHECK_QUERY, checkGraphAnswers } from '../../src/app/graph-check.js';
import { APPLIES_DEVICES_READ } from '../../src/core/applies/reads.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

describe("the server's start-up check that Graph answers", () => {
  it("reads one managed device's id, never a page of whole devices", async () => {
    expect(harness.sim.tenant.collections.managedDevices.length).toBeGreaterThan(1);
    expect(await checkGraphAnswers(harness.client())).toBe(1);
    const sent = harness.sim.graph.requests;
    expect(sent.map((request) => [request.path, request.status])).toEqual([[APPLIES_DEVICES_READ.path, 200]]);
    const query = new URLSearchParams(sent[0]!.query);
    expect(Object.fromEntries(query)).toEqual(GRAPH_CHECK_QUERY);
    expect(GRAPH_CHECK_QUERY).toEqual({ $top: '1', $select: 'id' });
  });

  it('throws the Graph error when the tenant does not answer', async () => {
    harness.sim.faults.add({ path: APPLIES_DEVICES_READ.path, status: 403 });
    await expect(checkGraphAnswers(harness.client())).rejects.toMatchObject({ status: 403 });
  });
});
