import { isIP } from 'node:net';
import type { ClientCredential } from '../graph/token-source.js';
import { TOKEN_EXCHANGE_AUDIENCE, tokenExchangeAudienceFor } from '../graph/managed-identity.js';
import type { ManagedIdentity } from '../graph/managed-identity.js';
import { DEFAULT_THRESHOLDS } from '../core/reports/thresholds.js';
import type { ReportThresholds } from '../core/reports/thresholds.js';
import { INTUNE_RBAC_SCOPE } from './viewer-scopes.js';

/** Where report data comes from: the embedded demo tenant, or a real (or look-alike) tenant. */
export type TenantConnection =
  | { mode: 'demo' }
  | {
      mode: 'tenant';
      tenantId: string;
      clientId: string;
      credential: ClientCredential;
      authorityHost: string;
      graphBaseUrl: string;
    };

export interface AppConfig {
  connection: TenantConnection;
  port: number;
  /**
   * `HOST`: the address to listen on. Unset, the demo tenant listens on 127.0.0.1 (this machine only)
   * and a configured tenant on 0.0.0.0; a deployment behind a proxy on the same host may narrow it.
   */
  host: string | undefined;
  stateStore: string;
  thresholds: ReportThresholds;
  /**
   * `GRAPH_BETA_COVERAGE=true`: read deviceConfigurations, deviceCompliancePolicies, mobileApps and
   * managedDevices on `/beta`, where `/v1.0` leaves out types and the join type (docs/using.md, "What /v1.0
   * cannot show"). Off by default, as the specification puts these calls on `/v1.0`.
   */
  betaCoverage: boolean;
  /**
   * `VIEWER_SCOPE=intune-rbac`: each viewer sees what their Intune role assignments let them see
   * (scope tags; docs/finding-rules.md, "Viewer scope"). Unset, every viewer sees the whole tenant, as before.
   */
  viewerScope: boolean;
  bot: BotConfig;
  /**
   * `MANAGED_IDENTITY_CLIENT_ID` with the identity endpoint App Service sets (`IDENTITY_ENDPOINT`,
   * `IDENTITY_HEADER`): the Web App's user-assigned identity, for Graph (as the app registration,
   * through a federated credential), Blob Storage and the bot. Unset on a machine of one's own.
   */
  managedIdentity: ManagedIdentity | undefined;
  /** `APPLICATIONINSIGHTS_CONNECTION_STRING`: telemetry is sent to Application Insights only when it is set. */
  telemetryConnectionString: string | undefined;
  /**
   * `TELEMETRY_SDK_ENDPOINTS=allow`: let the telemetry SDK reach its own endpoints beside the ingestion
   * endpoint (its control plane, its reports on itself, the instance metadata service); refused otherwise.
   */
  telemetrySdkEndpoints: boolean;
}

/** The bot's side of the configuration (docs/contract.md, "Configuration"). */
export interface BotConfig {
  /** Bot Framework identity; without it the bot answers this machine only. */
  id: string | undefined;
  password: string | undefined;
  /**
   * `BOT_TYPE=UserAssignedMSI`: the bot's registration is the managed identity BOT_ID names, and its
   * outgoing calls sign in with that identity, with no password.
   */
  managedIdentity: boolean;
  tenantId: string | undefined;
  /** The bearer key `POST /api/notify` requires; without it the endpoint is off. */
  notifyApiKey: string | undefined;
  /**
   * NOTIFY_API_KEY was a Key Vault reference App Service could not resolve: App Service then hands
   * the app the reference's own text ("Use Key Vault references as app settings", Azure App Service
   * docs), which must never become the key. The endpoint stays off, and the server says why.
   */
  notifyApiKeyUnresolved?: true;
  /** The Teams app id (the manifest's `id`), for deep links from cards to the tab. */
  teamsAppId: string | undefined;
  /** Where the tab is served for people (`TAB_DOMAIN`), for links from cards. */
  tabDomain: string | undefined;
  /**
   * The reverse proxy in front of the app (`TRUSTED_PROXY`, its address, or `app-service` for App
   * Service's front end): for requests from it, the client address it appends to X-Forwarded-For is
   * the caller's, for /api/notify's rate limits (docs/contract.md, "Configuration").
   */
  trustedProxy: string | undefined;
}

