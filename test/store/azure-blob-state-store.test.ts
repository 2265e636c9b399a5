import { createHash } from 'node:crypto';
import { BlobServiceClient } from '@azure/storage-blob';
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureBlobStateStore } from '../../src/store/azure-blob-state-store.js';
import { openStateStore } from '../../src/app/open-state-store.js';
import { StateStoreError } from '../../src/store/state-store.js';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { describeStateStoreContract, ledger } from './state-store-contract.js';

let azurite: Azurite;
beforeAll(async () => {
  azurite = await startAzurite();
});
afterAll(async () => {
  await azurite?.stop();
});

// Each store opened here has a BlobServiceClient of its own, as two app instances would.
describeStateStoreContract('Azure Blob store on Azurite', async () => ({
  open: (tenant = 'test-tenant') => openStateStore(azurite.connectionString, { tenant }),
  dispose: async () => undefined,
}));

describe('the Azure Blob store', () => {
  /** The prefix of the tenant's state of the store opened here. */
  const TENANT = 'tenants/test-tenant/';
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  let container: ContainerClient;
  let store: AzureBlobStateStore;
  const warnings: string[] = [];

  beforeAll(async () => {
    const service = BlobServiceClient.fromConnectionString(azurite.connectionString);
    store = await AzureBlobStateStore.open(service, { tenant: 'test-tenant', container: 'layout', warn: (line) => warnings.push(line) });
    container = service.getContainerClient('layout');
  });

  it('keeps one blob per installation and channel, named by the SHA-256 of the key', async () => {
    await store.putInstallation('_t_layout', { conversation: { id: 'layout' } }, { overwrite: false });
    await store.writeLedger(ledger('19:layout', 1));
    await store.withLock('19:layout', async () => undefined);
    const names: string[] = [];
    for await (const item of container.listBlobsFlat()) names.push(item.name);
    expect(names.sort()).toEqual(
      [`${TENANT}installations/${sha256('_t_layout')}.json`, `${TENANT}ledgers/${sha256('19:layout')}.json`, `${TENANT}locks/${sha256('19:layout')}`].sort(),
    );
    // The lease was given back: anyone may take it at once.
    const lease = container.getBlockBlobClient(`${TENANT}locks/${sha256('19:layout')}`).getBlobLeaseClient();
    await lease.acquireLease(15);
    await lease.releaseLease();
  });

  it('answers busy while another client holds the lease, and runs once it is released', async () => {
    await store.withLock('19:leased', async () => undefined);
    const lease = container.getBlockBlobClient(`${TENANT}locks/${sha256('19:leased')}`).getBlobLeaseClient();
    await lease.acquireLease(15);
    try {
      expect(await store.withLock('19:leased', async () => 'ran', { waitMs: 300 })).toEqual({ ok: false, reason: 'busy' });
    } finally {
      await lease.releaseLease();
    }
    expect(await store.withLock('19:leased', async () => 'ran', { waitMs: 1_000 })).toEqual({ ok: true, value: 'ran' });
  });

  it('refuses a torn ledger with a typed error, and skips an unreadable installation with a warning', async () => {
    await container.getBlockBlobClient(`${TENANT}ledgers/${sha256('19:torn')}.json`).upload('{"channel":"19:torn","entr', 26);
    await expect(store.readLedger('19:torn')).rejects.toThrow(StateStoreError);
    await container.getBlockBlobClient(`${TENANT}installations/broken.json`).upload('not json', 8);
    expect((await store.listInstallations()).map((installation) => installation.key)).toEqual(['_t_layout']);
    expect(warnings).toEqual([`state store: skipped the unreadable installation blob ${TENANT}installations/broken.json`]);
  });

  it("leaves blobs written before state was kept per tenant where they are, never reads them as a tenant's, and says so", async () => {
    const service = BlobServiceClient.fromConnectionString(azurite.connectionString);
    const before = service.getContainerClient('before-tenants');
    await before.createIfNotExists();
    const history = JSON.stringify({ report: 'escrow-gaps', points: [] });
    await before.getBlockBlobClient('documents/history-escrow-gaps.json').upload(history, history.length);
    const seen: string[] = [];
    const opened = await AzureBlobStateStore.open(service, { tenant: 'demo-contoso', container: 'before-tenants', warn: (line) => seen.push(line) });
    expect(await opened.readDocument('history-escrow-gaps')).toBeNull();
    expect(seen).toEqual([expect.stringMatching(/the container before-tenants holds state written before it was kept per tenant/)]);
  });

  it('lists more installations than it downloads at once', async () => {
    const keys = Array.from({ length: 21 }, (_, index) => `_t_many_${String(index).padStart(2, '0')}`);
    await Promise.all(keys.map((key) => store.putInstallation(key, { conversation: { id: key } }, { overwrite: true })));
    const listed = (await store.listInstallations()).map((installation) => installation.key);
    expect(listed).toEqual(['_t_layout', ...keys]);
  });
});
