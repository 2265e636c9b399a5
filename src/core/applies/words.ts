/**
 * The words of an answer to "what applies" (docs/finding-rules.md, "What applies"), shared by the
 * command line, the bot's card and the tab so that all three say the same thing.
 */

import type { AppliesAnswer, AppliesEntry, AppliesVerdict } from './derive.js';

/** A question is a name, a UPN or an id: anything longer is not one (the bot and `GET /api/applies` take as much). */
export const LONGEST_APPLIES_QUERY = 200;

/** A verdict in a word or two. */
export const VERDICT_WORDS: Readonly<Record<AppliesVerdict, string>> = {
  applies: 'applies',
  excluded: 'excluded',
  dependsOnFilter: 'depends',
  unknown: 'unknown',
  notForPlatform: 'other OS',
};

/** A verdict as a heading or a label, where the short word would be unclear ("depends" on what?). */
export const VERDICT_LABELS: Readonly<Record<AppliesVerdict, string>> = {
  applies: 'Applies',
  excluded: 'Excluded',
  dependsOnFilter: 'Depends on a filter',
  unknown: 'Could not be decided',
  notForPlatform: 'Not for this platform',
};

export const SUBJECT_WORDS = { device: 'device', user: 'user', group: 'group' } as const;

/** "What applies to device CONTOSO-0040 (primary user …)". */
export function appliesHeading(subject: AppliesAnswer['subject']): string {
  const who = subject.kind === 'device' && subject.primaryUserName ? ` (primary user ${subject.primaryUserName})` : '';
  return `What applies to ${SUBJECT_WORDS[subject.kind]} ${subject.name}${who}`;
}

/** "28 apply, 2 excluded, 1 depend on a filter, 1 unknown." and, where there are some, "; 12 are for another platform". */
export function countsSentence(counts: AppliesAnswer['counts']): string {
  const { applies, excluded, dependsOnFilter, unknown, notForPlatform } = counts;
  const others = notForPlatform > 0 ? `; ${notForPlatform} ${notForPlatform === 1 ? 'is' : 'are'} for another platform` : '';
  return `${applies} apply, ${excluded} excluded, ${dependsOnFilter} depend on a filter, ${unknown} unknown${others}.`;
}

export const NOTHING_ASSIGNED = 'No policy, profile, app or script is assigned to it.';

/** Entries that could not be decided, gathered by why: the same group read the same way gives the same sentence. */
export interface UndecidedReason {
  /** Why, as the rules say it (the entry's `words`: which group, and why its membership could not be told). */
  words: string;
  entries: AppliesEntry[];
}

/**
 * The unknowns of an answer gathered by their reason, most entries first. On a large tenant most
 * verdicts can be unknown for one reason (a group of devices, whose members the product's
 * permissions do not match to managed devices), and one line per reason keeps the answer readable.
 */
export function undecidedReasons(answer: AppliesAnswer): UndecidedReason[] {
  const byWords = new Map<string, AppliesEntry[]>();
  for (const group of answer.groups) {
    for (const entry of group.entries) {
      if (entry.verdict !== 'unknown') continue;
      const list = byWords.get(entry.words) ?? [];
      list.push(entry);
      byWords.set(entry.words, list);
    }
  }
  return [...byWords].map(([words, entries]) => ({ words, entries })).sort((a, b) => b.entries.length - a.entries.length || a.words.localeCompare(b.words));
}