/** A notify key shorter than this is guessable; 32 random characters is what docs/deployment.md suggests. */
const MIN_NOTIFY_KEY_LENGTH = 16;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type ConfigResult = { ok: true; config: AppConfig } | { ok: false; error: ConfigError };

const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';
const DEFAULT_GRAPH_BASE_URL = 'https://graph.microsoft.com';

/**
 * Reads the variables of docs/contract.md, "Configuration". With none of the tenant variables set the app runs in
 * demo mode; with some but not all it refuses and names what is missing, never falling back to
 * the demo tenant silently.
 */
export function readConfig(env: NodeJS.ProcessEnv): ConfigResult {
  try {
    const managedIdentity = readManagedIdentity(env);
    return {
      ok: true,
      config: {
        connection: readConnection(env, managedIdentity),
        port: readPort(env),
        host: readHost(env),
        stateStore: readStateStore(env, managedIdentity),
        thresholds: readThresholds(env),
        betaCoverage: readSwitch(env, 'GRAPH_BETA_COVERAGE'),
        viewerScope: readViewerScope(env),
        bot: readBot(env, managedIdentity),
        managedIdentity,
        telemetryConnectionString: env.APPLICATIONINSIGHTS_CONNECTION_STRING?.trim() || undefined,
        telemetrySdkEndpoints: env.TELEMETRY_SDK_ENDPOINTS?.trim().toLowerCase() === 'allow',
      },
    };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, error };
    throw error;
  }
}

/**
 * The Web App's user-assigned identity. App Service sets IDENTITY_ENDPOINT and IDENTITY_HEADER in
 * a Web App that has an identity (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference);
 * MANAGED_IDENTITY_CLIENT_ID says which of its identities this app signs in as.
 */
