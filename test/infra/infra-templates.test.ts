// infra/ read as far as a plain reader can: no Bicep compiler runs here (the Toolkit fetches one
// when it provisions), so these tests check the templates' shape, their parameters and outputs
// against teamsapp.yml, and the security settings the deployment promises (docs/deployment.md, "Deploy to
// your organization"). They cannot tell that Azure accepts the templates.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBalanced, block, codeOnly, declared, keysAtTopLevel, readBicep, references, valueAtTopLevel } from '../support/bicep-reader.js';
import type { BicepDeclaration, BicepFile } from '../support/bicep-reader.js';

function bicepFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return bicepFilesUnder(path);
    return entry.name.endsWith('.bicep') ? [path] : [];
  });
}

const FILES = new Map(bicepFilesUnder('infra').map((path) => [path.split('\\').join('/'), readBicep(readFileSync(path, 'utf8'))]));
const MAIN = FILES.get('infra/azure.bicep')!;
const PARAMETERS = JSON.parse(readFileSync('infra/azure.parameters.json', 'utf8')) as { contentVersion: string; parameters: Record<string, { value: unknown }> };

function resource(file: BicepFile, type: string): BicepDeclaration {
  const found = file.declarations.filter((declaration) => declaration.kind === 'resource' && declaration.type.startsWith(`${type}@`));
  expect(found, `one ${type}`).toHaveLength(1);
  return found[0]!;
}

function moduleFile(path: string): BicepFile {
  const file = FILES.get(`infra/${path.replace(/^\.\//, '')}`);
  if (!file) throw new Error(`No module ${path}`);
  return file;
}

describe('the reader itself', () => {
  it('sets strings and comments apart, keeps interpolations as code, and finds unbalanced delimiters', () => {
    const code = codeOnly("var a = '{ not code ${b} }' // a } comment\n/* { */ var c = { d: 'e' }");
    expect(references(code, 'b')).toBe(1);
    expect(code).not.toContain('not code');
    expect(code).not.toContain('comment');
    expect(() => assertBalanced(code)).not.toThrow();
    expect(() => assertBalanced(codeOnly("resource x 't@1' = {\n  properties: {\n}"))).toThrow(/not closed/);
    expect(() => assertBalanced(codeOnly('var x = [ 1 }'))).toThrow(/Unbalanced/);
  });

  it('reads declarations with their decorators, types and bodies', () => {
    const file = readBicep("@description('x')\n@allowed([\n  'a'\n])\nparam p string = 'a'\n\nresource r 'T/u@2020-01-01' = {\n  name: p\n}\noutput O string = r.id\n");
    expect(file.declarations.map((declaration) => [declaration.kind, declaration.name, declaration.type])).toEqual([
      ['param', 'p', 'string'],
      ['resource', 'r', 'T/u@2020-01-01'],
      ['output', 'O', 'string'],
    ]);
    expect(file.declarations[0]!.decorators).toHaveLength(2);
    expect(keysAtTopLevel(file.declarations[1]!.value.slice(1, -1))).toEqual(['name']);
  });
});

