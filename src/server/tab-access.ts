import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import { entraRoleIdsOf } from '../core/viewer-scope/entra-roles.js';
import type { HttpTransport } from '../graph/http-transport.js';

/** The app role that marks IT staff: only users assigned it may read the reports (docs/deployment.md, step 6; the Entra manifest). */
export const IT_STAFF_ROLE = 'DeviceHealth.Reader';

/**
 * The app role of those who may also accept and snooze findings (aad.manifest.json). It lets its
 * holder read the reports too: a triager must see what they decide about.
 */
export const TRIAGER_ROLE = 'DeviceHealth.Triager';

export interface TabUser {
  objectId: string;
  name: string;
  username: string;
  /** May accept, snooze and reopen findings (holds `DeviceHealth.Triager`). */
  canTriage: boolean;
  /**
   * The template ids of the user's Microsoft Entra roles, from the token's `wids` claim (GUID
   * strings only), which the viewer scope reads (docs/finding-rules.md, "Viewer scope"). Entra
   * sends it when the app registration's `groupMembershipClaims` includes directory roles
   * (aad.manifest.json; "Access token claims reference", learn.microsoft.com/entra/identity-platform/access-token-claims-reference).
   */
  entraRoleIds?: readonly string[];
}

export type TabAccess = { ok: true; user: TabUser } | { ok: false; status: 401 | 403; reason: string };

export interface TabAccessOptions {
  /** The token authority, e.g. https://login.microsoftonline.com (the simulator's origin in demo mode). */
  authorityHost: string;
  tenantId: string;
  /** The app registration the tab's SSO token is issued for (its `aud`). */
  clientId: string;
  /**
   * The registration's application ID URI, `api://<TAB_DOMAIN>/<client id>` (aad.manifest.json's
   * identifierUris): Teams SSO tokens name it as `aud` when the tab asks for that resource.
   */
  applicationIdUri?: string;
  /** Fetches the signing keys, with the trust the rest of the app uses. */
  transport: HttpTransport;
  /** The role that lets a user read (DeviceHealth.Reader); the triager role does too. */
  requiredRole?: string;
}

interface TabTokenClaims extends JWTPayload {
  tid?: unknown;
  oid?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  upn?: unknown;
  roles?: unknown;
  scp?: unknown;
  idtyp?: unknown;
  wids?: unknown;
}

/** The delegated scope the tab's SSO token is issued for (aad.manifest.json's oauth2Permissions). */
const TAB_SCOPE = 'access_as_user';

/**
 * Claims Entra puts in every access token ("Access token claims reference", Microsoft identity
 * platform docs): a token without one of them was not issued by Entra for a user, however signed.
 */
const REQUIRED_CLAIMS = ['aud', 'iss', 'iat', 'nbf', 'exp', 'oid', 'sub', 'tid', 'ver'];

/**
 * Checks the Bearer token the tab sends (Teams SSO, `authentication.getAuthToken`): signature from
 * the tenant's published keys, issuer, lifetime and the claims Entra always sets with jose; then
 * that it is a user's access token for this app (the audience is exactly the client id or the
 * application ID URI; the `access_as_user` scope, which neither an ID token nor an app-only token
 * carries), from this tenant, and that the user holds the IT-staff app role, an exact member of a
 * `roles` array (or the triager role, which includes reading). Anything wrong is 401; a good token
 * without either role is 403.
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
  const audiences = [options.clientId, ...(options.applicationIdUri ? [options.applicationIdUri] : [])];
  const role = options.requiredRole ?? IT_STAFF_ROLE;

  return async (authorization) => {
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization?.trim() ?? '');
    if (!match) return { ok: false, status: 401, reason: 'A Bearer token is required.' };
    let claims: TabTokenClaims;
    try {
      ({ payload: claims } = await jwtVerify<TabTokenClaims>(match[1]!, keys, {
        issuer: issuers,
        audience: audiences,
        algorithms: ['RS256'],
        clockTolerance: 60,
        requiredClaims: REQUIRED_CLAIMS,
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, status: 401, reason: 'The token has expired.' };
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') return { ok: false, status: 401, reason: 'The token was issued for another app.' };
      if (error instanceof errors.JOSEError) return { ok: false, status: 401, reason: 'The token is not valid for this app.' };
      // The key set could not be fetched: that is ours to log, not the caller's to read.
      throw error;
    }
    if (claims.tid !== options.tenantId) return { ok: false, status: 401, reason: 'The token was issued for another tenant.' };
    const scopes = typeof claims.scp === 'string' ? claims.scp.split(' ') : [];
    if (!scopes.includes(TAB_SCOPE) || claims.idtyp === 'app') return { ok: false, status: 401, reason: "The token is not a user's access token for this app." };
    const roles: unknown[] = Array.isArray(claims.roles) ? claims.roles : [];
    const canTriage = roles.includes(TRIAGER_ROLE);
    if (!roles.includes(role) && !canTriage) return { ok: false, status: 403, reason: `The signed-in user does not hold the ${role} app role.` };
    return {
      ok: true,
      user: {
        objectId: text(claims.oid),
        name: text(claims.name),
        username: text(claims.preferred_username) || text(claims.upn),
        canTriage,
        entraRoleIds: entraRoleIdsOf(claims.wids),
      },
    };
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
