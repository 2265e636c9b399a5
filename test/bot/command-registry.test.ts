import { describe, expect, it } from 'vitest';
import type { BotServices } from '../../src/bot/bot-services.js';
import type { Conversation } from '../../src/bot/commands/command.js';
import { personalRequest } from '../support/bot-request.js';
import { BOT_COMMANDS, COMMANDS, botCommands } from '../../src/bot/commands/index.js';
import { messageDispatch } from '../../src/bot/message-dispatch.js';
import { readMessage } from '../../src/bot/read-message.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { emptyScheduleBook } from '../../src/core/schedule/post-schedule.js';
import { showVersion } from '../fixtures/show-version-command.js';

/** The registry with one line more: all a new command needs besides its file. */
const WITH_VERSION = [...COMMANDS, showVersion];

/** What the help card and a reading of the message need of the app; the fixture's command needs nothing more. */
const services = {
  registry: REPORTS,
  schedules: { read: async () => emptyScheduleBook() },
  tenantLabel: 'Contoso (demo)',
  tabUrl: 'http://127.0.0.1:3978/tab/',
  now: () => new Date('2026-11-23T10:00:00Z'),
  log: () => undefined,
} as unknown as BotServices;

const conversation: Conversation = { typing: async () => undefined, send: async () => undefined, followUp: async () => undefined };

async function ask(text: string) {
  const dispatch = messageDispatch(services, WITH_VERSION);
  const reading = dispatch.read(text);
  return { command: reading.command?.name ?? null, reading, reply: JSON.stringify(await dispatch.answer(reading, personalRequest(text, reading.text), conversation)) };
}

describe('a command added with one registry line', () => {
  it('answers its own forms, before `show <report>` reads them as a report', async () => {
    for (const text of ['show version', 'Version?', '<at>Bot</at> what is your version']) {
      const asked = await ask(text);
      expect(asked.command, text).toBe('show version');
      expect(asked.reply).toContain('version 0.0.0');
    }
  });

  it('answers a message in its own words by its phrasings, said back as the command', async () => {
    const asked = await ask('which version are you running');
    expect(asked.command).toBe('show version');
    expect(asked.reading.text).toBe('show version');
  });

  it('is suggested for a near miss', async () => {
    const asked = await ask('verison');
    expect(asked.command).toBeNull();
    expect(asked.reading.reading).toMatchObject({ kind: 'unknown', suggestion: 'show version' });
    expect(asked.reply).toContain('"text":"Did you mean "},{"type":"TextRun","text":"show version"');
  });

  it('is listed on the help card, whose lines the Teams manifest must then list too', async () => {
    expect(botCommands(REPORTS, WITH_VERSION)).toEqual([...BOT_COMMANDS, { command: 'show version', description: 'The version of the app that answers' }]);
    const help = await ask('help');
    expect(help.reply).toContain('show version');
    expect(help.reply).toContain('The version of the app that answers');
  });

  it('leaves every other command as it was', () => {
    for (const text of ['show escrow gaps', 'show overview', 'post new findings daily at 9:00', 'what applies to DESKTOP-0042', 'help', 'are my connectors ok?']) {
      expect(readMessage(text, WITH_VERSION, REPORTS).reading, text).toEqual(readMessage(text, COMMANDS, REPORTS).reading);
    }
  });
});
