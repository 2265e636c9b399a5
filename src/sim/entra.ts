import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import type { CryptoKey, JWK, JWTPayload } from 'jose';
import { sendJson } from './http-helpers.js';

export interface SimApplication {
  clientId: string;
  displayName: string;
  /** Client secrets currently valid for the registration. */
  secrets: string[];
  certificates: Array<{ thumbprintSha256: string; publicKeyPem: string }>;
  /** Granted application permissions, issued as the token's `roles`. */
  roles: string[];
  /**
   * Federated identity credentials: tokens of another issuer the registration accepts as its client
   * assertion ("Configure an application to trust a managed identity",
   * https://learn.microsoft.com/entra/workload-id/workload-identity-federation-config-app-trust-managed-identity).
   */
  federatedCredentials?: FederatedCredential[];
}

export interface FederatedCredential {
  issuer: string;
  subject: string;
  audiences: string[];
}

/** A user-assigned managed identity: its client id (what the app names) and its object id (a token's subject). */
export interface SimManagedIdentity {
  clientId: string;
  principalId: string;
}

export interface AccessTokenClaims extends JWTPayload {
  tid: string;
  appid: string;
  roles?: string[];
  idtyp?: string;
}

export type TokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; message: string };

const GRAPH_RESOURCE = 'https://graph.microsoft.com';

/**
 * The Microsoft Entra ID pieces a client-credentials caller touches: OpenID discovery, the v2.0
 * token endpoint (secret in the form, secret by HTTP Basic, or a certificate-signed client
 * assertion) and the signing keys. Tokens are RS256 JWTs shaped like Entra's app-only tokens
 * (`iss` https://sts.windows.net/{tid}/, `idtyp` app, `roles`, no `scp`).
 */
export class SimEntra {
  readonly applications = new Map<string, SimApplication>();
  tokenRequests = 0;
  private readonly keyId = randomUUID();
  /**
   * How far the authority's clock (and Graph's, which checks its tokens) runs ahead of this machine's:
   * a test expires every issued token by moving it on, rather than by waiting out a short lifetime.
   */
  clockAheadSeconds = 0;

  private nowSeconds(): number {
    return Math.floor(Date.now() / 1000) + this.clockAheadSeconds;
  }

  private constructor(
    private readonly origin: string,
    private readonly tenantId: string,
    private readonly tenantDomain: string,
    private readonly signingKey: CryptoKey,
    private readonly verificationKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly tokenLifetimeSeconds: () => number,
  ) {}

