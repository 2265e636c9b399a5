import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
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
 * Every name a report answers to: its own names (the module's `botNames`; "dead connectors" is
 * the name admins use), its id with spaces for hyphens, and its number in the registry.
 */
function reportsByName(registry: ReportRegistry): ReadonlyMap<string, ReportId> {
  let names = NAMES_BY_REGISTRY.get(registry);
  if (!names) {
    names = new Map(
      registry.definitions.flatMap(({ id, botNames }, index) => [
        [id.replace(/-/g, ' '), id] as const,
        [String(index + 1), id] as const,
        ...botNames.map((name) => [name, id] as const),
      ]),
    );
    NAMES_BY_REGISTRY.set(registry, names);
  }
  return names;
}
const NAMES_BY_REGISTRY = new WeakMap<ReportRegistry, ReadonlyMap<string, ReportId>>();

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

export function parseCommand(text: string | undefined | null, registry: ReportRegistry = REPORTS): BotCommand {
  const raw = text ?? '';
  const words = commandWords(raw);
  if (raw.length > LONGEST_COMMAND * 4 || words.length > LONGEST_COMMAND) return { kind: 'unknown', text: raw.slice(0, LONGEST_COMMAND) };
  if (COMMAND_PATTERNS.help.test(words)) return { kind: 'help' };
  if (COMMAND_PATTERNS.postNewFindings.test(words)) return { kind: 'post-new-findings' };
  const show = COMMAND_PATTERNS.show.exec(words);
  if (show) {
    const name = show[1]!;
    const report = reportsByName(registry).get(name);
    return report ? { kind: 'show', report } : { kind: 'unknown-report', name };
  }
  return { kind: 'unknown', text: raw.trim() };
}
