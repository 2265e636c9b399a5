/** `dmhealth applies` as text: the answer grouped by object type, each object with its verdict, its path in words and its link. */

import type { AppliesResult } from '../app/applies-service.js';
import { NOTHING_ASSIGNED, SUBJECT_WORDS, VERDICT_WORDS, appliesHeading, countsSentence } from '../core/applies/words.js';

export function appliesToText(result: AppliesResult): string {
  if (result.kind === 'notFound' || result.kind === 'failed') return `${result.words}\n`;
  if (result.kind === 'ambiguous') {
    const lines = result.candidates.map((candidate) => `  ${SUBJECT_WORDS[candidate.kind].padEnd(7)} ${candidate.name}  (${candidate.detail}; id ${candidate.id})`);
    if (result.more > 0) lines.push(`  and ${result.more} more`);
    return `${result.words}\n${lines.join('\n')}\n`;
  }
  const { answer } = result;
  const lines = [appliesHeading(answer.subject), countsSentence(answer.counts)];
  if (answer.groups.length === 0) lines.push('', NOTHING_ASSIGNED);
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
