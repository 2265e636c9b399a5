/** `dmhealth applies` as text: the answer grouped by object type, each object with its verdict, its path in words and its link. */

import type { AppliesResult } from '../app/applies-service.js';
import { NOTHING_ASSIGNED, SUBJECT_WORDS, VERDICT_WORDS, appliesHeading, countsSentence } from '../core/applies/words.js';
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
  if (answer.groups.length === 0) lines.push('', ...wrap(NOTHING_ASSIGNED, width));
  for (const group of answer.groups) {
    lines.push('', ...wrap(group.typeLabel, width));
    for (const entry of group.entries) {
      lines.push(...wrap(`${entry.name}${entry.intent ? ` (${entry.intent})` : ''}`, width, UNDER_ENTRY, `  ${VERDICT_WORDS[entry.verdict].padEnd(8)} `));
      lines.push(...wrap(entry.words, width, UNDER_ENTRY));
      for (const caveat of entry.caveats) lines.push(...wrap(caveat, width, UNDER_ENTRY));
      if (entry.link) lines.push(`${UNDER_ENTRY}${entry.link}`);
    }
  }
  lines.push('', ...answer.notes.flatMap((note) => wrap(note, width)));
  return `${lines.join('\n')}\n`;
}
