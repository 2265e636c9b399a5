import restify from 'restify';
import type { Request, Response, Server } from 'restify';
import { reportCatalogue } from '../core/reports/registry.js';
import { reportToCsv } from '../core/reports/report-csv.js';
import { isReportId } from '../core/reports/report-model.js';
import type { ReportCache } from './report-cache.js';
import type { TabAccess } from './tab-access.js';
import { serveTab } from './tab-files.js';

export interface AppServerOptions {
  reports: ReportCache;
  /** Whose data this is: shown by the tab, so a demo tenant is never mistaken for a real one. */
  tenant: { label: string; demo: boolean };
  /** The built tab (Vite's output); without it, /tab answers 404. */
  tabDirectory?: string;
  checkAccess: (authorization: string | undefined) => Promise<TabAccess>;
  /** Demo mode only: a user token for a browser on this machine, so the tab works outside Teams. */
  demoToken?: () => Promise<{ token: string; expiresIn: number }>;
  log?: (line: string) => void;
}

/**
 * The server's HTTP surface for the tab: the report list, one report as the JSON contract or as
 * CSV, every route behind the tab's SSO token. Answers are never cached by a browser or proxy.
 */
export function createAppServer(options: AppServerOptions): Server {
  const server = restify.createServer({ name: 'device-management-health' });
  server.use(restify.plugins.queryParser({ mapParams: false }));
  server.pre((_req, res, next) => {
    res.header('cache-control', 'no-store');
    res.header('x-content-type-options', 'nosniff');
    next();
  });

  const authorised = async (req: Request, res: Response): Promise<boolean> => {
    const access = await options.checkAccess(req.header('authorization'));
    if (access.ok) return true;
    if (access.status === 401) res.header('www-authenticate', 'Bearer error="invalid_token"');
    res.send(access.status, { error: { status: access.status, message: access.reason } });
    return false;
  };

  server.get('/api/reports', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, reportCatalogue());
  });

  server.get('/api/tenant', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, options.tenant);
  });

  server.get('/api/reports/:id/progress', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const id = String(req.params.id ?? '');
    if (!isReportId(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    res.send(200, options.reports.progress(id));
  });

  server.get('/api/reports/:name', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const name = String(req.params.name ?? '');
    const csv = name.endsWith('.csv');
    const id = csv ? name.slice(0, -'.csv'.length) : name;
    if (!isReportId(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    const refresh = (req.query as Record<string, unknown> | undefined)?.refresh === 'true';
    const report = await options.reports.get(id, { refresh });
    options.log?.(`report ${id}: ${report.state}${report.error ? ` (${report.error.status ?? report.error.code})` : ''}`);
    if (!csv) {
      res.send(200, report);
      return;
    }
    if (report.state === 'load-error') {
      res.send(502, { error: report.error });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${id}.csv"` });
    res.end(reportToCsv(report));
  });

  const demoToken = options.demoToken;
  if (demoToken) {
    server.get('/api/demo/token', async (req: Request, res: Response) => {
      // The demo tenant's sign-in stands in for Teams SSO, for this machine only.
      if (!isLoopback(req.socket.remoteAddress)) {
        res.send(403, { error: { status: 403, message: 'The demo sign-in answers this machine only.' } });
        return;
      }
      res.send(200, await demoToken());
    });
  }
  if (options.tabDirectory) serveTab(server, options.tabDirectory);
  return server;
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
