// The built server's first start in an organization (docs/contract.md, "Health"): it listens
// before its state storage answers, says so on /readyz, holds back what needs the store, and
// becomes ready by itself once the storage answers; and it is not ready while a permission the
// reports declare is not granted.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { freePort } from '../support/local-service.js';

const MAIN = 'dist/server/main.js';
// The built server loads all its modules and builds the demo tenant before it listens; the blob
// client then waits seconds between its own tries: work no clock stands in for.
const TEST_TIMEOUT_MS = 120_000;

function serverEnv(port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_|MANAGED_IDENTITY_|IDENTITY_|APPLICATIONINSIGHTS_)/.test(name)) delete env[name];
  return { ...env, PORT: String(port), HOST: '127.0.0.1', ...extra };
}

async function start(args: string[], extra: Record<string, string>): Promise<{ base: string; child: ChildProcess; output: () => string; stop: () => Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, ...args], { env: serverEnv(port, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  try {
    await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('Listening on');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, child, output: () => output, stop };
}

/** A loopback stand-in for storage that is not there yet: nothing listens on its port until `answer`, then it forwards to Azurite. */
function lateStorage(port: number, target: number): { answer: () => Promise<void>; close: () => void } {
  let server: Server | undefined;
  return {
    answer: () =>
      new Promise<void>((resolve) => {
        server = createServer((socket) => {
          const upstream = connect(target, '127.0.0.1');
          socket.pipe(upstream).pipe(socket);
          socket.on('error', () => upstream.destroy());
          upstream.on('error', () => socket.destroy());
        });
        server.listen(port, '127.0.0.1', resolve);
      }),
    close: () => server?.close(),
  };
}

describe('a first start whose state storage answers only later', { timeout: TEST_TIMEOUT_MS }, () => {
  let azurite: Azurite;
  beforeAll(async () => {
    azurite = await startAzurite();
  }, 60_000);
  afterAll(async () => {
    await azurite?.stop();
  });

  it('listens, answers /healthz 200 and /readyz 503 naming the storage, holds back what needs it, and becomes ready by itself', async () => {
    const port = await freePort();
    const storage = lateStorage(port, Number(new URL(azurite.blobEndpoint).port));
    const connectionString = azurite.connectionString.replace(azurite.blobEndpoint, `http://127.0.0.1:${port}/devstoreaccount1`);
    const server = await start([], { STATE_STORE: connectionString });
    try {
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      const waiting = await fetch(`${server.base}/readyz`);
      expect(waiting.status).toBe(503);
      // Without a sign-in: not ready, and nothing of which check failed; the log names the storage.
      expect(await waiting.json()).toEqual({ status: 'not ready' });
      await expect
        .poll(() => server.output(), { interval: 20, timeout: 10_000 })
        .toMatch(/not ready: stateStore: the state store \(azure-blob\) is (being opened|not reachable yet: .*the identity's role on the storage may not be applied yet)/);

      const { token } = (await (await fetch(`${server.base}/api/demo/token`)).json()) as { token: string };
      const held = await fetch(`${server.base}/api/reports/connector-health`, { headers: { authorization: `Bearer ${token}` } });
      expect(held.status).toBe(503);
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
      // The catalogue needs no store.
      expect((await fetch(`${server.base}/api/reports`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      await storage.answer();
      await expect.poll(async () => (await fetch(`${server.base}/readyz`)).status, { timeout: 90_000, interval: 1_000 }).toBe(200);
      const served = await fetch(`${server.base}/api/reports/connector-health`, { headers: { authorization: `Bearer ${token}` } });
      expect(served.status).toBe(200);
      expect(((await served.json()) as { state: string }).state).toBe('loaded');
      expect(await server.stop()).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      storage.close();
    }
  });
});

describe('a start without consent to every permission', { timeout: TEST_TIMEOUT_MS }, () => {
  it('answers /readyz 503 naming the permission not granted and what it costs', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-first-start-'));
    const server = await start(['--deny', 'DeviceManagementRBAC.Read.All'], { STATE_STORE: `file:${dataDirectory}` });
    try {
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not ready' });
      await expect
        .poll(() => server.output(), { interval: 20, timeout: 10_000 })
        .toContain('not ready: graphToken: admin consent is missing for DeviceManagementRBAC.Read.All (report admin-approval cannot load)');
    } finally {
      await server.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});
