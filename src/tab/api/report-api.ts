import { REFRESHING_HEADER } from '../../core/reports/report-model.js';
import { failureOf, isOutsideScope } from './failure-message.js';
import type { Finding, ReportLoadError, ReportId, ReportResult, ReportRow, SourceRetry } from '../../core/reports/report-model.js';
import type { ReportPreview } from '../../core/reports/report-preview.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { TriageRequest, TriageState, TriageView } from '../../core/triage/triage-book.js';
import type { AppliesResult } from '../../core/applies/applies-result.js';
import type { AuditPage, AuditPageQuery } from '../../core/triage/audit-page.js';
import type { ChangeFeedResult } from '../../core/changes/change-feed.js';

export interface TenantInfo {
  label: string;
  demo: boolean;
}

/**
 * Who is signed in and what their Intune role assignments let them see (`GET /api/me`,
 * docs/contract.md): `scope` is null when the viewer scope is off, every viewer seeing the whole tenant.
 */
export interface ViewerInfo {
  name: string;
  scope: {
    kind: 'tenant' | 'tags' | 'none';
    /** "the whole tenant", "scope tag Europe", … */
    description: string;
    /** Why a viewer sees nothing (no scope, or roles that open no report), in the server's words; null otherwise. */
    explanation: string | null;
  } | null;
}

export interface LoadProgressSnapshot {
  loading: boolean;
  elapsedMs: number;
  sources: Array<{ source: string; records: number; retrying?: SourceRetry }>;
}

/**
 * A failure of our own API (not of a report's upstream load, which arrives as a report in state
 * `load-error`): the status, and a sentence a user can act on.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    /** The server's error code, when it gave one (`outsideViewerScope`). */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A refusal by the viewer scope: not a failure, what the viewer's Intune role does not show them. */
  get outsideScope(): boolean {
    return isOutsideScope(this.status, this.code);
  }
}

/** What the tab asks one window of a report's table for (docs/contract.md, "The server's endpoints", the rows). */
export interface RowsQuery {
  /** The table's section key; null for a report with one table. */
  table: string | null;
  offset: number;
  limit: number;
  /** A column key, or null for the report's own order (the worst open finding first). */
  sort: string | null;
  dir: 'asc' | 'desc';
  q: string;
  finding: string | null;
  open: boolean;
  /** Only rows with a finding accepted, or snoozed, now; never with `open`. */
  triage: TriageState | null;
}

/** One window: rows that pass the filters from `offset`, how many pass in all, and the rows' findings; or the load's error. */
export type RowsWindow =
  | {
      report: ReportId;
      state: 'loaded' | 'empty';
      generatedAt: string;
      notice: string | null;
      table: string;
      total: number;
      offset: number;
      rows: ReportRow[];
      findings: Finding[];
    }
  | { report: ReportId; state: 'load-error'; generatedAt: string; error: ReportLoadError | null; notice: string | null };

/** How a report is asked for: again from Graph (`refresh`), and cancelled with `signal`. */
interface OpenOptions {
  refresh?: boolean;
  signal?: AbortSignal;
}

/** An answer, and whether the server is loading a newer one. */
export interface Served<T> {
  value: T;
  refreshing: boolean;
}

/** The tab's client for the server's report API, always with a fresh bearer token. */
export class ReportApi {
  constructor(private readonly getToken: () => Promise<string>) {}

  async tenant(signal?: AbortSignal): Promise<TenantInfo> {
    return (await this.getJson<TenantInfo>('/api/tenant', signal)).value;
  }

  /** Who is signed in, and their Intune scope when the viewer scope is on. */
  async viewer(signal?: AbortSignal): Promise<ViewerInfo> {
    return (await this.getJson<ViewerInfo>('/api/me', signal)).value;
  }

  /** One report; `refreshing` when the server sent its last good result while a newer one loads. */
  report(id: ReportId, options: OpenOptions = {}): Promise<Served<ReportResult>> {
    return this.openReport<ReportResult>(id, '', options);
  }

  /** The report as the tab opens it: whole when small, else its first rows (`isPartialReport` says which). */
  reportPreview(id: ReportId, options: OpenOptions = {}): Promise<Served<ReportPreview>> {
    return this.openReport<ReportPreview>(id, '/preview', options);
  }

  summary(id: ReportId, options: OpenOptions = {}): Promise<Served<ReportSummary>> {
    return this.openReport<ReportSummary>(id, '/summary', options);
  }

  /** One of the report's representations, opened as the server opens a report (`?refresh=true` to load it again). */
  private openReport<T>(id: ReportId, representation: '' | '/preview' | '/summary', options: OpenOptions): Promise<Served<T>> {
    return this.getJson<T>(`/api/reports/${encodeURIComponent(id)}${representation}${options.refresh ? '?refresh=true' : ''}`, options.signal);
  }

