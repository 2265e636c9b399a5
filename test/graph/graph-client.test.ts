import { Agent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from '../../src/graph/graph-client.js';
import { GraphError, GraphRequestRefusedError } from '../../src/core/graph/graph-error.js';
import { createHttpTransport } from '../../src/graph/http-transport.js';
import { createMsalTokenSource } from '../../src/graph/token-source.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { ALL_REPORT_ROLES, managedDevice, requestAppToken, useTestSimulator } from '../support/simulated-tenant.js';
import type { GraphClientForOptions } from '../support/simulated-tenant.js';
import { PRODUCT_READS } from '../../src/core/upstream-reads.js';

const DEVICES = '/v1.0/deviceManagement/managedDevices';

const harness = useTestSimulator({ pageSizes: { managedDevices: 100 } });
let sim: Simulator;

beforeAll(() => {
  sim = harness.sim;
  sim.tenant.collections.managedDevices = Array.from({ length: 5000 }, (_, index) => managedDevice(index));
});

/** A client whose retry waits are recorded and skipped, so tests assert delays without spending them. */
function client(options: GraphClientForOptions = {}) {
  const sleeps: number[] = [];
  const graph = harness.client({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { graph, sleeps };
}

function graphRequests(path: string) {
  return sim.graph.requests.filter((request) => request.path === path);
}

describe('tokens', () => {
  it('gets one token through msal-node and reuses it across calls, concurrent ones included', async () => {
    const before = sim.entra.tokenRequests;
    const { graph } = client();
    await Promise.all(Array.from({ length: 10 }, () => graph.get(`${DEVICES}?$top=1`)));
    await graph.get(`${DEVICES}?$top=1`);
    expect(sim.entra.tokenRequests - before).toBe(1);
  });

  it('renews a token Graph rejects as expired and retries the request once', async () => {
    try {
      // A client clock that runs behind the authority's still takes the token for valid.
      const { graph } = client({ tokenClock: () => Date.now() - 10 * 60_000 });
      await graph.get(`${DEVICES}?$top=1`);
      const before = sim.entra.tokenRequests;
      // The authority's clock moves past the token's hour; the token source reuses the token,
      // so Graph's 401 must make it renew.
      sim.entra.clockAheadSeconds = 2 * 3600;
      await graph.get(`${DEVICES}?$top=1`);
      expect(sim.entra.tokenRequests - before).toBe(1);
      const statuses = graphRequests(DEVICES).map((request) => request.status);
      expect(statuses).toEqual([200, 401, 200]);
    } finally {
      sim.entra.clockAheadSeconds = 0;
    }
  });

  it('turns an unreachable authority into a typed token error without sending to Graph', async () => {
    const transport = createHttpTransport({ extraCaPem: sim.caPem });
    // Port 9 (discard) on loopback: nothing listens there, so the connection is refused at once.
    const tokens = createMsalTokenSource({
      tenantId: sim.tenantId,
      clientId: sim.clientId,
      credential: { kind: 'secret', secret: sim.clientSecret },
      authorityHost: 'https://127.0.0.1:9',
      graphBaseUrl: sim.graphUrl,
      transport,
    });
    const graph = new GraphClient({ reads: PRODUCT_READS, baseUrl: sim.graphUrl, tokens, transport });
    try {
      await expect(graph.get(`${DEVICES}?$top=1`)).rejects.toMatchObject({ kind: 'token', message: expect.stringContaining('https://127.0.0.1:9/') });
      expect(graphRequests(DEVICES)).toHaveLength(0);
    } finally {
      await transport.close();
    }
  });

  it('turns a wrong client secret into a typed token error that does not echo the secret', async () => {
    const { graph } = client({ credential: { kind: 'secret', secret: 'not-the-secret~value' } });
    const error = await graph.get(`${DEVICES}?$top=1`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'token', code: 'invalid_client' });
    expect((error as GraphError).message).toContain('AADSTS7000215');
    expect((error as GraphError).message).not.toContain('not-the-secret~value');
    expect(graphRequests(DEVICES)).toHaveLength(0);
  });
});

describe('paging', () => {
  it('reads 5,000 records across 50 pages completely, in order, with exactly one request per page', async () => {
    const { graph } = client();
    const devices = await graph.getAll<{ id: string }>(DEVICES);
    expect(devices.map((device) => device.id)).toEqual(sim.tenant.collections.managedDevices.map((device) => device.id));
    const requests = graphRequests(DEVICES);
    expect(requests).toHaveLength(50);
    expect(new Set(requests.map((request) => request.query)).size).toBe(50);
    expect(requests.every((request) => request.status === 200)).toBe(true);
  });

  it('trims each record as its page arrives', async () => {
    const { graph } = client();
    const names = await graph.getAll<{ deviceName: string }, string>(`${DEVICES}`, {}, (device) => device.deviceName);
    expect(names[4999]).toBe('DESKTOP-04999');
  });

  it('refuses a nextLink to another host and sends nothing there: the page is malformed upstream data', async () => {
    sim.faults.add({ path: DEVICES, nextLinkOrigin: 'https://graph.example.net', times: 1 });
    const { graph } = client();
    const failure = await graph.getAll(DEVICES).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GraphError);
    expect(failure).toMatchObject({ kind: 'malformed-response', path: expect.stringContaining(DEVICES) });
    expect(graphRequests(DEVICES)).toHaveLength(1);
  });
});

describe('refusals before sending', () => {
  it('refuses writes and paths outside the allow-list without a request', async () => {
    const { graph } = client();
    await expect(graph.get('/v1.0/users')).rejects.toThrow(/not one this service is allowed to read/);
    await expect(graph.get('/v1.0/deviceManagement/managedDevices/../../users')).rejects.toThrow(GraphRequestRefusedError);
    await expect(graph.get('https://graph.example.net/v1.0/deviceManagement/managedDevices')).rejects.toThrow(GraphRequestRefusedError);
    await expect(graph.batchGet([{ id: '1', url: '/users/00000000-0000-0000-0000-000000000001' }])).rejects.toThrow(GraphRequestRefusedError);
    expect(sim.graph.requests).toHaveLength(0);
  });
});

describe('retries', () => {
  it('waits out 429 with Retry-After: 1 and then succeeds', async () => {
    sim.faults.add({ path: DEVICES, status: 429, retryAfterSeconds: 1, times: 1 });
    const { graph, sleeps } = client();
    const page = await graph.get<{ value: unknown[] }>(`${DEVICES}?$top=2`);
    expect(page.value).toHaveLength(2);
    expect(graphRequests(DEVICES).map((request) => request.status)).toEqual([429, 200]);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1000);
    expect(sleeps[0]).toBeLessThan(1300);
  });

  it('gives up on a permanent 503 after a bounded number of attempts with a typed error', async () => {
    sim.faults.add({ path: DEVICES, status: 503 });
    const { graph, sleeps } = client({ retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxTotalDelayMs: 10_000, throttleWindowMs: 1000 } });
    const error = await graph.get(`${DEVICES}?$top=1`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'http', status: 503, code: 'ServiceUnavailable', attempts: 4 });
    expect((error as GraphError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(graphRequests(DEVICES)).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('retries a reset connection and a 504', async () => {
    const { graph, sleeps } = client();
    const firstDevice = async () => (await graph.get<{ value: Array<{ id: string }> }>(`${DEVICES}?$top=1`)).value.map((device) => device.id);
    // The simulator logs a reset connection as status 0: no answer was sent.
    sim.faults.add({ path: DEVICES, reset: true, times: 1 });
    expect(await firstDevice()).toEqual([managedDevice(0).id]);
    sim.faults.add({ path: DEVICES, status: 504, times: 1 });
    expect(await firstDevice()).toEqual([managedDevice(0).id]);
    expect(graphRequests(DEVICES).map((request) => request.status)).toEqual([0, 200, 504, 200]);
    expect(sleeps).toHaveLength(2);
  });

  it('times out a request that hangs and reports it as a timeout', async () => {
    sim.faults.add({ path: DEVICES, latencyMs: 2000 });
    const { graph } = client({ requestTimeoutMs: 200, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10, maxTotalDelayMs: 100, throttleWindowMs: 10 } });
    await expect(graph.get(`${DEVICES}?$top=1`)).rejects.toMatchObject({ kind: 'timeout', attempts: 2 });
  });

  it('does not retry a 403', async () => {
    const app = sim.addApplication({ roles: [] });
    const { graph } = client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });
    await expect(graph.get(`${DEVICES}?$top=1`)).rejects.toMatchObject({ status: 403 });
    // This app's requests only: an earlier test's abandoned request may still land on a busy machine.
    expect(graphRequests(DEVICES).filter((request) => request.appId === app.clientId)).toHaveLength(1);
  });
});