describe('the templates in infra/', () => {
  it('are the Toolkit’s main template and its modules, each balanced and declaring resources', () => {
    expect([...FILES.keys()].sort()).toEqual([
      'infra/azure.bicep',
      'infra/modules/azure-bot.bicep',
      'infra/modules/key-vault.bicep',
      'infra/modules/monitoring.bicep',
      'infra/modules/state-storage.bicep',
    ]);
    for (const [path, file] of FILES) {
      expect(file.declarations.filter((declaration) => declaration.kind === 'resource').length, path).toBeGreaterThan(0);
    }
  });

  it('use every parameter they declare, and describe each', () => {
    for (const [path, file] of FILES) {
      for (const [name, param] of declared(file, 'param')) {
        expect(references(file.code, name), `${path}: param ${name} is never used`).toBeGreaterThan(1);
        expect(
          param.decorators.some((decorator) => decorator.startsWith('@description(')),
          `${path}: param ${name} has no description`,
        ).toBe(true);
      }
    }
  });

  it('give each module exactly the parameters it declares, all it requires among them', () => {
    const modules = [...declared(MAIN, 'module').values()];
    expect(modules.map((declaration) => declaration.type).sort()).toEqual([
      './modules/azure-bot.bicep',
      './modules/key-vault.bicep',
      './modules/monitoring.bicep',
      './modules/state-storage.bicep',
    ]);
    for (const declaration of modules) {
      const target = moduleFile(declaration.type);
      const given = keysAtTopLevel(block(declaration.source, 'params')!);
      const params = declared(target, 'param');
      const required = [...params.values()].filter((param) => param.value === '').map((param) => param.name);
      expect(
        given.filter((name) => !params.has(name)),
        `${declaration.type}: unknown parameters`,
      ).toEqual([]);
      expect(
        required.filter((name) => !given.includes(name)),
        `${declaration.type}: missing parameters`,
      ).toEqual([]);
      // Every output of a module that the main template reads is declared by the module.
      for (const match of MAIN.code.matchAll(new RegExp(`\\b${declaration.name}\\.outputs\\.([A-Za-z0-9_]+)`, 'g'))) {
        expect(declared(target, 'output').has(match[1]!), `${declaration.type} has no output ${match[1]}`).toBe(true);
      }
    }
  });

  it('have a parameters file that names only declared parameters, and every one without a default', () => {
    const params = declared(MAIN, 'param');
    expect(PARAMETERS.contentVersion).toBe('1.0.0.0');
    expect(Object.keys(PARAMETERS.parameters).filter((name) => !params.has(name))).toEqual([]);
    const required = [...params.values()].filter((param) => param.value === '').map((param) => param.name);
    expect(required.filter((name) => !(name in PARAMETERS.parameters))).toEqual([]);
    // The plan size and the names are parameters; the region is the resource group's unless set.
    expect(params.get('location')?.value).toBe('resourceGroup().location');
    for (const name of ['resourceBaseName', 'webAppSku', 'webAppName', 'storageAccountName', 'identityName', 'serverfarmsName', 'botServiceName']) {
      expect(params.has(name), name).toBe(true);
    }
  });

  it('name resources from parameters that keep Azure’s limits: a storage account name of lower-case letters and digits', () => {
    const base = declared(MAIN, 'param').get('resourceBaseName')!;
    expect(base.decorators).toContain('@maxLength(20)');
    expect(PARAMETERS.parameters.resourceBaseName?.value).toMatch(/^[a-z0-9]+\$\{\{RESOURCE_SUFFIX\}\}$/);
    expect(declared(MAIN, 'param').get('storageAccountName')!.source).toMatch(/toLower\(replace\(replace\(resourceBaseName, '-', ''\), '_', ''\)\)/);
  });
});

/** The Web App's basic-authentication publishing policies, by name. */
function publishingPolicies(): Map<string, BicepDeclaration> {
  const found = MAIN.declarations.filter(
    (declaration) => declaration.kind === 'resource' && declaration.type.startsWith('Microsoft.Web/sites/basicPublishingCredentialsPolicies@'),
  );
  return new Map(found.map((policy) => [valueAtTopLevel(policy.source.slice(policy.source.indexOf('{') + 1), 'name')!, policy]));
}

