import type { Request, Response, Server } from 'restify';
import { refuseUnknownReport } from './server-errors.js';
import { answerWindow, windowsPrepared, writeCsv } from './report-rows.js';
import { ReportWindows } from '../core/reports/window/report-window.js';
import { REFRESHING_HEADER, REFRESH_LIMITED_HEADER } from '../core/reports/report-model.js';
import { PREVIEW_WHOLE_UP_TO_ROWS } from '../core/reports/report-preview.js';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import type { AppServices } from '../app/create-services.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import type { TabUser } from './tab-access.js';
import { matchesEtag, preferredEncoding } from './report-encoding.js';
import { scopeOfUser, scopeOrRefuse, viewOrRefuse } from './viewer-scope-access.js';
import type { EncodedReport, EncodedReports } from './report-encoding.js';
import { noReportOpens, reportOpensTo } from '../core/viewer-scope/scope-report.js';
import { describeScope } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import type { ViewerScopes } from '../app/viewer-scopes.js';

export interface ReportRoutesOptions {
  /** The reports, their summaries and whose data this is (shown by the tab, so a demo tenant is never mistaken for a real one). */
  services: Pick<AppServices, 'registry' | 'reports' | 'tenant' | 'viewerScopes'>;
  encodings: EncodedReports;
  /** The windows over each result (`GET /api/reports/:id/rows`); the routes' own unless a test counts their sorts. */
  windows?: ReportWindows;
  /** Checks the caller's SSO token: the user, or null when it has answered the refusal already. */
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  /** Explicit refreshes one user may ask for a minute (6 by default); more are answered from the cache. */
  refreshesPerMinute?: number;
  /** Window requests (`/rows`) one user may make a minute (`WINDOW_REQUESTS_PER_MINUTE` by default); more are 429. */
  windowRequestsPerMinute?: number;
  /** CSV exports one user may start a minute (`EXPORTS_PER_MINUTE` by default); more are 429. */
  exportsPerMinute?: number;
  /** CSV exports this instance writes at once, whoever asked (`EXPORTS_AT_ONCE` by default); more are 429. */
  exportsAtOnce?: number;
  /** The clock the per-minute limits count minutes by, in milliseconds: `Date.now` unless a test holds it. */
  limitClock?: () => number;
  log?: (line: string) => void;
}

/**
 * A person scrolling a very large table asks for a window of 100 rows each time rows not yet read
 * come into view: a few a second, more while its scrollbar is dragged, and a 75,000-row table is 750
 * windows in all. 1,200 a minute (20 a second held for a whole minute) leaves room for that and stops
 * a script asking at machine speed (docs/contract.md, "The server's endpoints").
 */
export const WINDOW_REQUESTS_PER_MINUTE = 1_200;
/** A person exports a report now and then; ten a minute is generous. */
export const EXPORTS_PER_MINUTE = 10;
/**
 * Exports written at once by one instance: each is seconds of encoding on a large tenant, a slice
 * per turn of the event loop, so a few at once keep the loop answering other viewers.
 */
export const EXPORTS_AT_ONCE = 2;
/** What the answer past the exports at once says to wait: an export of a large report takes seconds. */
const EXPORT_BUSY_RETRY_SECONDS = 10;

/**
 * The report API (docs/contract.md, "The server's endpoints"): the list, the tenant, one report as
 * the JSON contract or as CSV, its preview, its summary, and a load's progress, every route behind
 * the SSO token.
 */
