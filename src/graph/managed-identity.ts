import { GraphError } from '../core/graph/graph-error.js';
import type { HttpTransport } from './http-transport.js';

/**
 * A user-assigned managed identity as App Service hands it to the process: its local token endpoint
 * (`IDENTITY_ENDPOINT`), the header value that proves the caller runs in the app (`IDENTITY_HEADER`),
 * and the identity's client id, since a Web App may have several identities.
 */
export interface ManagedIdentity {
  clientId: string;
  endpoint: string;
  header: string;
  /** The token-exchange audience of a national cloud (`tokenExchangeAudienceFor`); the public cloud's when absent. */
  tokenExchangeAudience?: string;
}

/**
 * The audience of the token a managed identity presents to Microsoft Entra ID as a federated
 * credential ("Configure an application to trust a managed identity",
 * https://learn.microsoft.com/entra/workload-id/workload-identity-federation-config-app-trust-managed-identity).
 */
export const TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

/**
 * The token-exchange audience of each national cloud, by its Entra authority: the same page lists
 * `api://AzureADTokenExchangeUSGov` for Azure Government and `api://AzureADTokenExchangeChina` for
 * Azure operated by 21Vianet. A federated credential made with one audience accepts no other.
 */
const NATIONAL_TOKEN_EXCHANGE_AUDIENCES: Record<string, string> = {
  'https://login.microsoftonline.us': 'api://AzureADTokenExchangeUSGov',
  'https://login.chinacloudapi.cn': 'api://AzureADTokenExchangeChina',
};

/** The token-exchange audience for the authority `M365_AUTHORITY_HOST` names: a national cloud's, or the public cloud's. */
export function tokenExchangeAudienceFor(authorityHost: string): string {
  return NATIONAL_TOKEN_EXCHANGE_AUDIENCES[authorityHost.replace(/\/+$/, '').toLowerCase()] ?? TOKEN_EXCHANGE_AUDIENCE;
}

/** The version of App Service's identity protocol this client speaks. */
const API_VERSION = '2019-08-01';

/**
 * Asks App Service's identity endpoint for a token for `resource`, as its REST protocol describes
 * (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference):
 * GET with `resource`, `api-version` 2019-08-01 and the user-assigned identity's `client_id`, and the
 * `X-IDENTITY-HEADER` header; the answer holds `access_token` and `expires_on` in seconds since the
 * epoch. Failures are token failures (GraphError of kind 'token'), never with the header's value.
 */
export async function requestIdentityToken(identity: ManagedIdentity, resource: string, transport: HttpTransport): Promise<{ token: string; expiresAtMs: number }> {
  const url = new URL(identity.endpoint);
  url.searchParams.set('resource', resource);
  url.searchParams.set('api-version', API_VERSION);
  url.searchParams.set('client_id', identity.clientId);
  const failure = (message: string, status?: number) =>
    new GraphError({
      kind: 'token',
      ...(status === undefined ? {} : { status }),
      message: `Could not get a token for the managed identity ${identity.clientId} from the identity endpoint: ${message}`,
      method: 'GET',
      path: url.pathname,
      attempts: 1,
    });
  let response;
  try {
    response = await transport.send({ method: 'GET', url, headers: { 'x-identity-header': identity.header, accept: 'application/json' }, timeoutMs: 30_000 });
  } catch (error) {
    throw failure(error instanceof Error ? error.message : String(error));
  }
  let body: { access_token?: unknown; expires_on?: unknown; message?: unknown; error_description?: unknown } = {};
  try {
    body = response.body ? (JSON.parse(response.body) as typeof body) : {};
  } catch {
    throw failure(`it answered ${response.status} with a body that is not JSON.`, response.status);
  }
  if (response.status !== 200) {
    const said = typeof body.message === 'string' ? body.message : typeof body.error_description === 'string' ? body.error_description : 'no reason given';
    throw failure(`it answered ${response.status} (${said.split('\n')[0]}).`, response.status);
  }
  const expiresOn = Number(body.expires_on);
  if (typeof body.access_token !== 'string' || !body.access_token || !Number.isFinite(expiresOn)) {
    throw failure('its answer holds no access_token and expires_on.', response.status);
  }
  return { token: body.access_token, expiresAtMs: expiresOn * 1000 };
}
