/**
 * Approving a policy as it is now, and withdrawing an approval (report 8; docs/contract.md, "The
 * approved baseline"): what the tab's Approve asks for. What is approved is the policy as report 8's
 * records hold it, no older than the reports' freshness (its settings from report 3, its assignments
 * from report 2), so what a person approves is what the report shows. The book then changes under
 * its lock, audited (who, when), and report 8 is loaded again so the next viewer sees the change.
 */

import type { ReportCache } from './report-cache.js';
import type { BaselineRecords } from './baseline-records.js';
import { policySnapshot } from '../core/reports/baseline-drift/load.js';
import type { BaselineAuditEntry, BaselineBook } from '../core/reports/baseline-drift/baseline-book.js';
import type { BaselineDriftRecords } from '../core/reports/baseline-drift/records.js';
import { baselineDriftReport } from '../core/reports/baseline-drift/definition.js';
import { errorText } from '../core/error-text.js';

export type BaselineChange = { ok: true; entry: BaselineAuditEntry } | { ok: false; status: 404 | 409 | 503; message: string };

export class BaselineService {
  constructor(
    private readonly options: {
      records: BaselineRecords;
      cache: Pick<ReportCache, 'keepRecordsOf' | 'recordsOf' | 'get'>;
      log: (line: string) => void;
    },
  ) {
    options.cache.keepRecordsOf(baselineDriftReport.id);
  }

  /** The book as kept now: the approved policies and every approval and withdrawal. */
  read(): Promise<BaselineBook> {
    return this.options.records.read();
  }

  /** Approves `policyId` as report 8's records hold it now, as `by`. */
  async approve(policyId: string, by: string): Promise<BaselineChange> {
    // Records another instance's shared load did not hand over are read here, afresh.
    const records =
      (await this.options.cache.recordsOf<BaselineDriftRecords>(baselineDriftReport.id)) ??
      (await this.options.cache.recordsOf<BaselineDriftRecords>(baselineDriftReport.id, { refresh: true }));
    if (!records) return { ok: false, status: 503, message: 'The policies could not be read just now, so nothing was approved; try again.' };
    const snapshot = policySnapshot(records.records.current, policyId);
    if (snapshot === null) return { ok: false, status: 404, message: 'No settings catalog, endpoint security or baseline policy has that id.' };
    if ('unreadable' in snapshot) return { ok: false, status: 409, message: `The policy was not approved: ${snapshot.unreadable}, and a policy is approved whole or not at all.` };
    return this.changed(await this.options.records.change({ action: 'approve', policy: snapshot }, by));
  }

  /** Takes `policyId` out of the approved baseline, as `by`. */
  async withdraw(policyId: string, by: string): Promise<BaselineChange> {
    return this.changed(await this.options.records.change({ action: 'withdraw', policyId }, by));
  }

  private async changed(outcome: Awaited<ReturnType<BaselineRecords['change']>>): Promise<BaselineChange> {
    if (!outcome.ok) return outcome;
    // The report as the book now is, for whoever opens it next; a load that fails leaves the old one to age out.
    await this.options.cache
      .get(baselineDriftReport.id, { refresh: true })
      .catch((error: unknown) => this.options.log(`report 8 could not be loaded again after a change to the approved baseline: ${errorText(error)}`));
    return { ok: true, entry: outcome.entry };
  }
}
