import type { Request, Response, Server } from 'restify';
import type { ReportRegistry } from '../core/reports/registry.js';
import { reportToCsv } from '../core/reports/report-csv.js';
import { summarizeReport } from '../core/reports/report-summary.js';
import type { ReportCache } from './report-cache.js';
import { matchesEtag, preferredEncoding } from './report-encoding.js';
import type { EncodedReport } from './report-encoding.js';

export interface ReportRoutesOptions {
  reports: ReportCache;
  registry: ReportRegistry;
  /** Whose data this is: shown by the tab, so a demo tenant is never mistaken for a real one. */
  tenant: { label: string; demo: boolean };
  /** Checks the caller's SSO token; on refusal it has answered already. */
  authorised: (req: Request, res: Response) => Promise<boolean>;
  log?: (line: string) => void;
}

/**
 * The report API (docs/contract.md, "The server's endpoints"): the list, the tenant, one report as
 * the JSON contract or as CSV, and a load's progress, every route behind the SSO token.
 */
/** Set on a report served from the cache while a newer load of it runs. */
export const REFRESHING_HEADER = 'x-report-refreshing';

export function registerReportRoutes(server: Server, options: ReportRoutesOptions): void {
  const { authorised, registry } = options;
  server.get('/api/reports', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, registry.catalogue());
  });

  server.get('/api/tenant', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, options.tenant);
  });

  server.get('/api/reports/:id/progress', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const id = String(req.params.id ?? '');
    if (!registry.has(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    res.send(200, options.reports.progress(id));
  });

  // One report in a few numbers, for the overview's tile: loaded as the report is (the same cache), sent without its rows.
  server.get('/api/reports/:id/summary', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const id = String(req.params.id ?? '');
    if (!registry.has(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    const refresh = (req.query as Record<string, unknown> | undefined)?.refresh === 'true';
    const opened = await options.reports.open(id, { refresh });
    if (opened.refreshing) res.header(REFRESHING_HEADER, 'true');
    res.send(200, summarizeReport(opened.result));
  });

  server.get('/api/reports/:name', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const name = String(req.params.name ?? '');
    const csv = name.endsWith('.csv');
    const id = csv ? name.slice(0, -'.csv'.length) : name;
    if (!registry.has(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    const refresh = (req.query as Record<string, unknown> | undefined)?.refresh === 'true';
    if (!csv) {
      const opened = await options.reports.open(id, { refresh });
      const report = opened.result;
      options.log?.(
        `report ${id}: ${report.state}${report.error ? ` (${report.error.status ?? report.error.code})` : ''}${opened.refreshing ? ', stale while a newer load runs' : ''}`,
      );
      // The tab shows the result's age (generatedAt) and fetches again once the newer load is done.
      if (opened.refreshing) res.header(REFRESHING_HEADER, 'true');
      await sendEncoded(req, res, options.reports.encoded(report));
      return;
    }
    const report = await options.reports.get(id, { refresh });
    options.log?.(`report ${id}: ${report.state}${report.error ? ` (${report.error.status ?? report.error.code})` : ''}`);
    if (report.state === 'load-error') {
      res.send(502, { error: report.error });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${id}.csv"` });
    res.end(reportToCsv(report));
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