export function registerReportRoutes(server: Server, options: ReportRoutesOptions): void {
  const { authorised, services, encodings } = options;
  const { registry, reports, viewerScopes } = services;
  const windows = options.windows ?? new ReportWindows();
  const refreshes = new FixedWindowRateLimit(options.refreshesPerMinute ?? 6, 60_000, options.limitClock);
  const windowRequestsPerMinute = options.windowRequestsPerMinute ?? WINDOW_REQUESTS_PER_MINUTE;
  const windowRequests = new FixedWindowRateLimit(windowRequestsPerMinute, 60_000, options.limitClock);
  const exportsPerMinute = options.exportsPerMinute ?? EXPORTS_PER_MINUTE;
  const exportsStarted = new FixedWindowRateLimit(exportsPerMinute, 60_000, options.limitClock);
  const exportsAtOnce = options.exportsAtOnce ?? EXPORTS_AT_ONCE;
  let exportsUnderWay = 0;
  /**
   * Whether to load again for `?refresh=true`: a refresh joins a load under way anyway, and one user
   * may start only a few a minute, so a held-down refresh button cannot make the tenant's Graph
   * throttle everyone. Over the limit, the answer says so and comes from the cache.
   */
  const refreshAllowed = (req: Request, res: Response, user: TabUser): boolean => {
    if ((req.query as Record<string, unknown> | undefined)?.refresh !== 'true') return false;
    const retryAfter = refreshes.take(user.objectId);
    if (retryAfter === 0) return true;
    res.header(REFRESH_LIMITED_HEADER, String(retryAfter));
    return false;
  };
  /**
   * A report as a viewer opens it (src/app/report-cache.ts, `open`), logged; when it is the last good result
   * while a newer load runs, the answer says so: the tab shows the result's age and fetches again
   * once that load is done.
   */
  const openFor = async (req: Request, res: Response, user: TabUser, id: string): Promise<ReportResult> => {
    const opened = await reports.open(id, { refresh: refreshAllowed(req, res, user) });
    options.log?.(`report ${id}: ${describeState(opened.result)}${opened.refreshing ? ', stale while a newer load runs' : ''}`);
    if (opened.refreshing) res.header(REFRESHING_HEADER, 'true');
    return opened.result;
  };
  server.get('/api/reports', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, registry.catalogue());
  });

  server.get('/api/tenant', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, services.tenant);
  });

  // Who is signed in and what they may see, for the tab's header (docs/contract.md, "The server's endpoints"):
  // the scope as the report routes apply it, so the tab can say once why a viewer of no scope sees nothing.
  server.get('/api/me', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    res.send(200, await viewerInfo(viewerScopes, user, registry.ids));
  });

  server.get('/api/reports/:id/progress', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = String(req.params.id ?? '');
    if (refuseUnknownReport(res, registry, id)) return;
    // How many records a load has read is tenant data too: a viewer with no Intune access is given none
    // (docs/finding-rules.md, "Viewer scope"). A viewer with a scope sees the load's progress, which
    // counts pages read, not what is in them.
    if (!(await scopeOrRefuse(viewerScopes, res, user))) return;
    res.send(200, reports.progress(id));
  });

  // One report in a few numbers, for the overview's tile: loaded as the report is (the same cache), sent without its rows.
  server.get('/api/reports/:id/summary', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = String(req.params.id ?? '');
    if (refuseUnknownReport(res, registry, id)) return;
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return;
    const result = viewOrRefuse(viewerScopes, res, await openFor(req, res, user, id), scope);
    if (!result) return;
    // The history counts the whole tenant's findings: a viewer of a limited scope gets no trend (docs/finding-rules.md, "Viewer scope").
    const [summary] = await reports.summarizeAll([result], new Date(), { history: scope.kind === 'tenant' });
    res.send(200, summary);
  });

  // The report as the tab opens it: the whole result when small, else its first rows (report-preview.ts), so the first screen does not wait for the rest.
  server.get('/api/reports/:id/preview', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = String(req.params.id ?? '');
    if (refuseUnknownReport(res, registry, id)) return;
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return;
    const result = viewOrRefuse(viewerScopes, res, await openFor(req, res, user, id), scope);
    if (!result) return;
    // A result too large to preview whole is read in windows next: their orders start building now.
    if (result.rows.length > PREVIEW_WHOLE_UP_TO_ROWS) void windowsPrepared(windows, result);
    await sendEncoded(req, res, await encodings.encodedPreview(result));
  });

  // One window of one table (report-rows.ts): opened, and waited for, as the report is.
  server.get('/api/reports/:id/rows', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = String(req.params.id ?? '');
    if (refuseUnknownReport(res, registry, id)) return;
    const retryAfter = windowRequests.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${windowRequestsPerMinute.toLocaleString('en-US')} windows of rows in a minute; try again in ${retryAfter} s.`);
      return;
    }
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return;
    // Each scope's result is made once and kept with the shared one, so its windows are built once for all its viewers.
    const result = viewOrRefuse(viewerScopes, res, await openFor(req, res, user, id), scope);
    if (!result) return;
    if (result.state !== 'load-error') await windowsPrepared(windows, result);
    await answerWindow(req, res, result, windows, result.state === 'load-error' ? null : await reports.decisionsInForce());
  });

  server.get('/api/reports/:name', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const name = String(req.params.name ?? '');
    const csv = name.endsWith('.csv');
    const id = csv ? name.slice(0, -'.csv'.length) : name;
    if (refuseUnknownReport(res, registry, id)) return;
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return;
    if (!csv) {
      const result = viewOrRefuse(viewerScopes, res, await openFor(req, res, user, id), scope);
      if (result) await sendEncoded(req, res, await encodings.encoded(result));
      return;
    }
    // An export waiting for its load counts as under way: it is about to encode the whole report.
    if (exportsUnderWay >= exportsAtOnce) {
      refuseTooMany(res, EXPORT_BUSY_RETRY_SECONDS, `${exportsAtOnce} exports are being written now; try again in ${EXPORT_BUSY_RETRY_SECONDS} s.`);
      return;
    }
    const retryAfter = exportsStarted.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${exportsPerMinute} exports in a minute; try again in ${retryAfter} s.`);
      return;
    }
    exportsUnderWay += 1;
    try {
      // A download carries no header a person sees, so an export waits for a fresh result rather than exporting an aged one.
      const shared = await reports.get(id, { refresh: refreshAllowed(req, res, user) });
      options.log?.(`report ${id}: ${describeState(shared)} (CSV)`);
      const report = viewOrRefuse(viewerScopes, res, shared, scope);
      if (!report) return;
      if (report.state === 'load-error') {
        res.send(502, { error: report.error });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${id}.csv"` });
      await writeCsv(res, report, windows);
    } finally {
      exportsUnderWay -= 1;
    }
  });
}

