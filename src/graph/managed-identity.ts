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
  let body: { access_token?: unknown; expires_on?: unknown } = {};
  try {
    body = response.body ? (JSON.parse(response.body) as typeof body) : {};
  } catch {
    throw failure(`it answered ${response.status} with a body that is not JSON.`, response.status);
  }
  // What the endpoint said is not repeated: its message can echo the request, the header's value
  // included, and a load error is shown to every reader. The status and a fixed description are.
  if (response.status !== 200) throw failure(`${refusal(response.status)}.`, response.status);
  const expiresOn = Number(body.expires_on);
  if (typeof body.access_token !== 'string' || !body.access_token || !Number.isFinite(expiresOn)) {
    throw failure('its answer holds no access_token and expires_on.', response.status);
  }
  return { token: body.access_token, expiresAtMs: expiresOn * 1000 };
}

/**
 * What a refusal from the identity endpoint means, by its status, in words of ours
 * (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference).
 */
function refusal(status: number): string {
  if (status === 400) return 'it answered 400: the request named a resource, an API version or an identity it does not serve';
  if (status === 401 || status === 403) return `it answered ${status}: it did not accept the X-IDENTITY-HEADER value App Service set`;
  if (status === 404) return 'it answered 404: MANAGED_IDENTITY_CLIENT_ID names no identity assigned to this app';
  if (status === 429) return 'it answered 429: too many token requests';
  if (status >= 500) return `it answered ${status}: the endpoint failed`;
  return `it answered ${status}`;
}
