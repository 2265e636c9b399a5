import type { ReportId } from '../core/reports/report-model.js';

/** What a message asks the bot for. */
export type BotCommand =
  | { kind: 'help' }
  | { kind: 'show'; report: ReportId }
  | { kind: 'post-new-findings' }
  /** `show` with a name that matches no report. */
  | { kind: 'unknown-report'; name: string }
  | { kind: 'unknown'; text: string };

/**
 * Natural names for each report, as people type them; the id itself (hyphens as spaces) and the
 * report's number work too. "dead connectors" is the name the issue tracker and admins use.
 */
const REPORT_NAMES: Record<ReportId, readonly string[]> = {
  'connector-health': ['dead connectors', 'connectors', 'connector health', 'connectors and integrations', 'integrations', 'integration health'],
  'assignment-hygiene': ['assignment hygiene', 'assignments', 'hygiene', 'unassigned'],
  'security-posture': ['security posture', 'endpoint security', 'security', 'posture', 'security policy posture', 'endpoint security policy posture'],
  'escrow-gaps': ['escrow gaps', 'escrow', 'laps', 'bitlocker', 'laps and bitlocker', 'laps and bitlocker escrow', 'laps and bitlocker escrow gaps'],
  'admin-approval': ['approval coverage', 'admin approval', 'multi admin approval', 'multi admin approval coverage', 'approvals'],
  'startup-reliability': ['startup', 'startup performance', 'app reliability', 'reliability', 'startup reliability', 'startup and app reliability', 'startup performance and app reliability'],
};

const REPORT_BY_NAME: ReadonlyMap<string, ReportId> = new Map(
  (Object.entries(REPORT_NAMES) as Array<[ReportId, readonly string[]]>).flatMap(([id, names], index) => [
    [id.replace(/-/g, ' '), id] as const,
    [String(index + 1), id] as const,
    ...names.map((name) => [name, id] as const),
  ]),
);

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
  postNewFindings: /^post (?:the )?new findings(?: here)?$/,
  show: /^(?:show|open|list|report)(?: me)?(?: the)?(?: report)? (.+?)(?: report)?$/,
} as const;

export function parseCommand(text: string | undefined | null): BotCommand {
  const raw = text ?? '';
  const words = commandWords(raw);
  if (raw.length > LONGEST_COMMAND * 4 || words.length > LONGEST_COMMAND) return { kind: 'unknown', text: raw.slice(0, LONGEST_COMMAND) };
  if (COMMAND_PATTERNS.help.test(words)) return { kind: 'help' };
  if (COMMAND_PATTERNS.postNewFindings.test(words)) return { kind: 'post-new-findings' };
  const show = COMMAND_PATTERNS.show.exec(words);
  if (show) {
    const name = show[1]!;
    const report = REPORT_BY_NAME.get(name);
    return report ? { kind: 'show', report } : { kind: 'unknown-report', name };
  }
  return { kind: 'unknown', text: raw.trim() };
}
