import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/app/config.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { openStateStore } from '../../src/app/open-state-store.js';
import { StateStoreError } from '../../src/store/state-store.js';
import { REPO_ROOT } from '../support/browser.js';
import { holdLock } from '../support/gate.js';
import { describeStateStoreContract, ledger } from './state-store-contract.js';

const directories: string[] = [];
function freshDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'dmhealth-state-'));
  directories.push(directory);
  return directory;
}
/** Where the tenant's state of the stores opened here is kept. */
const tenantFolder = (directory: string) => join(directory, 'tenants', 'test-tenant');
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describeStateStoreContract('file store', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'dmhealth-state-'));
  return { open: (tenant = 'test-tenant') => openStateStore(`file:${directory}`, { tenant }), dispose: async () => rmSync(directory, { recursive: true, force: true }) };
});

describe('the file store across processes', () => {
  /** The built store, which a plain Node child process can import (npm test builds before it tests). */
  const BUILT_STORE = join(REPO_ROOT, 'dist', 'store', 'file-state-store.js');
  const WORKER = join(REPO_ROOT, 'test', 'store', 'file-store-worker.mjs');

  interface WorkerReport {
    writer: string;
    busy: number;
    added: number[];
  }

  /** A child process running file-store-worker.mjs: ready once it has opened the store, writing once told to go. */
  function startWorker(directory: string, times: number) {
    const child = spawn(process.execPath, [WORKER, pathToFileURL(BUILT_STORE).href, directory, String(times)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    let stdout = '';
    let stderr = '';
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith('ready\n')) onReady();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<WorkerReport>((resolve, reject) => {
      child.once('exit', (code, signal) => {
        clearTimeout(killer);
        if (code === 0) resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkerReport);
        else reject(new Error(`the store worker exited (${code ?? signal}):\n${stderr}`));
      });
    });
    return { ready: Promise.race([ready, done.then(() => undefined)]), go: () => child.stdin.end('go\n'), done };
  }

  it('loses no update, and tears no file, when two processes write one store at once', async () => {
    expect(existsSync(BUILT_STORE), `${BUILT_STORE} is missing: run npm run build`).toBe(true);
    for (const source of ['file-state-store.ts', 'state-store.ts']) {
      const sourceChanged = statSync(join(REPO_ROOT, 'src', 'store', source)).mtimeMs;
      expect(statSync(BUILT_STORE).mtimeMs >= sourceChanged, `src/store/${source} changed since the build: run npm run build`).toBe(true);
    }
    const directory = freshDirectory();
    const times = 25;
    const workers = [startWorker(directory, times), startWorker(directory, times)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const reports = await Promise.all(workers.map((worker) => worker.done));

    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant', warn: (line) => warnings.push(line) });
    // Every increment saw the one before it: entry k found k entries.
    const counter = await store.readLedger('19:counter');
    expect(reports.map((report) => report.busy)).toEqual([0, 0]);
    expect(counter.entries.map((entry) => entry.subjectId)).toEqual(Array.from({ length: 2 * times }, (_, index) => String(index)));
    expect(new Set(counter.entries.map((entry) => entry.fingerprint)).size).toBe(2 * times);

    // Every installation file is whole JSON; each key added by both was added by exactly one.
    for (const name of readdirSync(join(tenantFolder(directory), 'installations')))
      expect(() => JSON.parse(readFileSync(join(tenantFolder(directory), 'installations', name), 'utf8')) as unknown).not.toThrow();
    const installations = await store.listInstallations();
    expect(warnings).toEqual([]);
    expect(installations).toHaveLength(times + 1);
    expect(reports.map((report) => report.writer)).toContain(installations.find((installation) => installation.key === '_t_shared')?.reference.writer);
    expect([...reports[0]!.added, ...reports[1]!.added].sort((a, b) => a - b)).toEqual(Array.from({ length: times }, (_, index) => index));
    for (const report of reports) {
      for (const index of report.added) expect(installations.find((installation) => installation.key === `_t_once_${index}`)?.reference).toEqual({ writer: report.writer });
    }

    // No temporary file or lock is left behind.
    for (const folder of ['installations', 'ledgers', 'locks']) expect(readdirSync(join(tenantFolder(directory), folder)).filter((name) => !name.endsWith('.json'))).toEqual([]);
  });
});

describe('the file store', () => {
  /** Leaves a lock file on `channel` as a holder that died `ageMs` ago would. */
  async function abandonLock(directory: string, channel: string, ageMs: number): Promise<string> {
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
    let lockFile = '';
    await store.withLock(channel, async () => {
      lockFile = join(tenantFolder(directory), 'locks', readdirSync(join(tenantFolder(directory), 'locks'))[0]!);
    });
    writeFileSync(lockFile, JSON.stringify({ holder: 'dead', pid: 1, at: '2026-01-01T00:00:00Z' }));
    utimesSync(lockFile, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
    return lockFile;
  }

  it('takes over a lock whose holder stopped renewing it', async () => {
    const directory = freshDirectory();
    const lockFile = await abandonLock(directory, '19:stale', 60_000);
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000, warn: (line) => warnings.push(line) });
    expect(await store.withLock('19:stale', async () => 'taken over', { waitMs: 5_000 })).toEqual({ ok: true, value: 'taken over' });
    expect(warnings).toEqual([`state store: took over a channel lock whose holder stopped renewing it (${lockFile})`]);
    expect(readdirSync(join(tenantFolder(directory), 'locks'))).toEqual([]);
  });

  it("takes over at once a fresh lock whose holder on this host has ended, and waits for a live one's", async () => {
    const directory = freshDirectory();
    const lockFile = await abandonLock(directory, '19:crashed', 0);
    const ended = spawnSync(process.execPath, ['--eval', '']).pid!;
    writeFileSync(lockFile, JSON.stringify({ holder: 'crashed', host: hostname(), pid: ended, at: new Date().toISOString() }));
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 60_000, warn: (line) => warnings.push(line) });
    expect(await store.withLock('19:crashed', async () => 'taken over', { waitMs: 2_000 })).toEqual({ ok: true, value: 'taken over' });
    expect(warnings).toEqual([`state store: took over a channel lock whose holder is no longer running (${lockFile})`]);

    // A holder that still runs, or one on another host, keeps its lock until the lease lapses.
    const alive = spawn(process.execPath, ['--eval', 'setTimeout(() => {}, 30_000)']);
    try {
      for (const lock of [
        { host: hostname(), pid: alive.pid },
        { host: `not-${hostname()}`, pid: ended },
      ]) {
        const held = await abandonLock(directory, '19:held', 0);
        writeFileSync(held, JSON.stringify({ holder: 'elsewhere', ...lock, at: new Date().toISOString() }));
        expect(await store.withLock('19:held', async () => 'ran', { waitMs: 500 })).toEqual({ ok: false, reason: 'busy' });
        rmSync(held);
      }
    } finally {
      alive.kill('SIGKILL');
    }
  });

  it('lets one holder at a time in when several stores break the same stale lock at once', async () => {
    const directory = freshDirectory();
    for (let round = 0; round < 5; round++) {
      await abandonLock(directory, '19:contested', 60_000);
      const stores = await Promise.all(Array.from({ length: 4 }, () => FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000 })));
      let holding = 0;
      let mostAtOnce = 0;
      const outcomes = await Promise.all(
        stores.map((store) =>
          store.withLock(
            '19:contested',
            async () => {
              mostAtOnce = Math.max(mostAtOnce, ++holding);
              await new Promise((resolve) => setTimeout(resolve, 5));
              holding--;
            },
            { waitMs: 10_000 },
          ),
        ),
      );
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      expect(mostAtOnce).toBe(1);
    }
  });

  it('does not take over a lock whose holder keeps renewing it past the lease', async () => {
    const directory = freshDirectory();
    const holder = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000 });
    const contender = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000 });
    const release = await holdLock(holder, '19:alive');
    // Two and a half leases: a lock nobody renewed would have been taken over twice over.
    expect(await contender.withLock('19:alive', async () => 'ran', { waitMs: 2_500 })).toEqual({ ok: false, reason: 'busy' });
    await release();
  });

  it('refuses a torn ledger with a typed error rather than reading it as empty', async () => {
    const directory = freshDirectory();
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
    await store.writeLedger(ledger('19:torn', 2));
    const [file] = readdirSync(join(tenantFolder(directory), 'ledgers'));
    writeFileSync(join(tenantFolder(directory), 'ledgers', file!), '{"channel":"19:torn","entr');
    await expect(store.readLedger('19:torn')).rejects.toThrow(StateStoreError);
    // Another channel's ledger under this channel's name is as wrong.
    writeFileSync(join(tenantFolder(directory), 'ledgers', file!), JSON.stringify(ledger('19:other', 1)));
    await expect(store.readLedger('19:torn')).rejects.toThrow(StateStoreError);
  });

  it('skips an unreadable installation and says so, keeping the others', async () => {
    const directory = freshDirectory();
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant', warn: (line) => warnings.push(line) });
    await store.putInstallation('_t_good', { conversation: { id: 'good' } }, { overwrite: false });
    writeFileSync(join(tenantFolder(directory), 'installations', 'broken.json'), 'not json');
    writeFileSync(join(tenantFolder(directory), 'installations', 'foreign.json'), '{"key":42}');
    expect((await store.listInstallations()).map((installation) => installation.key)).toEqual(['_t_good']);
    expect(warnings.sort()).toEqual(['state store: skipped the unreadable installation file broken.json', 'state store: skipped the unreadable installation file foreign.json']);
  });
});

