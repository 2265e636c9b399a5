/**
 * The change feed as CSV, one row per changed setting or property (a change that names none is one
 * row of its own): the names a person reads, and beside them the ids and the values as the log
 * wrote them, for a spreadsheet to filter by (docs/contract.md, "The change feed").
 */

import { csvField } from '../reports/report-csv.js';
import type { Change } from './change-feed.js';

const HEADER = [
  'When (UTC)',
  'Changed by',
  'Action',
  'Object type',
  'Object',
  'Setting or property',
  'Before',
  'After',
  'Note',
  'Object id',
  'Logged property',
  'Logged before',
  'Logged after',
  'Link',
];

export function changesToCsv(changes: readonly Change[]): string {
  const lines = [HEADER.map(csvField).join(',')];
  for (const change of changes) {
    const common = [change.at, change.by, change.actionLabel, change.object.kindLabel, change.object.name ?? ''];
    const tail = (logged?: { name: string; oldValue: string | null; newValue: string | null }) => [
      change.object.id,
      logged?.name ?? '',
      logged?.oldValue ?? '',
      logged?.newValue ?? '',
      change.object.link,
    ];
    if (change.details.length === 0) lines.push([...common, '', '', '', leftOutNote(change), ...tail()].map(csvField).join(','));
    for (const [index, detail] of change.details.entries()) {
      const note = [detail.note, index === change.details.length - 1 ? leftOutNote(change) : ''].filter(Boolean).join('; ');
      lines.push([...common, detail.name, detail.before ?? '', detail.after ?? '', note, ...tail(detail.logged)].map(csvField).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

function leftOutNote(change: Change): string {
  return change.detailsLeftOut > 0 ? `and ${change.detailsLeftOut} more ${change.detailsLeftOut === 1 ? 'property' : 'properties'} the feed does not list` : '';
}
