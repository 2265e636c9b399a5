import type { Request, Response, Server } from 'restify';
import { refuseUnknownReport } from './server-errors.js';
import { jsonBodyParser, readJsonBody } from './json-body.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import { StateStoreError } from '../store/state-store.js';
import { readTriageRequest } from '../core/triage/triage-book.js';
import { readAuditPageQuery } from '../core/triage/audit-page.js';
import type { AppServices } from '../app/create-services.js';
import type { InScope, OutsideScope } from '../app/report-service.js';
import { refuse, scopeOrRefuse } from './viewer-scope-access.js';
import type { TabUser } from './tab-access.js';
import { TRIAGER_ROLE } from './tab-access.js';

/** A request is a fingerprint, an action and a reason of 500 characters at most. */
const MAX_BODY_BYTES = 4 * 1024;
/**
 * Changes one person may make a minute: more than anyone deciding by hand makes, and few enough
 * that no script run under someone's sign-in floods the decisions (docs/contract.md, "Triage").
 */
export const TRIAGE_CHANGES_PER_MINUTE = 30;

export interface TriageRoutesOptions {
  services: Pick<AppServices, 'registry' | 'reports' | 'viewerScopes'>;
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  now?: () => Date;
  /** The rate limit's clock, in milliseconds: `Date.now` unless a test moves it. */
  limitClock?: () => number;
  log?: (line: string) => void;
}

/**
 * Accept, snooze and reopen (docs/contract.md, "Triage"): anyone who may read the reports reads the
 * decisions, and their audit list a page at a time (400 for a parameter it cannot take); only a
 * holder of DeviceHealth.Triager changes them (403 otherwise), with a JSON body (415 otherwise), a
 * few dozen changes a minute at most (429), and only for a finding of the report the route names
 * (404 otherwise). With the viewer scope on, a viewer limited to scope tags reads and changes only
 * the triage of findings in their scope (docs/finding-rules.md, "Viewer scope"): a change to any other
 * is answered as one to a finding or decision that does not exist (404, 409), never 403, so that the
 * answer does not say whether a finding outside their scope exists (ReportService.decide).
 */
export function registerTriageRoutes(server: Server, options: TriageRoutesOptions): void {
  const { authorised } = options;
  const { registry, reports, viewerScopes } = options.services;
  const now = options.now ?? (() => new Date());
  const changes = new FixedWindowRateLimit(TRIAGE_CHANGES_PER_MINUTE, 60_000, options.limitClock);
  const parseBody = jsonBodyParser(MAX_BODY_BYTES);
  const reportOf = (res: Response, value: unknown): string | null => {
    const id = typeof value === 'string' ? value : '';
    return refuseUnknownReport(res, registry, id) ? null : id;
  };
  /**
   * The viewer's scope as the service takes it: undefined for the whole tenant (or the scope off),
   * the server's filtering bound to their tags otherwise; null once a viewer of no scope has been
   * answered 403 with why.
   */
  const scopeFor = async (res: Response, user: TabUser): Promise<InScope | undefined | null> => {
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return null;
    // A whole tenant from an Intune role assignment without scope tags (`areas`) still sees a
    // tenant-wide report only as its roles read it (scope-report.ts), so it is filtered too.
    if (!viewerScopes || (scope.kind === 'tenant' && !scope.areas)) return undefined;
    return (result) => viewerScopes.view(result, scope);
  };
  const answer = <T extends object>(res: Response, value: T | OutsideScope): void => {
    if ('ok' in value && value.ok === false) refuse(res, value.message);
    else res.send(200, value);
  };
  const unreadable = (res: Response, error: unknown): void => {
    if (!(error instanceof StateStoreError)) throw error;
    res.send(503, { error: { status: 503, message: error.message } });
  };

  server.get('/api/reports/:id/triage', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = reportOf(res, req.params.id);
    if (!id) return;
    const inScope = await scopeFor(res, user);
    if (inScope === null) return;
    try {
      answer(res, await reports.triageView(id, user, now(), inScope));
    } catch (error) {
      unreadable(res, error);
    }
  });

  server.get('/api/reports/:id/triage/audit', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = reportOf(res, req.params.id);
    if (!id) return;
    const parsed = readAuditPageQuery((req.query as Record<string, unknown> | undefined) ?? {});
    if (!parsed.ok) {
      res.send(400, { error: { status: 400, message: parsed.error.message, parameter: parsed.error.parameter } });
      return;
    }
    const inScope = await scopeFor(res, user);
    if (inScope === null) return;
    try {
      answer(res, await reports.triageAudit(id, parsed.query, inScope));
    } catch (error) {
      unreadable(res, error);
    }
  });

  server.post('/api/reports/:id/triage', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    const id = reportOf(res, req.params.id);
    if (!id) return;
    if (!user.canTriage) {
      res.send(403, { error: { status: 403, message: `Accepting and snoozing findings needs the ${TRIAGER_ROLE} app role.` } });
      return;
    }
    const retryAfter = changes.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${TRIAGE_CHANGES_PER_MINUTE} changes in a minute; try again in ${retryAfter} s.`);
      return;
    }
    const body = await readJsonBody(req, res, parseBody);
    if (!body.ok) return;
    const read = readTriageRequest(body.value);
    if (!read.ok) {
      res.send(400, { error: { status: 400, message: read.message } });
      return;
    }
    const { request } = read;
    const inScope = await scopeFor(res, user);
    if (inScope === null) return;
    try {
      const outcome = await reports.decide(id, request, user, now(), inScope);
      if (!outcome.ok) {
        res.send(outcome.status, { error: { status: outcome.status, ...('code' in outcome ? { code: outcome.code } : {}), message: outcome.message } });
        return;
      }
      options.log?.(`triage: ${user.username || user.objectId} did ${request.action} on a finding of report ${id}`);
      res.send(200, outcome.view);
    } catch (error) {
      unreadable(res, error);
    }
  });
}
