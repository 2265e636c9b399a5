import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_COMMANDS } from '../../src/bot/commands/index.js';
import { REPORT_IDS, reportDefinition } from '../../src/core/reports/registry.js';
import { NEAR_MISSES, PHRASINGS } from '../fixtures/bot-phrasings.js';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground, PlaygroundMessage } from '../support/agents-playground.js';
import { startBotServer } from '../support/bot-server.js';
import type { BotServer } from '../support/bot-server.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';
import { declaredFindingsFor } from '../../src/sim/tenants/sim-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let dataDirectory: string;
let store: StateStore;
let server: BotServer;
let playground: Playground;
/** The time as scheduled posts see it; a test moves it. */
let now = new Date();

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-bot-'));
  store = await openStateStore(`file:${dataDirectory}`, { tenant: simulatorTenantKey(harness.sim) });
  server = await startBotServer(harness.sim, harness.client(), { store, now: () => now });
  playground = await startPlayground(`${server.base}/api/messages`);
});

afterAll(async () => {
  await playground?.close();
  await server?.close();
  await store?.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

/** Sends a message and returns the one message the bot answers with. */
async function ask(text: string, conversationId = playground.config.personalChat.id, mention = false): Promise<PlaygroundMessage> {
  const from = playground.messages.length;
  await playground.send(conversationId, text, { mention });
  const [reply] = await playground.waitForMessages(from, 1);
  return reply!;
}

function cardText(message: PlaygroundMessage): string {
  return JSON.stringify(message.cards);
}

const declared = (report: string) => declaredFindingsFor(harness.sim.tenant).filter((finding) => finding.report === report).length;

describe('commands through the Agents Playground', () => {
  it.each([
    ['show escrow gaps', 'Windows LAPS & BitLocker Escrow Gaps', 'escrow-gaps'],
    ['show dead connectors', 'Connector & Integration Health', 'connector-health'],
    ['show connector health', 'Connector & Integration Health', 'connector-health'],
    ['show assignment hygiene', 'Assignment Hygiene', 'assignment-hygiene'],
    ['show security posture', 'Endpoint Security Policy Posture', 'security-posture'],
    ['show approval coverage', 'Multi Admin Approval Coverage', 'admin-approval'],
    ['show startup', 'Startup Performance & App Reliability', 'startup-reliability'],
    ['show setting conflicts', 'Setting Conflicts', 'setting-conflicts'],
    ['show conflicts', 'Setting Conflicts', 'setting-conflicts'],
    ['show 4', 'Windows LAPS & BitLocker Escrow Gaps', 'escrow-gaps'],
    ['Show Escrow-Gaps!!', 'Windows LAPS & BitLocker Escrow Gaps', 'escrow-gaps'],
  ])('%s answers with the report card', async (text, title, report) => {
    const reply = await ask(text);
    expect(reply.cards).toHaveLength(1);
    const card = cardText(reply);
    expect(card).toContain(title);
    const count = declared(report);
    expect(card).toContain(`${count.toLocaleString('en-US')} ${count === 1 ? 'finding' : 'findings'}, worst first`);
    expect(card).toContain(`#/${report}`);
  });

  it('names the escrow gaps the demo tenant has, devices missing both first', async () => {
    const reply = await ask('show escrow gaps');
    const card = reply.cards[0]!;
    const firstItem = JSON.stringify(card).match(/"text":"(CONTOSO-\d+)"/)?.[1];
    expect(firstItem).toMatch(/^CONTOSO-\d{4}$/);
    expect(JSON.stringify(card)).toContain('Devices without an escrowed BitLocker key');
  });

  it('strips the mention Teams puts in a channel message', async () => {
    const team = playground.config.teams[0]!;
    const reply = await ask('show escrow gaps', team.id, true);
    expect(cardText(reply)).toContain('Windows LAPS & BitLocker Escrow Gaps');
  });

  it('answers help with every command', async () => {
    const reply = await ask('help');
    for (const { command } of BOT_COMMANDS) expect(cardText(reply)).toContain(command);
  });

  it.each([
    ['make me a sandwich', 'make me a sandwich'],
    ['show weather', 'show weather'],
  ])('answers %j with the help card quoting it', async (text, quoted) => {
    const reply = await ask(text);
    const card = cardText(reply);
    expect(card).toContain(`\\"${quoted}\\"`);
    expect(card).toContain('show escrow gaps');
  });

  it('never quotes the mention back: a channel message it does not know is quoted without its markup', async () => {
    const team = playground.config.teams[0]!;
    const reply = await ask('make me a sandwich', team.id, true);
    const card = cardText(reply);
    expect(card).toContain(`\\"make me a sandwich\\"`);
    expect(card).not.toMatch(/<\/?at>|&lt;at/);
  });

  it('answers an empty message with the help card', async () => {
    const reply = await ask('');
    expect(cardText(reply)).toContain('post new findings');
  });

  it('answers a 10,000-character message with the help card, quoting only its start', async () => {
    const reply = await ask(`show escrow gaps ${'x'.repeat(10_000)}`);
    const card = cardText(reply);
    expect(card).toContain('I don');
    expect(card.length).toBeLessThan(10_000);
  });
});

describe('post new findings, typed in a channel', () => {
  it('posts the new findings once, then says nothing is new', async () => {
    const channel = playground.config.teams[0]!.channels.find((candidate) => candidate.name !== 'General') ?? playground.config.teams[0]!.channels[0]!;
    const expected = declared('escrow-gaps') + declared('connector-health');
    const first = await ask('post new findings', channel.id, true);
    expect(cardText(first)).toContain(`${expected} new findings in Contoso (demo)`);
    const second = await ask('post new findings', channel.id, true);
    expect(cardText(second)).toContain('Nothing new in Contoso (demo)');
    expect(cardText(second)).toContain(`${declared('escrow-gaps')} already posted`);
  });
});

describe('posting on a schedule, set in a channel', () => {
  const text = (message: PlaygroundMessage) => `${message.text} ${cardText(message)}`;

  it('is set, listed in help, changed, posted by the server at its time, and stopped', async () => {
    const team = playground.config.teams[0]!;
    // Not the channel the test above posts in: this one has heard of nothing yet.
    const channel = team.channels.find((candidate) => candidate.name === 'General') ?? team.channels[0]!;
    now = new Date('2026-11-23T10:00:00Z'); // a Monday

    const set = await ask('post new findings daily at 9:00 UTC', channel.id, true);
    expect(set.text).toContain('From now on I post new findings here daily at 09:00 (UTC), starting Tue 24 Nov, 09:00.');
    expect(text(await ask('show schedule', channel.id, true))).toContain('New findings are posted here daily at 09:00 (UTC); next on Tue 24 Nov, 09:00.');
    const help = cardText(await ask('help', channel.id, true));
    expect(help).toContain('Scheduled posts');
    expect(help).toContain('daily at 09:00 (UTC)');
    // Another conversation has no schedule of its own.
    expect(cardText(await ask('help'))).toContain('Nothing is posted here on a schedule.');

    const changed = await ask('post new findings weekly on friday at 4 pm utc', channel.id, true);
    expect(changed.text).toContain('weekly on Friday at 16:00 (UTC), starting Fri 27 Nov, 16:00 (instead of daily at 09:00 (UTC))');

    // Not yet: nothing is due before Friday 16:00.
    now = new Date('2026-11-27T15:59:00Z');
    expect(await server.scheduler.tick()).toEqual([]);
    now = new Date('2026-11-27T16:00:30Z');
    const from = playground.messages.length;
    const [run] = await server.scheduler.tick();
    expect(run?.outcome.status).toBe('posted');
    const [post] = await playground.waitForMessages(from, 1);
    // A post of its own in the channel, not a reply in the thread the schedule was set in.
    expect(post!.conversationId).toBe(channel.id);
    expect(cardText(post!)).toContain(`${declared('escrow-gaps') + declared('connector-health')} new findings in Contoso (demo)`);
    expect(await server.scheduler.tick()).toEqual([]);
    expect(text(await ask('show schedule', channel.id, true))).toContain('The last run (Fri 27 Nov, 16:00) posted new findings.');

    const stopped = await ask('stop posting', channel.id, true);
    expect(stopped.text).toContain('Stopped: new findings are no longer posted here weekly on Friday at 16:00 (UTC).');
    expect((await ask('stop posting', channel.id, true)).text).toContain('nothing to stop');
    now = new Date('2026-12-04T16:00:30Z');
    expect(await server.scheduler.tick()).toEqual([]);
  });

  it('says what it did not understand in a schedule, with examples', async () => {
    const reply = await ask('post new findings daily at 25:00');
    expect(reply.text).toContain('25:00 is not a time of day.');
    expect(reply.text).toContain('post new findings weekly on monday at 14:30');
  });
});

describe('a report slower than Teams waits for an answer', () => {
  it('answers at once that it is reading, then posts the card when the report is ready', async () => {
    const slowServer = await startBotServer(harness.sim, harness.client(), { store, followUpAfterMs: 200 });
    const slowPlayground = await startPlayground(`${slowServer.base}/api/messages`);
    try {
      harness.sim.faults.add({ path: '/v1.0/deviceManagement/managedDevices', latencyMs: 1_500 });
      const from = slowPlayground.messages.length;
      await slowPlayground.send(slowPlayground.config.personalChat.id, 'show escrow gaps');
      const [first, second] = await slowPlayground.waitForMessages(from, 2);
      expect(first!.text).toBe('Reading Windows LAPS & BitLocker Escrow Gaps from Contoso (demo) takes a while; the report follows here when it is ready.');
      expect(first!.cards).toEqual([]);
      expect(second!.conversationId).toBe(slowPlayground.config.personalChat.id);
      expect(cardText(second!)).toContain(`${declared('escrow-gaps')} findings, worst first`);
    } finally {
      await slowPlayground.close();
      await slowServer.close();
    }
  });
});

describe('the words admins use, through the Agents Playground', () => {
  it.each(Object.entries(PHRASINGS).flatMap(([report, phrasings]) => phrasings.map((phrasing) => [phrasing, report] as const)))(
    '%j answers with the %s card',
    async (phrasing, report) => {
      const card = cardText(await ask(phrasing));
      expect(card).toContain(reportDefinition(report).title);
      expect(card).toContain(`#/${report}`);
    },
  );

  it.each(NEAR_MISSES)('%j gets the help card, suggesting %j', async (text, suggestion) => {
    const card = cardText(await ask(text));
    // The suggestion itself, not the same words in the card's list of commands.
    expect(card).toContain(`"text":"Did you mean "},{"type":"TextRun","text":"${suggestion}"`);
  });

  it('show overview answers with one card holding every report and its state', async () => {
    const reply = await ask('show overview');
    expect(reply.cards).toHaveLength(1);
    const card = cardText(reply);
    for (const id of REPORT_IDS) {
      expect(card).toContain(reportDefinition(id).title);
      expect(card).toContain(`#/${id}`);
    }
    expect(card).toMatch(/\d+ open findings?, worst (High|Medium|Low)/);
  });
});
