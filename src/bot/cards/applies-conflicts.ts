/**
 * The "what applies" card's conflicts section (applies-card.ts): a device's settings in conflict or
 * possibly so, each with the value Intune applies and its policies' values, the first few only.
 */

import type { AppliesConflictKind, AppliesConflicts, AppliesSettingConflict } from '../../core/applies/applies-result.js';
import { CONFLICTS_HEADING, CONFLICT_KIND_LABELS, conflictsSentence, isListedConflict, policyVerdictWords } from '../../core/applies/words.js';
import { countOf } from '../../core/text/words.js';
import { cardText } from './adaptive-card.js';

/** Conflicts and possible conflicts a card lists (duplicates and merged settings are counted only); policies named per setting. */
export const LISTED_CONFLICTS = 3;
export const POLICIES_PER_CONFLICT = 3;

const CONFLICT_COLOUR: Readonly<Record<AppliesConflictKind, string>> = {
  conflict: 'Attention',
  possibleConflict: 'Warning',
  duplicate: 'Default',
  merged: 'Default',
};

/**
 * A device's setting conflicts on the card: the conflicts and possible conflicts by setting, each
 * with the value Intune applies and its policies' values, the first few only; duplicates and merged
 * settings counted in the summary. For a user or a group, or when the settings could not be read, the
 * sentence that says so (never "no conflicts").
 */
export function conflictsData(conflicts: AppliesConflicts) {
  const listed = conflicts.state === 'checked' ? conflicts.settings.filter(isListedConflict) : [];
  const more = Math.max(0, listed.length - LISTED_CONFLICTS);
  return {
    conflictsHeading: CONFLICTS_HEADING,
    conflictsStyle: conflicts.state === 'unread' ? 'warning' : 'default',
    conflictsSummary: cardText(conflictsSentence(conflicts), 300),
    conflicts: listed.slice(0, LISTED_CONFLICTS).map(conflictData),
    moreConflicts: more,
    moreConflictsText: `and ${countOf(more, 'more setting')} in conflict or possibly so: open the reports (below) to see them in the tab`,
  };
}

function conflictData(setting: AppliesSettingConflict): { label: string; colour: string; setting: string; applied: string; policies: string } {
  const named = setting.policies.slice(0, POLICIES_PER_CONFLICT).map((policy) => {
    const verdict = policy.verdict === 'applies' ? '' : ` (${policyVerdictWords(policy.verdict)})`;
    return `${cardText(policy.name, 50)}${verdict}: ${cardText(policy.value, 30)}`;
  });
  const left = setting.policies.length - named.length;
  return {
    label: `${CONFLICT_KIND_LABELS[setting.kind]}${setting.security ? ', security' : ''}`,
    colour: CONFLICT_COLOUR[setting.kind],
    setting: cardText(setting.setting, 100),
    applied: cardText(setting.applied, 160),
    policies: `${named.join('; ')}${left > 0 ? `; and ${left} more` : ''}`,
  };
}