describe('the Web App', () => {
  const webApp = resource(MAIN, 'Microsoft.Web/sites');
  const plan = resource(MAIN, 'Microsoft.Web/serverfarms');
  const siteConfig = block(webApp.source, 'siteConfig')!;

  it('runs on a Linux plan of Basic size or more, on Node 22 LTS, the built server as its command', () => {
    expect(valueAtTopLevel(block(plan.source, 'properties')!, 'reserved')).toBe('true');
    expect(valueAtTopLevel(block(plan.source, 'sku')!, 'name')).toBe('webAppSku');
    expect(declared(MAIN, 'param').get('webAppSku')!.source).not.toMatch(/'F1'|'D1'|'Free'|'Shared'/);
    expect(valueAtTopLevel(siteConfig, 'linuxFxVersion')).toBe("'NODE|22-lts'");
    expect(valueAtTopLevel(siteConfig, 'appCommandLine')).toBe("'node dist/server/main.js'");
    expect(valueAtTopLevel(webApp.source.slice(webApp.source.indexOf('{') + 1), 'kind')).toBe("'app,linux'");
  });

  it('is always on, HTTPS only, TLS 1.2 or later, without FTP, and probed on /healthz', () => {
    const properties = block(webApp.source, 'properties')!;
    expect(valueAtTopLevel(properties, 'httpsOnly')).toBe('true');
    expect(valueAtTopLevel(siteConfig, 'alwaysOn')).toBe('true');
    expect(valueAtTopLevel(siteConfig, 'minTlsVersion')).toBe("'1.2'");
    expect(valueAtTopLevel(siteConfig, 'scmMinTlsVersion')).toBe("'1.2'");
    expect(valueAtTopLevel(siteConfig, 'ftpsState')).toBe("'Disabled'");
    expect(valueAtTopLevel(siteConfig, 'healthCheckPath')).toBe("'/healthz'");
    const ftp = publishingPolicies().get("'ftp'")!;
    expect(valueAtTopLevel(ftp.source.slice(ftp.source.indexOf('{') + 1), 'name')).toBe("'ftp'");
    expect(valueAtTopLevel(block(ftp.source, 'properties')!, 'allow')).toBe('false');
  });

  it('takes no basic-authentication publishing credentials on the deployment endpoint either (SCM): the zip deploy signs in with Entra', () => {
    const policies = publishingPolicies();
    expect([...policies.keys()].sort()).toEqual(["'ftp'", "'scm'"]);
    for (const [name, policy] of policies) {
      expect(policy.source, name).toMatch(/parent:\s*webApp\b/);
      expect(valueAtTopLevel(block(policy.source, 'properties')!, 'allow'), name).toBe('false');
    }
  });

  it('asks for no more instances than the smallest allowed plan scales to (Basic: 3)', () => {
    const count = declared(MAIN, 'param').get('instanceCount')!;
    const max = Number(/@maxValue\((\d+)\)/.exec(count.decorators.join('\n'))![1]);
    const sizes = [
      ...declared(MAIN, 'param')
        .get('webAppSku')!
        .source.matchAll(/'([A-Z][A-Za-z0-9]*)'/g),
    ].map((match) => match[1]!);
    // Instances each plan size scales to (https://learn.microsoft.com/azure/app-service/overview-hosting-plans).
    const scalesTo = (size: string) => (size.startsWith('B') ? 3 : size.startsWith('S') ? 10 : 30);
    expect(sizes.length).toBeGreaterThan(0);
    for (const size of sizes) expect(max, size).toBeLessThanOrEqual(scalesTo(size));
    expect(valueAtTopLevel(block(plan.source, 'sku')!, 'capacity')).toBe('instanceCount');
  });

  it('signs in as the user-assigned identity, its only identity', () => {
    const identity = block(webApp.source, 'identity')!;
    expect(valueAtTopLevel(identity, 'type')).toBe("'UserAssigned'");
    expect(block(identity, 'userAssignedIdentities')!.trim()).toBe("'${identity.id}': {}");
  });

  it('sends its logs to the workspace beside the telemetry', () => {
    const logs = resource(MAIN, 'Microsoft.Insights/diagnosticSettings');
    expect(logs.source).toMatch(/scope:\s*webApp\b/);
    expect(valueAtTopLevel(block(logs.source, 'properties')!, 'workspaceId')).toBe('monitoring.outputs.workspaceId');
    for (const category of ['AppServiceConsoleLogs', 'AppServiceHTTPLogs']) expect(logs.source).toContain(`'${category}'`);
  });
});

