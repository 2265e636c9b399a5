/**
 * The answer to "what applies" as it crosses to the bot, the tab and the command line
 * (docs/contract.md, "What applies"): the contract's types only, so the tab's bundle takes them
 * without the rules.
 */

import type { AppliesAnswer } from './derive.js';
import type { AppliesCandidate } from './resolve.js';

export type { AppliesAnswer } from './derive.js';
export type { AppliesEntry, AppliesGroup, AppliesSubject, AppliesVerdict, PathStep, AppliedFilter } from './entry-types.js';
export type { AppliesCandidate } from './resolve.js';
export type { AppliesConflictKind, AppliesConflictPolicy, AppliesConflicts, AppliesSettingConflict } from './conflicts.js';

/**
 * What a scoped answer says of itself (docs/finding-rules.md, "What applies", "For a viewer limited
 * to scope tags"): present only for a viewer limited to scope tags.
 */
export interface AppliesScopeNote {
  /** The viewer's tags in words: "scope tag Europe". */
  scope: string;
  /** How many assigned objects that reach the subject were left out: outside the viewer's tags, or of tags not known. */
  hidden: number;
  words: string;
}

/** What `applies(query)` answers: an answer, or why there is none, in plain English. */
export type AppliesResult =
  | { kind: 'found'; answer: AppliesAnswer; requests: number; loadedAt: string; scope?: AppliesScopeNote }
  | { kind: 'notFound'; query: string; words: string; requests: number }
  | { kind: 'ambiguous'; query: string; candidates: AppliesCandidate[]; more: number; words: string; requests: number }
  | { kind: 'failed'; query: string; words: string; requests: number };
