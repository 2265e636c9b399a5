// The Web App's settings (infra/azure.bicep, appSettings) against what the server reads in tenant
// mode with a managed identity (src/app/config.ts; docs/contract.md, "Configuration"): all that
// the server requires is set, each setting is one the server or App Service reads, and no secret
// and nothing App Service sets itself is among them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { block, declared, keysAtTopLevel, readBicep, valueAtTopLevel } from '../support/bicep-reader.js';

const MAIN_SOURCE = readFileSync('infra/azure.bicep', 'utf8');
const MAIN = readBicep(MAIN_SOURCE);
const APP_SETTINGS = MAIN.declarations.find((declaration) => declaration.kind === 'resource' && declaration.name === 'appSettings')!;
const SETTINGS = block(APP_SETTINGS.source, 'properties')!;
const CONFIG_SOURCE = readFileSync('src/app/config.ts', 'utf8');
const PARAMETERS = JSON.parse(readFileSync('infra/azure.parameters.json', 'utf8')) as { parameters: Record<string, { value: string }> };

/**
 * What the hosted server is given, each read by src/app/config.ts: the tenant and the Entra app it
 * reads as, the identity it signs in with (Graph through the federated credential, Blob Storage,
 * the bot), the state container, the bot's registration, the Teams app and the tab's host, the
 * front end whose X-Forwarded-For it trusts, and where telemetry goes.
 */
const SERVER_SETTINGS = [
  'M365_TENANT_ID',
  'M365_CLIENT_ID',
  'MANAGED_IDENTITY_CLIENT_ID',
  'STATE_STORE',
  'BOT_ID',
  'BOT_TYPE',
  'BOT_TENANT_ID',
  'TEAMS_APP_ID',
  'TAB_DOMAIN',
  'TRUSTED_PROXY',
  'APPLICATIONINSIGHTS_CONNECTION_STRING',
  'GRAPH_BETA_COVERAGE',
  'CONNECTOR_WARNING_DAYS',
  'CONNECTOR_UNHEALTHY_DAYS',
  'NOTIFY_API_KEY',
];

/** Secrets: set only as Key Vault references, resolved by App Service with the identity (infra/modules/key-vault.bicep). */
const KEY_VAULT_SETTINGS = ['NOTIFY_API_KEY'];

/**
 * Read by App Service, not by the server: run the uploaded package as it is, mounted read-only,
 * and do not build it again (https://learn.microsoft.com/azure/app-service/deploy-run-package,
 * https://learn.microsoft.com/azure/app-service/deploy-zip#enable-build-automation-for-zip-deploy).
 */
const PLATFORM_SETTINGS = ['WEBSITE_RUN_FROM_PACKAGE', 'SCM_DO_BUILD_DURING_DEPLOYMENT'];

/**
 * Never in the hosted settings: the local environment's credentials and keys (the hosted app has
 * none), and what App Service sets itself: the port, the instance's id, and the identity endpoint
 * and its header (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference,
 * https://learn.microsoft.com/azure/app-service/reference-app-settings).
 */
const NEVER_SET = [
  'M365_CLIENT_SECRET',
  'M365_CLIENT_CERTIFICATE',
  'BOT_PASSWORD',
  'IDENTITY_ENDPOINT',
  'IDENTITY_HEADER',
  'PORT',
  'MSI_ENDPOINT',
  'MSI_SECRET',
  'WEBSITE_INSTANCE_ID',
];

