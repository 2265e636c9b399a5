import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_COMMANDS } from '../../src/bot/commands/index.js';
import type { BotReply, BotRequest, Conversation, ReadingContext } from '../../src/bot/commands/command.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { messageDispatch } from '../../src/bot/message-dispatch.js';
import { commandWords, plainText } from '../../src/bot/message-words.js';
import type { MessageDispatch } from '../../src/bot/message-dispatch.js';
import { NewFindingsPoster } from '../../src/app/new-findings-poster.js';
import { newFindingsCardFor } from '../../src/bot/cards/new-findings-card.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { createServices } from '../../src/app/create-services.js';
import { ScheduleRecords } from '../../src/app/schedule-records.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import type { ReportId, ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { NEAR_MISSES, PHRASINGS } from '../fixtures/bot-phrasings.js';
import { reportResult } from '../fixtures/report-result.js';

let directory: string;
let store: FileStateStore;
let records: ScheduleRecords;
/** What the reports answer with; a test may hold one back. */
let loadReport: (id: ReportId) => Promise<ReportResult>;
let dispatch: MessageDispatch;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-commands-'));
  store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
  records = new ScheduleRecords(store);
  loadReport = async () => reportResult('2026-11-23T08:00:00Z', ['missing-bitlocker-key:device-1']);
  const tabLinks = createTabLinks({ tabUrl: 'http://127.0.0.1:3978/tab/' });
  // The application floor over a stand-in load: each command asks it as the bot does.
  const { reports } = createServices({
    connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'test-tenant' },
    load: (id) => loadReport(id),
    store,
    log: () => undefined,
  });
  dispatch = messageDispatch({
    reports,
    registry: REPORTS,
    schedules: records,
    poster: new NewFindingsPoster({ store, loadReports: (ids) => reports.loadFresh(ids), render: newFindingsCardFor({ tenantLabel: 'Contoso (demo)', tabLinks }) }),
    tenantLabel: 'Contoso (demo)',
    tabLinks,
    tabUrl: 'http://127.0.0.1:3978/tab/',
    followUpAfterMs: 100,
    now: () => new Date('2026-11-23T10:00:00Z'),
    log: () => undefined,
  });
});

afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A message as the adapter hands it over: read once, and answered by the command it reads as, else not understood. */
async function ask(text: string, conversation = recordingConversation()): Promise<{ command: string | null; reply: BotReply | null }> {
  const reading = dispatch.read(text);
  return { command: reading.command?.name ?? null, reply: await dispatch.answer(reading, request(reading.text, text), conversation) };
}

function request(words: string, sentText: string): BotRequest {
  return {
    text: words,
    sentText,
    conversation: {
      id: '19:general@thread.tacv2;messageid=1',
      kind: 'channel',
      name: 'General',
      channel: '19:general@thread.tacv2',
      channelReference: { conversation: { id: '19:general@thread.tacv2' } },
    },
    sender: { id: 'user-1', name: 'Megan', timeZone: 'Europe/Berlin' },
  };
}

function recordingConversation(): Conversation & { sent: string[]; followUps: BotReply[] } {
  const sent: string[] = [];
  const followUps: BotReply[] = [];
  return {
    sent,
    followUps,
    typing: async () => void sent.push('typing'),
    send: async (reply) => void sent.push(JSON.stringify(reply)),
    followUp: async (reply) => void followUps.push(await reply()),
  };
}

const shown = (reply: BotReply | null) => JSON.stringify(reply);

