import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const now = new Date('2026-11-23T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
// The file's server has the viewer scope on (VIEWER_SCOPE=intune-rbac), as docs/finding-rules.md, "Viewer scope", describes.
const tab = useTabPages(harness, { now: () => now, viewerScope: true });

describe('GET /api/me with the viewer scope off', () => {
  it('answers the viewer’s name from their token and no scope, and only with a token', async () => {
    const unscoped: TabServer = await tab.startServer(harness.client(), { now: () => now });
    const token = ((await (await fetch(`${unscoped.base}/api/demo/token?as=regional`)).json()) as { token: string }).token;
    expect((await fetch(`${unscoped.base}/api/me`)).status).toBe(401);
    const me = (await (await fetch(`${unscoped.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string; scope: unknown };
    expect(me).toEqual({ name: decodeJwt(token).name, scope: null });
  });
});

describe('GET /api/me with the viewer scope on', () => {
  it('answers each viewer’s name and scope in words, and a viewer of no scope the reason', async () => {
    const as = async (persona: string | null) => {
      const token = ((await (await fetch(`${tab.server.base}/api/demo/token${persona ? `?as=${persona}` : ''}`)).json()) as { token: string }).token;
      return (await (await fetch(`${tab.server.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
    };
    expect(await as('central')).toMatchObject({ scope: { kind: 'tenant', description: 'the whole tenant', explanation: null } });
    expect(await as('regional')).toMatchObject({ scope: { kind: 'tags', description: 'scope tag Europe', explanation: null } });
    expect(await as(null)).toMatchObject({ scope: { kind: 'none', description: 'nothing', explanation: expect.stringMatching(/^You hold no Intune role assignment/) } });
  });
});