function namesTheServerReads(): Set<string> {
  const names = new Set<string>();
  for (const pattern of [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g, /\(\s*(?:env,\s*)?'([A-Z][A-Z0-9_]*)'/g]) {
    for (const match of CONFIG_SOURCE.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}

function setting(name: string): string | undefined {
  return valueAtTopLevel(SETTINGS, name);
}

describe("the Web App's settings", () => {
  it('are exactly the server’s settings and App Service’s own', () => {
    expect(keysAtTopLevel(SETTINGS).sort()).toEqual([...SERVER_SETTINGS, ...PLATFORM_SETTINGS].sort());
  });

  it('are each read by the server’s configuration', () => {
    const read = namesTheServerReads();
    expect(SERVER_SETTINGS.filter((name) => !read.has(name))).toEqual([]);
  });

  it('meet every requirement of tenant mode: each name the configuration asks for, or one of its alternatives', () => {
    const requirements = [...CONFIG_SOURCE.matchAll(/missing\.push\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!);
    expect(requirements.length).toBeGreaterThan(0);
    const set = new Set(keysAtTopLevel(SETTINGS));
    const unmet = requirements.filter((requirement) => ![...requirement.matchAll(/[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+/g)].some((match) => set.has(match[0])));
    expect(unmet).toEqual([]);
  });

  it('hold no secret and nothing App Service sets itself', () => {
    expect(keysAtTopLevel(SETTINGS).filter((name) => NEVER_SET.includes(name))).toEqual([]);
  });

  it('take each secret from the Key Vault, by reference, never as a value', () => {
    for (const name of KEY_VAULT_SETTINGS) {
      expect(setting(name), name).toMatch(/^'@Microsoft\.KeyVault\(VaultName=\$\{keyVault\.outputs\.name\};SecretName=[a-z0-9-]+\)'$/);
    }
    expect(setting('NOTIFY_API_KEY')).toContain('SecretName=notify-api-key');
  });

  it('carry what an operator may change from the template’s parameters, so that a provision keeps it', () => {
    expect(setting('GRAPH_BETA_COVERAGE')).toBe("graphBetaCoverage ? 'true' : 'false'");
    expect(setting('CONNECTOR_WARNING_DAYS')).toBe('string(connectorWarningDays)');
    expect(setting('CONNECTOR_UNHEALTHY_DAYS')).toBe('string(connectorUnhealthyDays)');
  });

  it('sign in with the Web App’s identity: as the bot, as the app registration’s federated credential, and to Blob Storage', () => {
    expect(setting('MANAGED_IDENTITY_CLIENT_ID')).toBe('identity.properties.clientId');
    expect(setting('BOT_ID')).toBe('identity.properties.clientId');
    expect(setting('BOT_TYPE')).toBe("'UserAssignedMSI'");
    expect(setting('BOT_TENANT_ID')).toBe('identity.properties.tenantId');
    // STATE_STORE is the container's URL, not a connection string: the identity signs in to it.
    expect(setting('STATE_STORE')).toBe('stateStorage.outputs.containerUrl');
    expect(readFileSync('infra/modules/state-storage.bicep', 'utf8')).toContain("output containerUrl string = '${storage.properties.primaryEndpoints.blob}${containerName}'");
  });

  it('read the tenant as the Entra app the Toolkit made, which is also the tab’s SSO audience', () => {
    expect(setting('M365_CLIENT_ID')).toBe('m365ClientId');
    expect(setting('M365_TENANT_ID')).toBe('m365TenantId');
    expect(setting('TEAMS_APP_ID')).toBe('teamsAppId');
    expect(PARAMETERS.parameters.m365ClientId?.value).toBe('${{AAD_APP_CLIENT_ID}}');
    expect(PARAMETERS.parameters.m365TenantId?.value).toBe('${{AAD_APP_TENANT_ID}}');
    expect(PARAMETERS.parameters.teamsAppId?.value).toBe('${{TEAMS_APP_ID}}');
    const manifest = JSON.parse(readFileSync('appPackage/manifest.json', 'utf8')) as { webApplicationInfo: { id: string } };
    expect(manifest.webApplicationInfo.id).toBe('${{AAD_APP_CLIENT_ID}}');
  });

  it('serve the tab on the Web App’s own host behind App Service’s front end, and send telemetry to the Application Insights made beside it', () => {
    expect(setting('TAB_DOMAIN')).toBe('webApp.properties.defaultHostName');
    expect(declared(MAIN, 'output').get('TAB_DOMAIN')!.value).toBe('webApp.properties.defaultHostName');
    expect(setting('APPLICATIONINSIGHTS_CONNECTION_STRING')).toBe('monitoring.outputs.connectionString');
    expect(setting('TRUSTED_PROXY')).toBe("'app-service'");
    expect(setting('WEBSITE_RUN_FROM_PACKAGE')).toBe("'1'");
    expect(setting('SCM_DO_BUILD_DURING_DEPLOYMENT')).toBe("'false'");
  });
});