describe('malformed answers', () => {
  it('refuses to page through an answer that is not a collection', async () => {
    sim.tenant.singletons.windowsAutopilotSettings = { id: 'autopilot', syncStatus: 'completed' };
    const { graph } = client();
    await expect(graph.getAll('/beta/deviceManagement/windowsAutopilotSettings')).rejects.toMatchObject({
      kind: 'malformed-response',
      message: 'the collection response has no "value" array',
    });
  });

  it('turns a 200 with broken JSON into a typed error, not a crash', async () => {
    sim.faults.add({ path: DEVICES, malformed: true, times: 1 });
    const { graph } = client();
    const error = await graph.getAll(DEVICES).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'malformed-response', status: 200 });
  });
});

describe('concurrency', () => {
  it('keeps at most maxConcurrency requests in flight across all callers', async () => {
    sim.latencyMs = 30;
    try {
      const { graph } = client({ maxConcurrency: 3 });
      sim.graph.clearLog();
      await Promise.all(Array.from({ length: 12 }, (_, index) => graph.get(`${DEVICES}?$top=${index + 1}`)));
      expect(graphRequests(DEVICES)).toHaveLength(12);
      expect(sim.graph.peakInFlight).toBe(3);
    } finally {
      sim.latencyMs = 0;
    }
  });

  it('gives back the slot it keeps for a collection being paged once its reader stops early', async () => {
    sim.latencyMs = 30;
    try {
      const { graph } = client({ maxConcurrency: 3 });
      let pagesRead = 0;
      for await (const page of graph.pages(`${DEVICES}?$top=5`)) {
        pagesRead += page.items.length > 0 ? 1 : 0;
        break;
      }
      expect(pagesRead).toBe(1);
      sim.graph.clearLog();
      // No collection is being paged now, so single reads may hold every slot again.
      await Promise.all(Array.from({ length: 12 }, (_, index) => graph.get(`${DEVICES}?$top=${index + 1}`)));
      expect(sim.graph.peakInFlight).toBe(3);
    } finally {
      sim.latencyMs = 0;
    }
  });
});

