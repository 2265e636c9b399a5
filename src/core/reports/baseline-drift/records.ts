/**
 * Report 8's records: the approved baseline (baseline-book.ts) beside what each approved policy is
 * now, taken from reports 3's and 2's records (load.ts), and the audit log report 3 read for the
 * findings' stories.
 */

import type { AuditLog } from '../../audit-story/audit-story.js';
import type { ApprovedAssignment, ApprovedSetting, BaselineBook } from './baseline-book.js';

/** A settings catalog policy as it is now, in the book's terms. */
export interface CurrentPolicy {
  policyId: string;
  policyName: string;
  /** null where its settings were not read (report 3 reads none for an audit-only baseline) or not in full: `settingsError` says why. */
  settings: ApprovedSetting[] | null;
  settingsError: string | null;
  /** null where its assignments could not be read: they are then not compared. */
  assignments: ApprovedAssignment[] | null;
  link: string;
  roleScopeTagIds: readonly string[] | null;
}

export interface BaselineDriftRecords {
  /** The approved baseline; null where no baseline is kept (the command line keeps no state). */
  book: BaselineBook | null;
  /** Every settings catalog policy now, by lower-case id. */
  current: Map<string, CurrentPolicy>;
  auditLog?: AuditLog;
}
