import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { shellLines } from '../../src/cli/simulated-tenant.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

/** `dmhealth sim …`'s stdout up to the line that says how to stop it. */
async function simOutput(args: string[]): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|IDENTITY_)/.test(name)) delete env[name];
  const sim = spawn(process.execPath, [CLI, 'sim', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(sim);
  let stdout = '';
  sim.stdout!.setEncoding('utf8');
  return new Promise<string>((resolve, reject) => {
    sim.once('exit', (code) => reject(new Error(`dmhealth sim exited (${code}): ${stdout}`)));
    sim.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Press Ctrl+C to stop.\n')) resolve(stdout);
    });
  });
}

/** What a POSIX shell makes of `text`: the named variables after it ran. */
async function inShell(text: string, names: readonly string[]): Promise<Record<string, string>> {
  const script = `${text}\n${names.map((name) => `printf '%s\\0' "$${name}"`).join('\n')}`;
  const { stdout } = await run('/bin/sh', ['-c', script]);
  const values = stdout.split('\0');
  return Object.fromEntries(names.map((name, index) => [name, values[index]!]));
}

describe('dmhealth sim prints lines a shell takes', () => {
  it('quotes any value for a shell, and for a .env file', async () => {
    const variables = { PLAIN: 'https://127.0.0.1:8443/v1.0', QUOTE: 'it\'s $HOME `x` "y"', SPACED: '/tmp/a dir/ca.pem' };
    expect(shellLines(variables, 'export')).toEqual(["export PLAIN='https://127.0.0.1:8443/v1.0'", `export QUOTE='it'\\''s $HOME \`x\` "y"'`, "export SPACED='/tmp/a dir/ca.pem'"]);
    expect(await inShell(shellLines(variables, 'export').join('\n'), Object.keys(variables))).toEqual(variables);
    expect(shellLines(variables, 'env')).toEqual(['PLAIN=https://127.0.0.1:8443/v1.0', 'QUOTE="it\'s \\$HOME \\`x\\` \\"y\\""', 'SPACED="/tmp/a dir/ca.pem"']);
  });

  it('prints export lines and comments only, which a shell runs as they are', async () => {
    const stdout = await simOutput([]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => !line.startsWith('# ') && !/^export [A-Z0-9_]+='[^']*'$/.test(line))).toEqual([]);
    const names = ['GRAPH_BASE_URL', 'M365_AUTHORITY_HOST', 'M365_TENANT_ID', 'M365_CLIENT_ID', 'M365_CLIENT_SECRET', 'NODE_EXTRA_CA_CERTS'];
    const values = await inShell(stdout, names);
    for (const name of names) expect(values[name], name).not.toBe('');
    expect(new URL(values.GRAPH_BASE_URL!).hostname).toBe('127.0.0.1');
    expect(existsSync(values.NODE_EXTRA_CA_CERTS!)).toBe(true);
  });

  it('prints NAME=value lines for a .env file with --env, and the identity variables the same way with --managed-identity', async () => {
    const stdout = await simOutput(['--env', '--managed-identity']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => !line.startsWith('# ') && !/^[A-Z0-9_]+=\S+$/.test(line))).toEqual([]);
    const names = lines.filter((line) => !line.startsWith('#')).map((line) => line.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['MANAGED_IDENTITY_CLIENT_ID', 'IDENTITY_ENDPOINT', 'IDENTITY_HEADER']));
    expect(names).not.toContain('M365_CLIENT_SECRET');
  });
});
