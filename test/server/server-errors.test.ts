import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE, redactCredentials } from '../../src/server/server-errors.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startBotServer } from '../support/bot-server.js';
import type { BotServer } from '../support/bot-server.js';
import { freePort } from '../support/local-service.js';
import { getWithHost } from '../support/host-header.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const directory = mkdtempSync(join(tmpdir(), 'dmhealth-server-errors-'));
let store: StateStore;
let server: BotServer;

beforeAll(async () => {
  store = await openStateStore(`file:${directory}`, { tenant: simulatorTenantKey(harness.sim) });
  server = await startBotServer(harness.sim, harness.client(), { store });
});
afterAll(async () => {
  await server?.close();
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

const INTERNALS = /TypeError|ZodError|Cannot read|at .*\.js:\d+|ECONNREFUSED|TransportError|node_modules/;

describe('what a caller learns when something fails on our side', () => {
  it.each([
    ['a message with no conversation', { type: 'message', text: 'hi', channelId: 'msteams', serviceUrl: 'http://127.0.0.1:9/' }],
    ['a message whose conversation is null', { type: 'message', text: 'hi', conversation: null, from: null }],
    ['an activity with no type', { text: 'hi' }],
    ['a list', [1, 2]],
    ['a string', 'show escrow gaps'],
  ])('%s at /api/messages: a status, never the internals', async (_what, body) => {
    const response = await fetch(`${server.base}/api/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    expect([400, 403, 500]).toContain(response.status);
    expect(text).not.toMatch(INTERNALS);
    if (response.status === 500) expect(JSON.parse(text)).toEqual({ error: { status: 500, message: INTERNAL_ERROR_MESSAGE } });
  });

  it.each([['127.0.0.256'], ['a b'], ['[::1']])('a Host header no URL can hold (%s): 400, and the server answers the next request', async (host) => {
    const answered = await getWithHost(server.base, host, '/api/reports?x=1');
    expect(answered.status).toBe(400);
    expect(answered.text).not.toMatch(INTERNALS);
    expect((await fetch(`${server.base}/api/reports`)).status).toBe(401);
  });

  it.each([['127.0.0.1:3978/api/reports/escrow-gaps?'], ['127.0.0.1?x'], ['127.0.0.1#x'], ['user@127.0.0.1'], ['127.0.0.1\\api']])(
    "a Host header holding more than a host (%s): 400, so the path served is the request line's",
    async (host) => {
      const answered = await getWithHost(server.base, host, '/tab/');
      expect(answered.status).toBe(400);
      expect(answered.text).toContain('The Host header does not name a host.');
    },
  );

  it.each([['localhost:3978'], ['127.0.0.1'], ['[::1]:3978'], ['dmhealth-contoso.azurewebsites.net']])('an ordinary Host (%s) is served', async (host) => {
    expect((await getWithHost(server.base, host, '/api/reports')).status).toBe(401);
  });

  it('an unreachable key endpoint: 500 with the generic message to the caller, the reason in the log', async () => {
    const unreachable = await startBotServer(harness.sim, harness.client(), { store, authorityHost: `https://127.0.0.1:${await freePort()}` });
    try {
      const token = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });
      const response = await fetch(`${unreachable.base}/api/reports`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ error: { status: 500, message: INTERNAL_ERROR_MESSAGE } });
      expect(unreachable.log.join('\n')).toMatch(/error: GET \/api\/reports: .*(ECONNREFUSED|keys)/);
      expect(unreachable.log.join('\n')).not.toContain(token);
    } finally {
      await unreachable.close();
    }
  });
});

describe('the log', () => {
  it("never holds the caller's token, even where restify logs the whole request (no formatter for what the caller accepts)", async () => {
    const token = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });
    const before = server.log.length;
    // The adapter answers a list with a text 400, and nothing can format text as what this caller accepts.
    const response = await fetch(`${server.base}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, cookie: 'session=secret-cookie', accept: 'application/x-nothing-at-all' },
      body: '[1, 2]',
    });
    await response.arrayBuffer();
    const written = server.log.slice(before);
    const formatterLine = written.find((line) => line.includes('error retrieving formatter'));
    expect(formatterLine, written.join('\n')).toBeDefined();
    expect(JSON.parse(formatterLine!).req).toEqual({ method: 'POST', path: '/api/messages', caller: '127.0.0.1' });
    expect(written.join('\n')).not.toContain(token.split('.')[2]!);
    expect(written.join('\n')).not.toContain('secret-cookie');
  });

  it('redacts what looks like a credential from a line before it is written', () => {
    expect(redactCredentials('GET /keys failed: Authorization: Bearer abc.def-ghi')).toBe('GET /keys failed: Authorization: Bearer [redacted]');
    expect(redactCredentials('token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.c2lnbmF0dXJl refused')).toBe('token [redacted token] refused');
    expect(redactCredentials('DefaultEndpointsProtocol=https;AccountName=a;AccountKey=c2VjcmV0==;EndpointSuffix=core.windows.net')).toBe(
      'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=[redacted];EndpointSuffix=core.windows.net',
    );
    expect(redactCredentials('client_secret=s3cr3t&grant_type=client_credentials')).toBe('client_secret=[redacted]&grant_type=client_credentials');
  });
});
