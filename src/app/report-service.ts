import { OUTSIDE_VIEWER_SCOPE_CODE } from '../core/reports/report-model.js';
import type { LoadProgress, ReportId, ReportResult } from '../core/reports/report-model.js';
import type { ScopedReport } from '../core/viewer-scope/scope-report.js';
import { subjectsInView, triageBookInView } from '../core/viewer-scope/scope-triage.js';
import { summarizeReport } from '../core/reports/report-summary.js';
import type { ReportSummary } from '../core/reports/report-summary.js';
import { latestChange } from '../core/history/report-history.js';
import type { ReportHistory } from '../core/history/report-history.js';
import { decisionsInForce } from '../core/triage/triage-book.js';
import type { TriageActor, TriageBook, TriageDecision, TriageOutcome, TriageRequest, TriageView } from '../core/triage/triage-book.js';
import { auditPageOf } from '../core/triage/audit-page.js';
import type { AuditPage, AuditPageQuery } from '../core/triage/audit-page.js';
import { errorText } from '../core/error-text.js';
import type { HistoryRecords } from './history-records.js';
import type { OpenedReport, ReportCache, ReportLoadProgress } from './report-cache.js';
import type { TriageRecords } from './triage-records.js';

/** Audit entries the triage view still carries, the report's latest: what it carried before the audit was paged (`triageAudit`). */
const AUDIT_SHOWN = 200;

/**
 * A viewer limited to scope tags (docs/finding-rules.md, "Viewer scope"): a result as they may see
 * it, the server's own filtering (`ViewerScopes.view` bound to their scope). Absent, the whole tenant.
 */
export type InScope = (result: ReportResult) => ScopedReport;

/** A triage read or change refused by the viewer scope, with why in plain words. */
export interface OutsideScope {
  ok: false;
  status: 403;
  code: typeof OUTSIDE_VIEWER_SCOPE_CODE;
  message: string;
}

export interface ReportServiceOptions {
  cache: ReportCache;
  /** The reports' history and the triage decisions, kept in the state store; a caller without a store (the CLI) has neither. */
  history?: HistoryRecords;
  triage?: TriageRecords;
  log: (line: string) => void;
}

/**
 * What every front end asks of the reports (docs/architecture.md, "The application floor"): a
 * report opened or loaded through the one cache, a load's progress, a report's summary (composed
 * here, once, for the tab's overview, the bot's cards and the CLI's overview), the triage view and
 * decisions, and the history. The server, the bot and the CLI adapt it to HTTP, Teams and the
 * terminal; none of them composes a summary or decides a triage request itself.
 */
export class ReportService {
  private readonly cache: ReportCache;
  private readonly log: (line: string) => void;

  constructor(private readonly options: ReportServiceOptions) {
    this.cache = options.cache;
    this.log = options.log;
  }

  /** A report as a viewer opens it: at once when kept, even aged, while a newer one loads (report-cache.ts). */
  open(id: ReportId, options: { refresh?: boolean } = {}): Promise<OpenedReport> {
    return this.cache.open(id, options);
  }

  /** A report no older than the cache keeps results fresh, or a fresh load with `refresh`: for what speaks of the present (an export, a post). */
  get(id: ReportId, options: { refresh?: boolean; onProgress?: (progress: LoadProgress) => void } = {}): Promise<ReportResult> {
    return this.cache.get(id, options);
  }

  /** The reports loaded afresh, side by side, as a post speaks of the present. */
  loadFresh(ids: readonly ReportId[]): Promise<ReportResult[]> {
    return Promise.all(ids.map((id) => this.cache.get(id, { refresh: true })));
  }

  /** Resolves once no load is under way (report-cache.ts): before the store a load writes into is closed. */
  settled(): Promise<void> {
    return this.cache.settled();
  }

  progress(id: ReportId): ReportLoadProgress {
    return this.cache.progress(id);
  }

  /** The report's history: a point per successful load. Without a store, there is none. */
  history(id: ReportId): Promise<ReportHistory | null> {
    return this.options.history ? this.options.history.read(id) : Promise.resolve(null);
  }

  /**
   * A result in a few numbers (report-summary.ts), with what changed since the load before and the
   * trend from the history, and the findings accepted or snoozed counted apart. The history and the
   * decisions only add to a summary: one that cannot be read is left out, and logged.
   */
  async summarize(result: ReportResult, now: Date): Promise<ReportSummary> {
    return (await this.summarizeAll([result], now))[0]!;
  }

  /**
   * Several results summarized side by side (an overview), the decisions read once for all. With
   * `history: false` the summaries carry no changes and no trend, and no history is read: for a
   * card that shows neither.
   */
  async summarizeAll(results: readonly ReportResult[], now: Date, options: { history?: boolean } = {}): Promise<ReportSummary[]> {
    const withHistory = options.history ?? true;
    const [histories, inForce] = await Promise.all([Promise.all(results.map((result) => (withHistory ? this.historyOrNull(result.report) : null))), this.decisionsInForce()]);
    return results.map((result, index) => {
      const history = histories[index] ?? null;
      return summarizeReport(result, {
        changes: history ? latestChange(history) : null,
        trend: history ? history.points.map((point) => ({ at: point.at, findings: point.findings })) : [],
        inForce,
        now,
      });
    });
  }