describe('the Azure Bot', () => {
  const file = moduleFile('modules/azure-bot.bicep');
  const bot = resource(file, 'Microsoft.BotService/botServices');
  const botModule = declared(MAIN, 'module').get('azureBot')!;

  it('is of type UserAssignedMSI on the Web App’s identity, with no password', () => {
    const properties = block(bot.source, 'properties')!;
    expect(valueAtTopLevel(properties, 'msaAppType')).toBe("'UserAssignedMSI'");
    expect(valueAtTopLevel(properties, 'msaAppId')).toBe('identityClientId');
    expect(valueAtTopLevel(properties, 'msaAppMSIResourceId')).toBe('identityResourceId');
    const params = block(botModule.source, 'params')!;
    expect(valueAtTopLevel(params, 'identityClientId')).toBe('identity.properties.clientId');
    expect(valueAtTopLevel(params, 'identityResourceId')).toBe('identity.id');
    expect(file.code).not.toMatch(/password|secret/i);
  });

  it('takes Teams activities at https://<web app host>/api/messages, on the Teams channel', () => {
    expect(valueAtTopLevel(block(botModule.source, 'params')!, 'messagingEndpoint')).toBe("'https://${webApp.properties.defaultHostName}/api/messages'");
    expect(valueAtTopLevel(block(bot.source, 'properties')!, 'endpoint')).toBe('messagingEndpoint');
    const channel = resource(file, 'Microsoft.BotService/botServices/channels');
    expect(channel.source).toMatch(/parent:\s*bot\b/);
    expect(valueAtTopLevel(block(channel.source, 'properties')!, 'channelName')).toBe("'MsTeamsChannel'");
  });
});

describe('the state storage', () => {
  const file = moduleFile('modules/state-storage.bicep');
  const storage = resource(file, 'Microsoft.Storage/storageAccounts');
  const properties = block(storage.source, 'properties')!;

  it('takes Entra sign-in only, over TLS 1.2 or later, with nothing public', () => {
    expect(valueAtTopLevel(properties, 'allowSharedKeyAccess')).toBe('false');
    expect(valueAtTopLevel(properties, 'defaultToOAuthAuthentication')).toBe('true');
    expect(valueAtTopLevel(properties, 'minimumTlsVersion')).toBe("'TLS1_2'");
    expect(valueAtTopLevel(properties, 'supportsHttpsTrafficOnly')).toBe('true');
    expect(valueAtTopLevel(properties, 'allowBlobPublicAccess')).toBe('false');
    const container = resource(file, 'Microsoft.Storage/storageAccounts/blobServices/containers');
    expect(valueAtTopLevel(block(container.source, 'properties')!, 'publicAccess')).toBe("'None'");
  });

  it('gives the Web App’s identity Storage Blob Data Contributor on the state container alone', () => {
    const assignment = resource(file, 'Microsoft.Authorization/roleAssignments');
    expect(assignment.source).toMatch(/scope:\s*container\b/);
    expect(file.code).toContain('storageBlobDataContributorRoleId');
    expect(readFileSync('infra/modules/state-storage.bicep', 'utf8')).toContain("var storageBlobDataContributorRoleId = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'");
    const assignmentProperties = block(assignment.source, 'properties')!;
    expect(valueAtTopLevel(assignmentProperties, 'principalId')).toBe('dataContributorPrincipalId');
    expect(valueAtTopLevel(assignmentProperties, 'principalType')).toBe("'ServicePrincipal'");
    const stateModule = declared(MAIN, 'module').get('stateStorage')!;
    expect(valueAtTopLevel(block(stateModule.source, 'params')!, 'dataContributorPrincipalId')).toBe('identity.properties.principalId');
    // The account's keys are never read, so none can leak into a setting or an output.
    for (const [path, template] of FILES) expect(template.code, path).not.toMatch(/listKeys|listAccountSas|connectionString\s*:/i);
  });
});

