// teamsapp.yml, teamsapp.local.yml and env/ against infra/ and against what the server reads:
// every placeholder a step uses has a value by then, nothing hosted makes or keeps a secret, the
// deploy step uploads the package scripts/webapp-package.mjs lays out, and every variable an env
// file sets or tells the admin to set is one the Toolkit or the server reads.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declared, readBicep } from '../support/bicep-reader.js';
import { filesOfStep, placeholders, readEnvFile, readText, readToolkitYml } from '../support/toolkit-files.js';
import type { ToolkitStep } from '../support/toolkit-files.js';

const ROOT = '.';
const HOSTED = readToolkitYml(readText(ROOT, 'teamsapp.yml'));
const LOCAL = readToolkitYml(readText(ROOT, 'teamsapp.local.yml'));
const MAIN = readBicep(readText(ROOT, 'infra/azure.bicep'));
const OUTPUTS = [...declared(MAIN, 'output').keys()];

/**
 * Names the Toolkit itself gives a value: the environment's name; the subscription and resource
 * group, which it asks for when empty, and RESOURCE_SUFFIX, which it makes for names that must be
 * unique (https://learn.microsoft.com/microsoftteams/platform/toolkit/teamsfx-multi-env); the
 * tenant of the signed-in Microsoft 365 account; and the SSO scope's id, which aadApp/update makes
 * for aad.manifest.json when empty.
 */
const TOOLKIT_BUILT_INS = new Set([
  'TEAMSFX_ENV',
  'AZURE_SUBSCRIPTION_ID',
  'AZURE_RESOURCE_GROUP_NAME',
  'RESOURCE_SUFFIX',
  'TEAMS_APP_TENANT_ID',
  'AAD_APP_ACCESS_AS_USER_PERMISSION_ID',
]);

/** What a step writes to the environment file: its `writeToEnvironmentFile`, or an ARM template's outputs. */
function writesOf(step: ToolkitStep): string[] {
  if (step.uses === 'arm/deploy') {
    const template = readBicep(readText(ROOT, step.fields.get('path')!));
    return [...declared(template, 'output').keys()];
  }
  return step.writes;
}

/** Placeholders a step uses, in its own text and in the files it hands to the Toolkit. */
function usedBy(ymlPath: string, step: ToolkitStep): Set<string> {
  const used = placeholders(step.text);
  for (const file of filesOfStep(ROOT, ymlPath, step)) for (const name of placeholders(readFileSync(file, 'utf8'))) used.add(name);
  return used;
}

