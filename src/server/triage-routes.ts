import restify from 'restify';
import type { Request, Response, Server } from 'restify';
import { refuseUnknownReport } from './server-errors.js';
import { StateStoreError } from '../store/state-store.js';
import { readTriageRequest } from '../core/triage/triage-book.js';
import type { AppServices } from '../app/create-services.js';
import type { TabUser } from './tab-access.js';
import { TRIAGER_ROLE } from './tab-access.js';

/** A request is a fingerprint, an action and a reason of 500 characters at most. */
const MAX_BODY_BYTES = 4 * 1024;

export interface TriageRoutesOptions {
  services: Pick<AppServices, 'registry' | 'reports'>;
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
  const { authorised } = options;
  const { registry, reports } = options.services;
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
      res.send(200, await reports.triageView(id, user, now()));
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
      try {
        const outcome = await reports.decide(id, request, user, now());
        if (!outcome.ok) {
          res.send(outcome.status, { error: { status: outcome.status, message: outcome.message } });
          return;
        }
        options.log?.(`triage: ${user.username || user.objectId} did ${request.action} on a finding of report ${id}`);
        res.send(200, outcome.view);
      } catch (error) {
        unreadable(res, error);
      }
    },
  );
}
