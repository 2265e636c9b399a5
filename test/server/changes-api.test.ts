import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeedResult } from '../../src/core/changes/load.js';
import { DEMO_CHANGES } from '../../src/core/changes/demo.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let server: TabServer;
let scoped: TabServer;

const token = () => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], username: 'lee.gu@contoso.example', name: 'Lee Gu' });

async function get(base: string, path: string, bearer?: string) {
  const response = await request(`${base}${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
  return { status: response.statusCode, type: String(response.headers['content-type']), text: await response.body.text() };
}

beforeAll(async () => {
  server = await startTabServer(harness.sim, harness.client());
  // The viewer scope on (VIEWER_SCOPE=intune-rbac), as docs/finding-rules.md, "Viewer scope", describes.
  scoped = await startTabServer(harness.sim, harness.client({ scopeTags: true }), { viewerScope: true });
});

afterAll(async () => {
  await server?.close();
  await scoped?.close();
});

describe('GET /api/changes', () => {
  it('answers the feed of a window as the command line prints it, narrowed by object or person, and as CSV', async () => {
    const bearer = await token();
    const week = await get(server.base, '/api/changes?since=7d', bearer);
    expect(week.status).toBe(200);
    const result = JSON.parse(week.text) as Extract<ChangeFeedResult, { state: 'loaded' }>;
    expect(result.state).toBe('loaded');
    expect(result.feed.changes.map((change) => change.object.name)).toEqual(DEMO_CHANGES.map((change) => change.object));
    const firewall = result.feed.changes.find((change) => change.object.name === 'Firewall - Datacenter')!;
    expect(firewall.details).toEqual([expect.objectContaining({ name: 'Enable Domain Network Firewall', before: 'True', after: 'False' })]);

    const megan = JSON.parse((await get(server.base, '/api/changes?since=7d&by=MEGAN&object=zip', bearer)).text) as typeof result;
    expect(megan.feed.changes.map((change) => change.object.name)).toEqual(['7-Zip']);

    const csv = await get(server.base, '/api/changes?since=7d&format=csv', bearer);
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')[0]).toBe(
      'When (UTC),Changed by,Action,Object type,Object,Setting or property,Before,After,Note,Object id,Logged property,Logged before,Logged after,Link',
    );
  });

  it('refuses what it cannot take with 400 naming the parameter, and a caller without a token with 401', async () => {
    const bearer = await token();
    for (const [path, parameter] of [
      ['/api/changes?since=yesterday', 'since'],
      ['/api/changes?since=400d', 'since'],
      [`/api/changes?object=${'x'.repeat(201)}`, 'object'],
      ['/api/changes?format=xml', 'format'],
    ] as const) {
      const answer = await get(server.base, path, bearer);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { status: 400, parameter } });
    }
    expect((await get(server.base, '/api/changes')).status).toBe(401);
  });

  it('with the viewer scope on, shows the feed only to a Microsoft Entra role that reads all Intune data, and says why to anyone else', async () => {
    const as = async (persona: string) => ((await (await fetch(`${scoped.base}/api/demo/token?as=${persona}`)).json()) as { token: string }).token;
    for (const persona of ['regional', 'central']) {
      const refused = await get(scoped.base, '/api/changes?since=7d', await as(persona));
      expect(refused.status, persona).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { status: 403, code: 'outsideViewerScope', message: expect.stringContaining('Audit data - Read') } });
    }
    const administrator = await get(scoped.base, '/api/changes?since=7d', await as('intune-administrator'));
    expect(administrator.status).toBe(200);
    expect((JSON.parse(administrator.text) as ChangeFeedResult).state).toBe('loaded');
  });
});
