import type { Request, Response } from 'restify';
import type { ViewerScopes } from '../app/viewer-scopes.js';
import { OUTSIDE_VIEWER_SCOPE_CODE } from '../core/reports/report-model.js';
import type { ReportResult } from '../core/reports/report-model.js';
import { WHOLE_TENANT } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import type { TabUser } from './tab-access.js';

/**
 * The viewer scope at the server's door (docs/finding-rules.md, "Viewer scope"): what the report
 * and triage routes serve a viewer, filtered from the one shared result, and which routes a viewer
 * of a limited scope may not use yet. Without the scope (`VIEWER_SCOPE` unset) nothing here changes an
 * answer.
 */

/** The code of a refusal by scope, beside its plain explanation. */
export const OUT_OF_SCOPE_CODE = OUTSIDE_VIEWER_SCOPE_CODE;

/** A 403 refusal by scope, in the body every scoped route sends. */
export function refuse(res: Response, message: string): void {
  res.send(403, { error: { status: 403, code: OUT_OF_SCOPE_CODE, message } });
}

/** The viewer's scope, or null once a viewer of no scope has been answered 403 with why; the whole tenant when the scope is off. */
export async function scopeOrRefuse(scopes: ViewerScopes | undefined, res: Response, user: TabUser): Promise<ViewerScope | null> {
  if (!scopes) return WHOLE_TENANT;
  const scope = await scopes.scopeOf({ objectId: user.objectId });
  if (scope.kind !== 'none') return scope;
  refuse(res, scope.explanation);
  return null;
}

/** The result as a viewer of `scope` may see it, or null once a report outside it has been answered 403 with why. */
export function viewOrRefuse(scopes: ViewerScopes | undefined, res: Response, result: ReportResult, scope: ViewerScope): ReportResult | null {
  if (!scopes) return result;
  const view = scopes.view(result, scope);
  if (view.ok) return view.result;
  refuse(res, view.explanation);
  return null;
}

/**
 * The access check for the routes not yet filtered by scope ("what applies"):
 * with the scope on, only a viewer who sees the whole tenant may use them; anyone else is answered
 * 403 with why, rather than shown what their role does not let them see.
 */
export function wholeTenantOnly(
  scopes: ViewerScopes | undefined,
  authorised: (req: Request, res: Response) => Promise<TabUser | null>,
): (req: Request, res: Response) => Promise<TabUser | null> {
  if (!scopes) return authorised;
  return async (req, res) => {
    const user = await authorised(req, res);
    if (!user) return null;
    const scope = await scopeOrRefuse(scopes, res, user);
    if (!scope) return null;
    if (scope.kind === 'tenant') return user;
    refuse(res, 'This part of the app is not yet limited to a scope, so with the viewer scope on it is shown only to viewers whose Intune role assignment has no scope tags.');
    return null;
  };
}
