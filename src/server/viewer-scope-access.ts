import type { Response } from 'restify';
import type { ViewerScopes } from '../app/viewer-scopes.js';
import { OUTSIDE_VIEWER_SCOPE_CODE } from '../core/reports/report-model.js';
import type { ReportResult } from '../core/reports/report-model.js';
import { WHOLE_TENANT } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import type { TabUser } from './tab-access.js';

/**
 * The viewer scope at the server's door (docs/finding-rules.md, "Viewer scope"): what the report
 * and triage routes serve a viewer, filtered from the one shared result, and the scope "what
 * applies" answers in. Without the scope (`VIEWER_SCOPE` unset) nothing here changes an answer.
 */

/** The code of a refusal by scope, beside its plain explanation. */
export const OUT_OF_SCOPE_CODE = OUTSIDE_VIEWER_SCOPE_CODE;

/** A 403 refusal by scope, in the body every scoped route sends. */
export function refuse(res: Response, message: string): void {
  res.send(403, { error: { status: 403, code: OUT_OF_SCOPE_CODE, message } });
}

/** The signed-in viewer's scope as every route works it out: their object id and the Entra roles their token carries. */
export function scopeOfUser(scopes: ViewerScopes, user: TabUser): Promise<ViewerScope> {
  return scopes.scopeOf({ objectId: user.objectId, entraRoleIds: user.entraRoleIds ?? [] });
}

/** The viewer's scope, or null once a viewer of no scope has been answered 403 with why; the whole tenant when the scope is off. */
export async function scopeOrRefuse(scopes: ViewerScopes | undefined, res: Response, user: TabUser): Promise<ViewerScope | null> {
  if (!scopes) return WHOLE_TENANT;
  const scope = await scopeOfUser(scopes, user);
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
