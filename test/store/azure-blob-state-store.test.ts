import { openStateStore } from '../../src/core/store/open-state-store.js';
import { startAzurite } from '../support/azurite.js';
import { describeStateStoreContract } from './state-store-contract.js';

describeStateStoreContract('Azure Blob store on Azurite', async () => {
  const azurite = await startAzurite();
  return { open: () => openStateStore(azurite.connectionString), dispose: () => azurite.stop() };
});
