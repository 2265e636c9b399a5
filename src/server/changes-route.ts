import type { Request, Response, Server } from 'restify';
import type { AppServices } from '../app/create-services.js';
import { changesToCsv } from '../core/changes/change-csv.js';
import { readSince } from '../core/changes/since.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import { refuse, scopeOrRefuse } from './viewer-scope-access.js';
import type { TabUser } from './tab-access.js';

/** Feeds one person may ask for a minute: a feed reads the log's new pages and may read settings to name them. */
export const CHANGE_FEEDS_PER_MINUTE = 30;
/** The longest object or person words a feed is narrowed by: longer than any name. */
export const LONGEST_CHANGE_FILTER = 200;

/**
 * Who may read the feed with the viewer scope on. Intune shows its audit log to Intune
 * Administrators and to Intune roles with Audit data - Read
 * (learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs, "Who can access the
 * data?"), and the log's events carry no scope tags. This app does not yet read Audit data - Read in
 * a viewer's Intune roles, so it shows the feed only where no doubt is left: the viewer scope off, or
 * a Microsoft Entra role that reads all Intune data. Fails closed for everyone else.
 */
const AUDIT_READERS_ONLY =
  'The change feed shows Intune’s audit log, which Intune shows to Intune Administrators and to Intune roles with Audit data - Read. This app does not check that permission in Intune roles yet, so it shows the feed to people with a Microsoft Entra role that reads all Intune data.';

export interface ChangesRouteOptions {
  services: Pick<AppServices, 'changes' | 'viewerScopes'>;
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  now?: () => Date;
  limitClock?: () => number;
}

/**
 * `GET /api/changes?since=24h&object=&by=` (docs/contract.md, "The change feed"): the feed as
 * `dmhealth changes --format json` prints it, or its CSV with `format=csv`; 400 naming a parameter
 * it cannot take, 403 by scope as above, 429 past the feeds a minute, 503 where the app reads no tenant.
 */
export function registerChangesRoute(server: Server, options: ChangesRouteOptions): void {
  const { services } = options;
  const now = options.now ?? (() => new Date());
  const feeds = new FixedWindowRateLimit(CHANGE_FEEDS_PER_MINUTE, 60_000, options.limitClock);
  server.get('/api/changes', async (req: Request, res: Response) => {
    const user = await options.authorised(req, res);
    if (!user) return;
    const scope = await scopeOrRefuse(services.viewerScopes, res, user);
    if (!scope) return;
    if (services.viewerScopes && !(scope.kind === 'tenant' && !scope.areas)) {
      refuse(res, AUDIT_READERS_ONLY);
      return;
    }
    const query = (req.query as Record<string, unknown> | undefined) ?? {};
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
    const badRequest = (parameter: string, message: string) => void res.send(400, { error: { status: 400, message, parameter } });
    const since = readSince(text('since') || '24h', now());
    if (!since.ok) return badRequest('since', since.message);
    const object = text('object');
    const by = text('by');
    if (object.length > LONGEST_CHANGE_FILTER) return badRequest('object', `The object's words are longer than ${LONGEST_CHANGE_FILTER} characters.`);
    if (by.length > LONGEST_CHANGE_FILTER) return badRequest('by', `The person's words are longer than ${LONGEST_CHANGE_FILTER} characters.`);
    const format = text('format') || 'json';
    if (format !== 'json' && format !== 'csv') return badRequest('format', 'format is json or csv.');
    if (!services.changes) {
      res.send(503, { error: { status: 503, message: 'The change feed cannot be read here: this app reads no tenant.' } });
      return;
    }
    const retryAfter = feeds.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${CHANGE_FEEDS_PER_MINUTE} change feeds in a minute; try again in ${retryAfter} s.`);
      return;
    }
    const result = await services.changes.feed({ since: since.since, ...(object ? { object } : {}), ...(by ? { person: by } : {}) });
    res.header('cache-control', 'no-store');
    if (format === 'json') {
      res.send(200, result);
      return;
    }
    if (result.state === 'load-error') {
      res.send(502, { error: { status: 502, message: result.error.message } });
      return;
    }
    const body = changesToCsv(result.feed.changes);
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="changes.csv"', 'cache-control': 'no-store' });
    res.end(body);
  });
}
