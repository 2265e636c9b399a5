/**
 * The words of an answer to "what applies" (docs/finding-rules.md, "What applies"), shared by the
 * command line, the bot's card and the tab so that all three say the same thing.
 */

import { countOf } from '../text/words.js';
import type { AppliesConflictKind, AppliesConflicts, AppliesSettingConflict } from './conflicts.js';
import type { AppliesAnswer } from './derive.js';
import type { AppliesEntry, AppliesVerdict } from './entry-types.js';

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

/** A policy's verdict where a conflict lists it, inside a sentence: "(could not be decided)". */
export function policyVerdictWords(verdict: AppliesVerdict): string {
  return VERDICT_LABELS[verdict].toLowerCase();
}

/** The conflicts every front end lists one by one: conflicts and possible ones; duplicates and merged settings are only counted or folded. */
export function isListedConflict(setting: Pick<AppliesSettingConflict, 'kind'>): boolean {
  return setting.kind === 'conflict' || setting.kind === 'possibleConflict';
}

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

/**
 * Why a device's groups are unknown when the app was not granted `Device.Read.All` (README, "Optional
 * permission: device groups"), in words that read alone and after "whose membership could not be
 * told:"; said to administrators, who may not run the app, so it names the permission, not the README.
 */
export const DEVICE_GROUPS_NOT_GRANTED =
  'which groups hold this device can be told only with Device.Read.All, a Microsoft Graph permission this app has not been granted (an administrator grants it to the app in Microsoft Entra ID)';

/** Entries that could not be decided, gathered by why: the same group read the same way gives the same sentence. */
export interface UndecidedReason {
  /** Why, as the rules say it (the entry's `words`: which group, and why its membership could not be told), or the one reason a device's entries share. */
  words: string;
  entries: AppliesEntry[];
  /**
   * For a reason the entries share (the device's own groups unknown, `entraUnknownReason`), each
   * entry's own words without it, in the entries' order ("Assigned to Finance Devices, whose
   * membership could not be told"): which of its paths the reason left undecided.
   */
  paths?: string[];
}

/**
 * The unknowns of an answer gathered by their reason, most entries first. On a large tenant most
 * verdicts can be unknown for one reason (a group of devices, whose members the product's
 * permissions do not match to managed devices), and one line per reason keeps the answer readable.
 * Why a device's own groups are unknown (`Device.Read.All` not granted, no Entra device) is one reason
 * for every entry it leaves undecided, whichever group each goes through: said once, with each
 * entry's path beside it, not once per group.
 */
export function undecidedReasons(answer: AppliesAnswer): UndecidedReason[] {
  const byWords = new Map<string, { shared: boolean; entries: AppliesEntry[] }>();
  for (const group of answer.groups) {
    for (const entry of group.entries) {
      if (entry.verdict !== 'unknown') continue;
      const shared = sharedReason(entry);
      const key = shared ?? entry.words;
      const gathered = byWords.get(key) ?? { shared: shared !== null, entries: [] };
      gathered.entries.push(entry);
      byWords.set(key, gathered);
    }
  }
  return [...byWords]
    .map(([words, { shared, entries }]): UndecidedReason => (shared ? { words, entries, paths: entries.map((entry) => entry.undecided!.without) } : { words, entries }))
    .sort((a, b) => b.entries.length - a.entries.length || a.words.localeCompare(b.words));
}

/**
 * The reason an entry shares with every other its device leaves undecided: which Entra device the
 * device is cannot be told (`deviceNotIdentified`), whichever group each goes through. Null for a
 * reason of its own.
 */
export function sharedReason(entry: Pick<AppliesEntry, 'undecided'>): string | null {
  return entry.undecided?.code === 'deviceNotIdentified' ? entry.undecided.reason : null;
}

/** The heading of a device's setting conflicts, wherever the answer goes. */
export const CONFLICTS_HEADING = 'Setting conflicts';

/** What two or more policies setting one setting amount to, as a label. */
export const CONFLICT_KIND_LABELS: Readonly<Record<AppliesConflictKind, string>> = {
  conflict: 'Conflict',
  possibleConflict: 'Possible conflict',
  duplicate: 'Duplicate',
  merged: 'Merged',
};

/**
 * "4 settings in conflict, 1 possible conflict, 30 duplicates and 1 merged setting." for a checked
 * answer; why it was not checked otherwise (never "no conflicts" for what was not read).
 */
export function conflictsSentence(conflicts: AppliesConflicts): string {
  if (conflicts.state !== 'checked') return conflicts.words;
  const { conflict, possibleConflict, duplicate, merged } = conflicts.counts;
  // A policy whose settings were not read whole, or a kind whose settings are not read, is not compared: "none" is said only of those that were.
  const { notCompared } = conflicts;
  if (conflict + possibleConflict + duplicate + merged === 0) {
    return notCompared === 0
      ? 'No setting is set by two of the policies that may apply to it.'
      : `No setting is set by two of the policies compared; ${countOf(notCompared, 'other object', 'other objects')} that may apply could not be compared.`;
  }
  const parts = [`${countOf(conflict, 'setting')} in conflict`, countOf(possibleConflict, 'possible conflict'), countOf(duplicate, 'duplicate'), countOf(merged, 'merged setting')];
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}.`;
}