function readManagedIdentity(env: NodeJS.ProcessEnv): ManagedIdentity | undefined {
  const clientId = env.MANAGED_IDENTITY_CLIENT_ID?.trim();
  if (!clientId) return undefined;
  const endpoint = env.IDENTITY_ENDPOINT?.trim();
  const header = env.IDENTITY_HEADER?.trim();
  if (!endpoint || !header) {
    throw new ConfigError(
      'MANAGED_IDENTITY_CLIENT_ID is set, and the identity endpoint is not (IDENTITY_ENDPOINT and IDENTITY_HEADER, which App Service sets in a Web App that has a managed identity). ' +
        'On a machine of your own, use M365_CLIENT_SECRET or M365_CLIENT_CERTIFICATE instead.',
    );
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`IDENTITY_ENDPOINT is not a URL: "${endpoint}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`IDENTITY_ENDPOINT must be an http:// or https:// URL, got "${endpoint}".`);
  // A national cloud's authority takes its own token-exchange audience (managed-identity.ts).
  const audience = tokenExchangeAudienceFor(env.M365_AUTHORITY_HOST?.trim() || DEFAULT_AUTHORITY_HOST);
  return { clientId, endpoint: url.href, header, ...(audience !== TOKEN_EXCHANGE_AUDIENCE ? { tokenExchangeAudience: audience } : {}) };
}

/** `file:<directory>`, a connection string, or (with the managed identity) a blob container's URL. */
function readStateStore(env: NodeJS.ProcessEnv, managedIdentity: ManagedIdentity | undefined): string {
  const value = env.STATE_STORE?.trim() || 'file:.data';
  if (/^https?:\/\//i.test(value) && !managedIdentity) {
    throw new ConfigError(
      'STATE_STORE is a blob container URL, which the app signs in to with its managed identity: set MANAGED_IDENTITY_CLIENT_ID too, or give a connection string.',
    );
  }
  return value;
}

function readConnection(env: NodeJS.ProcessEnv, managedIdentity: ManagedIdentity | undefined): TenantConnection {
  const tenantId = env.M365_TENANT_ID?.trim();
  const clientId = env.M365_CLIENT_ID?.trim();
  const secret = env.M365_CLIENT_SECRET;
  const certificate = env.M365_CLIENT_CERTIFICATE?.trim();
  const authorityHost = env.M365_AUTHORITY_HOST?.trim();
  const graphBaseUrl = env.GRAPH_BASE_URL?.trim();

  const anySet = [tenantId, clientId, secret, certificate, authorityHost, graphBaseUrl].some((value) => value);
  if (!anySet) return { mode: 'demo' };

  const missing: string[] = [];
  if (!tenantId) missing.push('M365_TENANT_ID');
  if (!clientId) missing.push('M365_CLIENT_ID');
  if (!secret && !certificate && !managedIdentity) missing.push('M365_CLIENT_SECRET, M365_CLIENT_CERTIFICATE or MANAGED_IDENTITY_CLIENT_ID');
  if (missing.length > 0) {
    throw new ConfigError(
      `Tenant configuration is incomplete: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set. ` +
        'Set all of M365_TENANT_ID, M365_CLIENT_ID and a credential to read a tenant, or none of them for the demo tenant.',
    );
  }
  // A tenant is named by its id (a GUID) or a domain, never `demo-…`: that is how the demo tenant's
  // state is kept (tenantKeyOf), and a tenant named so would read and write the demo's.
  if (/^demo-/i.test(tenantId!)) {
    throw new ConfigError(`M365_TENANT_ID names a tenant by its id or its domain name, not "${tenantId}": "demo-" begins the demo tenant's state key.`);
  }
  const credentials = [secret && 'M365_CLIENT_SECRET', certificate && 'M365_CLIENT_CERTIFICATE', managedIdentity && 'MANAGED_IDENTITY_CLIENT_ID'].filter(Boolean);
  if (credentials.length > 1) {
    throw new ConfigError(`${credentials.join(' and ')} are set: set exactly one credential.`);
  }
  return {
    mode: 'tenant',
    tenantId: tenantId!,
    clientId: clientId!,
    credential: managedIdentity
      ? { kind: 'managed-identity', identity: managedIdentity }
      : certificate
        ? { kind: 'certificate', pemPath: certificate }
        : { kind: 'secret', secret: secret! },
    authorityHost: readOrigin('M365_AUTHORITY_HOST', authorityHost || DEFAULT_AUTHORITY_HOST),
    graphBaseUrl: readOrigin('GRAPH_BASE_URL', graphBaseUrl || DEFAULT_GRAPH_BASE_URL),
  };
}

/** Both hosts must be bare HTTPS origins: MSAL requires HTTPS, and paths are built on the origin. */
function readOrigin(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL: "${value}".`);
  }
  if (url.protocol !== 'https:') throw new ConfigError(`${name} must be an https:// URL, got "${value}".`);
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`${name} must be an origin without a path, e.g. https://graph.microsoft.com; got "${value}".`);
  }
  return url.origin;
}

