import type { ReportRegistry } from '../core/reports/registry.js';
import { readingOf } from './commands/command.js';
import type { Command, Phrasing, Understood } from './commands/command.js';

/**
 * What an admin means, read from their words without a language model or a network call, by the
 * commands' phrasings (`Command.phrasings`): each report names the subjects people ask about
 * (`botTopics`, e.g. "bitlocker", "unassigned"), and a message that names the subjects of exactly
 * one report asks for it; the overview's phrases ("what is broken") decide outright. A message that
 * names none but comes close to a command or a subject (a typo, a word missing) gets that command
 * suggested.
 */

/** A message is read in words; these carry no subject ("which devices have no…"). */
const FILLER = new Set(
  'a an the my our me i we you is are am was were be do does did have has had no not any of in on for to and or with without which what whats who how why when where there their this that these those it its any some all please can could would should show list open tell give get see find check about'.split(
    ' ',
  ),
);

interface CommandPhrasing {
  command: Command;
  phrasing: Phrasing<unknown>;
}

export function understand(words: string, commands: readonly Command[], registry: ReportRegistry): Understood {
  const text = ` ${words} `;
  const names = (phrase: string) => text.includes(` ${phrase} `);
  const phrasings: CommandPhrasing[] = commands.flatMap((command) => (command.phrasings?.(registry) ?? []).map((phrasing) => ({ command, phrasing })));
  const decisive = phrasings.find(({ phrasing }) => phrasing.decides && phrasing.phrases.some(names));
  if (decisive) return { kind: 'reading', reading: readingOf(decisive.command, decisive.phrasing.reading, registry, words) };

  const counted = phrasings.filter(({ phrasing }) => !phrasing.decides);
  const scores = counted
    .map((entry) => ({
      entry,
      // A longer phrase says more than a single word ("recovery key" over "key").
      score: entry.phrasing.phrases.filter(names).reduce((sum, phrase) => sum + phrase.split(' ').length, 0),
    }))
    .sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (best && best.score > 0 && best.score > (second?.score ?? 0)) return { kind: 'reading', reading: readingOf(best.entry.command, best.entry.phrasing.reading, registry, words) };
  if (best && best.score > 0) return { kind: 'suggest', command: says(best.entry, registry) };

  const near = nearestCommand(words, commands, counted, registry);
  return near ? { kind: 'suggest', command: near } : { kind: 'nothing' };
}

/** The command a phrasing asks for, as the help card names it (`show escrow gaps`). */
function says({ command, phrasing }: CommandPhrasing, registry: ReportRegistry): string {
  return command.says?.(phrasing.reading, registry) ?? command.name;
}

/**
 * The command a message misses by a little: a whole command within a few edits ("post new finding",
 * "show escrow gasp"), or a subject word within one or two ("bitlokcer", "conectors").
 */
function nearestCommand(words: string, commands: readonly Command[], counted: readonly CommandPhrasing[], registry: ReportRegistry): string | null {
  const candidates = commands.flatMap((command) => [...counted.filter((entry) => entry.command === command).map((entry) => says(entry, registry)), ...(command.nearMisses ?? [])]);
  let best: { command: string; distance: number } | null = null;
  for (const command of candidates) {
    const distance = editDistance(words, command);
    if (distance <= Math.max(2, Math.floor(command.length / 5)) && (!best || distance < best.distance)) best = { command, distance };
  }
  if (best) return best.command;
  for (const word of words.split(' ')) {
    if (word.length < 4 || FILLER.has(word)) continue;
    for (const entry of counted) {
      const subjects = entry.phrasing.phrases.flatMap((phrase) => phrase.split(' ')).filter((subject) => subject.length >= 4 && !FILLER.has(subject));
      if (subjects.some((subject) => editDistance(word, subject) <= (subject.length <= 5 ? 1 : 2))) return says(entry, registry);
    }
  }
  // "post findings", "new findings please": most of a command's words.
  const given = new Set(words.split(' '));
  for (const command of commands.flatMap((each) => each.nearMisses ?? [])) {
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