  /** One window of one table of the report's current load, sorted and filtered on the server. */
  async rows(id: ReportId, query: RowsQuery, signal?: AbortSignal): Promise<Served<RowsWindow>> {
    const parameters = new URLSearchParams();
    if (query.table !== null) parameters.set('table', query.table);
    parameters.set('offset', String(query.offset));
    parameters.set('limit', String(query.limit));
    if (query.sort !== null) parameters.set('sort', query.sort);
    parameters.set('dir', query.dir);
    if (query.q.trim() !== '') parameters.set('q', query.q);
    if (query.finding !== null) parameters.set('finding', query.finding);
    if (query.open) parameters.set('open', 'true');
    if (query.triage !== null) parameters.set('triage', query.triage);
    return this.getJson<RowsWindow>(`/api/reports/${encodeURIComponent(id)}/rows?${parameters.toString()}`, signal);
  }

  /** The report's CSV as the server writes it (a slice of rows at a time), for a report too large to build one in the browser. */
  async csv(id: ReportId): Promise<Blob> {
    const token = await this.getToken();
    let response: Response;
    try {
      response = await fetch(`/api/reports/${encodeURIComponent(id)}.csv`, { headers: { authorization: `Bearer ${token}`, accept: 'text/csv' }, cache: 'no-store' });
    } catch {
      throw new ApiError(null, 'The Device Management Health server did not answer. Check the connection and try again.');
    }
    if (!response.ok) throw await apiErrorOf(response, 'GET');
    return response.blob();
  }

  async progress(id: ReportId, signal?: AbortSignal): Promise<LoadProgressSnapshot> {
    return (await this.getJson<LoadProgressSnapshot>(`/api/reports/${encodeURIComponent(id)}/progress`, signal)).value;
  }

  /** The report's accepted and snoozed findings, its latest audit entries and their count, and whether this user may change them. */
  async triage(id: ReportId, signal?: AbortSignal): Promise<TriageView> {
    return (await this.getJson<TriageView>(`/api/reports/${encodeURIComponent(id)}/triage`, signal)).value;
  }

  /** One page of the report's triage audit, newest first, maybe of one person's entries (docs/contract.md, "Triage"). */
  async triageAudit(id: ReportId, query: Partial<AuditPageQuery>, signal?: AbortSignal): Promise<AuditPage> {
    const parameters = new URLSearchParams();
    if (query.limit !== undefined) parameters.set('limit', String(query.limit));
    if (query.before !== undefined && query.before !== null) parameters.set('before', String(query.before));
    if (query.person !== undefined && query.person !== null) parameters.set('person', query.person);
    const search = parameters.toString();
    return (await this.getJson<AuditPage>(`/api/reports/${encodeURIComponent(id)}/triage/audit${search ? `?${search}` : ''}`, signal)).value;
  }

  /** Accepts, snoozes or reopens a finding; the report's triage as it is afterwards. */
  async changeTriage(id: ReportId, request: TriageRequest): Promise<TriageView> {
    return (await this.send<TriageView>(`/api/reports/${encodeURIComponent(id)}/triage`, { method: 'POST', body: JSON.stringify(request) })).value;
  }

  /** Approves a policy as it is now, or withdraws its approval, for report 8's baseline (docs/contract.md, "The approved baseline"). */
  async changeBaseline(action: 'approve' | 'withdraw', policyId: string): Promise<void> {
    await this.send<unknown>('/api/baseline', { method: 'POST', body: JSON.stringify({ action, policyId }) });
  }

  /** What changed in the tenant's device configuration in a window, narrowed by object and person (docs/contract.md, "The change feed"). */
  async changes(query: { since: string; object?: string; person?: string }, signal?: AbortSignal): Promise<ChangeFeedResult> {
    const parameters = new URLSearchParams({ since: query.since });
    if (query.object) parameters.set('object', query.object);
    if (query.person) parameters.set('by', query.person);
    return (await this.getJson<ChangeFeedResult>(`/api/changes?${parameters.toString()}`, signal)).value;
  }

  /** What applies to a device, a user or a group (docs/contract.md, "What applies"). */
  async applies(query: string, signal?: AbortSignal): Promise<AppliesResult> {
    return (await this.getJson<AppliesResult>(`/api/applies?q=${encodeURIComponent(query)}`, signal)).value;
  }

  private getJson<T>(path: string, signal?: AbortSignal): Promise<Served<T>> {
    return this.send<T>(path, { method: 'GET', ...(signal ? { signal } : {}) });
  }

  private async send<T>(path: string, init: { method: 'GET' | 'POST'; body?: string; signal?: AbortSignal }): Promise<Served<T>> {
    const token = await this.getToken();
    let response: Response;
    try {
      response = await fetch(path, {
        method: init.method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(init.body !== undefined ? { body: init.body } : {}),
        cache: 'no-store',
        signal: init.signal ?? null,
      });
    } catch (error) {
      const { signal } = init;
      if (signal?.aborted) throw error;
      throw new ApiError(null, 'The Device Management Health server did not answer. Check the connection and try again.');
    }
    if (!response.ok) throw await apiErrorOf(response, init.method);
    try {
      return { value: (await response.json()) as T, refreshing: response.headers.get(REFRESHING_HEADER) === 'true' };
    } catch {
      throw new ApiError(response.status, 'The server sent an answer that is not JSON.');
    }
  }
}

/** A failed answer of our API as the error the views show: its status, its sentence and its code. */
async function apiErrorOf(response: Response, method: 'GET' | 'POST'): Promise<ApiError> {
  const failure = await failureOf(response, method);
  return new ApiError(response.status, failure.message, failure.code);
}