  /** `origin` serves Graph too, so a client may also ask for `<origin>/.default` as its scope. */
  static async create(options: { origin: string; tenantId: string; tenantDomain: string; tokenLifetimeSeconds: () => number }): Promise<SimEntra> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    return new SimEntra(options.origin, options.tenantId, options.tenantDomain, privateKey, publicKey, publicJwk, options.tokenLifetimeSeconds);
  }

  get issuer(): string {
    return `https://sts.windows.net/${this.tenantId}/`;
  }

  /**
   * A signed-in user's token for an API, as Teams SSO hands one to a tab (`getAuthToken`): a v2.0
   * access token (`iss` {authority}/{tid}/v2.0, `aud` the API's client id, `scp` access_as_user)
   * carrying the app roles the user is assigned. Overrides let tests make tokens that must fail.
   */
  async issueUserToken(options: {
    audience: string;
    roles?: string[];
    name?: string;
    username?: string;
    tenantId?: string;
    lifetimeSeconds?: number;
    issuedSecondsAgo?: number;
    /** Claims to set or, given as undefined, to leave out: for tokens that must be refused. */
    claims?: Record<string, unknown>;
  }): Promise<string> {
    const tenantId = options.tenantId ?? this.tenantId;
    const issuedAt = Math.floor(Date.now() / 1000) - (options.issuedSecondsAgo ?? 0);
    const username = options.username ?? `megan.bowen@${this.tenantDomain}`;
    // The claims an Entra v2.0 access token for a user always carries ("Access token claims
    // reference", Microsoft identity platform docs), `roles` when the user holds app roles.
    const payload: Record<string, unknown> = {
      aud: options.audience,
      iss: `${this.origin}/${tenantId}/v2.0`,
      iat: issuedAt,
      nbf: issuedAt,
      exp: issuedAt + (options.lifetimeSeconds ?? 3600),
      azp: randomUUID(),
      azpacr: '0',
      name: options.name ?? 'Megan Bowen',
      oid: randomUUID(),
      preferred_username: username,
      ...(options.roles ? { roles: options.roles } : {}),
      scp: 'access_as_user',
      sub: randomBytes(16).toString('base64url'),
      tid: tenantId,
      ver: '2.0',
      ...options.claims,
    };
    for (const [claim, value] of Object.entries(payload)) if (value === undefined) delete payload[claim];
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.keyId }).sign(this.signingKey);
  }

  addApplication(app: Omit<SimApplication, 'clientId' | 'secrets'> & { clientId?: string; secrets?: string[] }): SimApplication {
    const registered: SimApplication = {
      clientId: app.clientId ?? randomUUID(),
      displayName: app.displayName,
      secrets: app.secrets ?? [randomBytes(30).toString('base64url')],
      certificates: app.certificates,
      roles: app.roles,
      ...(app.federatedCredentials ? { federatedCredentials: app.federatedCredentials } : {}),
    };
    this.applications.set(registered.clientId, registered);
    return registered;
  }

  /** Handles `/{tenant}/...` routes; answers false for anything else. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<boolean> {
    const match = url.pathname.match(/^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token|discovery\/v2\.0\/keys|discovery\/keys)$/);
    if (!match) return false;
    const [, tenantSegment = '', endpoint] = match;
    if (!this.isThisTenant(tenantSegment)) {
      sendJson(
        res,
        400,
        entraError('invalid_request', 90002, `Tenant '${tenantSegment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`),
      );
      return true;
    }
    if (endpoint === 'v2.0/.well-known/openid-configuration') {
      const base = `${this.origin}/${this.tenantId}`;
      sendJson(res, 200, {
        token_endpoint: `${base}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        jwks_uri: `${base}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        issuer: `${base}/v2.0`,
        request_uri_parameter_supported: false,
        userinfo_endpoint: `${this.origin}/oidc/userinfo`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
        http_logout_supported: true,
        frontchannel_logout_supported: true,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'tid', 'roles'],
        tenant_region_scope: 'EU',
        cloud_instance_name: 'microsoftonline.com',
        cloud_graph_host_name: 'graph.windows.net',
        msgraph_host: new URL(this.origin).host,
      });
      return true;
    }
    if (endpoint === 'discovery/v2.0/keys' || endpoint === 'discovery/keys') {
      sendJson(res, 200, { keys: [{ ...this.publicJwk, kid: this.keyId, use: 'sig', alg: 'RS256' }] });
      return true;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, entraError('invalid_request', 900561, 'The endpoint only accepts POST requests.'));
      return true;
    }
    this.tokenRequests += 1;
    const answer = await this.issueToken(new URLSearchParams(body), req.headers.authorization, `${this.origin}${url.pathname}`);
    sendJson(res, answer.status, answer.body, { 'cache-control': 'no-store' });
    return true;
  }

  async verifyAccessToken(token: string): Promise<TokenCheck> {
    try {
      const { payload } = await jwtVerify<AccessTokenClaims>(token, this.verificationKey, {
        currentDate: new Date(this.nowSeconds() * 1000),
        issuer: this.issuer,
        audience: [GRAPH_RESOURCE, this.origin, '00000003-0000-0000-c000-000000000000'],
        algorithms: ['RS256'],
      });
      if (payload.tid !== this.tenantId) return { ok: false, message: 'Invalid tenant.' };
      return { ok: true, claims: payload };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') return { ok: false, message: 'Lifetime validation failed, the token is expired.' };
      return { ok: false, message: 'Invalid signature or token.' };
    }
  }

  /**
   * The issuer of this tenant's managed-identity tokens for the token exchange, as Entra's own:
   * `https://login.microsoftonline.com/{tenant}/v2.0`, on this look-alike's origin.
   */
  get managedIdentityIssuer(): string {
    return `${this.origin}/${this.tenantId}/v2.0`;
  }

  /**
   * A managed identity's token for `resource`, as App Service's identity endpoint hands it out: for
   * the token-exchange audience a v2.0 token whose subject is the identity's object id (the one a
   * federated credential names); for another resource an app-only v1.0 token like the others here.
   */
  async issueManagedIdentityToken(identity: SimManagedIdentity, resource: string, lifetimeSeconds: number): Promise<string> {
    const exchange = resource === 'api://AzureADTokenExchange';
    return new SignJWT({
      aud: resource,
      tid: this.tenantId,
      ...(exchange ? { azp: identity.clientId, ver: '2.0' } : { appid: identity.clientId, appidacr: '2', idtyp: 'app', ver: '1.0' }),
      oid: identity.principalId,
      sub: identity.principalId,
      uti: randomBytes(16).toString('base64url'),
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.keyId })
      .setIssuer(exchange ? this.managedIdentityIssuer : this.issuer)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime(`${lifetimeSeconds}s`)
      .sign(this.signingKey);
  }

  /**
   * An assertion from an issuer one of the registration's federated credentials names is checked as
   * Entra checks it: signed by that issuer (here only this tenant's own identity tokens), unexpired,
   * and with the credential's exact subject and one of its audiences; anything else is refused with
   * AADSTS70021. An assertion from no federated issuer is left to the certificate check (undefined);
   * null is an accepted federated assertion.
   */
  private async verifyFederatedAssertion(assertion: string, app: SimApplication): Promise<{ code: number; message: string } | null | undefined> {
    const credentials = app.federatedCredentials ?? [];
    if (credentials.length === 0) return undefined;
    let claims: JWTPayload;
    try {
      claims = decodeJwt(assertion);
    } catch {
      return undefined;
    }
    const fromIssuer = credentials.filter((credential) => credential.issuer === claims.iss);
    if (fromIssuer.length === 0) return undefined;
    if (claims.iss !== this.managedIdentityIssuer) return { code: 700027, message: 'The federated issuer could not be reached to check the assertion.' };
    try {
      await jwtVerify(assertion, this.verificationKey, { issuer: this.managedIdentityIssuer, algorithms: ['RS256'], clockTolerance: 300 });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_JWT_EXPIRED') return { code: 700024, message: 'Client assertion is not within its valid time range.' };
      return { code: 700027, message: 'Client assertion failed signature validation.' };
    }
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const match = fromIssuer.some(
      (credential) => credential.subject === claims.sub && audiences.some((audience) => audience !== undefined && credential.audiences.includes(audience)),
    );
    if (!match) {
      return {
        code: 70021,
        message: `No matching federated identity record found for presented assertion. Assertion Issuer: '${claims.iss}'. Assertion Subject: '${claims.sub}'. Assertion Audience: '${audiences.join(',')}'.`,
      };
    }
    return null;
  }

  private isThisTenant(segment: string): boolean {
    const lower = segment.toLowerCase();
    return lower === this.tenantId.toLowerCase() || lower === this.tenantDomain.toLowerCase();
  }

  private async issueToken(form: URLSearchParams, authorization: string | undefined, tokenEndpoint: string): Promise<{ status: number; body: unknown }> {
    if (form.get('grant_type') !== 'client_credentials') {
      return { status: 400, body: entraError('unsupported_grant_type', 70003, 'The app requested an unsupported grant type. This look-alike serves client_credentials only.') };
    }
    let clientId = form.get('client_id') ?? undefined;
    let basicSecret: string | undefined;
    if (authorization?.startsWith('Basic ')) {
      const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId ??= decodeURIComponent(decoded.slice(0, colon));
      basicSecret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (!clientId) return { status: 400, body: entraError('invalid_request', 900144, "The request body must contain the following parameter: 'client_id'.") };
    const app = this.applications.get(clientId);
    if (!app) {
      return {
        status: 400,
        body: entraError('unauthorized_client', 700016, `Application with identifier '${clientId}' was not found in the directory '${this.tenantDomain}'.`),
      };
    }

    const scope = form.get('scope') ?? '';
    const resource = scope.endsWith('/.default') ? scope.slice(0, -'/.default'.length) : undefined;
    if (!resource || scope.includes(' ') || (resource !== GRAPH_RESOURCE && resource !== this.origin)) {
      return {
        status: 400,
        body: entraError(
          'invalid_scope',
          1002012,
          `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
        ),
      };
    }

    const secret = form.get('client_secret') ?? basicSecret;
    const assertion = form.get('client_assertion');
    let appIdAcr: '1' | '2';
    if (secret !== undefined && secret !== null) {
      if (!app.secrets.includes(secret)) {
        return {
          status: 401,
          body: entraError(
            'invalid_client',
            7000215,
            'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
          ),
        };
      }
      appIdAcr = '1';
    } else if (assertion) {
      if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
        return { status: 400, body: entraError('invalid_request', 50027, 'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer.') };
      }
      const federated = await this.verifyFederatedAssertion(assertion, app);
      if (federated) return { status: 401, body: entraError('invalid_client', federated.code, federated.message) };
      const problem = federated === undefined ? await verifyClientAssertion(assertion, app, tokenEndpoint) : undefined;
      if (problem) return { status: 401, body: entraError('invalid_client', 700027, problem) };
      appIdAcr = '2';
    } else {
      return { status: 401, body: entraError('invalid_client', 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.") };
    }

    const lifetime = this.tokenLifetimeSeconds();
    const issuedAt = this.nowSeconds();
    const accessToken = await new SignJWT({
      aud: resource,
      tid: this.tenantId,
      appid: app.clientId,
      app_displayname: app.displayName,
      appidacr: appIdAcr,
      idp: this.issuer,
      idtyp: 'app',
      oid: app.clientId,
      sub: app.clientId,
      roles: app.roles,
      uti: randomBytes(16).toString('base64url'),
      ver: '1.0',
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.keyId })
      .setIssuer(this.issuer)
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .sign(this.signingKey);
    return { status: 200, body: { token_type: 'Bearer', expires_in: lifetime, ext_expires_in: lifetime, access_token: accessToken } };
  }
}

async function verifyClientAssertion(assertion: string, app: SimApplication, tokenEndpoint: string): Promise<string | undefined> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    return 'The client assertion is not a JWT.';
  }
  const sha256 = header['x5t#S256'];
  const candidates = app.certificates.filter((certificate) => typeof sha256 !== 'string' || Buffer.from(certificate.thumbprintSha256, 'hex').toString('base64url') === sha256);
  if (candidates.length === 0) return `The certificate with identifier used to sign the client assertion is not registered on application ${app.clientId}.`;
  for (const certificate of candidates) {
    try {
      const key = await importSPKI(certificate.publicKeyPem, header.alg ?? 'RS256');
      await jwtVerify(assertion, key, {
        audience: [tokenEndpoint, tokenEndpoint.replace('/oauth2/v2.0/token', '/oauth2/token')],
        issuer: app.clientId,
        subject: app.clientId,
        algorithms: ['RS256', 'PS256'],
        // Entra allows five minutes of clock skew; without it an assertion whose `nbf` was rounded up
        // by the client is refused as "not yet valid" for a fraction of a second.
        clockTolerance: 300,
      });
      return undefined;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_JWT_EXPIRED') return 'The client assertion has expired.';
    }
  }
  return 'Client assertion failed signature validation.';
}

function entraError(error: string, code: number, description: string): Record<string, unknown> {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  return {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${new Date().toISOString()}`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: traceId,
    correlation_id: correlationId,
  };
}
