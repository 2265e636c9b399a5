import { resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { AzureBlobStateStore } from './azure-blob-state-store.js';
import { FileStateStore } from './file-state-store.js';
import type { StateStore } from './state-store.js';

/**
 * Opens the store `STATE_STORE` names: `file:<directory>` (relative to the working directory), or an
 * Azure Storage connection string. The error for anything else never repeats the value, which may
 * hold an account key.
 */
export async function openStateStore(spec: string, options: { warn?: (line: string) => void } = {}): Promise<StateStore> {
  const value = spec.trim();
  if (value.startsWith('file:')) {
    const directory = value.slice('file:'.length);
    if (!directory) throw new ConfigError('STATE_STORE=file: needs a directory, e.g. file:.data');
    return FileStateStore.open(resolve(directory), options);
  }
  if (/(^|;)\s*(AccountName|BlobEndpoint|UseDevelopmentStorage)=/i.test(value)) return AzureBlobStateStore.open(value, options);
  throw new ConfigError('STATE_STORE must be file:<directory> or an Azure Storage connection string (AccountName=…;AccountKey=…, or BlobEndpoint=…).');
}
