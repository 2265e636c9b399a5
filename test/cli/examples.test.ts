/**
 * The examples the README, docs/using.md, the tab and the bot show, each run against the demo
 * tenant and held to what its text promises. The examples are read out of those texts, so a text
 * that changes its example changes what is tested, and an example that stops being true fails.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import type { BotReply } from '../../src/bot/commands/command.js';
import { personalRequest } from '../support/bot-request.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { whatApplies } from '../../src/bot/commands/what-applies.js';
import { readMessage } from '../../src/bot/read-message.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { cardTexts } from '../support/card-texts.js';
import { PLAYGROUND_QUIET_ENV } from '../support/agents-playground.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';
const harness = useTestSimulator({ tenant: buildDemoTenant() });

const README = readFileSync('README.md', 'utf8');
const USING = readFileSync('docs/using.md', 'utf8');
const SEARCH_BOX = readFileSync('src/tab/applies/AppliesSearch.tsx', 'utf8');

/** The environment minus anything that would point the CLI at a tenant: the demo tenant answers. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|COLUMNS)/.test(name)) delete env[name];
  return env;
}

async function dmhealth(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], { env: cleanEnv(), timeout: 60_000, maxBuffer: 8 * 1024 * 1024 });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
}

/** The `npx dmhealth …` lines of a text's code blocks, as arguments: the comment and any redirection left off; `sim` without `--help` runs until stopped, so it is not among them. */
function cliExamples(text: string): string[][] {
  return [...text.matchAll(/^npx dmhealth (.+)$/gm)]
    .map((match) =>
      match[1]!
        .replace(/\s+#.*$/, '')
        .replace(/\s*>.*$/, '')
        .trim()
        .split(/\s+/),
    )
    .filter((args) => args[0] !== 'sim' || args.includes('--help'));
}

/** The bot's "what applies" questions a text shows in backticks or quotes. */
function botQuestions(text: string): string[] {
  return [...text.matchAll(/[`"]((?:what applies to|what does) [^`"]+)[`"]/g)].map((match) => match[1]!);
}

/** What a name is, by its shape in the demo tenant: a UPN is a user, CONTOSO-nnnn a device, else a group. */
function kindOf(name: string): 'user' | 'device' | 'group' {
  return name.includes('@') ? 'user' : /^CONTOSO-\d{4}$/.test(name) ? 'device' : 'group';
}

/** What the command needs to answer here: the applies service on the demo tenant, and time enough that the answer comes in the reply. */
function context(applies: (query: string) => Promise<AppliesResult>): Parameters<typeof whatApplies.handle>[2] {
  return {
    applies: { applies },
    conversation: { typing: async () => undefined, send: async () => undefined, followUp: async () => undefined },
    helpCard: () => Promise.reject(new Error('no help card here')),
    tenantLabel: 'Contoso (demo)',
    tabUrl: 'https://health.contoso.example/tab/',
    followUpAfterMs: 60_000,
    log: () => undefined,
  } as unknown as Parameters<typeof whatApplies.handle>[2];
}

function cardText(reply: BotReply): string {
  if (!('card' in reply) || !reply.card) return JSON.stringify(reply);
  const { blocks, runs } = cardTexts(reply.card);
  return [...blocks, ...runs].join('\n');
}

describe('the examples the texts show are true on the demo tenant', () => {
  it('runs every dmhealth example of the README and docs/using.md, each answering as its comment says', async () => {
    const examples = [...cliExamples(README), ...cliExamples(USING)];
    expect(examples.length).toBeGreaterThan(8);
    for (const args of examples) {
      const { code, stdout } = await dmhealth(args);
      expect(code, args.join(' ')).toBe(0);
      if (args[0] === 'applies') expect(stdout, args.join(' ')).toMatch(new RegExp(`^What applies to ${kindOf(args[1]!)} ${args[1]}`));
      if (args[0] === 'report') expect(stdout.length, args.join(' ')).toBeGreaterThan(0);
    }
  }, 600_000);

  it("starts the Agents Playground, as the README says to, with its telemetry off as the tests' Playground has it", () => {
    const commands = [...README.matchAll(/^(.*)\bnpx agentsplayground (.+)$/gm)];
    expect(commands).toHaveLength(1);
    const [, environment, args] = commands[0]!;
    expect(args!.split(/\s+/)).toContain('--dt');
    // The statsbeat switch the tests set (agents-playground.ts); the browser one is the reader's choice.
    expect(environment!.trim()).toBe(`APPLICATION_INSIGHTS_NO_STATSBEAT=${PLAYGROUND_QUIET_ENV.APPLICATION_INSIGHTS_NO_STATSBEAT}`);
    expect(README).toContain(`TEAMSAPPTESTER_BROWSER=${PLAYGROUND_QUIET_ENV.TEAMSAPPTESTER_BROWSER}`);
  });

  it('finds the device the README and docs/using.md say to try, a Windows PC', async () => {
    const tries = [...`${README}\n${USING}`.matchAll(/try `([^`]+)`, a Windows PC/g)].map((match) => match[1]!);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    for (const name of tries) {
      const result = await service.applies(name);
      expect(result.kind, name).toBe('found');
      if (result.kind !== 'found' || result.answer.subject.kind !== 'device') throw new Error(`${name} is not a device`);
      // Windows reports its version as 10.0.<build> (Windows 10 and 11 alike).
      expect(String(result.answer.subject.properties.osVersion), name).toMatch(/^10\.0\./);
    }
    // The docs promise a primary user in nested groups for the one docs/using.md names.
    const nested = await service.applies(/try `([^`]+)`, a Windows PC whose primary user is in nested groups/.exec(USING)![1]!);
    expect(JSON.stringify(nested)).toContain('Regional Offices → Sales → Sales EMEA');
  });

  it("finds what the tab's search box offers as its example", async () => {
    const placeholder = /placeholder="([^"]+)"/.exec(SEARCH_BOX)![1]!;
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies(placeholder);
    expect(result.kind).toBe('found');
  });

  it("answers the bot's questions, from the docs and from its own help, with a card about what each names", async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const ask = await whatApplies.handle(
      personalRequest('what applies to [name]'),
      { kind: 'applies', query: '' },
      context(async () => Promise.reject(new Error('not asked'))),
    );
    const askText = ask && 'text' in ask ? String(ask.text) : '';
    const questions = [...botQuestions(USING), ...botQuestions(README), ...botQuestions(askText)];
    // The bot's own: one each for a device, a user and a group.
    expect(botQuestions(askText)).toHaveLength(3);
    for (const question of new Set(questions)) {
      const reading = readMessage(question, COMMANDS, REPORTS).reading as { kind: string; query: string };
      expect(reading.kind, question).toBe('applies');
      const reply = await whatApplies.handle(
        personalRequest(question),
        { kind: 'applies', query: reading.query },
        context((query) => service.applies(query)),
      );
      expect(cardText(reply!), question).toContain(`What applies to ${kindOf(reading.query)} ${reading.query}`);
    }
  });
});
