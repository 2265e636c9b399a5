import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { RestError } from '@azure/storage-blob';
import type { BlobServiceClient, BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import {
  StateStoreError,
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

export interface AzureBlobStateStoreOptions {
  /** Whose state this is: kept under the prefix `tenants/<tenant>/`. */
  tenant: TenantKey;
  /** The container holding the state, created when missing (`dmhealth-state`). */
  container?: string;
  /**
   * Seconds a channel lease lasts unless renewed (30). Blob Storage allows 15 to 60, or infinite,
   * which a holder that died would never give back:
   * https://learn.microsoft.com/rest/api/storageservices/lease-blob
   */
  leaseSeconds?: number;
  warn?: (line: string) => void;
}

const DEFAULT_WAIT_MS = 60_000;
/** Downloads in flight while listing: a few thousand installations list in seconds without a flood. */
const LIST_CONCURRENCY = 8;

/**
 * The scale-out state store: Azure Blob Storage, shared by every instance of the app. Each
 * tenant's state is under the prefix `tenants/<tenant>/`, and below it
 * `installations/<sha256(key)>.json` and `ledgers/<sha256(channel)>.json` are block blobs, which an
 * upload replaces whole, as are the app's documents (`documents/<name>.json`); a lock is a lease on the empty blob `locks/<sha256(name)>`,
 * which lapses by itself when its holder dies.
 */
export class AzureBlobStateStore implements StateStore {
  readonly kind = 'azure-blob' as const;
  private readonly leaseSeconds: number;
  private readonly warn: (line: string) => void;

  /** `tenants/<tenant>/`: every blob this store reads and writes starts with it. */
  private readonly prefix: string;

  private constructor(
    private readonly container: ContainerClient,
    readonly tenant: TenantKey,
    options: AzureBlobStateStoreOptions,
  ) {
    this.prefix = `${tenantFolder(tenant)}/`;
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.warn = options.warn ?? (() => undefined);
  }

  static async open(service: BlobServiceClient, options: AzureBlobStateStoreOptions): Promise<AzureBlobStateStore> {
    checkTenantKey(options.tenant);
    const container = service.getContainerClient(options.container ?? 'dmhealth-state');
    await container.createIfNotExists();
    const store = new AzureBlobStateStore(container, options.tenant, options);
    if (await holdsUnscopedState(container)) store.warn(unscopedStateWarning(`the container ${container.containerName}`));
    return store;
  }

  async putInstallation(key: string, reference: StoredReference, options: { overwrite: boolean }): Promise<boolean> {
    const body = JSON.stringify({ key, reference } satisfies StoredInstallation);
    try {
      await this.blob('installations', key, '.json').upload(body, Buffer.byteLength(body), {
        blobHTTPHeaders: { blobContentType: 'application/json' },
        // If-None-Match: * makes the write fail when the blob exists, so of two instances adding at
        // once one wins: https://learn.microsoft.com/rest/api/storageservices/specifying-conditional-headers-for-blob-service-operations
        ...(options.overwrite ? {} : { conditions: { ifNoneMatch: '*' } }),
      });
      return true;
    } catch (error) {
      if (!options.overwrite && isStatus(error, 409, 412)) return false;
      throw error;
    }
  }

  async removeInstallation(key: string): Promise<boolean> {
    return (await this.blob('installations', key, '.json').deleteIfExists()).succeeded;
  }

  async listInstallations(): Promise<StoredInstallation[]> {
    const names: string[] = [];
    for await (const item of this.container.listBlobsFlat({ prefix: `${this.prefix}installations/` })) names.push(item.name);
    const installations: StoredInstallation[] = [];
    for (let index = 0; index < names.length; index += LIST_CONCURRENCY) {
      const batch = names.slice(index, index + LIST_CONCURRENCY);
      const texts = await Promise.all(batch.map((name) => this.download(this.container.getBlockBlobClient(name))));
      texts.forEach((text, offset) => {
        if (text === null) return; // removed since it was listed
        const parsed = parseJsonOrUndefined(text);
        if (isStoredInstallation(parsed)) installations.push(parsed);
        // One unreadable installation must not stop posts to all the others.
        else this.warn(`state store: skipped the unreadable installation blob ${batch[offset]}`);
      });
    }
    return installations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async readLedger(channel: string): Promise<ChannelLedger> {
    const text = await this.download(this.blob('ledgers', channel, '.json'));
    return text === null ? emptyLedger(channel) : parseLedger(text, channel);
  }

  async writeLedger(ledger: ChannelLedger): Promise<void> {
    const body = JSON.stringify(ledger);
    await this.blob('ledgers', ledger.channel, '.json').upload(body, Buffer.byteLength(body), { blobHTTPHeaders: { blobContentType: 'application/json' } });
  }

  async readDocument(name: DocumentName): Promise<string | null> {
    checkDocumentName(name);
    return this.download(this.container.getBlockBlobClient(`${this.prefix}documents/${name}.json`));
  }

  async writeDocument(name: DocumentName, text: string): Promise<void> {
    checkDocumentName(name);
    const body = Buffer.from(text, 'utf8');
    await this.container.getBlockBlobClient(`${this.prefix}documents/${name}.json`).upload(body, body.length, { blobHTTPHeaders: { blobContentType: 'application/json' } });
  }

  async readCompressed(name: DocumentName): Promise<string | null> {
    checkDocumentName(name);
    const bytes = await this.downloadBytes(this.container.getBlockBlobClient(`${this.prefix}documents/${name}.json.gz`));
    return bytes === null ? null : decompressText(bytes, name);
  }

  async writeCompressed(name: DocumentName, text: string): Promise<void> {
    checkDocumentName(name);
    const body = await compressText(text);
    await this.container.getBlockBlobClient(`${this.prefix}documents/${name}.json.gz`).upload(body, body.length, { blobHTTPHeaders: { blobContentType: 'application/gzip' } });
  }

  withLock<T>(name: string, work: () => Promise<T>, options: { waitMs?: number } = {}): Promise<LockOutcome<T>> {
    const lockBlob = this.blob('locks', name, '');
    // A lease client of its own proposes a fresh lease id: acquiring again with the id that holds
    // the lease would succeed, so two callers in this process must not share one.
    const lease = lockBlob.getBlobLeaseClient();
    const acquire = async (): Promise<boolean | 'no-blob'> => {
      try {
        await lease.acquireLease(this.leaseSeconds);
        return true;
      } catch (error) {
        if (isStatus(error, 409)) return false; // LeaseAlreadyPresent: another holder has it
        if (isStatus(error, 404)) return 'no-blob';
        throw error;
      }
    };
    return lockLoop({
      name,
      waitMs: options.waitMs ?? DEFAULT_WAIT_MS,
      tryAcquire: async () => {
        const acquired = await acquire();
        if (acquired !== 'no-blob') return acquired;
        // The channel's first lock: create its empty blob, as another instance may at the same moment.
        await lockBlob.upload('', 0, { conditions: { ifNoneMatch: '*' } }).catch((error: unknown) => {
          if (!isStatus(error, 409, 412)) throw error;
        });
        return (await acquire()) === true;
      },
      renewEveryMs: (this.leaseSeconds * 1000) / 3,
      renew: () => lease.renewLease(),
      release: () => lease.releaseLease(),
      work,
      warn: this.warn,
    });
  }

  async close(): Promise<void> {}

  private blob(folder: string, key: string, extension: string): BlockBlobClient {
    return this.container.getBlockBlobClient(`${this.prefix}${folder}/${createHash('sha256').update(key, 'utf8').digest('hex')}${extension}`);
  }

  private async download(blob: BlockBlobClient): Promise<string | null> {
    return (await this.downloadBytes(blob))?.toString('utf8') ?? null;
  }

  /**
   * The blob's bytes from one GET. Not `downloadToBuffer`: it asks for the size first and then for
   * that many bytes, without tying the second request to the first's ETag, so a blob replaced in
   * between reads torn (part of the new text, or a stream cut short). One GET is one version of the
   * blob; the SDK resumes a broken body only with `If-Match` on that version's ETag.
   */
  private async downloadBytes(blob: BlockBlobClient): Promise<Buffer | null> {
    try {
      const body = (await blob.download()).readableStreamBody;
      if (!body) throw new StateStoreError(`The blob ${blob.name} came back without a body.`);
      return await buffer(body);
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
  }
}

/** Whether blobs of the layout before state was kept per tenant are in the container (one listed is enough). */
async function holdsUnscopedState(container: ContainerClient): Promise<boolean> {
  for (const folder of UNSCOPED_FOLDERS) {
    const page = await container
      .listBlobsFlat({ prefix: `${folder}/` })
      .byPage({ maxPageSize: 1 })
      .next();
    if (!page.done && page.value.segment.blobItems.length > 0) return true;
  }
  return false;
}

function isStatus(error: unknown, ...statuses: number[]): boolean {
  return error instanceof RestError && statuses.includes(error.statusCode ?? 0);
}