describe('the file store at its start', () => {
  it('removes the temporary files of writes whose process ended (a crash, kill -9), and keeps those of writes under way', async () => {
    const directory = freshDirectory();
    const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
    await store.writeDocument('triage', '{}');
    const ended = spawnSync(process.execPath, ['--eval', '']).pid!;
    const alive = spawn(process.execPath, ['--eval', 'setTimeout(() => {}, 30_000)']);
    try {
      const documents = join(tenantFolder(directory), 'documents');
      const uuid = '0f0e0d0c-0b0a-4009-8807-060504030201';
      writeFileSync(join(documents, `triage.json.${ended}.${uuid}.tmp`), '{"decisions":');
      writeFileSync(join(documents, `history-escrow-gaps.json.${alive.pid}.${uuid}.tmp`), '{"report":');
      const staleLock = join(tenantFolder(directory), 'locks', `${'a'.repeat(64)}.lock.${uuid}.stale`);
      writeFileSync(staleLock, '{}');
      utimesSync(staleLock, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
      const warnings: string[] = [];
      await FileStateStore.open(directory, { tenant: 'test-tenant', warn: (line) => warnings.push(line) });
      expect(readdirSync(documents).sort()).toEqual([`history-escrow-gaps.json.${alive.pid}.${uuid}.tmp`, 'triage.json']);
      expect(existsSync(staleLock)).toBe(false);
      expect(warnings).toEqual(['state store: removed 2 temporary files left by writes that were interrupted']);
      expect(readFileSync(join(documents, 'triage.json'), 'utf8')).toBe('{}');
    } finally {
      alive.kill('SIGKILL');
    }
  });

  it("leaves state written before it was kept per tenant where it is, never reads it as a tenant's, and says so", async () => {
    const directory = freshDirectory();
    for (const folder of ['documents', 'installations', 'ledgers', 'locks']) mkdirSync(join(directory, folder));
    writeFileSync(
      join(directory, 'documents', 'history-escrow-gaps.json'),
      JSON.stringify({ report: 'escrow-gaps', points: [{ at: '2026-11-01T00:00:00Z', findings: 15570, counts: {}, fresh: null, resolved: null }] }),
    );
    writeFileSync(join(directory, 'documents', 'triage.json'), JSON.stringify({ decisions: [], audit: [], updatedAt: null }));
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { tenant: 'demo-8a4f0c52-6d2e-4e91-b7a3-5c1d9e0f2b64', warn: (line) => warnings.push(line) });
    expect(await store.readDocument('history-escrow-gaps')).toBeNull();
    expect(await store.readDocument('triage')).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/holds state written before it was kept per tenant .* not shown for any tenant and can be deleted/)]);
    expect(existsSync(join(directory, 'documents', 'history-escrow-gaps.json'))).toBe(true);
  });

  it('refuses a tenant key that is not one, before it names a folder', async () => {
    const directory = freshDirectory();
    for (const tenant of ['', '../other', 'Contoso', 'a/b', 'demo-']) await expect(FileStateStore.open(directory, { tenant })).rejects.toThrow(/Not a tenant key/);
    expect(readdirSync(directory)).toEqual([]);
  });
});

describe('openStateStore', () => {
  it('opens a file store relative to the working directory', async () => {
    const directory = freshDirectory();
    const store = await openStateStore(`file:${directory}`, { tenant: 'test-tenant' });
    expect(store.kind).toBe('file');
    expect(readdirSync(directory)).toEqual(['tenants']);
    expect(readdirSync(tenantFolder(directory)).sort()).toEqual(['documents', 'installations', 'ledgers', 'locks']);
  });

  it('refuses anything else with a ConfigError naming the accepted forms, never echoing a key', async () => {
    for (const spec of ['redis://127.0.0.1', 'file:', 'DefaultEndpointsProtocol=https;AccountKey=c2VjcmV0', 'AccountName=devstoreaccount1;AccountKey=c2VjcmV0']) {
      const error = await openStateStore(spec, { tenant: 'test-tenant' }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(/file:<directory>.*Azure Storage connection string/);
      expect((error as ConfigError).message).not.toMatch(/c2VjcmV0/);
    }
  });
});
