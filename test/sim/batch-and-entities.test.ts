import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useRawGraph } from '../support/simulated-tenant.js';
import type { WireBody } from '../support/simulated-tenant.js';

/**
 * JSON batching on both versions and single-entity reads, as Graph serves them: a sub-request runs
 * on its batch's version (learn.microsoft.com/graph/json-batching), and each Intune collection reads
 * one entity by id (the "Get" page beside each "List" page of the Intune reference).
 */
const tenant = buildDemoTenant({ now: new Date('2026-11-22T09:00:00Z') });
const graph = useRawGraph(tenant);
let dispatcher: Agent;
beforeAll(() => {
  dispatcher = new Agent({ connect: { ca: graph.sim.caPem } });
});
afterAll(() => dispatcher.close());

interface BatchAnswer {
  responses: Array<{ id: string; status: number; headers: Record<string, string>; body: WireBody }>;
}
async function batch(version: 'v1.0' | 'beta', urls: string[]): Promise<{ status: number; body: BatchAnswer }> {
  const response = await request(`${graph.sim.graphUrl}/${version}/$batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${graph.token}`, 'content-type': 'application/json', 'user-agent': 'sim-test' },
    body: JSON.stringify({ requests: urls.map((url, index) => ({ id: String(index), method: 'GET', url })) }),
    dispatcher,
  });
  return { status: response.statusCode, body: (await response.body.json()) as BatchAnswer };
}
const policy = (name: string) => tenant.collections.configurationPolicies.find((record) => record.name === name)!;

describe('a single entity by id', () => {
  it('answers the record with $select and $expand as its list would, and 404 for an id the tenant does not hold', async () => {
    const full = policy('Defender - Full configuration');
    const { status, body } = await graph.get(`/beta/deviceManagement/configurationPolicies/${full.id}?$select=id,name,settingCount&$expand=settings`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: full.id, name: full.name, settingCount: 40 });
    expect(body['@odata.context']).toContain('configurationPolicies/$entity');
    expect((body as { settings?: unknown[] }).settings).toHaveLength(25);
    expect((body as Record<string, unknown>)['settings@odata.nextLink']).toBeDefined();
    expect((await graph.get('/beta/deviceManagement/configurationPolicies/0f8fad5b-d9cb-469f-a165-70867728950e')).status).toBe(404);
    expect((await graph.get(`/beta/deviceManagement/configurationPolicies/${full.id}?$top=5`)).status).toBe(400);
    // The same $select check as the list's: a property the type does not have is a 400.
    expect((await graph.get(`/beta/deviceManagement/configurationPolicies/${full.id}?$select=id,settingsCount`)).status).toBe(400);
  });
});

// Last in the file: it spends the app's whole throttling window.
describe('$batch', () => {
  it("runs each sub-request on its batch's version: a policy's beta /settings through /beta/$batch, a page with its nextLink", async () => {
    const full = policy('Defender - Full configuration');
    const settings = `/deviceManagement/configurationPolicies/${full.id}/settings`;
    const onBeta = await batch('beta', [settings]);
    expect(onBeta.status).toBe(200);
    const [answer] = onBeta.body.responses;
    expect(answer?.status).toBe(200);
    expect(answer?.body.value).toHaveLength(25);
    expect(answer?.body['@odata.nextLink']).toContain(`/beta${settings}?`);
    // The same URL on /v1.0 names a segment /v1.0 does not have.
    const onV1 = await batch('v1.0', [settings]);
    expect(onV1.body.responses[0]?.status).toBe(400);
  });

  it('counts each sub-request against the throttling window on its own, and answers the ones past it 429 with their own Retry-After', async () => {
    const settings = `/deviceManagement/configurationPolicies/${policy('Defender - Full configuration').id}/settings`;
    let throttledAnswers: BatchAnswer['responses'] = [];
    // 1,000 Intune requests per 20 s: 51 calls of 20 sub-requests are 1,020, past the window.
    for (let call = 0; call < 51 && throttledAnswers.length === 0; call += 1) {
      const { body } = await batch(
        'beta',
        Array.from({ length: 20 }, () => settings),
      );
      throttledAnswers = body.responses.filter((response) => response.status === 429);
    }
    expect(throttledAnswers.length).toBeGreaterThan(0);
    expect(Number(throttledAnswers[0]?.headers['Retry-After'])).toBeGreaterThan(0);
    expect(throttledAnswers[0]?.body.error?.code).toBe('TooManyRequests');
  });
});
