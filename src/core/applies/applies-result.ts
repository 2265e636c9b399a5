/**
 * The answer to "what applies" as it crosses to the bot, the tab and the command line
 * (docs/contract.md, "What applies"): the contract's types only, so the tab's bundle takes them
 * without the rules.
 */

import type { AppliesAnswer } from './derive.js';
import type { AppliesCandidate } from './resolve.js';

export type { AppliesAnswer, AppliesEntry, AppliesGroup, AppliesSubject, AppliesVerdict, PathStep, AppliedFilter } from './derive.js';
export type { AppliesCandidate } from './resolve.js';
export type { AppliesConflictKind, AppliesConflictPolicy, AppliesConflicts, AppliesSettingConflict } from './conflicts.js';

/** What `applies(query)` answers: an answer, or why there is none, in plain English. */
export type AppliesResult =
  | { kind: 'found'; answer: AppliesAnswer; requests: number; loadedAt: string }
  | { kind: 'notFound'; query: string; words: string; requests: number }
  | { kind: 'ambiguous'; query: string; candidates: AppliesCandidate[]; more: number; words: string; requests: number }
  | { kind: 'failed'; query: string; words: string; requests: number };
