import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let server: TabServer;

const token = (roles: string[]) => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles, username: 'alex.wilber@contoso.example', name: 'Alex Wilber' });

async function ask(q: string | null, bearer?: string): Promise<{ status: number; json: unknown }> {
  const path = q === null ? '/api/applies' : `/api/applies?q=${encodeURIComponent(q)}`;
  const response = await request(`${server.base}${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
  return { status: response.statusCode, json: JSON.parse(await response.body.text()) };
}

beforeAll(async () => {
  server = await startTabServer(harness.sim, harness.client());
});

afterAll(async () => {
  await server?.close();
});

describe('GET /api/applies', () => {
  it('answers what applies to a device as the service does, then from the reads it keeps', async () => {
    const bearer = await token([IT_STAFF_ROLE]);
    const first = await ask(APPLIES_DEMO.device, bearer);
    expect(first.status).toBe(200);
    const result = first.json as AppliesResult;
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.answer.subject).toMatchObject({ kind: 'device', name: APPLIES_DEMO.device });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.answer.groups.map((group) => group.typeLabel)).toContain('Configuration profiles');
    // The same question again reads nothing; another question reads only about its own subject.
    const again = (await ask(APPLIES_DEMO.device, bearer)).json as AppliesResult;
    expect(again).toMatchObject({ kind: 'found', requests: 0 });
    const other = (await ask(APPLIES_DEMO.user, bearer)).json as AppliesResult;
    expect(other.kind).toBe('found');
    expect(other.requests).toBeGreaterThan(0);
    expect(other.requests).toBeLessThan(result.requests);
  });

  it('answers a name nothing has with notFound', async () => {
    const answer = await ask('NO-SUCH-DEVICE', await token([IT_STAFF_ROLE]));
    expect(answer).toMatchObject({ status: 200, json: { kind: 'notFound', query: 'NO-SUCH-DEVICE' } });
  });

  it('refuses an empty or over-long question with 400, and a caller without a token with 401', async () => {
    const bearer = await token([IT_STAFF_ROLE]);
    for (const q of [null, '', '   ', 'x'.repeat(201)]) {
      const answer = await ask(q, bearer);
      expect(answer.status, String(q)).toBe(400);
      expect(answer.json).toMatchObject({ error: { status: 400, parameter: 'q' } });
    }
    expect((await ask(APPLIES_DEMO.device)).status).toBe(401);
  });
});
