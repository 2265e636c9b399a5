import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReadiness } from '../../src/server/health-routes.js';
import { GraphError } from '../../src/core/graph/graph-error.js';
import type { StateStore } from '../../src/store/state-store.js';
import { freePort } from '../support/local-service.js';

const MAIN = 'dist/server/main.js';
// The built server loads all its modules and builds the demo tenant before it listens: work no clock stands in for.
const TEST_TIMEOUT_MS = 60_000;
const dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-lifecycle-'));
afterAll(() => rmSync(dataDirectory, { recursive: true, force: true }));

function serverEnv(port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_|MANAGED_IDENTITY_|IDENTITY_|APPLICATIONINSIGHTS_)/.test(name)) delete env[name];
  return { ...env, PORT: String(port), STATE_STORE: `file:${dataDirectory}`, ...extra };
}

/** `npm start` as App Service runs it: PORT given, stopped by SIGTERM. */
async function start(extra: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], { env: serverEnv(port, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await expect.poll(() => output, { timeout: 45_000, interval: 100 }).toContain('Listening on');
  return { base: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}

describe('the server on App Service', { timeout: TEST_TIMEOUT_MS }, () => {
  it('answers /healthz and /readyz without a sign-in, and a SIGTERM lets the request under way finish, then exits 0 within 10 s', async () => {
    const server = await start({ HOST: '127.0.0.1' });
    try {
      const health = await fetch(`${server.base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });

      const { token } = (await (await fetch(`${server.base}/api/demo/token`)).json()) as { token: string };
      // A report load under way when the platform stops the instance.
      const inFlight = fetch(`${server.base}/api/reports/connector-health?refresh=true`, { headers: { authorization: `Bearer ${token}` } });
      await expect.poll(() => server.output(), { interval: 20, timeout: 20_000 }).toContain('report connector-health: loading');
      server.child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { state: string }).state).toBe('loaded');
      // Exits 0, and within the 10 s the platform gives it: the race's other side is a failure.
      const code = await Promise.race([server.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000).unref())]);
      expect(code).toBe(0);
      expect(server.output()).toContain('Stopped.');
      // No new connections once stopping.
      await expect(fetch(`${server.base}/healthz`)).rejects.toThrow();
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });

  it('answers /readyz 503 with the reason when no Graph token can be had, and nothing of the tenant', async () => {
    const port = await freePort();
    const tenantId = '7d3c59a1-0000-4000-8000-00000000c0de';
    const server = await start({
      M365_TENANT_ID: tenantId,
      M365_CLIENT_ID: '11111111-2222-4333-8444-555555555555',
      M365_CLIENT_SECRET: 'not-a-real-secret-value',
      // An authority that refuses connections: no token.
      M365_AUTHORITY_HOST: `https://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
    });
    try {
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(503);
      // Without a sign-in: not ready, and nothing of which check failed; the log names it.
      expect(await ready.json()).toEqual({ status: 'not ready' });
      await expect.poll(() => server.output(), { interval: 20, timeout: 10_000 }).toMatch(/not ready: graphToken: no Microsoft Graph token could be had: token/);
      expect(server.output()).not.toMatch(/not ready: .*stateStore/);
      expect(server.output()).not.toContain('not-a-real-secret-value');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});

describe('readiness', () => {
  const store = (read: () => Promise<string | null>) => ({ kind: 'file', readDocument: read }) as unknown as StateStore;

  it('names a state store that cannot be read by its kind and error code only, and reuses an answer for 10 s', async () => {
    let reads = 0;
    let now = 0;
    const readiness = createReadiness({
      tokens: { getToken: async () => 'token', invalidate: () => undefined },
      store: store(async () => {
        reads += 1;
        throw Object.assign(new Error('EACCES: permission denied, open /srv/tenants/contoso/documents'), { code: 'EACCES' });
      }),
      now: () => now,
    });
    expect(await readiness.check()).toEqual({
      configuration: { ok: true },
      stateStore: { ok: false, reason: 'the state store (file) could not be read: EACCES' },
      graphToken: { ok: true },
    });
    await readiness.check();
    expect(reads).toBe(1);
    now = 10_000;
    await readiness.check();
    expect(reads).toBe(2);
  });

  it("names a token failure by its kind, code and status, not by Entra's message", async () => {
    const readiness = createReadiness({
      tokens: {
        getToken: () =>
          Promise.reject(
            new GraphError({
              kind: 'token',
              status: 401,
              code: 'invalid_client',
              message: 'AADSTS7000215 for tenant contoso.onmicrosoft.com',
              method: 'POST',
              path: '/t',
              attempts: 1,
            }),
          ),
        invalidate: () => undefined,
      },
      store: store(async () => null),
    });
    expect((await readiness.check()).graphToken).toEqual({ ok: false, reason: 'no Microsoft Graph token could be had: token invalid_client 401' });
    readiness.markStopping();
    expect(readiness.stopping()).toBe(true);
  });
});
