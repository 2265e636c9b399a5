import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let server: TabServer;

beforeAll(async () => {
  server = await startTabServer(harness.sim, harness.client());
});

afterAll(async () => {
  await server?.close();
});

/** The user id (`oid`) of the token a demo sign-in answered with. */
async function userOf(response: Response): Promise<unknown> {
  return decodeJwt(((await response.json()) as { token: string }).token).oid;
}

describe("the demo tenant's sign-in", () => {
  it('keeps one user per browser: its cookie brings back the same user id, another browser gets another', async () => {
    const first = await fetch(`${server.base}/api/demo/token`);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^dmhealth_demo_user=[0-9a-f-]{36}; Path=\/api\/demo; HttpOnly; SameSite=Strict/);
    const user = await userOf(first);
    const again = await fetch(`${server.base}/api/demo/token`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await userOf(again)).toBe(user);
    expect(await userOf(await fetch(`${server.base}/api/demo/token`))).not.toBe(user);
  });

  it('takes no cookie it would not have made as a user id', async () => {
    const forged = await fetch(`${server.base}/api/demo/token`, { headers: { cookie: 'dmhealth_demo_user=megan' } });
    expect(forged.headers.get('set-cookie')).toMatch(/^dmhealth_demo_user=[0-9a-f-]{36};/);
    expect(await userOf(forged)).not.toBe('megan');
  });
});
