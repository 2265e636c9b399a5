import type { Request, Response, Server } from 'restify';
import type { AppliesService } from '../app/applies-service.js';
import { LONGEST_APPLIES_QUERY } from '../core/applies/words.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import type { TabUser } from './tab-access.js';
import type { ViewerScopes } from '../app/viewer-scopes.js';
import { scopeOrRefuse } from './viewer-scope-access.js';

/**
 * Questions one person may ask a minute. Each new question makes its own few Graph reads (the
 * subject, its groups, the groups above them), and every read counts against the tenant's Intune
 * budget that the reports share; a person asking as fast as a script could would slow every load.
 */
export const APPLIES_QUESTIONS_PER_MINUTE = 30;

export interface AppliesRouteOptions {
  /** Absent where the app reads no tenant (some tests): the route then answers 503. */
  applies: Pick<AppliesService, 'applies'> | undefined;
  authorised: (req: Request, res: Response) => Promise<TabUser | null>;
  /** With the viewer scope on, each viewer is answered in their scope; absent, everyone sees the whole tenant. */
  viewerScopes?: ViewerScopes | undefined;
  /** Questions one person may ask a minute (`APPLIES_QUESTIONS_PER_MINUTE` by default). */
  questionsPerMinute?: number;
  /** The clock the per-minute limit counts by, in milliseconds: `Date.now` unless a test holds it. */
  limitClock?: () => number;
}

/**
 * `GET /api/applies?q=<device|user|group>` (docs/contract.md, "What applies"): the service's
 * `AppliesResult` as JSON, to anyone who may read the reports, in their viewer scope: a viewer
 * limited to scope tags is answered about a device they may see only, with the objects of their tags. An empty question, or one longer
 * than a name, UPN or id can be, is refused with 400 before anything is read, and a person past
 * their questions a minute with 429.
 */
export function registerAppliesRoute(server: Server, options: AppliesRouteOptions): void {
  const questionsPerMinute = options.questionsPerMinute ?? APPLIES_QUESTIONS_PER_MINUTE;
  const questions = new FixedWindowRateLimit(questionsPerMinute, 60_000, options.limitClock);
  server.get('/api/applies', async (req: Request, res: Response) => {
    const user = await options.authorised(req, res);
    if (!user) return;
    // The viewer's scope (docs/finding-rules.md, "What applies", "For a viewer limited to scope tags"): the whole tenant with the scope off.
    const scope = await scopeOrRefuse(options.viewerScopes, res, user);
    if (!scope) return;
    const raw = (req.query as Record<string, unknown> | undefined)?.q;
    const q = typeof raw === 'string' ? raw.trim() : '';
    if (q === '' || q.length > LONGEST_APPLIES_QUERY) {
      const message =
        q === ''
          ? 'Name a device, a user or a group: ?q=CONTOSO-0040, ?q=user41@contoso-demo.example or ?q=Sales EMEA.'
          : `The question is longer than ${LONGEST_APPLIES_QUERY} characters, longer than any name, user principal name or id.`;
      res.send(400, { error: { status: 400, message, parameter: 'q' } });
      return;
    }
    if (!options.applies) {
      res.send(503, { error: { status: 503, message: 'What applies cannot be answered here: this app reads no tenant.' } });
      return;
    }
    const retryAfter = questions.take(user.objectId);
    if (retryAfter > 0) {
      refuseTooMany(res, retryAfter, `More than ${questionsPerMinute} questions in a minute; try again in ${retryAfter} s.`);
      return;
    }
    res.header('cache-control', 'no-store');
    res.send(200, await options.applies.applies(q, { scope }));
  });
}
