import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { channelLockLoop, emptyLedger, isStoredInstallation, parseJsonOrUndefined, parseLedger } from './state-store.js';
import type { ChannelLedger, LockOutcome, StateStore, StoredInstallation, StoredReference } from './state-store.js';

export interface FileStateStoreOptions {
  /** A lock file untouched this long belongs to a holder that died, and may be taken over. */
  leaseMs?: number;
  warn?: (line: string) => void;
}

/**
 * The embedded state store: one JSON file per installation and per channel ledger under a
 * directory (`.data` by default). Every write goes to a temporary file that is flushed and then
 * renamed over the target, so a reader, another process or a restart after a crash sees the old
 * file or the new one, never a torn one. Different installations and channels never share a file.
 */
export class FileStateStore implements StateStore {
  readonly kind = 'file' as const;
  private readonly leaseMs: number;
  private readonly warn: (line: string) => void;
  /** Callers in this process queue per channel rather than poll the lock file. */
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly directory: string,
    options: FileStateStoreOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.warn = options.warn ?? (() => undefined);
  }

  static async open(directory: string, options: FileStateStoreOptions = {}): Promise<FileStateStore> {
    for (const folder of ['installations', 'ledgers', 'locks']) await mkdir(join(directory, folder), { recursive: true });
    return new FileStateStore(directory, options);
  }

  async putInstallation(key: string, reference: StoredReference, options: { overwrite: boolean }): Promise<boolean> {
    const target = this.path('installations', key, '.json');
    const body = JSON.stringify({ key, reference } satisfies StoredInstallation);
    if (options.overwrite) {
      await this.replace(target, body);
      return true;
    }
    // A hard link never replaces an existing name: of two processes adding at once, one wins whole.
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
      if (text === null) continue;
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

  withChannelLock<T>(channel: string, work: () => Promise<T>, options: { waitMs?: number } = {}): Promise<LockOutcome<T>> {
    const previous = this.queues.get(channel) ?? Promise.resolve();
    const run = previous.then(() => this.holdLockFile(channel, work, options.waitMs ?? 60_000));
    const settled = run.catch(() => undefined);
    this.queues.set(channel, settled);
    void settled.then(() => {
      if (this.queues.get(channel) === settled) this.queues.delete(channel);
    });
    return run;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private async holdLockFile<T>(channel: string, work: () => Promise<T>, waitMs: number): Promise<LockOutcome<T>> {
    const lockPath = this.path('locks', channel, '.lock');
    const holder = randomUUID();
    return channelLockLoop({
      waitMs,
      tryAcquire: () => this.tryCreateLock(lockPath, holder),
      // Touching the file is the lease's heartbeat; a holder that died stops touching it.
      renewEveryMs: this.leaseMs / 3,
      renew: () => utimes(lockPath, new Date(), new Date()),
      release: async () => {
        const text = await readFile(lockPath, 'utf8').catch(() => '');
        if ((parseJsonOrUndefined(text) as { holder?: string } | undefined)?.holder === holder) await unlink(lockPath).catch(() => undefined);
      },
      work,
      warn: this.warn,
    });
  }

  private async tryCreateLock(lockPath: string, holder: string): Promise<boolean> {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(JSON.stringify({ holder, pid: process.pid, at: new Date().toISOString() }));
      } finally {
        await handle.close();
      }
      return true;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const stale = await stat(lockPath).then(
      (info) => Date.now() - info.mtimeMs > this.leaseMs,
      () => false,
    );
    if (stale) {
      // Of two processes breaking the same stale lock, only the one whose rename succeeds removes it.
      const broken = `${lockPath}.${randomUUID()}.stale`;
      if (await rename(lockPath, broken).then(() => true, () => false)) {
        this.warn(`state store: took over a lock whose holder stopped renewing it (${lockPath})`);
        await unlink(broken).catch(() => undefined);
      }
    }
    return false;
  }

  private path(folder: string, key: string, extension: string): string {
    return join(this.directory, folder, `${createHash('sha256').update(key, 'utf8').digest('hex')}${extension}`);
  }

  private async replace(target: string, body: string): Promise<void> {
    const temporary = await this.writeTemporary(target, body);
    try {
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  private async writeTemporary(target: string, body: string): Promise<string> {
    const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(body, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    return temporary;
  }
}


function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
