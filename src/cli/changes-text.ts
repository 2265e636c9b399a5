/**
 * The change feed as text for a terminal (docs/contract.md, "The command line"): the window and how
 * many changes, then each change newest first (when, who, what was done to which object), its
 * settings and properties before and after under it, and the feed's notes last. Tenant text is
 * written on one line each (`singleLine`): a name can neither start a line nor drive the terminal.
 */

import { changeTime } from '../core/audit-story/audit-story.js';
import type { ChangeFeedResult } from '../core/changes/load.js';
import type { Change, ChangeDetail } from '../core/changes/change-feed.js';
import { singleLine } from '../core/reports/graph-values.js';
import { countOf } from '../core/text/words.js';
import { wrap } from './text-layout.js';

export function changesToText(result: ChangeFeedResult, options: { width: number | null; color: boolean; tenantLabel: string }): string {
  const { width } = options;
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const red = (text: string) => (options.color ? `\u001b[31m${text}\u001b[39m` : text);
  const lines: string[] = [...wrap(`What changed in ${singleLine(options.tenantLabel)}`, width).map(bold)];
  if (result.state === 'load-error') {
    lines.push(...wrap(`Load error${result.error.status === null ? '' : ` (HTTP ${result.error.status})`}: ${singleLine(result.error.message)}`, width).map(red));
    return `${lines.join('\n')}\n`;
  }
  const { feed } = result;
  lines.push(...wrap(`From ${changeTime(feed.since)} to ${changeTime(feed.until)}: ${countOf(feed.changes.length, 'change')}, newest first.`, width), '');
  if (feed.changes.length === 0) lines.push('No device configuration changed in this time.', '');
  for (const change of feed.changes) lines.push(...changeLines(change, width, bold), '');
  for (const note of result.notes) lines.push(...wrap(singleLine(note), width));
  return `${lines.join('\n').trimEnd()}\n`;
}

function changeLines(change: Change, width: number | null, bold: (text: string) => string): string[] {
  const object = singleLine(change.object.name ?? change.object.id);
  const lines = wrap(`${changeTime(change.at)} by ${singleLine(change.by)}`, width).map(bold);
  lines.push(...wrap(`${change.actionLabel}: ${change.object.kindLabel} "${object}"`, width, '    ', '  '));
  for (const detail of change.details) lines.push(...wrap(detailText(detail), width, '      ', '    '));
  if (change.detailsLeftOut > 0) lines.push(...wrap(`and ${countOf(change.detailsLeftOut, 'more property', 'more properties')} the log listed`, width, '      ', '    '));
  lines.push(...wrap(change.object.link, width, '    ', '    '));
  return lines;
}

function detailText(detail: ChangeDetail): string {
  const value = (text: string | null) => (text === null || text === '' ? '(none)' : singleLine(text));
  return `${singleLine(detail.name)}: ${value(detail.before)} → ${value(detail.after)}${detail.note ? ` (${detail.note})` : ''}`;
}
