import { REPORT_IDS, isReportId } from '../../core/reports/report-model.js';
import type { ReportId } from '../../core/reports/report-model.js';

/** Short names for the navigation; the full titles come with the report list from the server. */
export const NAVIGATION_LABELS: Record<ReportId, string> = {
  'connector-health': 'Connectors & integrations',
  'assignment-hygiene': 'Assignment hygiene',
  'security-posture': 'Security policy posture',
  'escrow-gaps': 'LAPS & BitLocker escrow',
  'admin-approval': 'Multi admin approval',
  'startup-reliability': 'Startup & app reliability',
};

export const DEFAULT_REPORT: ReportId = REPORT_IDS[0];

/** The report a URL hash names: `#/escrow-gaps` (or `#escrow-gaps`), else null. */
export function reportFromHash(hash: string): ReportId | null {
  const id = decodeURIComponent(hash.replace(/^#\/?/, ''));
  return isReportId(id) ? id : null;
}

export function hashFor(report: ReportId): string {
  return `#/${report}`;
}
