import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId } from '../core/reports/report-model.js';
import { SCHEDULE_PATTERN, readScheduleRequest } from './commands/schedule-grammar.js';
import type { ScheduleRequest } from '../core/schedule/post-schedule.js';
import { appliesQuery, showCommand, understand } from './phrasing.js';

/** What a message asks the bot for. */
export type BotCommand =
  | { kind: 'help' }
  | { kind: 'show'; report: ReportId }
  | { kind: 'overview' }
  | { kind: 'post-new-findings' }
  /** `post new findings daily at 9:00`: post here on a schedule; or why the schedule was not understood. */
  | { kind: 'schedule-posts'; request: ScheduleRequest }
  | { kind: 'schedule-not-understood'; message: string }
  | { kind: 'stop-posting' }
  | { kind: 'show-schedule' }
  /** "what applies to DESKTOP-0042": `query` as its author wrote it (what-applies.ts). */
  | { kind: 'applies'; query: string }
  /** `show` with a name that matches no report; the command it comes closest to, if any. */
  /** `text`: the message as its author wrote it (`plainText`), quoted back with its capitals ("LAPS", not "laps"). */
  | { kind: 'unknown-report'; name: string; text: string; suggestion: string | null }
  /** Not a command: the text as the user wrote it, without mention markup, and the closest command, if any. */
  | { kind: 'unknown'; text: string; suggestion: string | null };

/**
 * A command is a few words: anything longer than this is not one, and is not worth normalising in
 * full (a 10,000-character paste gets the help card, quickly).
 */
const LONGEST_COMMAND = 200;

/**
 * The words of a message, forgiving of case, punctuation and the `<at>…</at>` mention Teams puts in
 * channel messages (and of any other HTML Teams may wrap around text): "@Device Health  Show
 * escrow-gaps!" reads "show escrow gaps".
 */
export function commandWords(text: string | undefined | null): string {
  const head = (text ?? '').slice(0, LONGEST_COMMAND * 4);
  return head
    .replace(/<at\b[^>]*>[\s\S]*?<\/at>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;|&/gi, ' and ')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The commands' shapes, on `commandWords` of a message; TeamsFx's command handlers match these. */
export const COMMAND_PATTERNS = {
  help: /^(?:help|hi|hello|commands|what can you do)?$/,
  overview: /^(?:show |open )?(?:me )?(?:the )?(?:overview|summary)$/,
  postNewFindings: /^post (?:the )?new findings(?: here)?$/,
  schedulePosts: SCHEDULE_PATTERN,
  stopPosting: /^(?:stop|cancel|end|turn off) (?:the )?(?:scheduled )?(?:posting|posts|schedule)(?: new findings)?(?: here)?$/,
  showSchedule: /^(?:show |what is |whats |what s )?(?:the |my |our )?(?:posting |post )?schedule$|^when do you post$/,
  show: /^(?:show|open|list|report)(?: me)?(?: the)?(?: report)? (.+?)(?: report)?$/,
  /** The canonical words of an "applies" question (`canonicalText`); the question itself is read from the text as sent. */
  applies: /^what applies to(?: (.+)|\?)$/,
} as const;

/**
 * A message as the bot reads it: an exact command first (`show 4`, `post new findings`), then what
 * the words mean (phrasing.ts: "which devices have no bitlocker key" shows report 4), and otherwise
 * the closest command to suggest.
 */
export function parseCommand(text: string | undefined | null, registry: ReportRegistry = REPORTS): BotCommand {
  const raw = text ?? '';
  const words = commandWords(raw);
  if (raw.length > LONGEST_COMMAND * 4 || words.length > LONGEST_COMMAND)
    return { kind: 'unknown', text: plainText(raw.slice(0, LONGEST_COMMAND * 4)).slice(0, LONGEST_COMMAND), suggestion: null };
  if (COMMAND_PATTERNS.help.test(words)) return { kind: 'help' };
  if (COMMAND_PATTERNS.postNewFindings.test(words)) return { kind: 'post-new-findings' };
  const schedule = COMMAND_PATTERNS.schedulePosts.exec(words);
  if (schedule) {
    const reading = readScheduleRequest(schedule[1]!);
    return reading.ok ? { kind: 'schedule-posts', request: reading.request } : { kind: 'schedule-not-understood', message: reading.message };
  }
  if (COMMAND_PATTERNS.stopPosting.test(words)) return { kind: 'stop-posting' };
  if (COMMAND_PATTERNS.showSchedule.test(words)) return { kind: 'show-schedule' };
  if (COMMAND_PATTERNS.overview.test(words)) return { kind: 'overview' };
  // Before `show` and the report phrasings: "show what applies to DESKTOP-0042" asks about a device, not a report.
  const applies = appliesQuery(plainText(raw));
  if (applies) return { kind: 'applies', query: applies };
  // The help card's own line, `what applies to [name]`, and the question without its subject: answered with how to ask.
  if (/^(?:what applies|what applies to|applies to|what applies to name)$/.test(words)) return { kind: 'applies', query: '' };
  const show = COMMAND_PATTERNS.show.exec(words);
  if (show) {
    const name = show[1]!;
    const report = registry.find(name);
    if (report) return { kind: 'show', report };
    const meant = understand(name, registry);
    if (meant.kind === 'report') return { kind: 'show', report: meant.report };
    if (meant.kind === 'overview') return { kind: 'overview' };
    const near = meant.kind === 'suggest' ? meant.command : understood(understand(words, registry));
    return { kind: 'unknown-report', name, text: plainText(raw), suggestion: near };
  }
  const meant = understand(words, registry);
  if (meant.kind === 'report') return { kind: 'show', report: meant.report };
  if (meant.kind === 'overview') return { kind: 'overview' };
  return { kind: 'unknown', text: plainText(raw), suggestion: understood(meant) };
}

function understood(meant: ReturnType<typeof understand>): string | null {
  return meant.kind === 'suggest' ? meant.command : null;
}

/** The canonical words of a command, which the bot's command handlers match: `show escrow gaps`, `show overview`. */
export function canonicalText(command: BotCommand, registry: ReportRegistry = REPORTS): string | null {
  if (command.kind === 'show') return showCommand(registry.definition(command.report));
  if (command.kind === 'overview') return 'show overview';
  if (command.kind === 'applies') return `what applies to ${commandWords(command.query) || '?'}`.trim();
  return null;
}

/**
 * A message's text as its author wrote it, for quoting back: without the `<at>…</at>` mention and
 * other markup Teams wraps around it, entities decoded, spaces collapsed. Never echo markup.
 */
export function plainText(text: string): string {
  return text
    .replace(/<at\b[^>]*>[\s\S]*?<\/at>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&amp;/gi, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
