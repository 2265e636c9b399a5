import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId } from '../core/reports/report-model.js';

/**
 * What an admin means, read from their words without a language model or a network call: each
 * report names the subjects people ask about (`botTopics`, e.g. "bitlocker", "unassigned"), and a
 * message that names the subjects of exactly one report asks for it. A message that names none but
 * comes close to a command or a subject (a typo, a word missing) gets that command suggested.
 */
export type Understood = { kind: 'report'; report: ReportId } | { kind: 'overview' } | { kind: 'suggest'; command: string } | { kind: 'nothing' };

/** Phrases that ask for every report at once. */
const OVERVIEW_TOPICS = [
  'overview',
  'summary',
  'everything',
  'all reports',
  'all the reports',
  'what is broken',
  'what s broken',
  'whats broken',
  'how is my tenant',
  'how are things',
  'health check',
];

/** The commands a near miss may be steered to besides `show <report>`. */
const OTHER_COMMANDS = ['show overview', 'post new findings', 'post new findings daily at 9:00', 'stop posting', 'show schedule', 'help'];

/** A message is read in words; these carry no subject ("which devices have no…"). */
const FILLER = new Set(
  'a an the my our me i we you is are am was were be do does did have has had no not any of in on for to and or with without which what whats who how why when where there their this that these those it its any some all please can could would should show list open tell give get see find check about'.split(
    ' ',
  ),
);

export function understand(words: string, registry: ReportRegistry): Understood {
  const text = ` ${words} `;
  const names = (phrase: string) => text.includes(` ${phrase} `);
  if (OVERVIEW_TOPICS.some(names)) return { kind: 'overview' };

  const scores = registry.definitions
    .map(({ id, botNames, botTopics }) => ({
      id,
      // A longer phrase says more than a single word ("recovery key" over "key").
      score: [...botNames, ...botTopics].filter(names).reduce((sum, phrase) => sum + phrase.split(' ').length, 0),
    }))
    .sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (best && best.score > 0 && best.score > (second?.score ?? 0)) return { kind: 'report', report: best.id };
  if (best && best.score > 0) return { kind: 'suggest', command: commandFor(registry, best.id) };

  const near = nearestCommand(words, registry);
  return near ? { kind: 'suggest', command: near } : { kind: 'nothing' };
}

function commandFor(registry: ReportRegistry, id: ReportId): string {
  return showCommand(registry.definition(id));
}

/** The command that shows a report, as the help card names it and as a message is rewritten to: `show` and its first name. */
export function showCommand(report: { botNames: readonly [string, ...string[]] }): string {
  return `show ${report.botNames[0]}`;
}

/**
 * The command a message misses by a little: a whole command within a few edits ("post new finding",
 * "show escrow gasp"), or a subject word within one or two ("bitlokcer", "conectors").
 */
function nearestCommand(words: string, registry: ReportRegistry): string | null {
  const commands = [...registry.definitions.map(({ id }) => commandFor(registry, id)), ...OTHER_COMMANDS];
  let best: { command: string; distance: number } | null = null;
  for (const command of commands) {
    const distance = editDistance(words, command);
    if (distance <= Math.max(2, Math.floor(command.length / 5)) && (!best || distance < best.distance)) best = { command, distance };
  }
  if (best) return best.command;
  for (const word of words.split(' ')) {
    if (word.length < 4 || FILLER.has(word)) continue;
    for (const { id, botNames, botTopics } of registry.definitions) {
      const subjects = [...botNames, ...botTopics].flatMap((phrase) => phrase.split(' ')).filter((subject) => subject.length >= 4 && !FILLER.has(subject));
      if (subjects.some((subject) => editDistance(word, subject) <= (subject.length <= 5 ? 1 : 2))) return commandFor(registry, id);
    }
  }
  // "post findings", "new findings please": most of a command's words.
  const given = new Set(words.split(' '));
  for (const command of OTHER_COMMANDS) {
    const parts = command.split(' ');
    const matched = parts.filter((part) => given.has(part)).length;
    if (matched >= 2 && matched >= parts.length - 1 && given.size <= parts.length + 3) return command;
  }
  return null;
}

/** Levenshtein distance, bounded by the short inputs a command is (`commandWords` caps them). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * What a message asks "what applies" about, as its author wrote it (a UPN keeps its "@" and dots, a
 * device name its hyphen), or null when it asks something else: "what applies to DESKTOP-0042",
 * "what does alice@contoso.com get", "which apps apply to Sales EMEA?", "effective assignments for
 * CONTOSO-0040". Report phrasings ("which policies are not assigned to anyone", "what is targeted
 * at all users") are not of this shape.
 */
export function appliesQuery(text: string): string | null {
  const line = text
    .replace(/[?!.\s]+$/u, '')
    .replace(/^(?:please|hey|hi)[,\s]+/iu, '')
    .trim();
  for (const pattern of APPLIES_PATTERNS) {
    const subject = pattern.exec(line)?.[1];
    if (!subject) continue;
    const query = subject
      .replace(/^(?:the\s+)?(?:device|user|group|computer|laptop|pc)\s+(?=\S)/iu, '')
      .replace(/\s+(?:please|now)$/iu, '')
      .replace(/^["'“‘]|["'”’]$/gu, '')
      .trim();
    // The help card's placeholder (`what applies to [name]`) is no name: asked as it stands, it gets how to ask.
    if (query === '' || NO_ONE.test(query) || /^\[[^\]]*\]$/.test(query)) return null;
    return query;
  }
  return null;
}

const APPLIES_PATTERNS: readonly RegExp[] = [
  /^(?:show\s+(?:me\s+)?|tell\s+me\s+)?(?:what|which)(?:'s|’s|\s+is|\s+are)?\s+(?:[\p{L}-]+\s+){0,2}(?:applies|apply|applied|is\s+applied|gets\s+applied|is\s+assigned|are\s+assigned|assigned|targets|target)\s+to\s+(.+)$/iu,
  /^(?:what|which\s+[\p{L}-]+)\s+(?:does|do|will|would)\s+(.+?)\s+(?:get|receive|have\s+assigned|get\s+assigned)$/iu,
  /^(?:show\s+(?:me\s+)?)?(?:the\s+)?(?:effective\s+assignments|what\s+applies)\s+(?:of|for|to|on)\s+(.+)$/iu,
  /^applies\s+(?:to\s+)?(.+)$/iu,
];

/** Not a subject but a report's question ("assigned to anyone" is report 2's, "to all users" its broad targets). */
const NO_ONE = /^(?:anyone|anybody|everyone|everybody|nothing|no\s?one|nobody|all\s+users|all\s+devices|all\s+users\s+and\s+all\s+devices|deleted\s+groups?|empty\s+groups?)$/iu;
