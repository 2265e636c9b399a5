import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/app/config.js';
import { tenantKeyOf } from '../../src/app/graph-connection.js';
import { DEFAULT_THRESHOLDS } from '../../src/core/reports/thresholds.js';

const NO_BOT = { id: undefined, password: undefined, managedIdentity: false, tenantId: undefined, notifyApiKey: undefined, teamsAppId: undefined, tabDomain: undefined };

describe('readConfig', () => {
  it('is demo mode when no tenant variable is set', () => {
    expect(readConfig({})).toEqual({
      ok: true,
      config: {
        connection: { mode: 'demo' },
        port: 3978,
        host: undefined,
        stateStore: 'file:.data',
        thresholds: DEFAULT_THRESHOLDS,
        betaCoverage: false,
        viewerScope: false,
        bot: NO_BOT,
        telemetrySdkEndpoints: false,
      },
    });
  });

  it('reads GRAPH_BETA_COVERAGE as true or false, and refuses anything else', () => {
    const read = (value: string) => readConfig({ GRAPH_BETA_COVERAGE: value });
    expect(read('true')).toMatchObject({ ok: true, config: { betaCoverage: true } });
    expect(read(' TRUE ')).toMatchObject({ ok: true, config: { betaCoverage: true } });
    expect(read('false')).toMatchObject({ ok: true, config: { betaCoverage: false } });
    expect(read('')).toMatchObject({ ok: true, config: { betaCoverage: false } });
    const wrong = read('yes');
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toBe('GRAPH_BETA_COVERAGE must be true or false, got "yes".');
  });

  it('reads VIEWER_SCOPE: off unless it is intune-rbac, and refuses any other value rather than guess', () => {
    const read = (value: string) => readConfig({ VIEWER_SCOPE: value });
    expect(readConfig({})).toMatchObject({ ok: true, config: { viewerScope: false } });
    expect(read('')).toMatchObject({ ok: true, config: { viewerScope: false } });
    expect(read(' intune-rbac ')).toMatchObject({ ok: true, config: { viewerScope: true } });
    const wrong = read('scope-tags');
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toMatch(/^VIEWER_SCOPE is "scope-tags"; it takes "intune-rbac"/);
  });

  it("reads a tenant with a secret, defaulting to Microsoft's hosts", () => {
    const result = readConfig({ M365_TENANT_ID: 't', M365_CLIENT_ID: 'c', M365_CLIENT_SECRET: 's', PORT: '4000' });
    expect(result).toEqual({
      ok: true,
      config: {
        connection: {
          mode: 'tenant',
          tenantId: 't',
          clientId: 'c',
          credential: { kind: 'secret', secret: 's' },
          authorityHost: 'https://login.microsoftonline.com',
          graphBaseUrl: 'https://graph.microsoft.com',
        },
        port: 4000,
        host: undefined,
        stateStore: 'file:.data',
        thresholds: DEFAULT_THRESHOLDS,
        betaCoverage: false,
        viewerScope: false,
        bot: NO_BOT,
        telemetrySdkEndpoints: false,
      },
    });
  });

  it('reads a certificate credential and custom HTTPS hosts', () => {
    const result = readConfig({
      M365_TENANT_ID: 't',
      M365_CLIENT_ID: 'c',
      M365_CLIENT_CERTIFICATE: '/keys/app.pem',
      GRAPH_BASE_URL: 'https://127.0.0.1:8443/',
      M365_AUTHORITY_HOST: 'https://127.0.0.1:8443',
    });
    expect(result.ok && result.config.connection).toMatchObject({
      credential: { kind: 'certificate', pemPath: '/keys/app.pem' },
      graphBaseUrl: 'https://127.0.0.1:8443',
      authorityHost: 'https://127.0.0.1:8443',
    });
  });

  it('refuses a partial configuration and names every missing variable', () => {
    const result = readConfig({ M365_TENANT_ID: 't' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toContain('incomplete: M365_CLIENT_ID, M365_CLIENT_SECRET, M365_CLIENT_CERTIFICATE or MANAGED_IDENTITY_CLIENT_ID are not set');
    }
  });

  it('does not fall back to the demo tenant when only a host is set', () => {
    expect(readConfig({ GRAPH_BASE_URL: 'https://graph.microsoft.com' }).ok).toBe(false);
  });

  it.each([
    ['GRAPH_BASE_URL', 'http://graph.microsoft.com', /https/],
    ['GRAPH_BASE_URL', 'https://graph.microsoft.com/v1.0', /without a path/],
    ['M365_AUTHORITY_HOST', 'not a url', /not a URL/],
    ['PORT', 'eighty', /PORT/],
    ['HOST', 'localhost', /HOST must be an IP address/],
  ])('refuses %s=%s', (name, value, message) => {
    const result = readConfig({ M365_TENANT_ID: 't', M365_CLIENT_ID: 'c', M365_CLIENT_SECRET: 's', [name]: value });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(message);
  });

  it('reads HOST as the address to listen on', () => {
    expect(readConfig({ HOST: ' 127.0.0.1 ' })).toMatchObject({ ok: true, config: { host: '127.0.0.1' } });
  });

  it('refuses two credentials at once', () => {
    const result = readConfig({ M365_TENANT_ID: 't', M365_CLIENT_ID: 'c', M365_CLIENT_SECRET: 's', M365_CLIENT_CERTIFICATE: '/k.pem' });
    expect(result.ok).toBe(false);
  });

  it('reads connector staleness bands and refuses ones that make no sense', () => {
    const result = readConfig({ CONNECTOR_WARNING_DAYS: '0.5', CONNECTOR_UNHEALTHY_DAYS: '2' });
    expect(result.ok && result.config.thresholds).toEqual({ ...DEFAULT_THRESHOLDS, connectorWarningAfterDays: 0.5, connectorUnhealthyAfterDays: 2 });
    const inverted = readConfig({ CONNECTOR_WARNING_DAYS: '5' });
    expect(inverted.ok).toBe(false);
    if (!inverted.ok) expect(inverted.error.message).toContain('must be less than CONNECTOR_UNHEALTHY_DAYS (3)');
    const garbage = readConfig({ CONNECTOR_UNHEALTHY_DAYS: 'soon' });
    expect(garbage.ok).toBe(false);
    if (!garbage.ok) expect(garbage.error.message).toContain('CONNECTOR_UNHEALTHY_DAYS must be a positive number of days');
  });

  it("reads the bot's identity, the notify key, the Teams app id and the tab's domain", () => {
    const result = readConfig({
      BOT_ID: 'b',
      BOT_PASSWORD: 'p',
      BOT_TENANT_ID: 't',
      NOTIFY_API_KEY: 'k'.repeat(32),
      TEAMS_APP_ID: 'a',
      TAB_DOMAIN: 'health.contoso.com',
      STATE_STORE: 'UseDevelopmentStorage=true',
    });
    expect(result.ok && result.config.bot).toEqual({
      id: 'b',
      password: 'p',
      managedIdentity: false,
      tenantId: 't',
      notifyApiKey: 'k'.repeat(32),
      teamsAppId: 'a',
      tabDomain: 'health.contoso.com',
    });
    expect(result.ok && result.config.stateStore).toBe('UseDevelopmentStorage=true');
  });

  it.each([
    [{ BOT_PASSWORD: 'p' }, /BOT_PASSWORD is set without BOT_ID/],
    [{ NOTIFY_API_KEY: 'short' }, /NOTIFY_API_KEY must be at least 16 characters/],
    [{ TAB_DOMAIN: 'https://health.contoso.com/tab' }, /TAB_DOMAIN must be a host name/],
  ])('refuses %j', (env, message) => {
    const result = readConfig(env);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(message);
  });
});

describe('readConfig on App Service', () => {
  const TENANT = { M365_TENANT_ID: 't', M365_CLIENT_ID: 'c' };
  const IDENTITY = { MANAGED_IDENTITY_CLIENT_ID: 'mi', IDENTITY_ENDPOINT: 'http://127.0.0.1:41741/msi/token', IDENTITY_HEADER: 'h' };

  it('reads Graph with the managed identity when MANAGED_IDENTITY_CLIENT_ID and the identity endpoint are set, with no secret', () => {
    const result = readConfig({ ...TENANT, ...IDENTITY });
    expect(result.ok && result.config.connection).toMatchObject({
      mode: 'tenant',
      clientId: 'c',
      credential: { kind: 'managed-identity', identity: { clientId: 'mi', endpoint: 'http://127.0.0.1:41741/msi/token', header: 'h' } },
    });
    expect(result.ok && result.config.managedIdentity).toEqual({ clientId: 'mi', endpoint: 'http://127.0.0.1:41741/msi/token', header: 'h' });
  });

  it('refuses MANAGED_IDENTITY_CLIENT_ID without the identity endpoint App Service sets', () => {
    const result = readConfig({ ...TENANT, MANAGED_IDENTITY_CLIENT_ID: 'mi' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/IDENTITY_ENDPOINT and IDENTITY_HEADER/);
  });

  it('refuses the managed identity beside a secret: exactly one credential', () => {
    const result = readConfig({ ...TENANT, ...IDENTITY, M365_CLIENT_SECRET: 's' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('M365_CLIENT_SECRET and MANAGED_IDENTITY_CLIENT_ID are set: set exactly one credential.');
  });

  it('takes a blob container URL as STATE_STORE only with the managed identity', () => {
    const url = 'https://contosohealth.blob.core.windows.net/dmhealth-state';
    expect(readConfig({ ...TENANT, ...IDENTITY, STATE_STORE: url })).toMatchObject({ ok: true, config: { stateStore: url } });
    const without = readConfig({ STATE_STORE: url });
    expect(without.ok).toBe(false);
    if (!without.ok) expect(without.error.message).toMatch(/MANAGED_IDENTITY_CLIENT_ID/);
  });

  it('reads BOT_TYPE=UserAssignedMSI: the bot signs in with the identity, with its tenant and no password', () => {
    const bot = { BOT_TYPE: 'UserAssignedMSI', BOT_ID: 'mi', BOT_TENANT_ID: 't' };
    expect(readConfig({ ...TENANT, ...IDENTITY, ...bot })).toMatchObject({ ok: true, config: { bot: { id: 'mi', tenantId: 't', managedIdentity: true, password: undefined } } });
    const refused: NodeJS.ProcessEnv[] = [
      { ...TENANT, ...IDENTITY, ...bot, BOT_PASSWORD: 'p' },
      { ...TENANT, ...IDENTITY, ...bot, BOT_TENANT_ID: '' },
      // The bot's identity needs the identity endpoint even where Graph is read with a secret.
      { ...TENANT, ...bot, M365_CLIENT_SECRET: 's' },
    ];
    for (const env of refused) expect(readConfig(env).ok).toBe(false);
    expect(readConfig({ BOT_TYPE: 'MultiTenant' }).ok).toBe(false);
  });

  it('reads APPLICATIONINSIGHTS_CONNECTION_STRING, telemetry being off without it', () => {
    expect(readConfig({ APPLICATIONINSIGHTS_CONNECTION_STRING: 'InstrumentationKey=k;IngestionEndpoint=https://x/' })).toMatchObject({
      ok: true,
      config: { telemetryConnectionString: 'InstrumentationKey=k;IngestionEndpoint=https://x/' },
    });
    expect(readConfig({})).toMatchObject({ ok: true, config: { telemetryConnectionString: undefined } });
  });

  it("refuses a tenant named demo-…, which is how the demo tenant's state is kept, so the two never share it", () => {
    const demoTenantKey = tenantKeyOf({ demo: true, tenantId: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' });
    const result = readConfig({ M365_TENANT_ID: demoTenantKey, M365_CLIENT_ID: 'c', M365_CLIENT_SECRET: 's' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('"demo-" begins the demo tenant\'s state key');
    expect(() => tenantKeyOf({ demo: false, tenantId: demoTenantKey })).toThrow();
  });

  it('lets the telemetry SDK reach its own endpoints only with TELEMETRY_SDK_ENDPOINTS=allow', () => {
    expect(readConfig({})).toMatchObject({ ok: true, config: { telemetrySdkEndpoints: false } });
    expect(readConfig({ TELEMETRY_SDK_ENDPOINTS: 'Allow' })).toMatchObject({ ok: true, config: { telemetrySdkEndpoints: true } });
    expect(readConfig({ TELEMETRY_SDK_ENDPOINTS: 'yes' })).toMatchObject({ ok: true, config: { telemetrySdkEndpoints: false } });
  });

  it('takes TRUSTED_PROXY=app-service only where App Service runs the app (WEBSITE_INSTANCE_ID set)', () => {
    expect(readConfig({ TRUSTED_PROXY: 'app-service', WEBSITE_INSTANCE_ID: 'abc' })).toMatchObject({ ok: true, config: { bot: { trustedProxy: 'app-service' } } });
    expect(readConfig({ TRUSTED_PROXY: 'app-service' }).ok).toBe(false);
    expect(readConfig({ TRUSTED_PROXY: 'front-door' }).ok).toBe(false);
  });
});

describe('readConfig in a national cloud and with Key Vault references', () => {
  const TENANT = { M365_TENANT_ID: 't', M365_CLIENT_ID: 'c' };
  const IDENTITY = { MANAGED_IDENTITY_CLIENT_ID: 'mi', IDENTITY_ENDPOINT: 'http://127.0.0.1:41741/msi/token', IDENTITY_HEADER: 'h' };

  it("asks the identity for the token-exchange audience of the authority's cloud", () => {
    const audience = (env: Record<string, string>) => {
      const result = readConfig({ ...TENANT, ...IDENTITY, ...env });
      return result.ok ? result.config.managedIdentity?.tokenExchangeAudience : 'refused';
    };
    expect(audience({})).toBeUndefined();
    expect(audience({ M365_AUTHORITY_HOST: 'https://login.microsoftonline.us', GRAPH_BASE_URL: 'https://graph.microsoft.us' })).toBe('api://AzureADTokenExchangeUSGov');
    expect(audience({ M365_AUTHORITY_HOST: 'https://login.chinacloudapi.cn', GRAPH_BASE_URL: 'https://microsoftgraph.chinacloudapi.cn' })).toBe('api://AzureADTokenExchangeChina');
  });

  it('keeps /api/notify off when NOTIFY_API_KEY is a Key Vault reference App Service could not resolve, never taking its text for the key', () => {
    const result = readConfig({ NOTIFY_API_KEY: '@Microsoft.KeyVault(SecretUri=https://dmhealth-kv.vault.azure.net/secrets/notify-api-key)' });
    expect(result.ok && result.config.bot).toMatchObject({ notifyApiKey: undefined, notifyApiKeyUnresolved: true });
    expect(readConfig({ NOTIFY_API_KEY: 'k'.repeat(32) })).toMatchObject({ ok: true, config: { bot: { notifyApiKey: 'k'.repeat(32) } } });
  });
});
