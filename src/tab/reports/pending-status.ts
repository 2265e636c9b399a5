import type { ReportId } from '../../core/reports/report-model.js';

export const INITIALIZING_TEXT = 'Initializing data';
export const LOADING_TEXT = 'Loading...';

/**
 * The words a report shows before its data is on screen (docs/contract.md, "Report states"): while the
 * application starts, reports 4, 5 and 6 show the "Initializing data" status line; while data is
 * fetched, reports 1, 2, 3 and 5 show the "Loading..." placeholder. Reports 4 and 6 name no
 * placeholder of their own for the fetch, so their status line stays until the data arrives;
 * reports 1, 2 and 3 name no status line for the start, so their placeholder shows from the first.
 */
export function pendingText(report: ReportId, phase: 'starting' | 'fetching'): string {
  const initializes = report === 'escrow-gaps' || report === 'admin-approval' || report === 'startup-reliability';
  const showsLoading = report !== 'escrow-gaps' && report !== 'startup-reliability';
  if (phase === 'starting') return initializes ? INITIALIZING_TEXT : LOADING_TEXT;
  return showsLoading ? LOADING_TEXT : INITIALIZING_TEXT;
}
