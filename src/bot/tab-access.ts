import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { HttpTransport } from '../core/graph/http-transport.js';

/** The app role that marks IT staff: only users assigned it may read the reports (README, Entra manifest). */
export const IT_STAFF_ROLE = 'DeviceHealth.Reader';

export interface TabUser {
  objectId: string;
  name: string;
  username: string;
}

export type TabAccess = { ok: true; user: TabUser } | { ok: false; status: 401 | 403; reason: string };

export interface TabAccessOptions {
  /** The token authority, e.g. https://login.microsoftonline.com (the simulator's origin in demo mode). */
  authorityHost: string;
  tenantId: string;
  /** The app registration the tab's SSO token is issued for (its `aud`). */
  clientId: string;
  /** Fetches the signing keys, with the trust the rest of the app uses. */
  transport: HttpTransport;
  requiredRole?: string;
}

interface TabTokenClaims extends JWTPayload {
  tid?: string;
  oid?: string;
  name?: string;
  preferred_username?: string;
  upn?: string;
  roles?: string[];
}

/**
 * Checks the Bearer token the tab sends (Teams SSO, `authentication.getAuthToken`): signature from
 * the tenant's published keys, issuer, audience (the client id or its `api://…/{client id}` URI),
 * tenant and lifetime with jose, then the IT-staff app role. Anything wrong is 401; a good token
 * without the role is 403.
 */
export function createTabAccessCheck(options: TabAccessOptions): (authorization: string | undefined) => Promise<TabAccess> {
  const authority = new URL(options.authorityHost).origin;
  const keys = createRemoteJWKSet(new URL(`${authority}/${options.tenantId}/discovery/v2.0/keys`), {
    [customFetch]: async (url: string) => {
      const response = await options.transport.send({ method: 'GET', url: new URL(url), headers: { accept: 'application/json' }, timeoutMs: 10_000 });
      return new Response(response.body, { status: response.status, headers: { 'content-type': response.headers['content-type'] ?? 'application/json' } });
    },
  });
  // v2.0 tokens name the authority; v1.0 tokens (an app registration left on version 1) the STS.
  const issuers = [`${authority}/${options.tenantId}/v2.0`, `https://sts.windows.net/${options.tenantId}/`];
  const role = options.requiredRole ?? IT_STAFF_ROLE;

  return async (authorization) => {
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization?.trim() ?? '');
    if (!match) return { ok: false, status: 401, reason: 'A Bearer token is required.' };
    let claims: TabTokenClaims;
    try {
      ({ payload: claims } = await jwtVerify<TabTokenClaims>(match[1]!, keys, { issuer: issuers, algorithms: ['RS256'], clockTolerance: 60 }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, status: 401, reason: 'The token has expired.' };
      if (error instanceof errors.JOSEError) return { ok: false, status: 401, reason: 'The token is not valid for this app.' };
      throw error;
    }
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const forThisApp = audiences.some((audience) => audience === options.clientId || (audience?.startsWith('api://') && audience.endsWith(`/${options.clientId}`)));
    if (!forThisApp) return { ok: false, status: 401, reason: 'The token was issued for another app.' };
    if (claims.tid !== options.tenantId) return { ok: false, status: 401, reason: 'The token was issued for another tenant.' };
    if (!claims.roles?.includes(role)) return { ok: false, status: 403, reason: `The signed-in user does not hold the ${role} app role.` };
    return {
      ok: true,
      user: { objectId: claims.oid ?? claims.sub ?? '', name: claims.name ?? '', username: claims.preferred_username ?? claims.upn ?? '' },
    };
  };
}
