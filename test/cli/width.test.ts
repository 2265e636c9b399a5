/**
 * The command line fits its width (docs/contract.md, "The command line"): at COLUMNS=80 and 120,
 * no line of any command, on stdout or stderr, is longer than the width, but for a bare link,
 * which stays whole so that a terminal makes it clickable.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { useDemoTenantForProcesses } from '../support/simulated-tenant.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

function envAt(columns: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, COLUMNS: String(columns) };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|IDENTITY_)/.test(name)) delete env[name];
  return env;
}

/** The demo tenant, read by most commands as a configured tenant; those of `DEMO_STARTED` start it themselves, so its banner line is checked too. */
const demoEnvironment = useDemoTenantForProcesses();

/** A command's stdout and stderr, whatever its exit status; on the file's demo tenant unless `ownDemo`. */
async function output(args: readonly string[], columns: number, ownDemo = false): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  const env = ownDemo ? envAt(columns) : { ...envAt(columns), ...demoEnvironment() };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, timeout: 60_000, maxBuffer: 8 * 1024 * 1024 });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}\n${failed.stderr ?? ''}`;
  }
}

/** The lines longer than `width` characters that are not one bare link. */
function tooLong(text: string, width: number): string[] {
  return text.split('\n').filter((line) => [...line].length > width && !/^\s*<?https?:\/\/\S+$/.test(line));
}

const COMMANDS: ReadonlyArray<readonly string[]> = [
  [],
  ['help'],
  ['--help'],
  ['no-such-command'],
  ...['reports', 'report', 'overview', 'applies', 'sim'].map((command) => [command, '--help']),
  ['reports'],
  ['overview'],
  ...REPORTS.ids.map((id) => ['report', id]),
  ['report', 'assignment-hygiene', '--findings-only'],
  ['report', 'no-such-report'],
  ['applies', APPLIES_DEMO.device],
  ['applies', APPLIES_DEMO.user],
  ['applies', ...APPLIES_DEMO.chain.at(-1)!.split(' ')],
  ['applies', 'NO-SUCH-DEVICE'],
];

/** The commands run on a demo tenant of their own, as `npx dmhealth` runs them: the demo's banner is one of their lines. */
const DEMO_STARTED: ReadonlyArray<readonly string[]> = [['overview'], ['applies', APPLIES_DEMO.device]];

describe('the command line at COLUMNS=80 and 120', () => {
  for (const columns of [80, 120]) {
    it(`prints no line over ${columns} characters but bare links, for every command`, async () => {
      const long: string[] = [];
      // Two at a time: the machine's cores are shared.
      for (let at = 0; at < COMMANDS.length; at += 2) {
        const texts = await Promise.all(
          COMMANDS.slice(at, at + 2).map(async (args) => {
            const ownDemo = DEMO_STARTED.some((started) => started.join(' ') === args.join(' '));
            return { args, ownDemo, text: await output(args, columns, ownDemo) };
          }),
        );
        for (const { args, ownDemo, text } of texts) {
          expect(text.trim(), args.join(' ')).not.toBe('');
          if (ownDemo) expect(text, args.join(' ')).toContain('Demo tenant: reading the simulated tenant');
          long.push(...tooLong(text, columns).map((line) => `dmhealth ${args.join(' ')}: ${line}`));
        }
      }
      expect(long).toEqual([]);
    }, 600_000);
  }

  it("prints the simulator's lines within 80 characters, but for the variables a shell takes whole", async () => {
    const sim = spawn(process.execPath, [CLI, 'sim'], { env: envAt(80), stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(sim);
    let stdout = '';
    sim.stdout!.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      sim.once('exit', (code) => reject(new Error(`dmhealth sim exited (${code}): ${stdout}`)));
      sim.stdout!.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('Press Ctrl+C to stop.\n')) resolve();
      });
    });
    expect(tooLong(stdout, 80).filter((line) => !/^export [A-Z0-9_]+='[^']*'$/.test(line))).toEqual([]);
  });

  it('keeps the VPP tokens of report 1 apart at 80 columns, and the verdict of report 2 whole at 120', async () => {
    const connectors = await output(['report', 'connector-health'], 80);
    const whole = await output(['report', 'connector-health', '--width', '1000'], 80);
    const vppNames = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('Apple VPP token'))
        .map((line) => line.split(/\s{2,}/)[1]);
    // As many different names shown at 80 columns as there are (the demo has two tokens of one name).
    expect(vppNames(connectors).length).toBeGreaterThan(3);
    expect(new Set(vppNames(connectors)).size).toBe(new Set(vppNames(whole)).size);
    const hygiene = await output(['report', 'assignment-hygiene'], 120);
    expect(hygiene).toContain('Only deleted or empty groups  ');
    expect(hygiene).not.toContain('Only delete…');
    // Three CLI processes, each reading the file's demo tenant: a bound for a busy machine, not a speed test.
  }, 60_000);
});
