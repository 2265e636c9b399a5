import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { recordCredential } from '../support/suite-log.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';

/** The environment minus anything that would point the CLI at a tenant or give it a credential. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|MANAGED_IDENTITY_|IDENTITY_|BOT_)/.test(name)) delete env[name];
  return { ...env, ...extra };
}

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
  printed = Object.fromEntries([...stdout.matchAll(/^ {2}([A-Z0-9_]+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
  if (printed.IDENTITY_HEADER) recordCredential(printed.IDENTITY_HEADER);
}, 30_000);

afterAll(async () => {
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
