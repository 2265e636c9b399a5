/** `dmhealth applies` as text: the answer grouped by object type, each object with its verdict, its path in words and its link. */

import type { AppliesResult, AppliesVerdict } from '../app/applies-service.js';

const VERDICT_WORDS: Readonly<Record<AppliesVerdict, string>> = {
  applies: 'applies',
  excluded: 'excluded',
  dependsOnFilter: 'depends',
  unknown: 'unknown',
};

const SUBJECT_WORDS = { device: 'device', user: 'user', group: 'group' } as const;

export function appliesToText(result: AppliesResult): string {
  if (result.kind === 'notFound' || result.kind === 'failed') return `${result.words}\n`;
  if (result.kind === 'ambiguous') {
    const lines = result.candidates.map((candidate) => `  ${SUBJECT_WORDS[candidate.kind].padEnd(7)} ${candidate.name}  (${candidate.detail}; id ${candidate.id})`);
    if (result.more > 0) lines.push(`  and ${result.more} more`);
    return `${result.words}\n${lines.join('\n')}\n`;
  }
  const { answer } = result;
  const subject = answer.subject;
  const who = subject.kind === 'device' && subject.primaryUserName ? ` (primary user ${subject.primaryUserName})` : '';
  const { applies, excluded, dependsOnFilter, unknown } = answer.counts;
  const lines = [
    `What applies to ${SUBJECT_WORDS[subject.kind]} ${subject.name}${who}`,
    `${applies} apply, ${excluded} excluded, ${dependsOnFilter} depend on a filter, ${unknown} unknown.`,
  ];
  if (answer.groups.length === 0) lines.push('', 'No policy, profile, app or script is assigned to it.');
  for (const group of answer.groups) {
    lines.push('', group.typeLabel);
    for (const entry of group.entries) {
      lines.push(`  ${VERDICT_WORDS[entry.verdict].padEnd(8)} ${entry.name}${entry.intent ? ` (${entry.intent})` : ''}`);
      lines.push(`           ${entry.words}`);
      for (const caveat of entry.caveats) lines.push(`           ${caveat}`);
      if (entry.link) lines.push(`           ${entry.link}`);
    }
  }
  lines.push('', ...answer.notes);
  return `${lines.join('\n')}\n`;
}
