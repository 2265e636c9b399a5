import type { SimEntra } from './entra.js';
import { errorAnswer, headerValue } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { checkQueryOptions, unknownSelected } from './odata-query.js';
import type { SimNestedResource, SimResource, VersionSegment, Workload } from './resources/resource-model.js';
import type { Throttle } from './throttling.js';

/**
 * Who may read what, and how often: the bearer token checked against the simulated Entra ID, its
 * roles against a resource's permissions, and the app's requests against Graph's per-app limits.
 */
export class SimGraphAccess {
  constructor(
    private readonly entra: SimEntra,
    private readonly throttle: Throttle | undefined,
  ) {}

  /** Takes the app and its roles from the request's token into `context`; an answer when there is no valid one. */
  async authenticate(context: RequestContext): Promise<SimAnswer | undefined> {
    const authorization = headerValue(context.headers, 'authorization');
    if (!authorization?.startsWith('Bearer ') || authorization.length <= 7) {
      return errorAnswer(context, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
    }
    const check = await this.entra.verifyAccessToken(authorization.slice(7));
    if (!check.ok) return errorAnswer(context, 401, 'InvalidAuthenticationToken', check.message);
    context.appId = check.claims.appid;
    context.roles = check.claims.roles ?? [];
    return undefined;
  }

  /**
   * What Graph answers before it reads anything, in its order: throttled (429), not permitted
   * (403), a required header missing or a query option it does not take (400). The same for a
   * list, a record by id and a record's navigation list.
   */
  refuseRead(context: RequestContext, version: VersionSegment, resource: SimResource | SimNestedResource): SimAnswer | undefined {
    const throttled = this.admit(context, resource.workload);
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, resource.permissions)) return this.forbidden(context, resource.workload, resource.permissions);
    if (resource.requiresUserAgent && !headerValue(context.headers, 'user-agent')) {
      return errorAnswer(context, 400, 'BadRequest', 'The User-Agent header is required for this request.');
    }
    const queryProblem = checkQueryOptions(context.query, resource) ?? unknownSelected(context.query, resource, version);
    return queryProblem ? errorAnswer(context, 400, 'BadRequest', queryProblem) : undefined;
  }

  /** A 429 when the app has used up its workload's window (throttling.ts); nothing otherwise. */
  admit(context: RequestContext, workload: Workload): SimAnswer | undefined {
    const verdict = this.throttle?.admit(context.appId ?? 'anonymous', workload);
    if (!verdict || verdict.ok) return undefined;
    return errorAnswer(context, 429, 'TooManyRequests', 'Too many requests.', { 'retry-after': String(verdict.retryAfterSeconds) });
  }

  /** The 403 a workload answers an app without the permission: the directory's terse one, or Intune's naming the scopes. */
  forbidden(context: RequestContext, workload: Workload, permissions: readonly string[]): SimAnswer {
    if (workload === 'directory' || workload === 'identity') {
      return errorAnswer(context, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    }
    return errorAnswer(
      context,
      403,
      'Forbidden',
      `Application is not authorized to perform this operation. Application must have one of the following scopes: ${permissions.join(', ')}`,
    );
  }
}

/**
 * Whether a token's roles grant one of `permissions`, compared exactly: a role is the app role's
 * value as Entra defines it ("roles" in the access token claims reference, Microsoft identity
 * platform docs), so `BitLockerKey.ReadBasic.All` grants nothing where `BitlockerKey.ReadBasic.All`
 * is the permission, as an app asking for the misspelt name would find on a real tenant.
 */
export function hasAnyRole(roles: readonly string[], permissions: readonly string[]): boolean {
  const granted = new Set(roles);
  return permissions.some((permission) => granted.has(permission));
}
