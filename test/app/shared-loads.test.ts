import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import type { ReportLoader } from '../../src/app/report-cache.js';
import { sharedLoader } from '../../src/app/shared-loads.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { freePort } from '../support/local-service.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';
import { recordCredential } from '../support/suite-log.js';
import { reportResult } from '../fixtures/report-result.js';
import { simulatorEnvironment } from '../../src/sim/simulator.js';

const MAIN = 'dist/server/main.js';
const harness = useTestSimulator({ tenant: buildDemoTenant() });

interface Instance {
  base: string;
  output: () => string;
  process: ChildProcessByStdio<null, Readable, Readable>;
}

let azurite: Azurite;
const instances: Instance[] = [];

/**
 * `npm start` as a deployment runs it: the simulator as its tenant, its state in Azurite, on loopback.
 * Ready when it says it listens; a start that fails ends the process, which fails the start at once.
 */
async function startInstance(): Promise<Instance> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|BOT_|NOTIFY_|STATE_STORE|HOST)/.test(name)) delete env[name];
  const sim = harness.sim;
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    STATE_STORE: azurite.connectionString,
    ...simulatorEnvironment(sim),
  });
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const instance = { base: `http://127.0.0.1:${port}`, output: () => output, process: child };
  instances.push(instance);
  await new Promise<void>((listening, failed) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Listening on')) listening();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => failed(new Error(`the server ended (exit code ${code}) before it listened:\n${output}`)));
  });
  return instance;
}

// Three server processes, started side by side before the test: a start is a process loading its
// modules, seconds on a busy machine, and none of what the test checks. The limit only stops a start
// that hangs.
let first: Instance, second: Instance, third: Instance;
beforeAll(async () => {
  azurite = await startAzurite();
  recordCredential(harness.sim.clientSecret);
  [first, second, third] = await Promise.all([startInstance(), startInstance(), startInstance()]);
}, 180_000);

afterAll(async () => {
  await Promise.all(
    instances.map(async ({ process: child }) => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }),
  );
  await azurite?.stop();
});

const loadsIn = (instance: Instance, id: string) => instance.output().split(`report ${id}: loading from Microsoft Graph`).length - 1;

describe('several instances sharing Azure Storage', () => {
  it('make one upstream load of a report between them: one loads under the lease, the other serves its result', async () => {
    harness.sim.graph.clearLog();
    const token = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });
    const read = async (instance: Instance) =>
      (await (await fetch(`${instance.base}/api/reports/escrow-gaps`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } })).json()) as ReportResult;

    // Both asked at once: one takes the report's lease and loads, the other waits for its result.
    const [fromFirst, fromSecond] = await Promise.all([read(first), read(second)]);
    expect(fromFirst.state).toBe('loaded');
    expect(fromSecond.generatedAt).toBe(fromFirst.generatedAt);
    expect(fromSecond.findings).toEqual(fromFirst.findings);
    expect(loadsIn(first, 'escrow-gaps') + loadsIn(second, 'escrow-gaps')).toBe(1);
    // The simulator's own log agrees: the BitLocker keys, which only this report reads, were read once.
    const keyReads = harness.sim.graph.requests.filter((request) => request.path.endsWith('/informationProtection/bitlocker/recoveryKeys') && !request.query.includes('skiptoken'));
    expect(keyReads).toHaveLength(1);
    expect(first.output() + second.output()).toContain('report escrow-gaps: served the result another instance loaded at');

    // A third instance, not asked until now, serves the stored result too, within the cache period.
    expect((await read(third)).generatedAt).toBe(fromFirst.generatedAt);
    expect(loadsIn(third, 'escrow-gaps')).toBe(0);
  });
});

describe('a shared load, one instance at a time', () => {
  const result = (generatedAt: string, state: ReportResult['state'] = 'loaded') => reportResult(generatedAt, [], { state });

  it('stores no load error, takes only a newer result on refresh, and loads for itself when the store fails', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-shared-'));
    const store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
    try {
      let clock = Date.parse('2026-11-23T10:00:00.000Z');
      const loaded: string[] = [];
      let next: ReportResult = result('2026-11-23T10:00:00.000Z', 'load-error');
      const upstream: ReportLoader = async () => {
        loaded.push(next.generatedAt);
        return next;
      };
      const shared = sharedLoader(upstream, store, { maxAgeMs: 60_000, log: () => undefined, now: () => clock });
      expect((await shared('escrow-gaps', () => undefined)).state).toBe('load-error');
      expect(await store.readCompressed('result-escrow-gaps')).toBeNull();

      next = result('2026-11-23T10:00:00.000Z');
      await shared('escrow-gaps', () => undefined);
      clock += 30_000;
      // Within the period another instance's result is served; a refresh wants one made after it asked.
      expect((await shared('escrow-gaps', () => undefined)).generatedAt).toBe('2026-11-23T10:00:00.000Z');
      next = result('2026-11-23T10:00:30.000Z');
      expect((await shared('escrow-gaps', () => undefined, { refresh: true })).generatedAt).toBe('2026-11-23T10:00:30.000Z');
      expect(loaded).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.000Z', '2026-11-23T10:00:30.000Z']);

      const failing = Object.create(store, { withLock: { value: () => Promise.reject(new Error('storage unreachable')) } }) as FileStateStore;
      const lines: string[] = [];
      const alone = sharedLoader(upstream, failing, { maxAgeMs: 60_000, log: (line) => lines.push(line), now: () => clock });
      expect((await alone('escrow-gaps', () => undefined)).generatedAt).toBe('2026-11-23T10:00:30.000Z');
      expect(lines).toEqual(['report escrow-gaps: the state store failed (storage unreachable); loading without sharing']);
    } finally {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
