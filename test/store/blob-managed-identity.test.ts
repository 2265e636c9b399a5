import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorPki } from '../../src/sim/certificates.js';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { recordCredential } from '../support/suite-log.js';

const run = promisify(execFile);
const BUILT_STORE = 'dist/app/open-state-store.js';

// The simulated tenant's identity endpoint stands in for App Service's; Azurite, over HTTPS with
// `--oauth basic`, takes the identity's bearer token for Azure Storage as Blob Storage would.
const harness = useTestSimulator({ managedIdentity: true });
let azurite: Azurite;
let directory: string;
let caPath: string;

beforeAll(async () => {
  if (!existsSync(BUILT_STORE)) throw new Error(`${BUILT_STORE} is missing: npm test builds it first (npm run build)`);
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-azurite-tls-'));
  const pki = await createSimulatorPki(['127.0.0.1']);
  caPath = join(directory, 'ca.pem');
  writeFileSync(caPath, pki.caPem);
  writeFileSync(join(directory, 'cert.pem'), pki.serverCertificatePem);
  writeFileSync(join(directory, 'key.pem'), pki.serverPrivateKeyPem, { mode: 0o600 });
  azurite = await startAzurite({ https: { certPath: join(directory, 'cert.pem'), keyPath: join(directory, 'key.pem') }, oauth: true });
}, 60_000);

afterAll(async () => {
  await azurite?.stop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Runs the worker as a Web App would run the server: the identity's variables, a container URL, no key. */
async function openAsWebApp(overrides: Record<string, string> = {}): Promise<{ ok: boolean; kind?: string; read?: string; message?: string }> {
  const identity = harness.sim.managedIdentity!;
  recordCredential(identity.header);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_EXTRA_CA_CERTS: caPath,
    STATE_STORE: `${azurite.blobEndpoint}/dmhealth-state`,
    MANAGED_IDENTITY_CLIENT_ID: identity.identity.clientId,
    IDENTITY_ENDPOINT: identity.endpoint,
    IDENTITY_HEADER: identity.header,
    ...overrides,
  };
  const { stdout } = await run(process.execPath, ['test/store/blob-identity-worker.mjs', pathToFileURL(BUILT_STORE).href], { env, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; kind?: string; read?: string; message?: string };
}

describe('the Azure Blob store at a container URL, signed in to with the managed identity', () => {
  it('writes and reads state with a token from the identity endpoint, no key or connection string', async () => {
    const before = harness.sim.managedIdentity!.issued.get('https://storage.azure.com') ?? 0;
    const result = await openAsWebApp();
    expect(result).toEqual({ ok: true, kind: 'azure-blob', read: JSON.stringify({ written: 'by the identity' }) });
    expect(harness.sim.managedIdentity!.issued.get('https://storage.azure.com')).toBeGreaterThan(before);
  });

  it('cannot open the store when the identity endpoint refuses the identity', async () => {
    const result = await openAsWebApp({ MANAGED_IDENTITY_CLIENT_ID: '00000000-0000-0000-0000-00000000abcd' });
    expect(result.ok).toBe(false);
    expect(result.message).not.toMatch(/STATE_STORE must be/);
  });
});