/**
 * The report's bytes as made once for everyone: a client that has them (its `If-None-Match` names
 * the ETag) gets 304 and no body; others get them compressed as they accept.
 */
async function sendEncoded(req: Request, res: Response, encoded: EncodedReport): Promise<void> {
  res.header('etag', encoded.etag);
  res.header('vary', 'accept-encoding');
  if (matchesEtag(req.header('if-none-match'), encoded.etag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  const encoding = preferredEncoding(req.header('accept-encoding'));
  const body = await encoded.body(encoding);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  res.end(body);
}

/** What `GET /api/me` answers: the viewer's name, and their scope in words (null when the viewer scope is off). */
export interface ViewerInfo {
  name: string;
  scope: { kind: ViewerScope['kind']; description: string; explanation: string | null } | null;
}

/**
 * The viewer as the tab names them: their display name from the token, else their UPN, else "you"
 * (a token need not carry `name`: "Claims are present only if a value exists to fill it. An
 * application shouldn't take a dependency on a claim being present", learn.microsoft.com/entra/identity-platform/access-token-claims-reference). The scope is the one the report routes apply (viewer-scope-access.ts),
 * described as the bot and the notices describe it (`describeScope`); a viewer of no scope gets
 * the same explanation their 403s carry, and never a tenant object; so does a viewer whose roles open
 * none of `reports` (a role of remote tasks only, `reportOpensTo`), so that the tab says it once.
 */
export async function viewerInfo(scopes: ViewerScopes | undefined, user: TabUser, reports: readonly ReportId[]): Promise<ViewerInfo> {
  const name = user.name || user.username || 'you';
  if (!scopes) return { name, scope: null };
  const scope = await scopeOfUser(scopes, user);
  const explanation = scope.kind === 'none' ? scope.explanation : reports.some((report) => reportOpensTo(scope, report)) ? null : noReportOpens(scope);
  return { name, scope: { kind: scope.kind, description: describeScope(scope), explanation } };
}

function describeState(report: ReportResult): string {
  return `${report.state}${report.error ? ` (${report.error.status ?? report.error.code})` : ''}`;
}