describe('permissions', () => {
  it("answers 403 with Graph's error body where a role is missing, and 200 where it is granted", async () => {
    const roles = ALL_REPORT_ROLES.filter((role) => role !== 'DeviceManagementConfiguration.Read.All');
    const app = sim.addApplication({ roles });
    const { graph } = client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });

    const error = await graph.get('/v1.0/deviceManagement/deviceConfigurations').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'http', status: 403, code: 'Forbidden' });
    expect((error as GraphError).message).toContain('DeviceManagementConfiguration.Read.All');
    await expect(graph.get(`${DEVICES}?$top=1`)).resolves.toMatchObject({ value: [expect.any(Object)] });

    // The wire format itself: Graph's envelope with innerError.date, request-id and client-request-id.
    const token = await requestAppToken(sim, { clientId: app.clientId, secret: app.secrets[0]! });
    const response = await request(`${sim.graphUrl}/v1.0/deviceManagement/deviceConfigurations`, {
      headers: { authorization: `Bearer ${token}`, 'client-request-id': 'c0ffee00-0000-4000-8000-000000000001' },
      dispatcher: new Agent({ connect: { ca: sim.caPem } }),
    });
    expect(response.statusCode).toBe(403);
    const body = (await response.body.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({
      code: 'Forbidden',
      message: expect.any(String),
      innerError: {
        date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
        'request-id': response.headers['request-id'],
        'client-request-id': 'c0ffee00-0000-4000-8000-000000000001',
      },
    });
  });
});

describe("a load's signal", () => {
  it('is listened to by every retry of a throttled $batch read at once, without Node taking the waits for a leak', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    // Each retry's wait lasts a moment, so that the calls throttled at once all wait at once.
    const graph = harness.client({ sleep: () => new Promise((resolve) => setTimeout(resolve, 50)) });
    const load = new AbortController();
    // Three hundred sub-requests, fifteen calls, each sub-request answered 429 once: every call waits to try again.
    const removeFault = sim.faults.add({ path: DEVICES, status: 429, retryAfterSeconds: 1, times: 300 });
    try {
      const outcomes = await graph.batchGet(
        Array.from({ length: 300 }, (_, index) => ({ id: String(index), url: `${DEVICES.replace(/^\/v1\.0/, '')}?$top=1` })),
        { signal: load.signal },
      );
      expect([...outcomes.values()].every((outcome) => outcome.ok)).toBe(true);
      // Node tells its warnings on a later turn.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      removeFault();
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
