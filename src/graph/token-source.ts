import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfidentialClientApplication, LogLevel } from '@azure/msal-node';
import type { Configuration, INetworkModule, NetworkRequestOptions, NetworkResponse } from '@azure/msal-node';
import { GraphError } from '../core/graph/graph-error.js';
import type { HttpTransport } from './http-transport.js';
import { TransportError } from './http-transport.js';
import { TOKEN_EXCHANGE_AUDIENCE, requestIdentityToken } from './managed-identity.js';
import type { ManagedIdentity } from './managed-identity.js';

/** Gives the Graph client a bearer token; `invalidate` drops a token Graph has rejected. */
export interface AccessTokenSource {
  getToken(): Promise<string>;
  invalidate(): void;
}

/**
 * How the app registration proves itself to Entra ID: a secret or a certificate where the app runs on
 * a machine of its own (local debugging), or, on App Service, a managed identity whose token the
 * registration trusts through a federated identity credential (docs/architecture.md, "Security model").
 */
export type ClientCredential = { kind: 'secret'; secret: string } | { kind: 'certificate'; pemPath: string } | { kind: 'managed-identity'; identity: ManagedIdentity };

export interface MsalTokenSourceOptions {
  tenantId: string;
  clientId: string;
  credential: ClientCredential;
  /** e.g. `https://login.microsoftonline.com` (the spec's `{auth_url}`). */
  authorityHost: string;
  /** The Graph origin; the app-only scope is `<origin>/.default`. */
  graphBaseUrl: string;
  transport: HttpTransport;
  /** Renew this long before expiry so a token never expires in flight. */
  refreshMarginMs?: number;
  now?: () => number;
}

const MICROSOFT_AUTHORITY_HOSTS = new Set(['login.microsoftonline.com', 'login.microsoftonline.us', 'login.partner.microsoftonline.cn']);

/**
 * Client-credentials tokens through msal-node. MSAL keeps its own cache; this wrapper adds a
 * single flight, so twenty report loads starting at once cause one token request, and reuses the
 * token until shortly before it expires.
 */
export function createMsalTokenSource(options: MsalTokenSourceOptions): AccessTokenSource {
  const now = options.now ?? Date.now;
  const refreshMarginMs = options.refreshMarginMs ?? 5 * 60_000;
  const authorityUrl = new URL(options.authorityHost);
  const authority = `${authorityUrl.origin}/${encodeURIComponent(options.tenantId)}`;
  const scope = `${new URL(options.graphBaseUrl).origin}/.default`;

  const config: Configuration = {
    auth: {
      clientId: options.clientId,
      authority,
      // Hosts other than Microsoft's clouds (a sovereign proxy, the simulator) are trusted as given
      // instead of being checked against Microsoft's instance-discovery service.
      ...(MICROSOFT_AUTHORITY_HOSTS.has(authorityUrl.hostname) ? {} : { knownAuthorities: [authorityUrl.host] }),
      ...credentialOptions(options.credential, options.transport),
    },
    system: {
      networkClient: msalNetworkClient(options.transport, authorityUrl.origin),
      loggerOptions: { logLevel: LogLevel.Error, piiLoggingEnabled: false, loggerCallback: () => undefined },
    },
  };
  const app = new ConfidentialClientApplication(config);

  let cached: { token: string; expiresAtMs: number } | undefined;
  let inFlight: Promise<string> | undefined;
  // After Graph rejects a token, MSAL's own cache would hand the same token back: bypass it once.
  let bypassMsalCache = false;

  async function acquire(): Promise<string> {
    try {
      const skipCache = bypassMsalCache;
      bypassMsalCache = false;
      const result = await app.acquireTokenByClientCredential({ scopes: [scope], skipCache });
      if (!result?.accessToken) throw new Error('the authority returned no access token');
      cached = { token: result.accessToken, expiresAtMs: result.expiresOn?.getTime() ?? now() + 3_600_000 };
      return result.accessToken;
    } catch (error) {
      throw toTokenError(error, authority);
    }
  }

  return {
    getToken() {
      if (cached && cached.expiresAtMs - refreshMarginMs > now()) return Promise.resolve(cached.token);
      inFlight ??= acquire().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
      bypassMsalCache = true;
    },
  };
}

function credentialOptions(
  credential: ClientCredential,
  transport: HttpTransport,
): Pick<NonNullable<Configuration['auth']>, 'clientSecret' | 'clientCertificate' | 'clientAssertion'> {
  if (credential.kind === 'secret') return { clientSecret: credential.secret };
  if (credential.kind === 'managed-identity') {
    // The identity's token for the token-exchange audience is the client assertion: asked for each
    // time MSAL needs one (MSAL caches the Graph token it buys with it), so it is never stale.
    const audience = credential.identity.tokenExchangeAudience ?? TOKEN_EXCHANGE_AUDIENCE;
    return { clientAssertion: async () => (await requestIdentityToken(credential.identity, audience, transport)).token };
  }
  const pem = readFileSync(credential.pemPath, 'utf8');
  const certificatePem = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/)?.[0];
  if (!certificatePem) throw new Error(`${credential.pemPath} holds no PEM certificate`);
  const certificate = new X509Certificate(certificatePem);
  // MSAL wants PKCS#8; PEM files from openssl often hold PKCS#1 ("RSA PRIVATE KEY").
  const privateKey = createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    clientCertificate: {
      thumbprintSha256: certificate.fingerprint256.replaceAll(':', '').toLowerCase(),
      privateKey,
    },
  };
}

/** MSAL's HTTP calls go through our transport, so they share its trust store and time-outs. */
function msalNetworkClient(transport: HttpTransport, authorityOrigin: string): INetworkModule {
  async function send<T>(method: 'GET' | 'POST', url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    const target = new URL(url);
    if (target.origin !== authorityOrigin) {
      throw new Error(`Refused a token-service call to ${target.origin}: only ${authorityOrigin} is configured.`);
    }
    const response = await transport.send({
      method,
      url: target,
      headers: options?.headers ?? {},
      ...(options?.body === undefined ? {} : { body: options.body }),
      timeoutMs: 30_000,
    });
    let body: unknown;
    try {
      body = response.body ? JSON.parse(response.body) : {};
    } catch {
      body = { error: 'invalid_response', error_description: `The token service answered ${response.status} with a body that is not JSON.` };
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }
  return {
    sendGetRequestAsync: (url, options) => send('GET', url, options),
    sendPostRequestAsync: (url, options) => send('POST', url, options),
  };
}

function toTokenError(error: unknown, authority: string): GraphError {
  if (error instanceof GraphError) return error;
  const cause = error as { errorCode?: unknown; errorMessage?: unknown; status?: unknown; message?: unknown };
  const transport = findTransportError(error);
  const code = typeof cause.errorCode === 'string' && cause.errorCode ? cause.errorCode : transport?.kind;
  // AADSTS messages name the tenant and client, never the secret; keep only their first line.
  const message = String(cause.errorMessage || cause.message || error).split('\n')[0] ?? 'token request failed';
  return new GraphError(
    {
      kind: 'token',
      ...(typeof cause.status === 'number' ? { status: cause.status } : {}),
      ...(code ? { code } : {}),
      message: `Could not get a token from ${authority}: ${message}`,
      method: 'POST',
      path: '/oauth2/v2.0/token',
      attempts: 1,
    },
    { cause: error },
  );
}

function findTransportError(error: unknown): TransportError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (current instanceof TransportError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
