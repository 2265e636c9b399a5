import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalService } from './local-service.js';

export interface Azurite {
  /** Azurite's well-known development account, at its blob endpoint on loopback. */
  connectionString: string;
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
export async function startAzurite(): Promise<Azurite> {
  const port = await freePort();
  // Azurite writes its debug log and extent folders under its working directory: a throwaway one.
  const workspace = mkdtempSync(join(tmpdir(), 'dmhealth-azurite-'));
  const azurite = await startLocalService(
    'Azurite',
    [AZURITE_BLOB, '--blobHost', '127.0.0.1', '--blobPort', String(port), '--inMemoryPersistence', '--disableTelemetry', '--silent'],
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
  return {
    connectionString: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${DEV_ACCOUNT_KEY};BlobEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`,
    async stop() {
      process.off('exit', killOnExit);
      await azurite.stop();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
