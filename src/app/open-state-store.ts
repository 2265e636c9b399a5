import { resolve } from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';
import { ConfigError } from './config.js';
import { AzureBlobStateStore } from '../store/azure-blob-state-store.js';
import { FileStateStore } from '../store/file-state-store.js';
import type { StateStore, TenantKey } from '../store/state-store.js';

const ACCEPTED =
  'STATE_STORE must be file:<directory> (e.g. file:.data) or an Azure Storage connection string (AccountName=…;AccountKey=…, BlobEndpoint=…, or UseDevelopmentStorage=true)';

/**
 * Opens the store `STATE_STORE` names, for one tenant's state (`tenantKeyOf`): `file:<directory>`
 * (relative to the working directory), or an Azure Storage connection string. No error repeats the
 * value, which may hold an account key.
 */
export async function openStateStore(spec: string, options: { tenant: TenantKey; warn?: (line: string) => void }): Promise<StateStore> {
  const value = spec.trim();
  if (value.startsWith('file:')) {
    const directory = value.slice('file:'.length);
    if (!directory) throw new ConfigError(`${ACCEPTED}; file: needs a directory.`);
    return FileStateStore.open(resolve(directory), options);
  }
  if (/(^|;)\s*(AccountName|BlobEndpoint)=/.test(value) || value.startsWith('UseDevelopmentStorage=true')) {
    let service: BlobServiceClient;
    try {
      service = BlobServiceClient.fromConnectionString(value);
    } catch {
      // Not the SDK's message: this one is known to hold no part of the value, which may be a key.
      throw new ConfigError(
        `${ACCEPTED}; the connection string given is incomplete: it needs DefaultEndpointsProtocol, AccountName, AccountKey and BlobEndpoint or EndpointSuffix, or else BlobEndpoint and SharedAccessSignature.`,
      );
    }
    return AzureBlobStateStore.open(service, options);
  }
  throw new ConfigError(`${ACCEPTED}.`);
}
