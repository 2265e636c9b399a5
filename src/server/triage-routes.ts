import restify from 'restify';
import type { Request, Response, Server } from 'restify';
import { refuseUnknownReport } from './server-errors.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import { StateStoreError } from '../store/state-store.js';
import { decisionsInForce, readTriageRequest } from '../core/triage/triage-book.js';
import type { TriageBook, TriageView } from '../core/triage/triage-book.js';
import type { TriageRecords } from '../app/triage-records.js';
import type { ReportCache } from './report-cache.js';
import type { TabUser } from './tab-access.js';
import { TRIAGER_ROLE } from './tab-access.js';

const AUDIT_SHOWN = 200;
/** A request is a fingerprint, an action and a reason of 500 characters at most. */
const MAX_BODY_BYTES = 4 * 1024;

export interface TriageRoutesOptions {
  triage: TriageRecords;
  reports: ReportCache;
  registry: ReportRegistry;
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  now?: () => Date;
  log?: (line: string) => void;
}

/**
 * Accept, snooze and reopen (docs/contract.md, "Triage"): anyone who may read the reports reads the
 * decisions and their audit list; only a holder of DeviceHealth.Triager changes them (403 otherwise),
 * and only for a finding the latest load of its report shows.
 */
export function registerTriageRoutes(server: Server, options: TriageRoutesOptions): void {
  const { triage, authorised, registry } = options;
  const now = options.now ?? (() => new Date());
  const reportOf = (res: Response, value: unknown): string | null => {
    const id = typeof value === 'string' ? value : '';
    return refuseUnknownReport(res, registry, id) ? null : id;
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
    try {
      res.send(200, viewFor(await triage.read(), id, user, now()));
    } catch (error) {
      unreadable(res, error);
    }
  });

  server.post(
    '/api/reports/:id/triage',
    restify.plugins.bodyParser({ maxBodySize: MAX_BODY_BYTES, mapParams: false, rejectUnknown: true }),
    async (req: Request, res: Response) => {
      const user = await authorised(req, res);
      if (!user) return;
      const id = reportOf(res, req.params.id);
      if (!id) return;
      if (!user.canTriage) {
        res.send(403, { error: { status: 403, message: `Accepting and snoozing findings needs the ${TRIAGER_ROLE} app role.` } });
        return;
      }
      const read = readTriageRequest(req.body);
      if (!read.ok) {
        res.send(400, { error: { status: 400, message: read.message } });
        return;
      }
      const { request } = read;
      // The finding as the report's latest result shows it, so the audit names what was decided about.
      const result = request.action === 'reopen' ? null : (await options.reports.open(id)).result;
      const found = result?.findings.find((finding) => finding.fingerprint === request.fingerprint);
      try {
        const outcome = await triage.change(request, {
          finding: found ? { ...found, report: id } : null,
          by: { objectId: user.objectId, name: user.name, username: user.username },
        });
        if (!outcome.ok) {
          res.send(outcome.status, { error: { status: outcome.status, message: outcome.message } });
          return;
        }
        options.log?.(`triage: ${user.username || user.objectId} did ${request.action} on a finding of report ${id}`);
        res.send(200, viewFor(outcome.book, id, user, now()));
      } catch (error) {
        unreadable(res, error);
      }
    },
  );
}

function viewFor(book: TriageBook, report: string, user: TabUser, now: Date): TriageView {
  return {
    canTriage: user.canTriage,
    decisions: [...decisionsInForce(book, now).values()].filter((decision) => decision.report === report),
    audit: book.audit
      .filter((entry) => entry.report === report)
      .slice(-AUDIT_SHOWN)
      .reverse(),
  };
}
