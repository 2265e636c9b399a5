import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/app/config.js';
import { DEFAULT_THRESHOLDS } from '../../src/core/reports/thresholds.js';

const NO_BOT = { id: undefined, password: undefined, tenantId: undefined, notifyApiKey: undefined, teamsAppId: undefined, tabDomain: undefined };

describe('readConfig', () => {
  it('is demo mode when no tenant variable is set', () => {
    expect(readConfig({})).toEqual({
      ok: true,
      config: { connection: { mode: 'demo' }, port: 3978, host: undefined, stateStore: 'file:.data', thresholds: DEFAULT_THRESHOLDS, betaCoverage: false, bot: NO_BOT },
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
        bot: NO_BOT,
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
      expect(result.error.message).toContain('incomplete: M365_CLIENT_ID, M365_CLIENT_SECRET or M365_CLIENT_CERTIFICATE are not set');
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
    expect(result.ok && result.config.bot).toEqual({ id: 'b', password: 'p', tenantId: 't', notifyApiKey: 'k'.repeat(32), teamsAppId: 'a', tabDomain: 'health.contoso.com' });
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
