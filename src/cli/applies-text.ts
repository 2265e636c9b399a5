/**
 * `dmhealth applies` as text: the answer grouped by object type, each object with its verdict, its
 * path in words and its link; then, for a device, the settings its policies set differently, each
 * with the value Intune applies.
 */

import type { AppliesConflicts, AppliesResult } from '../core/applies/applies-result.js';
import {
  CONFLICTS_HEADING,
  CONFLICT_KIND_LABELS,
  NOTHING_ASSIGNED,
  SUBJECT_WORDS,
  VERDICT_WORDS,
  appliesHeading,
  conflictsSentence,
  countsSentence,
  policyVerdictWords,
  sharedReason,
  undecidedReasons,
  DEVICE_GROUPS_NOT_GRANTED,
} from '../core/applies/words.js';
import { wrap } from './text-layout.js';

/** Under an entry's verdict: its path, caveats and link line up with its name. */
const UNDER_ENTRY = ' '.repeat(11);

/** The answer within `width` characters a line (null: no limit), but for a link, which stays whole (text-layout.ts). */
export function appliesToText(result: AppliesResult, width: number | null = null): string {
  if (result.kind === 'notFound' || result.kind === 'failed') return `${wrap(result.words, width).join('\n')}\n`;
  if (result.kind === 'ambiguous') {
    const lines = wrap(result.words, width);
    for (const candidate of result.candidates)
      lines.push(...wrap(`${candidate.name}  (${candidate.detail}; id ${candidate.id})`, width, ' '.repeat(12), `  ${SUBJECT_WORDS[candidate.kind].padEnd(7)} `));
    if (result.more > 0) lines.push(`  and ${result.more} more`);
    return `${lines.join('\n')}\n`;
  }
  const { answer } = result;
  const lines = [...wrap(appliesHeading(answer.subject), width), ...wrap(countsSentence(answer.counts), width)];
  // Why the device's own groups are unknown (no Device.Read.All, no Entra device) is one reason for
  // every object it leaves undecided: said once, above them, rather than under each.
  // The grouping the tab and the card use (`undecidedReasons`: the shared reason is the one with paths); said apart here only for two or more.
  const shared = undecidedReasons(answer).find((reason) => reason.paths !== undefined);
  const sharing = shared?.entries ?? [];
  const once = shared && sharing.length > 1 ? shared.words : null;
  if (once)
    lines.push(
      '',
      ...wrap(
        `${sharing.length} unknown for one reason: ${once}.${once === DEVICE_GROUPS_NOT_GRANTED ? ' README, "Optional permission: device groups", says how to grant it.' : ''}`,
        width,
      ),
    );
  if (answer.groups.length === 0) lines.push('', ...wrap(NOTHING_ASSIGNED, width));
  for (const group of answer.groups) {
    lines.push('', ...wrap(group.typeLabel, width));
    for (const entry of group.entries) {
      lines.push(...wrap(`${entry.name}${entry.intent ? ` (${entry.intent})` : ''}`, width, UNDER_ENTRY, `  ${VERDICT_WORDS[entry.verdict].padEnd(8)} `));
      const words = once && sharedReason(entry) === once ? `${entry.undecided!.without} (the reason above).` : entry.words;
      lines.push(...wrap(words, width, UNDER_ENTRY));
      for (const caveat of entry.caveats) lines.push(...wrap(caveat, width, UNDER_ENTRY));
      if (entry.link) lines.push(`${UNDER_ENTRY}${entry.link}`);
    }
  }
  lines.push('', ...conflictLines(answer.conflicts, width));
  lines.push('', ...answer.notes.flatMap((note) => wrap(note, width)));
  return `${lines.join('\n')}\n`;
}

/** Under a setting: which value Intune applies, each policy with its value, and why. */
const UNDER_SETTING = ' '.repeat(4);

/** A device's setting conflicts: every setting two or more of its policies set, conflicts first; or why they were not checked. */
function conflictLines(conflicts: AppliesConflicts, width: number | null): string[] {
  const lines = [...wrap(CONFLICTS_HEADING, width), ...wrap(conflictsSentence(conflicts), width)];
  if (conflicts.state !== 'checked') return lines;
  for (const setting of conflicts.settings) {
    lines.push(...wrap(`${CONFLICT_KIND_LABELS[setting.kind]}${setting.security ? ' (security)' : ''}: ${setting.setting}`, width, UNDER_SETTING, '  '));
    lines.push(...wrap(`Applied: ${setting.applied}`, width, UNDER_SETTING, UNDER_SETTING));
    for (const policy of setting.policies)
      lines.push(...wrap(`${policy.name} (${policyVerdictWords(policy.verdict)}): ${policy.value}`, width, `${UNDER_SETTING}  `, `${UNDER_SETTING}- `));
    lines.push(...wrap(setting.words, width, UNDER_SETTING, UNDER_SETTING));
  }
  for (const note of conflicts.notes) lines.push(...wrap(note, width));
  return lines;
}