describe('the list of commands', () => {
  it('gives the help card a show line per report, in the registry order, then the overview, what applies, posting and help', () => {
    expect(BOT_COMMANDS.map(({ command }) => command)).toEqual([
      ...REPORTS.definitions.map((definition) => `show ${definition.botNames[0]}`),
      'show overview',
      'what applies to [name]',
      'post new findings',
      'help',
    ]);
  });

  it('answers a report number there is not ("show 9") saying how many reports there are, which the card lists', async () => {
    const { command, reply } = await ask('show 9');
    expect(command).toBe('show <report>');
    expect(shown(reply)).toContain(`There are ${REPORTS.ids.length} reports, numbered 1 to ${REPORTS.ids.length}, each listed below by name.`);
    for (const definition of REPORTS.definitions) expect(shown(reply)).toContain(`show ${definition.botNames[0]}`);
  });

  it('takes each message with at most one fixed phrase, and by `show <report>` only when no fixed phrase takes it', () => {
    const messages = [
      ...BOT_COMMANDS.map(({ command }) => command),
      ...Object.values(PHRASINGS).flat(),
      ...NEAR_MISSES.map(([text]) => text),
      ...['', 'hi', 'show the summary', 'open overview', 'show schedule', "What's the posting schedule?", 'when do you post', 'stop the scheduled posts here'],
      ...['post new findings daily at 9:00', 'post new findings daily at 25:00', 'post new findings here', 'show weather', 'show report schedule'],
    ];
    // The fixed phrases' own forms only: what other words mean is no fixed phrase's to read.
    const context: ReadingContext = { registry: REPORTS, understand: () => ({ kind: 'nothing' }) };
    for (const message of messages) {
      const read = { words: commandWords(message), plain: plainText(message) };
      const fixed = COMMANDS.filter((command) => !command.takesAnyWords && command.read(read, context) !== null);
      expect(fixed.length, message).toBeLessThanOrEqual(1);
      const first = dispatch.read(message).command;
      if (fixed[0]) expect(first?.name, message).toBe(fixed[0].name);
    }
  });

  it('reads "show overview" and "show schedule" as their own commands, not as reports of those names', async () => {
    expect((await ask('show overview')).command).toBe('show overview');
    expect((await ask('Show the schedule')).command).toBe('show schedule');
    expect((await ask('show escrow gaps')).command).toBe('show <report>');
  });
});

describe('commands on plain requests', () => {
  it('set, show and stop this channel’s schedule, keeping the reference they were given and the sender’s time zone', async () => {
    const set = await ask('post new findings daily at 9:00');
    expect(set.reply).toEqual({ text: expect.stringContaining('From now on I post new findings here daily at 09:00 (Europe/Berlin)') });
    const [schedule] = (await records.read()).schedules;
    expect(schedule).toMatchObject({ channel: '19:general@thread.tacv2', name: 'General', setBy: 'Megan', reference: { conversation: { id: '19:general@thread.tacv2' } } });
    expect(shown((await ask('show schedule')).reply)).toContain('New findings are posted here daily at 09:00 (Europe/Berlin)');
    expect(shown((await ask('stop posting')).reply)).toContain('Stopped: new findings are no longer posted here daily at 09:00 (Europe/Berlin).');
    expect((await records.read()).schedules).toEqual([]);
  });

  it('refuses a schedule for a scope tag without the viewer scope, rather than post the whole tenant to it', async () => {
    const { command, reply } = await ask('post new findings for scope tag Europe daily at 9:00');
    expect(command).toBe('post new findings <when>');
    expect(shown(reply)).toContain('Posts for one scope tag need the viewer scope (VIEWER_SCOPE=intune-rbac)');
    expect((await records.read()).schedules).toEqual([]);
  });

  it('answers "reading…" for a report slower than the wait, and follows up with its card', async () => {
    let release: (result: ReportResult) => void = () => undefined;
    loadReport = () => new Promise((resolve) => (release = resolve));
    const conversation = recordingConversation();
    const { reply } = await ask('show escrow gaps', conversation);
    expect(reply).toEqual({ text: `Reading ${REPORTS.definition('escrow-gaps').title} from Contoso (demo) takes a while; the report follows here when it is ready.` });
    expect(conversation.sent).toEqual(['typing']);
    release(reportResult('2026-11-23T08:00:00Z', ['missing-bitlocker-key:device-1']));
    await expect.poll(() => conversation.followUps.length).toBe(1);
    expect(shown(conversation.followUps[0]!)).toContain('1 finding, worst first');
  });

  it('posts new findings to this channel in a card of its own, and has nothing more to say', async () => {
    const conversation = recordingConversation();
    expect((await ask('post new findings', conversation)).reply).toBeNull();
    expect(conversation.sent[0]).toBe('typing');
    expect(conversation.sent[1]).toContain('new finding');
    expect((await store.readLedger('19:general@thread.tacv2')).entries).toHaveLength(1);
  });

  it('quotes a message that is no command on the help card, made plain, with the command it comes closest to', async () => {
    const { command, reply } = await ask('<at>Bot</at> show escro gaps');
    expect(command).toBe('show <report>');
    expect(shown(reply)).toContain('\\"show escro gaps\\"');
    expect(shown(reply)).toContain('"text":"Did you mean "},{"type":"TextRun","text":"show escrow gaps"');
    const sandwich = await ask('<at>Bot</at> make me a sandwich');
    expect(sandwich.command).toBeNull();
    expect(shown(sandwich.reply)).toContain('\\"make me a sandwich\\"');
    expect(shown(sandwich.reply)).not.toContain('<at>');
  });
});
