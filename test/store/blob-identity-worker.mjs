// A server process's view of a blob container signed in to with a managed identity, for
// test/store/blob-managed-identity.test.ts. Its own process so that NODE_EXTRA_CA_CERTS (the
// emulator's HTTPS certificate) and the identity endpoint's variables are read as a Web App reads
// them, at start. Plain JavaScript on the built code (npm test builds before it tests).
// Arguments: the built open-state-store module's URL. Prints one JSON line: what it read back, or the error.
import process from 'node:process';

const [moduleUrl] = process.argv.slice(2);
const { openStateStore } = await import(moduleUrl);
try {
  const store = await openStateStore(process.env.STATE_STORE, { tenant: 'identity-tenant', managedIdentityClientId: process.env.MANAGED_IDENTITY_CLIENT_ID });
  await store.writeDocument('identity-check', JSON.stringify({ written: 'by the identity' }));
  const read = await store.readDocument('identity-check');
  await store.close();
  process.stdout.write(`${JSON.stringify({ ok: true, kind: store.kind, read })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, message: error instanceof Error ? error.message.split('\n')[0] : String(error) })}\n`);
}
