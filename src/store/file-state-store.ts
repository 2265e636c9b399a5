import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  UNSCOPED_FOLDERS,
  checkDocumentName,
  checkTenantKey,
  compressText,
  decompressText,
  emptyLedger,
  isStoredInstallation,
  lockLoop,
  parseJsonOrUndefined,
  parseLedger,
  tenantFolder,
  unscopedStateWarning,
} from './state-store.js';
import type { ChannelLedger, DocumentName, LockOutcome, StateStore, StoredInstallation, StoredReference, TenantKey } from './state-store.js';

export interface FileStateStoreOptions {
  /** Whose state this is: kept in `<directory>/tenants/<tenant>/`. */
  tenant: TenantKey;
  /** A lock file untouched this long belongs to a holder that died, and may be taken over (30 s); a live holder touches it every third of that. */
  leaseMs?: number;
  warn?: (line: string) => void;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_WAIT_MS = 60_000;
const BUSY = { ok: false, reason: 'busy' } as const;

/**
 * The embedded state store: under a directory (`.data` by default), a folder per tenant
 * (`tenants/<tenant>/`) holding one JSON file per installation and per channel ledger, named by the
 * SHA-256 of the key or channel, and the app's documents by their names (`documents/triage.json`). Every write goes to a
 * temporary file in the same folder that is flushed to disk and then renamed over the target, so a
 * reader, another process or a restart after a crash sees the old file or the new one, never a torn
 * one. Different installations and channels never share a file, so they never race.
 */
export class FileStateStore implements StateStore {
  readonly kind = 'file' as const;
  private readonly leaseMs: number;
  private readonly warn: (line: string) => void;
  /** Callers in this process queue per lock name rather than poll the lock file. */
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(
    /** The tenant's own folder: everything this store reads and writes is in it. */
    private readonly directory: string,
    readonly tenant: TenantKey,
    options: FileStateStoreOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.warn = options.warn ?? (() => undefined);
  }

  /**
   * Opens the tenant's folder under `directory`, creating it, and removes what writes interrupted
   * by a crash or `kill -9` left behind: a temporary file whose writer is no longer running, a lock
   * file moved aside whose lease has lapsed.
   */
  static async open(directory: string, options: FileStateStoreOptions): Promise<FileStateStore> {
    checkTenantKey(options.tenant);
    const tenantDirectory = join(directory, tenantFolder(options.tenant));
    for (const folder of FOLDERS) await mkdir(join(tenantDirectory, folder), { recursive: true });
    const store = new FileStateStore(tenantDirectory, options.tenant, options);
    const removed = await store.removeInterruptedWrites();
    if (removed > 0) store.warn(`state store: removed ${removed} temporary file${removed === 1 ? '' : 's'} left by writes that were interrupted`);
    if (await holdsUnscopedState(directory)) store.warn(unscopedStateWarning(`the folder ${directory}`));
    return store;
  }

