import { resolve } from 'node:path';
import { ManagedIdentityCredential } from '@azure/identity';
import { BlobServiceClient } from '@azure/storage-blob';
import { ConfigError } from './config.js';
import { AzureBlobStateStore } from '../store/azure-blob-state-store.js';
import { FileStateStore } from '../store/file-state-store.js';
import type { StateStore, StateStoreKind, TenantKey } from '../store/state-store.js';

const ACCEPTED =
  'STATE_STORE must be file:<directory> (e.g. file:.data), an Azure Storage connection string (AccountName=…;AccountKey=…, BlobEndpoint=…, or UseDevelopmentStorage=true), or a blob container URL (https://<account>.blob.core.windows.net/<container>) with MANAGED_IDENTITY_CLIENT_ID';

/** Azure Storage's rule for a container name: 3 to 63 lower-case letters, digits and single hyphens, starting and ending with a letter or digit. */
const CONTAINER_NAME = /^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/;

/** What kind of store `STATE_STORE` names, known before it is opened: a directory, or Azure Blob Storage. */
export function stateStoreKind(spec: string): StateStoreKind {
  return spec.trim().startsWith('file:') ? 'file' : 'azure-blob';
}

/**
 * Opens the store `STATE_STORE` names, for one tenant's state (`tenantKeyOf`): `file:<directory>`
 * (relative to the working directory), or an Azure Storage connection string. No error repeats the
 * value, which may hold an account key.
 */
export async function openStateStore(
  spec: string,
  options: {
    tenant: TenantKey;
    warn?: (line: string) => void;
    /** The managed identity a blob container URL is signed in to with (MANAGED_IDENTITY_CLIENT_ID). */
    managedIdentityClientId?: string | undefined;
  },
): Promise<StateStore> {
  const value = spec.trim();
  if (/^https?:\/\//i.test(value)) return openContainerUrl(value, options);
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

/**
 * A blob container's URL, signed in to with the Web App's managed identity: no key or connection
 * string exists to leak or expire, and the identity holds Storage Blob Data Contributor on the
 * container (docs/architecture.md, "Security model"). The account is the URL without its last path
 * segment, so both https://<account>.blob.core.windows.net/<container> and an emulator's
 * path-style https://127.0.0.1:10000/<account>/<container> work.
 */
async function openContainerUrl(value: string, options: { tenant: TenantKey; warn?: (line: string) => void; managedIdentityClientId?: string | undefined }): Promise<StateStore> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${ACCEPTED}; the URL given cannot be read.`);
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const container = segments.pop();
  if (url.protocol !== 'https:' || !container || !CONTAINER_NAME.test(container) || url.search || url.hash || url.username) {
    throw new ConfigError(`${ACCEPTED}; a container URL is https://, ends with the container's name and has no query (a SAS is not accepted: the identity signs in).`);
  }
  if (!options.managedIdentityClientId) throw new ConfigError(`${ACCEPTED}; a container URL needs MANAGED_IDENTITY_CLIENT_ID, the identity that signs in to it.`);
  const accountUrl = `${url.origin}/${segments.join('/')}`.replace(/\/$/, '');
  const service = new BlobServiceClient(accountUrl, new ManagedIdentityCredential({ clientId: options.managedIdentityClientId }));
  return AzureBlobStateStore.open(service, { ...options, container });
}
