import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationServiceClientCredentialFactory } from 'botbuilder';
import { decodeJwt } from 'jose';
import { recordCredential } from '../support/suite-log.js';
import { freePort } from '../support/local-service.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';

/** The environment minus anything that would point the CLI at a tenant or give it a credential. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|MANAGED_IDENTITY_|IDENTITY_|BOT_)/.test(name)) delete env[name];
  return { ...env, ...extra };
}

const dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-identity-'));
let sim: ChildProcess;
let printed: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  sim = spawn(process.execPath, [CLI, 'sim', '--managed-identity'], { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  sim.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    sim.once('exit', (code) => reject(new Error(`dmhealth sim exited (${code}) before it printed its variables: ${stdout}`)));
    sim.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Press Ctrl+C')) resolve();
    });
  });
  printed = Object.fromEntries([...stdout.matchAll(/^export ([A-Z0-9_]+)='(.*)'$/gm)].map((match) => [match[1]!, match[2]!]));
  if (printed.IDENTITY_HEADER) recordCredential(printed.IDENTITY_HEADER);
}, 30_000);

afterAll(async () => {
  rmSync(dataDirectory, { recursive: true, force: true });
  if (sim && sim.exitCode === null) {
    sim.kill('SIGTERM');
    await once(sim, 'exit');
  }
});

describe('dmhealth sim --managed-identity', () => {
  it("prints the identity's variables and no secret", () => {
    expect(Object.keys(printed).sort()).toEqual([
      'GRAPH_BASE_URL',
      'IDENTITY_ENDPOINT',
      'IDENTITY_HEADER',
      'M365_AUTHORITY_HOST',
      'M365_CLIENT_ID',
      'M365_TENANT_ID',
      'MANAGED_IDENTITY_CLIENT_ID',
      'NODE_EXTRA_CA_CERTS',
    ]);
    expect(new URL(printed.IDENTITY_ENDPOINT!).protocol).toBe('http:');
  });

  it('lets dmhealth report connector-health read the simulated tenant with the identity alone', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'report', 'connector-health', '--format', 'json'], {
      env: cleanEnv(printed),
      timeout: 25_000,
      maxBuffer: 8 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as ReportResult;
    expect(report).toMatchObject({ report: 'connector-health', state: 'loaded', error: null });
    expect(report.findings.length).toBeGreaterThan(0);
  });

  it('gets no token with a wrong IDENTITY_HEADER, and says so', async () => {
    const failed = await run(process.execPath, [CLI, 'report', 'connector-health', '--format', 'json'], {
      env: cleanEnv({ ...printed, IDENTITY_HEADER: 'not-the-header' }),
      timeout: 25_000,
    }).catch((error: unknown) => error as { stdout: string; stderr: string });
    const output = `${failed.stdout}${failed.stderr}`;
    expect(output).toMatch(/identity endpoint/);
    expect(output).not.toContain('not-the-header');
  });
});

describe('npm start with the identity alone', () => {
  it('connects to the simulated tenant and is ready: the Graph token comes through the identity', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, ['dist/server/main.js'], {
      env: cleanEnv({ ...printed, PORT: String(port), HOST: '127.0.0.1', STATE_STORE: `file:${dataDirectory}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    try {
      await expect.poll(() => output, { timeout: 45_000, interval: 100 }).toContain('Listening on');
      expect(output).toMatch(/Connected to .*: Microsoft Graph answers/);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready' });
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }, 60_000);
});

describe("the bot's outgoing calls as the managed identity", () => {
  it("get a Bot Framework token from the identity endpoint through botbuilder's UserAssignedMSI credentials", async () => {
    const saved = { endpoint: process.env.IDENTITY_ENDPOINT, header: process.env.IDENTITY_HEADER };
    // botbuilder reads the identity endpoint from the environment, as on App Service.
    process.env.IDENTITY_ENDPOINT = printed.IDENTITY_ENDPOINT;
    process.env.IDENTITY_HEADER = printed.IDENTITY_HEADER;
    try {
      const factory = new ConfigurationServiceClientCredentialFactory({
        MicrosoftAppId: printed.MANAGED_IDENTITY_CLIENT_ID,
        MicrosoftAppType: 'UserAssignedMSI',
        MicrosoftAppTenantId: printed.M365_TENANT_ID,
      });
      const credentials = (await factory.createCredentials(
        printed.MANAGED_IDENTITY_CLIENT_ID!,
        'https://api.botframework.com',
        'https://login.microsoftonline.com',
        true,
      )) as unknown as {
        getToken(): Promise<string>;
      };
      const token = await credentials.getToken();
      expect(decodeJwt(token)).toMatchObject({ aud: 'https://api.botframework.com', appid: printed.MANAGED_IDENTITY_CLIENT_ID });
    } finally {
      for (const [name, value] of [
        ['IDENTITY_ENDPOINT', saved.endpoint],
        ['IDENTITY_HEADER', saved.header],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
