import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground } from '../support/agents-playground.js';
import { startBotServer } from '../support/bot-server.js';
import type { BotServer } from '../support/bot-server.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const OUR_TENANT = '6b1a4d52-9b8e-4c1f-a7e3-2f0d5c8e9a11';
let directory: string;
let store: StateStore;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-bot-security-'));
  store = await openStateStore(`file:${directory}`, { tenant: simulatorTenantKey(harness.sim) });
});

afterAll(async () => {
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

function activity(tenantId: string | undefined): Record<string, unknown> {
  return {
    type: 'message',
    id: 'activity-1',
    text: 'show escrow gaps',
    channelId: 'msteams',
    serviceUrl: 'http://127.0.0.1:9/',
    from: { id: 'user-1', name: 'Someone' },
    recipient: { id: 'bot', name: 'Bot' },
    conversation: { id: 'a:conversation', conversationType: 'personal', ...(tenantId ? { tenantId } : {}) },
    ...(tenantId ? { channelData: { tenant: { id: tenantId } } } : {}),
  };
}

async function postActivity(server: BotServer, body: unknown, authorization?: string): Promise<number> {
  const response = await fetch(`${server.base}/api/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('an activity from another tenant', () => {
  let server: BotServer;
  let playground: Playground;

  beforeAll(async () => {
    server = await startBotServer(harness.sim, harness.client(), { store, allowedTenantId: OUR_TENANT });
    playground = await startPlayground(`${server.base}/api/messages`);
  });

  afterAll(async () => {
    await playground?.close();
    await server?.close();
  });

  it('is refused with 403 before anything runs, and one without a tenant too', async () => {
    expect(await postActivity(server, activity('0d7ae5d1-1111-4111-8111-111111111111'))).toBe(403);
    expect(await postActivity(server, activity(undefined))).toBe(403);
    expect(server.log.some((line) => line.includes('refused an activity from tenant 0d7ae5d1-1111-4111-8111-111111111111'))).toBe(true);
  });

  it('gets no answer in a Teams-like client whose tenant is another', async () => {
    const from = playground.messages.length;
    await playground.send(playground.config.personalChat.id, 'show escrow gaps');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(playground.messages.length).toBe(from);
    expect(await store.listInstallations()).toEqual([]);
  });
});

describe('without BOT_ID, an activity naming a serviceUrl off this machine', () => {
  let server: BotServer;

  beforeAll(async () => {
    server = await startBotServer(harness.sim, harness.client(), { store, allowedTenantId: OUR_TENANT });
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each([['https://attacker.example/'], ['http://127.0.0.1.attacker.example/'], ['http://user@evil.example@127.0.0.1:9/'], ['file:///etc/passwd'], ['not a url']])(
    'is refused with 403 before anything runs, so no reply goes there (%s)',
    async (serviceUrl) => {
      expect(await postActivity(server, { ...activity(OUR_TENANT), serviceUrl })).toBe(403);
      expect(server.log.some((line) => line.includes('serviceUrl is not on this machine'))).toBe(true);
      expect(await store.listInstallations()).toEqual([]);
    },
  );

  it('one on this machine passes that check', async () => {
    const from = server.log.length;
    // Its replies go to this server itself, which refuses them at once (no connector waits on port 9).
    expect(await postActivity(server, { ...activity(OUR_TENANT), serviceUrl: `${server.base}/` })).not.toBe(403);
    expect(server.log.slice(from).some((line) => line.includes('serviceUrl is not on this machine'))).toBe(false);
  });
});

describe('with BOT_ID set', () => {
  let server: BotServer;

  beforeAll(async () => {
    server = await startBotServer(harness.sim, harness.client(), {
      store,
      identity: { id: '2c7d9b4e-8f1a-4e3b-9c6d-5a4b3c2d1e0f', password: 'not-a-real-secret' },
      allowedTenantId: OUR_TENANT,
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses an activity without a Bot Framework token, and one with a token that is not a JWT', async () => {
    expect(await postActivity(server, activity(OUR_TENANT))).toBe(401);
    expect(await postActivity(server, activity(OUR_TENANT), 'Bearer not-a-token')).toBe(401);
  });
});
