import type { ReportRow } from '../../core/reports/report-model.js';

/** A row's link into the Intune admin center, and what it opens: the row's `linkLabel` (a list page), else the row's name. */
export interface RowLink {
  href: string;
  label: string;
}

export function rowLink(row: ReportRow, name: string): RowLink | null {
  if (typeof row.link !== 'string') return null;
  return { href: row.link, label: typeof row.linkLabel === 'string' ? row.linkLabel : name };
}
