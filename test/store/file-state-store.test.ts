import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../src/core/store/file-state-store.js';
import { openStateStore } from '../../src/core/store/open-state-store.js';
import { StateStoreError } from '../../src/core/store/state-store.js';
import { REPO_ROOT } from '../support/browser.js';
import { describeStateStoreContract } from './state-store-contract.js';

const run = promisify(execFile);
const directories: string[] = [];
function freshDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'dmhealth-state-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describeStateStoreContract('file store', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'dmhealth-state-'));
  return { open: () => openStateStore(`file:${directory}`), dispose: async () => rmSync(directory, { recursive: true, force: true }) };
});

describe('the file store across processes', () => {
  /** The built store (npm test builds before it tests), so that a child process needs no TypeScript. */
  const BUILT_STORE = pathToFileURL(join(REPO_ROOT, 'dist', 'core', 'store', 'file-state-store.js')).href;

  /** A child process that adds 1 to a counter kept in a ledger, `times` times, each under the channel lock. */
  function incrementer(directory: string, times: number): Promise<unknown> {
    const script = `
      import { FileStateStore } from ${JSON.stringify(BUILT_STORE)};
      const store = await FileStateStore.open(${JSON.stringify(directory)});
      for (let i = 0; i < ${times}; i++) {
        const outcome = await store.withChannelLock('19:counter', async () => {
          const ledger = await store.readLedger('19:counter');
          await store.putInstallation('_t_' + process.pid + '_' + i, { conversation: { id: String(i) } }, { overwrite: true });
          await store.writeLedger({ ...ledger, updatedAt: new Date().toISOString(), entries: [...ledger.entries, { fingerprint: process.pid + '-' + i, report: 'escrow-gaps', kind: 'k', subjectId: 's', subjectName: 'n', status: 'open', changedAt: new Date().toISOString() }] });
        }, { waitMs: 30000 });
        if (!outcome.ok) throw new Error('busy');
      }
      await store.close();`;
    return run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
  }

  it('loses no update when two processes read, change and write one ledger under the lock', async () => {
    expect(existsSync(new URL(BUILT_STORE))).toBe(true);
    const directory = freshDirectory();
    await Promise.all([incrementer(directory, 25), incrementer(directory, 25)]);
    const store = await FileStateStore.open(directory);
    expect((await store.readLedger('19:counter')).entries).toHaveLength(50);
    expect(await store.listInstallations()).toHaveLength(50);
    expect(readdirSync(join(directory, 'ledgers')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(join(directory, 'locks'))).toEqual([]);
  });
});

describe('the file store', () => {
  it('takes over a lock whose holder stopped renewing it', async () => {
    const directory = freshDirectory();
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { leaseMs: 1_000, warn: (line) => warnings.push(line) });
    // A holder that died: its lock file stays, untouched for longer than the lease.
    const holder = await FileStateStore.open(directory, { leaseMs: 1_000 });
    let lockFile = '';
    await holder.withChannelLock('19:stale', async () => {
      lockFile = join(directory, 'locks', readdirSync(join(directory, 'locks'))[0]!);
    });
    writeFileSync(lockFile, JSON.stringify({ holder: 'dead', pid: 1, at: '2026-01-01T00:00:00Z' }));
    utimesSync(lockFile, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await store.withChannelLock('19:stale', async () => 'taken over', { waitMs: 5_000 })).toEqual({ ok: true, value: 'taken over' });
    expect(warnings.some((line) => line.includes('took over a lock'))).toBe(true);
  });

  it('refuses a torn ledger with a typed error rather than reading it as empty', async () => {
    const directory = freshDirectory();
    const store = await FileStateStore.open(directory);
    await store.writeLedger({ channel: '19:torn', entries: [], updatedAt: null });
    const [file] = readdirSync(join(directory, 'ledgers'));
    writeFileSync(join(directory, 'ledgers', file!), '{"channel":"19:torn","entr');
    await expect(store.readLedger('19:torn')).rejects.toBeInstanceOf(StateStoreError);
  });

  it('skips an unreadable installation and says so, keeping the others', async () => {
    const directory = freshDirectory();
    const warnings: string[] = [];
    const store = await FileStateStore.open(directory, { warn: (line) => warnings.push(line) });
    await store.putInstallation('_t_good', { conversation: { id: 'good' } }, { overwrite: false });
    writeFileSync(join(directory, 'installations', 'broken.json'), 'not json');
    expect((await store.listInstallations()).map((installation) => installation.key)).toEqual(['_t_good']);
    expect(warnings).toEqual(['state store: skipped the unreadable installation file broken.json']);
  });

  it('opens only the stores STATE_STORE can name, without echoing a key', async () => {
    await expect(openStateStore('redis://127.0.0.1')).rejects.toThrow(/file:<directory> or an Azure Storage connection string/);
    await expect(openStateStore('DefaultEndpointsProtocol=https;AccountKey=c2VjcmV0')).rejects.not.toThrow(/c2VjcmV0/);
  });
});