function readBot(env: NodeJS.ProcessEnv, managedIdentity: ManagedIdentity | undefined): BotConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const id = value('BOT_ID');
  const password = env.BOT_PASSWORD || undefined;
  if (password && !id) throw new ConfigError('BOT_PASSWORD is set without BOT_ID: set both for Bot Framework authentication, or neither to answer this machine only.');
  const botType = value('BOT_TYPE');
  if (botType !== undefined && botType !== 'UserAssignedMSI') throw new ConfigError(`BOT_TYPE must be UserAssignedMSI or unset (a bot with BOT_PASSWORD), got "${botType}".`);
  // botbuilder's managed-identity credentials need the identity's client id and tenant and refuse a password (ConfigurationServiceClientCredentialFactory).
  if (botType && (!id || !value('BOT_TENANT_ID') || password || !managedIdentity)) {
    throw new ConfigError(
      "BOT_TYPE=UserAssignedMSI needs BOT_ID (the managed identity's client id), BOT_TENANT_ID and MANAGED_IDENTITY_CLIENT_ID with the identity endpoint, and no BOT_PASSWORD.",
    );
  }
  const notifyValue = env.NOTIFY_API_KEY || undefined;
  const notifyApiKeyUnresolved = notifyValue !== undefined && /^@Microsoft\.KeyVault\(/i.test(notifyValue.trim());
  const notifyApiKey = notifyApiKeyUnresolved ? undefined : notifyValue;
  if (notifyApiKey !== undefined && notifyApiKey.length < MIN_NOTIFY_KEY_LENGTH) {
    throw new ConfigError(`NOTIFY_API_KEY must be at least ${MIN_NOTIFY_KEY_LENGTH} characters long (a random one, e.g. openssl rand -hex 32).`);
  }
  const tabDomain = value('TAB_DOMAIN');
  if (tabDomain && !/^[a-z0-9.-]+(?::\d+)?$/i.test(tabDomain)) throw new ConfigError(`TAB_DOMAIN must be a host name (and port), got "${tabDomain}".`);
  const trustedProxy = value('TRUSTED_PROXY');
  if (trustedProxy === 'app-service') {
    // App Service sets WEBSITE_INSTANCE_ID in every Web App; elsewhere nothing stands in front that writes these headers.
    if (!value('WEBSITE_INSTANCE_ID'))
      throw new ConfigError('TRUSTED_PROXY=app-service is for a Web App on App Service, and WEBSITE_INSTANCE_ID (which App Service sets) is not set.');
  } else if (trustedProxy && isIP(trustedProxy) === 0) {
    throw new ConfigError(`TRUSTED_PROXY must be the proxy's IP address or app-service, got "${trustedProxy}".`);
  }
  return {
    id,
    password,
    managedIdentity: botType === 'UserAssignedMSI',
    tenantId: value('BOT_TENANT_ID'),
    notifyApiKey,
    ...(notifyApiKeyUnresolved ? { notifyApiKeyUnresolved: true as const } : {}),
    teamsAppId: value('TEAMS_APP_ID'),
    tabDomain,
    trustedProxy,
  };
}

function readSwitch(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

function readHost(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.HOST?.trim();
  if (!raw) return undefined;
  if (isIP(raw) === 0) throw new ConfigError(`HOST must be an IP address to listen on (e.g. 127.0.0.1 or 0.0.0.0), got "${raw}".`);
  return raw;
}

function readPort(env: NodeJS.ProcessEnv): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3978;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${raw}".`);
  return port;
}

/**
 * Connector staleness bands default to the Intune admin center's (warning after 1 day, unhealthy at
 * 3); a team that wants earlier warnings sets CONNECTOR_WARNING_DAYS / CONNECTOR_UNHEALTHY_DAYS.
 */
function readThresholds(env: NodeJS.ProcessEnv): ReportThresholds {
  const days = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number of days, got "${raw}".`);
    return value;
  };
  const warning = days('CONNECTOR_WARNING_DAYS', DEFAULT_THRESHOLDS.connectorWarningAfterDays);
  const unhealthy = days('CONNECTOR_UNHEALTHY_DAYS', DEFAULT_THRESHOLDS.connectorUnhealthyAfterDays);
  if (warning >= unhealthy) throw new ConfigError(`CONNECTOR_WARNING_DAYS (${warning}) must be less than CONNECTOR_UNHEALTHY_DAYS (${unhealthy}).`);
  return { ...DEFAULT_THRESHOLDS, connectorWarningAfterDays: warning, connectorUnhealthyAfterDays: unhealthy };
}

/** `VIEWER_SCOPE`: unset or empty for none, `intune-rbac` for Intune's role assignments; anything else is refused, never guessed. */
function readViewerScope(env: NodeJS.ProcessEnv): boolean {
  const value = env.VIEWER_SCOPE?.trim() ?? '';
  if (value === '') return false;
  if (value === INTUNE_RBAC_SCOPE) return true;
  throw new ConfigError(`VIEWER_SCOPE is "${value}"; it takes "${INTUNE_RBAC_SCOPE}" (each viewer sees what their Intune role assignments let them see), or nothing.`);
}
