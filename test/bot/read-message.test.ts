import { describe, expect, it } from 'vitest';
import { BOT_COMMANDS, COMMANDS } from '../../src/bot/commands/index.js';
import { commandWords, plainText } from '../../src/bot/message-words.js';
import { readMessage } from '../../src/bot/read-message.js';
import { REPORTS, REPORT_IDS } from '../../src/core/reports/registry.js';
import { NEAR_MISSES, PHRASINGS } from '../fixtures/bot-phrasings.js';

/**
 * What a message asks, as the registry of commands reads it: its command's reading (`kind` and what
 * it read), or a message no command took (`unknown`, its `text` and `suggestion`, read only then).
 */
const asks = (text: string | undefined) => readMessage(text, COMMANDS, REPORTS).reading as { kind: string; text: string; suggestion: string | null };
/** The words a message is read as: the command it means, else its own words. */
const readAs = (text: string) => readMessage(text, COMMANDS, REPORTS).text;

describe('command words', () => {
  it('drops the mention Teams adds, case, punctuation and markup', () => {
    expect(commandWords('<at>Device Mgmt Health</at> Show   escrow-gaps!')).toBe('show escrow gaps');
    expect(commandWords('<p>show <b>LAPS &amp; BitLocker</b></p>')).toBe('show laps and bitlocker');
    expect(commandWords('  HELP?? ')).toBe('help');
  });
});

describe('reading a message', () => {
  it.each([
    ['help', { kind: 'help' }],
    ['Help!', { kind: 'help' }],
    ['show escrow gaps', { kind: 'show', report: 'escrow-gaps' }],
    ['<at>Bot</at> show escrow gaps', { kind: 'show', report: 'escrow-gaps' }],
    ['show dead connectors', { kind: 'show', report: 'connector-health' }],
    ['show connector health', { kind: 'show', report: 'connector-health' }],
    ['show assignment hygiene', { kind: 'show', report: 'assignment-hygiene' }],
    ['show security posture', { kind: 'show', report: 'security-posture' }],
    ['show approval coverage', { kind: 'show', report: 'admin-approval' }],
    ['show startup', { kind: 'show', report: 'startup-reliability' }],
    ['Show me the startup report.', { kind: 'show', report: 'startup-reliability' }],
    ['show setting conflicts', { kind: 'show', report: 'setting-conflicts' }],
    ['show conflicts', { kind: 'show', report: 'setting-conflicts' }],
    ['show 7', { kind: 'show', report: 'setting-conflicts' }],
    ['show 4', { kind: 'show', report: 'escrow-gaps' }],
    ['post new findings', { kind: 'post-new-findings' }],
    ['Post new findings here, please', { kind: 'unknown', text: 'Post new findings here, please', suggestion: 'post new findings' }],
    ['show weather', { kind: 'unknown-report', name: 'weather', text: 'show weather', suggestion: null }],
    ['show Weather in Redmond', { kind: 'unknown-report', name: 'weather in redmond', text: 'show Weather in Redmond', suggestion: null }],
    ['make coffee', { kind: 'unknown', text: 'make coffee', suggestion: null }],
    ['show overview', { kind: 'overview' }],
    ['<at>Test Bot</at> make me a sandwich', { kind: 'unknown', text: 'make me a sandwich', suggestion: null }],
    ['<at>Bot</at> Post new findings daily at 9:00', { kind: 'schedule-posts', request: { cadence: { every: 'day' }, time: { hour: 9, minute: 0 }, timeZone: null } }],
    ['post new findings weekly on Monday', { kind: 'schedule-posts', request: { cadence: { every: 'week', on: 'monday' }, time: { hour: 9, minute: 0 }, timeZone: null } }],
    [
      'post new findings every Friday at 4:30 p.m. Europe/Berlin',
      { kind: 'schedule-posts', request: { cadence: { every: 'week', on: 'friday' }, time: { hour: 16, minute: 30 }, timeZone: 'Europe/Berlin' } },
    ],
    ['post new findings daily at 9:75', { kind: 'schedule-not-understood', message: '9:75 is not a time of day.' }],
    ['Stop posting', { kind: 'stop-posting' }],
    ['stop the scheduled posts here', { kind: 'stop-posting' }],
    ['show schedule', { kind: 'show-schedule' }],
    ["What's the posting schedule?", { kind: 'show-schedule' }],
    ['stop postng', { kind: 'unknown', text: 'stop postng', suggestion: 'stop posting' }],
  ] as const)('%j', (text, command) => {
    expect(asks(text)).toEqual(command);
  });

  it('takes every report by its id and by its number', () => {
    REPORT_IDS.forEach((id, index) => {
      expect(asks(`show ${id}`)).toEqual({ kind: 'show', report: id });
      expect(asks(`show ${index + 1}`)).toEqual({ kind: 'show', report: id });
    });
  });

  it('understands every command the help card and the manifest offer', () => {
    for (const { command } of BOT_COMMANDS) expect(asks(command).kind, command).not.toMatch(/^unknown/);
  });

  it('reads an empty message as a request for help', () => {
    expect(asks('')).toEqual({ kind: 'help' });
    expect(asks(undefined)).toEqual({ kind: 'help' });
  });

  it('treats a 10,000-character message as no command, quoting only its start', () => {
    const command = asks(`show escrow gaps ${'x'.repeat(10_000)}`);
    expect(command.kind).toBe('unknown');
    expect(command.kind === 'unknown' && command.text.length).toBeLessThanOrEqual(200);
  });
});

describe('phrasings in the words admins use', () => {
  it.each(Object.entries(PHRASINGS).flatMap(([report, phrasings]) => phrasings.map((phrasing) => [phrasing, report] as const)))('%j asks for %s', (phrasing, report) => {
    expect(asks(phrasing)).toEqual({ kind: 'show', report });
    expect(readAs(phrasing)).toMatch(/^show /);
  });

  it.each(['give me the overview', 'summary', "what's broken?", 'how is my tenant doing'])('%j asks for the overview', (phrasing) => {
    expect(asks(phrasing)).toEqual({ kind: 'overview' });
  });

  it.each(NEAR_MISSES)('%j is a near miss: it suggests %j rather than guessing', (text, suggestion) => {
    const command = asks(text);
    expect(command.kind).toMatch(/^unknown/);
    expect(command).toMatchObject({ suggestion });
  });

  it('suggests one of two reports a message names equally, never both at once', () => {
    const command = asks('firewall or bitlocker');
    expect(command.kind).toBe('unknown');
    expect(command.kind === 'unknown' && ['show security posture', 'show escrow gaps']).toContain(command.kind === 'unknown' ? command.suggestion : null);
  });
});

describe('quoting a message back', () => {
  it('never echoes mention markup or HTML, and decodes what Teams encodes', () => {
    expect(plainText('<at>Test Bot</at> make me a sandwich')).toBe('make me a sandwich');
    expect(plainText('<p>fish &amp; chips&nbsp;please</p>')).toBe('fish & chips please');
  });
});
