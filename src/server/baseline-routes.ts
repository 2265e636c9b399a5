import type { Request, Response, Server } from 'restify';
import type { AppServices } from '../app/create-services.js';
import { StateStoreError } from '../store/state-store.js';
import { isGraphId } from '../core/graph/graph-id.js';
import { jsonBodyParser, readJsonBody } from './json-body.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import { refuse, scopeOrRefuse } from './viewer-scope-access.js';
import type { TabUser } from './tab-access.js';
import { TRIAGER_ROLE } from './tab-access.js';

/** A request is an action and a policy id. */
const MAX_BODY_BYTES = 1024;
/** Approvals one person may make a minute: as triage's, more than anyone approving by hand makes. */
export const BASELINE_CHANGES_PER_MINUTE = 30;
/** The audit entries a read returns, newest first. */
export const BASELINE_AUDIT_SHOWN = 200;

const TENANT_WIDE =
  'The approved baseline is the whole tenant’s: it is shown to, and changed by, people who see the whole tenant (an Intune role assignment without scope tags, or a Microsoft Entra role that reads all Intune data).';

export interface BaselineRoutesOptions {
  services: Pick<AppServices, 'baselines' | 'viewerScopes'>;
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  limitClock?: () => number;
  log?: (line: string) => void;
}

/**
 * The approved baseline of report 8 (docs/contract.md, "The approved baseline"): `GET /api/baseline`
 * reads it (the approved policies and who approved or withdrew what, newest first) for anyone who
 * may read the reports; `POST /api/baseline` approves a policy as it is now or withdraws it, only
 * for a holder of DeviceHealth.Triager (403 otherwise), with a JSON body (415 otherwise), a few dozen
 * a minute (429). With the viewer scope on, only a viewer of the whole tenant reads or changes it
 * (403, saying why): the baseline is tenant-wide, and its policies may carry any scope tag.
 */
export function registerBaselineRoutes(server: Server, options: BaselineRoutesOptions): void {
  const { authorised } = options;
  const { baselines, viewerScopes } = options.services;
  const changes = new FixedWindowRateLimit(BASELINE_CHANGES_PER_MINUTE, 60_000, options.limitClock);
  const parseBody = jsonBodyParser(MAX_BODY_BYTES);
  const wholeTenant = async (res: Response, user: TabUser): Promise<boolean> => {
    const scope = await scopeOrRefuse(viewerScopes, res, user);
    if (!scope) return false;
    if (scope.kind === 'tenant') return true;
    refuse(res, TENANT_WIDE);
    return false;
  };
  const unavailable = (res: Response): void =>
    void res.send(503, { error: { status: 503, message: 'The approved baseline is kept in the app’s state store, and this app keeps none.' } });
  const unreadable = (res: Response, error: unknown): void => {
    if (!(error instanceof StateStoreError)) throw error;
    res.send(503, { error: { status: 503, message: error.message } });
  };

  server.get('/api/baseline', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    if (!(await wholeTenant(res, user))) return;
    if (!baselines) return unavailable(res);
    try {
      const book = await baselines.read();
      res.header('cache-control', 'no-store');
      res.send(200, {
        policies: Object.values(book.policies).sort((a, b) => a.policyName.localeCompare(b.policyName)),
        audit: book.audit.slice(-BASELINE_AUDIT_SHOWN).reverse(),
        canApprove: user.canTriage,
      });
    } catch (error) {
      unreadable(res, error);
    }
  });

  server.post('/api/baseline', async (req: Request, res: Response) => {
    const user = await authorised(req, res);
    if (!user) return;
    if (!user.canTriage) {
      res.send(403, { error: { status: 403, message: `Approving policies needs the ${TRIAGER_ROLE} app role.` } });
      return;
    }
    if (!(await wholeTenant(res, user))) return;
    if (!baselines) return unavailable(res);
    const retryAfter = changes.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${BASELINE_CHANGES_PER_MINUTE} changes in a minute; try again in ${retryAfter} s.`);
      return;
    }
    const body = await readJsonBody(req, res, parseBody);
    if (!body.ok) return;
    const request = body.value as { action?: unknown; policyId?: unknown } | null;
    const action = request?.action;
    const policyId = request?.policyId;
    if ((action !== 'approve' && action !== 'withdraw') || typeof policyId !== 'string' || !isGraphId(policyId)) {
      res.send(400, { error: { status: 400, message: 'Send { "action": "approve" or "withdraw", "policyId": the policy\'s id }.' } });
      return;
    }
    const by = user.username || user.name || user.objectId;
    try {
      const outcome = action === 'approve' ? await baselines.approve(policyId, by) : await baselines.withdraw(policyId, by);
      if (!outcome.ok) {
        res.send(outcome.status, { error: { status: outcome.status, message: outcome.message } });
        return;
      }
      options.log?.(`baseline: ${user.objectId} did ${action} on policy ${outcome.entry.policyId}`);
      res.send(200, { entry: outcome.entry });
    } catch (error) {
      unreadable(res, error);
    }
  });
}
