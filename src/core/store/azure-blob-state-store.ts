import { createHash } from 'node:crypto';
import { BlobServiceClient, RestError } from '@azure/storage-blob';
import type { ContainerClient } from '@azure/storage-blob';
import { channelLockLoop, emptyLedger, isStoredInstallation, parseJsonOrUndefined, parseLedger } from './state-store.js';
import type { ChannelLedger, LockOutcome, StateStore, StoredInstallation, StoredReference } from './state-store.js';

export interface AzureBlobStateStoreOptions {
  container?: string;
  /** Seconds a channel lease lasts unless renewed: Blob leases last 15 to 60 seconds, or forever. */
  leaseSeconds?: number;
  warn?: (line: string) => void;
}

/**
 * The scale-out state store: Azure Blob Storage, shared by every instance of the app. One blob per
 * installation and per channel ledger (an upload replaces a block blob whole); the posting lock is a
 * lease on a blob per channel, which lapses by itself when its holder dies
 * (learn.microsoft.com/rest/api/storageservices/lease-blob).
 */
export class AzureBlobStateStore implements StateStore {
  readonly kind = 'azure-blob' as const;
  private readonly leaseSeconds: number;
  private readonly warn: (line: string) => void;

  private constructor(
    private readonly container: ContainerClient,
    options: AzureBlobStateStoreOptions,
  ) {
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.warn = options.warn ?? (() => undefined);
  }

  static async open(connectionString: string, options: AzureBlobStateStoreOptions = {}): Promise<AzureBlobStateStore> {
    const container = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(options.container ?? 'dmhealth-state');
    await container.createIfNotExists();
    return new AzureBlobStateStore(container, options);
  }

  async putInstallation(key: string, reference: StoredReference, options: { overwrite: boolean }): Promise<boolean> {
    const body = JSON.stringify({ key, reference } satisfies StoredInstallation);
    try {
      await this.blob('installations', key).upload(body, Buffer.byteLength(body), {
        blobHTTPHeaders: { blobContentType: 'application/json' },
        ...(options.overwrite ? {} : { conditions: { ifNoneMatch: '*' } }),
      });
      return true;
    } catch (error) {
      if (!options.overwrite && isStatus(error, 409, 412)) return false;
      throw error;
    }
  }

  async removeInstallation(key: string): Promise<boolean> {
    return (await this.blob('installations', key).deleteIfExists()).succeeded;
  }

  async listInstallations(): Promise<StoredInstallation[]> {
    const names: string[] = [];
    for await (const item of this.container.listBlobsFlat({ prefix: 'installations/' })) names.push(item.name);
    const installations: StoredInstallation[] = [];
    // Eight downloads at a time: a few thousand installations list in seconds without a flood.
    for (let index = 0; index < names.length; index += 8) {
      const texts = await Promise.all(names.slice(index, index + 8).map((name) => this.download(this.container.getBlockBlobClient(name))));
      texts.forEach((text, offset) => {
        if (text === null) return;
        const parsed = parseJsonOrUndefined(text);
        if (isStoredInstallation(parsed)) installations.push(parsed);
        else this.warn(`state store: skipped the unreadable installation blob ${names[index + offset]}`);
      });
    }
    return installations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async readLedger(channel: string): Promise<ChannelLedger> {
    const text = await this.download(this.blob('ledgers', channel));
    return text === null ? emptyLedger(channel) : parseLedger(text, channel);
  }

  async writeLedger(ledger: ChannelLedger): Promise<void> {
    const body = JSON.stringify(ledger);
    await this.blob('ledgers', ledger.channel).upload(body, Buffer.byteLength(body), { blobHTTPHeaders: { blobContentType: 'application/json' } });
  }

  async withChannelLock<T>(channel: string, work: () => Promise<T>, options: { waitMs?: number } = {}): Promise<LockOutcome<T>> {
    const lockBlob = this.blob('locks', channel);
    try {
      await lockBlob.upload('', 0, { conditions: { ifNoneMatch: '*' } });
    } catch (error) {
      if (!isStatus(error, 409, 412)) throw error;
    }
    const lease = lockBlob.getBlobLeaseClient();
    return channelLockLoop({
      waitMs: options.waitMs ?? 60_000,
      tryAcquire: async () => {
        try {
          await lease.acquireLease(this.leaseSeconds);
          return true;
        } catch (error) {
          if (isStatus(error, 409)) return false;
          throw error;
        }
      },
      renewEveryMs: (this.leaseSeconds * 1000) / 3,
      renew: () => lease.renewLease(),
      release: () => lease.releaseLease(),
      work,
      warn: this.warn,
    });
  }

  async close(): Promise<void> {}

  private blob(folder: string, key: string) {
    return this.container.getBlockBlobClient(`${folder}/${createHash('sha256').update(key, 'utf8').digest('hex')}.json`);
  }

  private async download(blob: ReturnType<ContainerClient['getBlockBlobClient']>): Promise<string | null> {
    try {
      return (await blob.downloadToBuffer()).toString('utf8');
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
  }
}

function isStatus(error: unknown, ...statuses: number[]): boolean {
  return error instanceof RestError && statuses.includes(error.statusCode ?? 0);
}