  async putInstallation(key: string, reference: StoredReference, options: { overwrite: boolean }): Promise<boolean> {
    const target = this.path('installations', key, '.json');
    const body = JSON.stringify({ key, reference } satisfies StoredInstallation);
    if (options.overwrite) {
      await this.replace(target, body);
      return true;
    }
    // A hard link never replaces an existing name: of two processes adding at once, one wins, and
    // the file it adds is already whole.
    const temporary = await this.writeTemporary(target, body);
    try {
      await link(temporary, target);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  async removeInstallation(key: string): Promise<boolean> {
    try {
      await unlink(this.path('installations', key, '.json'));
      return true;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  }

  async listInstallations(): Promise<StoredInstallation[]> {
    const folder = join(this.directory, 'installations');
    const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
    const installations: StoredInstallation[] = [];
    for (const name of names) {
      const text = await readFile(join(folder, name), 'utf8').catch((error: unknown) => (errorCode(error) === 'ENOENT' ? null : Promise.reject(error)));
      if (text === null) continue; // removed since the folder was read
      const parsed = parseJsonOrUndefined(text);
      if (isStoredInstallation(parsed)) installations.push(parsed);
      // One unreadable installation must not stop posts to all the others.
      else this.warn(`state store: skipped the unreadable installation file ${name}`);
    }
    return installations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async readLedger(channel: string): Promise<ChannelLedger> {
    let text: string;
    try {
      text = await readFile(this.path('ledgers', channel, '.json'), 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return emptyLedger(channel);
      throw error;
    }
    return parseLedger(text, channel);
  }

  async writeLedger(ledger: ChannelLedger): Promise<void> {
    await this.replace(this.path('ledgers', ledger.channel, '.json'), JSON.stringify(ledger));
  }

  async readDocument(name: DocumentName): Promise<string | null> {
    checkDocumentName(name);
    return readFile(join(this.directory, 'documents', `${name}.json`), 'utf8').catch((error: unknown) => (errorCode(error) === 'ENOENT' ? null : Promise.reject(error)));
  }

  async writeDocument(name: DocumentName, text: string): Promise<void> {
    checkDocumentName(name);
    await this.replace(join(this.directory, 'documents', `${name}.json`), text);
  }

  async readCompressed(name: DocumentName): Promise<string | null> {
    checkDocumentName(name);
    const bytes = await readFile(join(this.directory, 'documents', `${name}.json.gz`)).catch((error: unknown) => (errorCode(error) === 'ENOENT' ? null : Promise.reject(error)));
    return bytes === null ? null : decompressText(bytes, name);
  }

  async writeCompressed(name: DocumentName, text: string): Promise<void> {
    checkDocumentName(name);
    await this.replace(join(this.directory, 'documents', `${name}.json.gz`), await compressText(text));
  }

  withLock<T>(name: string, work: () => Promise<T>, options: { waitMs?: number } = {}): Promise<LockOutcome<T>> {
    const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
    const previous = this.queues.get(name) ?? Promise.resolve();
    let turn: 'queued' | 'started' | 'gave-up' = 'queued';
    const outcome = previous.then(() => {
      if (turn === 'gave-up') return BUSY;
      turn = 'started';
      return this.holdLockFile(name, work, deadline - Date.now());
    });
    const settled = outcome.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(name, settled);
    void settled.then(() => {
      if (this.queues.get(name) === settled) this.queues.delete(name);
    });
    // Waiting behind work in this process counts against waitMs too: a caller still queued at its
    // deadline is busy, as it would be waiting on another process.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<LockOutcome<T>>((resolve) => {
      timer = setTimeout(
        () => {
          if (turn !== 'queued') return;
          turn = 'gave-up';
          resolve(BUSY);
        },
        Math.max(0, deadline - Date.now()),
      );
    });
    return Promise.race([outcome, gaveUp]).finally(() => clearTimeout(timer));
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private async holdLockFile<T>(name: string, work: () => Promise<T>, waitMs: number): Promise<LockOutcome<T>> {
    const lockPath = this.path('locks', name, '.lock');
    const holder = randomUUID();
    return lockLoop({
      name,
      waitMs,
      tryAcquire: () => this.tryCreateLock(lockPath, holder),
      // Touching the file is the lease's heartbeat; a holder that died stops touching it.
      renewEveryMs: this.leaseMs / 3,
      renew: () => utimes(lockPath, new Date(), new Date()),
      release: async () => {
        const text = await readFile(lockPath, 'utf8').catch(() => '');
        if ((parseJsonOrUndefined(text) as { holder?: unknown } | undefined)?.holder === holder) await unlink(lockPath).catch(() => undefined);
      },
      work,
      warn: this.warn,
    });
  }

  /** Creates the lock file if nobody holds it; clears it first if its holder stopped renewing it. */
  private async tryCreateLock(lockPath: string, holder: string): Promise<boolean> {
    let handle;
    try {
      handle = await open(lockPath, 'wx');
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Whoever clears a stale lock tries for it at once; the others wait their turn.
      return (await this.breakIfStale(lockPath)) && this.tryCreateLock(lockPath, holder);
    }
    try {
      await handle.writeFile(JSON.stringify({ holder, host: hostname(), pid: process.pid, at: new Date().toISOString() }));
    } catch (error) {
      await unlink(lockPath).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
    return true;
  }

  /**
   * Removes a lock file whose holder is gone: its mtime is older than the lease, or it names a
   * process on this host that no longer runs (a crash and restart need not wait out the lease). Two
   * processes may find the same stale lock: moving it to a unique name is atomic, so only one of them
   * moves the stale file. One that comes later may instead move a fresh lock another process has
   * just created; it knows it by its inode and links it back, which never replaces a lock created in
   * the meantime.
   */
  private async breakIfStale(lockPath: string): Promise<boolean> {
    const seen = await stat(lockPath).catch(() => null);
    if (!seen) return false;
    const expired = (mtimeMs: number) => Date.now() - mtimeMs > this.leaseMs;
    const holderDied = !expired(seen.mtimeMs) && (await lockHolderIsGone(lockPath));
    if (!expired(seen.mtimeMs) && !holderDied) return false;
    const moved = `${lockPath}.${randomUUID()}.stale`;
    const movedIt = await rename(lockPath, moved).then(
      () => true,
      () => false,
    );
    if (!movedIt) return false;
    const taken = await stat(moved);
    const broken = taken.ino === seen.ino && taken.dev === seen.dev && (holderDied || expired(taken.mtimeMs));
    if (broken) this.warn(`state store: took over a channel lock whose holder ${holderDied ? 'is no longer running' : 'stopped renewing it'} (${lockPath})`);
    else await link(moved, lockPath).catch(() => this.warn(`state store: could not put back a fresh channel lock it had moved aside (${lockPath})`));
    await unlink(moved).catch(() => undefined);
    return broken;
  }

  /** Removes the leftovers of writes that were interrupted (`open`); answers how many it removed. */
  private async removeInterruptedWrites(): Promise<number> {
    let removed = 0;
    for (const folder of FOLDERS) {
      const names = await readdir(join(this.directory, folder));
      for (const name of names) {
        const path = join(this.directory, folder, name);
        const writer = TEMPORARY_FILE.exec(name);
        const leftover = writer
          ? processIsGone(Number(writer[1]))
          : STALE_LOCK_FILE.test(name) && Date.now() - ((await stat(path).catch(() => null))?.mtimeMs ?? Date.now()) > this.leaseMs;
        if (leftover && (await removeIfThere(path))) removed += 1;
      }
    }
    return removed;
  }

  private path(folder: string, key: string, extension: string): string {
    return join(this.directory, folder, `${createHash('sha256').update(key, 'utf8').digest('hex')}${extension}`);
  }

  private async replace(target: string, body: string | Buffer): Promise<void> {
    const temporary = await this.writeTemporary(target, body);
    try {
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A whole, flushed copy of `body` beside `target` (the same folder, so a rename is atomic), named
   * with the writing process's id, by which a later start knows whether its writer is gone.
   */
  private async writeTemporary(target: string, body: string | Buffer): Promise<string> {
    const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(body);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await handle.close();
    return temporary;
  }
}

const FOLDERS = ['installations', 'ledgers', 'locks', 'documents'] as const;
/** `writeTemporary`'s names: `<target>.<pid>.<uuid>.tmp`. */
const TEMPORARY_FILE = /\.(\d+)\.[0-9a-f-]{36}\.tmp$/;
/** `breakIfStale`'s names for a lock it moved aside: `<lock>.<uuid>.stale`. */
const STALE_LOCK_FILE = /\.[0-9a-f-]{36}\.stale$/;

/** Removes a file; false when it was gone already (another process cleaning up at the same start). */
function removeIfThere(path: string): Promise<boolean> {
  return unlink(path).then(
    () => true,
    () => false,
  );
}

/** Whether files of the layout before state was kept per tenant are in `directory`. */
async function holdsUnscopedState(directory: string): Promise<boolean> {
  for (const folder of UNSCOPED_FOLDERS) {
    const names = await readdir(join(directory, folder)).catch(() => [] as string[]);
    if (names.some((name) => name.endsWith('.json') || name.endsWith('.json.gz'))) return true;
  }
  return false;
}

/**
 * Whether a process of this host has ended (signal 0 asks without touching it). A process of
 * another user answers EPERM: it runs. A reused process id only keeps a leftover until its new
 * owner ends.
 */
function processIsGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Whether a lock file names a process on this host that has ended. Only this host's processes can
 * be asked (signal 0 tests for a process without touching it); a lock from another host, or one
 * that cannot be read, waits for its lease to lapse. A reused process id only makes it wait too.
 */
async function lockHolderIsGone(lockPath: string): Promise<boolean> {
  const lock = parseJsonOrUndefined(await readFile(lockPath, 'utf8').catch(() => '')) as { host?: unknown; pid?: unknown } | undefined;
  return lock?.host === hostname() && typeof lock.pid === 'number' && processIsGone(lock.pid);
}