describe('the Key Vault', () => {
  const file = moduleFile('modules/key-vault.bicep');
  const vault = resource(file, 'Microsoft.KeyVault/vaults');
  const properties = block(vault.source, 'properties')!;

  it('is under Azure RBAC alone, with no access policy, and keeps deleted secrets recoverable', () => {
    expect(valueAtTopLevel(properties, 'enableRbacAuthorization')).toBe('true');
    expect(valueAtTopLevel(properties, 'accessPolicies')).toBe('[]');
    expect(valueAtTopLevel(properties, 'enableSoftDelete')).toBe('true');
    expect(valueAtTopLevel(properties, 'softDeleteRetentionInDays')).toBe('softDeleteRetentionInDays');
    expect(file.code).not.toMatch(/Microsoft\.KeyVault\/vaults\/accessPolicies/);
  });

  it('lets the Web App’s identity read secrets and nothing more, and whoever provisions name who may set them', () => {
    const assignments = file.declarations.filter((declaration) => declaration.kind === 'resource' && declaration.type.startsWith('Microsoft.Authorization/roleAssignments@'));
    expect(assignments.map((assignment) => assignment.name).sort()).toEqual(['secretsOfficer', 'secretsUser']);
    const user = assignments.find((assignment) => assignment.name === 'secretsUser')!;
    expect(user.source).toMatch(/scope:\s*vault\b/);
    expect(valueAtTopLevel(block(user.source, 'properties')!, 'principalId')).toBe('secretsUserPrincipalId');
    expect(readFileSync('infra/modules/key-vault.bicep', 'utf8')).toContain("var keyVaultSecretsUserRoleId = '4633458b-17de-408a-b874-0445c86b69e6'");
    const officer = assignments.find((assignment) => assignment.name === 'secretsOfficer')!;
    expect(officer.source).toMatch(/= if \(!empty\(secretsOfficerPrincipalId\)\)/);
    const vaultModule = declared(MAIN, 'module').get('keyVault')!;
    expect(valueAtTopLevel(block(vaultModule.source, 'params')!, 'secretsUserPrincipalId')).toBe('identity.properties.principalId');
    // The Web App resolves Key Vault references as its user-assigned identity.
    const webApp = resource(MAIN, 'Microsoft.Web/sites');
    expect(valueAtTopLevel(block(webApp.source, 'properties')!, 'keyVaultReferenceIdentity')).toBe('identity.id');
  });
});

describe('the settings an operator may change', () => {
  it('are parameters in infra/azure.parameters.json, so that a provision keeps them', () => {
    const params = declared(MAIN, 'param');
    for (const name of ['webAppSku', 'instanceCount', 'graphBetaCoverage', 'connectorWarningDays', 'connectorUnhealthyDays', 'secretsOfficerPrincipalId']) {
      expect(params.has(name), name).toBe(true);
      expect(Object.keys(PARAMETERS.parameters), name).toContain(name);
    }
    // Each file value is the template's default, so the file shows what an unchanged provision sets.
    for (const [name, { value }] of Object.entries(PARAMETERS.parameters)) {
      const fallback = params.get(name)!.value;
      if (fallback !== '' && typeof value !== 'string') expect(String(value), name).toBe(fallback);
    }
  });
});

describe('monitoring', () => {
  it('is Application Insights over a Log Analytics workspace, its connection string the app’s setting', () => {
    const file = moduleFile('modules/monitoring.bicep');
    const insights = resource(file, 'Microsoft.Insights/components');
    resource(file, 'Microsoft.OperationalInsights/workspaces');
    expect(valueAtTopLevel(block(insights.source, 'properties')!, 'WorkspaceResourceId')).toBe('workspace.id');
    expect(declared(file, 'output').get('connectionString')!.value).toBe('appInsights.properties.ConnectionString');
  });
});

describe('the outputs teamsapp.yml writes to env/', () => {
  it('are upper-case, as the Toolkit writes them, and none is a secret', () => {
    for (const name of declared(MAIN, 'output').keys()) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(name).not.toMatch(/SECRET|PASSWORD|KEY$/);
    }
    expect(existsSync(join(dirname('infra/azure.bicep'), 'azure.parameters.json'))).toBe(true);
  });
});