  private historyOrNull(id: ReportId): Promise<ReportHistory | null> {
    return this.history(id).catch((error: unknown) => {
      this.log(`could not read the history of report ${id} from the state store: ${errorText(error)}`);
      return null;
    });
  }

  /**
   * Findings accepted or snoozed now, by fingerprint; null when they cannot be read (what counts with
   * them then counts every finding as open and says so). Without a store, no decision is in force.
   */
  decisionsInForce(): Promise<ReadonlyMap<string, TriageDecision> | null> {
    return this.options.triage ? this.options.triage.inForceOrNull(this.log) : Promise.resolve(new Map());
  }

  /**
   * One report's decisions in force, its latest audit entries and their count, for a user who may or
   * may not change them; with `inScope`, only those of findings the viewer sees (`triageBookInView`),
   * placed through the report's latest load. A torn book is a `StateStoreError`.
   */
  async triageView(id: ReportId, user: { canTriage: boolean }, now: Date, inScope?: InScope): Promise<TriageView | OutsideScope> {
    const book = await this.bookFor(id, inScope);
    return 'ok' in book ? book : triageViewOf(book, id, user, now);
  }

  /** One page of a report's triage audit, newest first, maybe of one person's entries (audit-page.ts); with `inScope`, of findings the viewer sees. A torn book is a `StateStoreError`. */
  async triageAudit(id: ReportId, query: AuditPageQuery, inScope?: InScope): Promise<AuditPage | OutsideScope> {
    const book = await this.bookFor(id, inScope);
    return 'ok' in book ? book : auditPageOf(book.audit, id, query);
  }

  /**
   * Accepts, snoozes or reopens a finding of a report (docs/contract.md, "Triage"): only a finding
   * the latest load of that report shows can be accepted or snoozed, and the audit names it as that
   * load shows it. With `inScope`, only a finding the viewer sees in that load, or a decision whose
   * subject they see there: any other is answered as one that does not exist. The view after the
   * change is theirs. The answer is the report's triage view after the change.
   */
  async decide(
    id: ReportId,
    request: TriageRequest,
    user: TriageActor & { canTriage: boolean },
    now: Date,
    inScope?: InScope,
  ): Promise<{ ok: true; view: TriageView } | Extract<TriageOutcome, { ok: false }> | { ok: false; status: 503; message: string } | OutsideScope> {
    const result = request.action === 'reopen' && !inScope ? null : (await this.cache.open(id)).result;
    let view: ReportResult | null = null;
    if (inScope && result) {
      const scoped = inScope(result);
      if (!scoped.ok) return outsideScope(scoped.explanation);
      view = scoped.result;
    }
    // A viewer limited to scope tags decides on what they see only: a finding, or a decision's subject,
    // outside their view is to them no finding and no decision, answered as one that does not exist
    // (404, or 409 for a reopen), on the same path, so that neither the status, the body nor the work
    // done says whether it exists (docs/contract.md, "Triage", "With the viewer scope").
    const found = (view ?? result)?.findings.find((finding) => finding.fingerprint === request.fingerprint);
    const subjects = view ? subjectsInView(view) : null;
    const outcome = await this.triageRecords().change(request, {
      report: id,
      finding: found ?? null,
      by: { objectId: user.objectId, name: user.name, username: user.username },
      ...(subjects ? { visible: (decision: TriageDecision) => decision.report === id && subjects.has(decision.subjectId.toLowerCase()) } : {}),
    });
    if (!outcome.ok) return outcome;
    return { ok: true, view: triageViewOf(view ? triageBookInView(outcome.book, id, view) : outcome.book, id, user, now) };
  }

  /** The book, or as much of it as the viewer of `inScope` may read of report `id`, placed through its latest load. */
  private async bookFor(id: ReportId, inScope: InScope | undefined): Promise<TriageBook | OutsideScope> {
    if (!inScope) return this.triageRecords().read();
    const [opened, book] = await Promise.all([this.cache.open(id), this.triageRecords().read()]);
    const scoped = inScope(opened.result);
    return scoped.ok ? triageBookInView(book, id, scoped.result) : outsideScope(scoped.explanation);
  }

  private triageRecords(): TriageRecords {
    // The server, the only caller of triage, always has a store; a call without one is a bug.
    if (!this.options.triage) throw new Error('Triage needs the state store, and this report service has none.');
    return this.options.triage;
  }
}

function outsideScope(message: string): OutsideScope {
  return { ok: false, status: 403, code: OUTSIDE_VIEWER_SCOPE_CODE, message };
}

function triageViewOf(book: TriageBook, report: ReportId, user: { canTriage: boolean }, now: Date): TriageView {
  const audit = book.audit.filter((entry) => entry.report === report);
  return {
    canTriage: user.canTriage,
    decisions: [...decisionsInForce(book, now).values()].filter((decision) => decision.report === report),
    audit: audit.slice(-AUDIT_SHOWN).reverse(),
    auditCount: audit.length,
    auditLatest: audit.at(-1)?.seq ?? null,
  };
}