/** The env variables src/app/config.ts reads (docs/contract.md, "Configuration"). */
function namesTheServerReads(): Set<string> {
  const source = readFileSync('src/app/config.ts', 'utf8');
  const names = new Set<string>();
  for (const pattern of [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g, /\(\s*(?:env,\s*)?'([A-Z][A-Z0-9_]*)'/g]) {
    for (const match of source.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}

describe('teamsapp.yml (the hosted environment)', () => {
  it('gives every placeholder a value before the step that uses it', () => {
    const envDev = readEnvFile(readText(ROOT, 'env/.env.dev'));
    const available = new Set([...TOOLKIT_BUILT_INS, ...[...envDev.set].filter(([, value]) => value !== '').map(([name]) => name), 'APP_NAME_SUFFIX']);
    for (const stage of ['provision', 'deploy', 'publish']) {
      for (const step of HOSTED.get(stage)!) {
        const missing = [...usedBy('teamsapp.yml', step)].filter((name) => !available.has(name));
        expect(missing, `${stage}: ${step.uses} uses names nothing has written yet`).toEqual([]);
        for (const name of writesOf(step)) available.add(name);
      }
    }
  });

  it('provisions the Azure resources with arm/deploy from infra/, after the apps it names and before the manifests that name its outputs', () => {
    const provision = HOSTED.get('provision')!.map((step) => step.uses);
    const arm = HOSTED.get('provision')!.find((step) => step.uses === 'arm/deploy')!;
    expect(arm.fields.get('path')).toBe('./infra/azure.bicep');
    expect(arm.fields.get('parameters')).toBe('./infra/azure.parameters.json');
    expect(provision.indexOf('arm/deploy')).toBeGreaterThan(provision.indexOf('aadApp/create'));
    expect(provision.indexOf('arm/deploy')).toBeGreaterThan(provision.indexOf('teamsApp/create'));
    expect(provision.indexOf('arm/deploy')).toBeLessThan(provision.indexOf('aadApp/update'));
    expect(provision.indexOf('arm/deploy')).toBeLessThan(provision.indexOf('teamsApp/zipAppPackage'));
    // The Teams manifest's bot and host, and the Entra app's identifier URI, are infra's outputs.
    for (const name of ['BOT_ID', 'TAB_DOMAIN', 'AZURE_APP_SERVICE_RESOURCE_ID']) expect(OUTPUTS).toContain(name);
  });

  it('makes and keeps no secret: no client secret, no bot password, no SECRET_ value anywhere', () => {
    const text = readText(ROOT, 'teamsapp.yml');
    expect(
      HOSTED.get('provision')!
        .find((step) => step.uses === 'aadApp/create')!
        .fields.get('generateClientSecret'),
    ).toBe('false');
    expect([...HOSTED.values()].flat().map((step) => step.uses)).not.toContain('botAadApp/create');
    expect([...HOSTED.values()].flat().flatMap((step) => step.writes)).not.toContain(expect.stringMatching(/SECRET|PASSWORD/));
    expect([...placeholders(text), ...placeholders(readText(ROOT, 'infra/azure.parameters.json'))].filter((name) => name.startsWith('SECRET_'))).toEqual([]);
  });

  it('deploys the package scripts/webapp-package.mjs lays out, built first, to the Web App infra made', () => {
    const steps = HOSTED.get('deploy')!;
    const args = steps.filter((step) => step.uses === 'cli/runNpmCommand').map((step) => step.fields.get('args'));
    expect(args).toEqual(['ci', 'run build', 'run package:webapp']);
    const zip = steps[steps.length - 1]!;
    expect(zip.uses).toBe('azureAppService/zipDeploy');
    expect(zip.fields.get('artifactFolder')).toBe('./build/webapp');
    expect(zip.fields.get('resourceId')).toBe('${{AZURE_APP_SERVICE_RESOURCE_ID}}');
    const packageJson = JSON.parse(readText(ROOT, 'package.json')) as { scripts: Record<string, string> };
    expect(packageJson.scripts['package:webapp']).toBe('node scripts/webapp-package.mjs');
    expect(readText(ROOT, 'scripts/webapp-package.mjs')).toContain("join(root, 'build', 'webapp')");
    // What the Web App runs is what the package holds.
    expect(readText(ROOT, 'infra/azure.bicep')).toContain("appCommandLine: 'node dist/server/main.js'");
  });
});

describe('the Teams package', () => {
  it('is validated whole after it is zipped and before it is uploaded or published', () => {
    for (const stage of ['provision', 'publish']) {
      const steps = HOSTED.get(stage)!;
      const uses = steps.map((step) => step.uses);
      const validate = uses.indexOf('teamsApp/validateAppPackage');
      expect(validate, stage).toBeGreaterThan(uses.indexOf('teamsApp/zipAppPackage'));
      expect(validate, stage).toBeLessThan(uses.indexOf(stage === 'publish' ? 'teamsApp/publishAppPackage' : 'teamsApp/update'));
      const zipped = steps.find((step) => step.uses === 'teamsApp/zipAppPackage')!.fields.get('outputZipPath');
      expect(steps[validate]!.fields.get('appPackagePath'), stage).toBe(zipped);
    }
  });
});

describe('env/.env.dev', () => {
  const envDev = readEnvFile(readText(ROOT, 'env/.env.dev'));

  it('names only what the Toolkit reads or writes for teamsapp.yml, and holds no secret', () => {
    const known = new Set([...TOOLKIT_BUILT_INS, 'APP_NAME_SUFFIX', ...[...HOSTED.values()].flat().flatMap(writesOf)]);
    for (const step of [...HOSTED.values()].flat()) for (const name of usedBy('teamsapp.yml', step)) known.add(name);
    expect([...envDev.set.keys(), ...envDev.suggested].filter((name) => !known.has(name))).toEqual([]);
    expect([...envDev.set.keys(), ...envDev.suggested].filter((name) => /SECRET|PASSWORD|CERTIFICATE|NOTIFY_API_KEY/.test(name))).toEqual([]);
  });

  it('lists every output of infra/azure.bicep, so the admin sees what provisioning wrote', () => {
    expect(OUTPUTS.filter((name) => !envDev.set.has(name))).toEqual([]);
  });
});

describe('teamsapp.local.yml and env/.env.local*.sample (debugging through a dev tunnel)', () => {
  const localConfigs = LOCAL.get('deploy')!.find((step) => step.uses === 'file/createOrUpdateEnvironmentFile')!;
  const samples = ['env/.env.local.sample', 'env/.env.local.user.sample'].map((path) => ({ path, names: readEnvFile(readText(ROOT, path)) }));

  it('writes .localConfigs with exactly the names the server reads', () => {
    expect(localConfigs.fields.get('target')).toBe('./.localConfigs');
    const read = namesTheServerReads();
    expect([...localConfigs.envs.keys()].filter((name) => !read.has(name))).toEqual([]);
    // The credentials and keys of a machine of one's own reach the server under its own names.
    expect(localConfigs.envs.get('M365_CLIENT_SECRET')).toBe('${{SECRET_M365_CLIENT_SECRET}}');
    expect(localConfigs.envs.get('NOTIFY_API_KEY')).toBe('${{SECRET_NOTIFY_API_KEY}}');
    expect(localConfigs.envs.get('BOT_PASSWORD')).toBe('${{SECRET_BOT_PASSWORD}}');
  });

  it('has every variable a sample sets or tells the admin to set passed on, or read by the Toolkit', () => {
    const used = new Set([...TOOLKIT_BUILT_INS, 'APP_NAME_SUFFIX', ...[...LOCAL.values()].flat().flatMap((step) => [...usedBy('teamsapp.local.yml', step), ...step.writes])]);
    for (const { path, names } of samples) {
      expect(
        [...names.set.keys(), ...names.suggested].filter((name) => !used.has(name)),
        path,
      ).toEqual([]);
    }
    // Secrets live in the .user file only, and each is passed to the server.
    const main = samples[0]!.names;
    expect([...main.set.keys()].filter((name) => name.startsWith('SECRET_'))).toEqual([]);
    for (const name of samples[1]!.names.set.keys()) {
      expect(name).toMatch(/^SECRET_/);
      expect([...localConfigs.envs.values()]).toContain(`\${{${name}}}`);
    }
  });

  it('keeps the secret samples out of git only once filled in', () => {
    const ignored = readText(ROOT, '.gitignore');
    expect(ignored).toMatch(/^env\/\.env\.\*\.user$/m);
    expect(ignored).toMatch(/^env\/\.env\.local$/m);
    expect(ignored).toMatch(/^\.localConfigs$/m);
    expect(existsSync('env/.env.local.user.sample')).toBe(true);
  });
});
