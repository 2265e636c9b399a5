import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalService } from './local-service.js';

export interface Azurite {
  /** Azurite's well-known development account, at its blob endpoint on loopback. */
  connectionString: string;
  /** The development account's blob endpoint (path style: the account is the first segment). */
  blobEndpoint: string;
  stop(): Promise<void>;
}

/** Azurite's blob service alone (the queue and table services are not needed), run by node itself. */
const AZURITE_BLOB = join(createRequire(import.meta.url).resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js');
/** Azurite's published development account key: the emulator accepts nothing else. */
const DEV_ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * Azurite's blob service, in memory, on a free loopback port, for as long as a test file needs it
 * (stop it in afterAll; it is killed anyway when the test process exits).
 */
export async function startAzurite(options: { https?: { certPath: string; keyPath: string }; oauth?: boolean } = {}): Promise<Azurite> {
  const port = await freePort();
  // `--oauth basic` checks a bearer token's issuer, audience and lifetime (not its signature), and
  // Azurite takes bearer tokens over HTTPS only (its --cert and --key).
  const secure = options.https ? ['--cert', options.https.certPath, '--key', options.https.keyPath] : [];
  const oauth = options.oauth ? ['--oauth', 'basic'] : [];
  // Azurite writes its debug log and extent folders under its working directory: a throwaway one.
  const workspace = mkdtempSync(join(tmpdir(), 'dmhealth-azurite-'));
  const azurite = await startLocalService(
    'Azurite',
    [AZURITE_BLOB, '--blobHost', '127.0.0.1', '--blobPort', String(port), '--inMemoryPersistence', '--disableTelemetry', '--silent', ...secure, ...oauth],
    /successfully listens/i,
    {
      cwd: workspace,
    },
  ).catch((error: unknown) => {
    rmSync(workspace, { recursive: true, force: true });
    throw error;
  });
  const killOnExit = () => azurite.child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const scheme = options.https ? 'https' : 'http';
  return {
    connectionString: `DefaultEndpointsProtocol=${scheme};AccountName=devstoreaccount1;AccountKey=${DEV_ACCOUNT_KEY};BlobEndpoint=${scheme}://127.0.0.1:${port}/devstoreaccount1;`,
    blobEndpoint: `${scheme}://127.0.0.1:${port}/devstoreaccount1`,
    async stop() {
      process.off('exit', killOnExit);
      await azurite.stop();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
