// scripts/federated-credential.mjs, which `atk provision` runs (teamsapp.yml): the federated
// credential it asks the Azure CLI for, and that a provision without the right or the CLI goes on.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script of the project's, without type declarations.
import { credentialFor, ensureFederatedCredential } from '../../scripts/federated-credential.mjs';
import { readToolkitYml, readText } from '../support/toolkit-files.js';

const ENV = {
  AAD_APP_CLIENT_ID: '11111111-2222-4333-8444-555555555555',
  AAD_APP_OAUTH_AUTHORITY_HOST: 'https://login.microsoftonline.com',
  MANAGED_IDENTITY_PRINCIPAL_ID: '99999999-8888-4777-8666-555555555555',
  MANAGED_IDENTITY_TENANT_ID: '7d3c59a1-0000-4000-8000-00000000c0de',
};

type Az = (args: string[]) => Promise<string>;

function fakeAz(existing: unknown[], fail?: { on: 'list' | 'create'; error: unknown }): { az: Az; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    az: async (args) => {
      calls.push(args);
      const verb = args[3] as 'list' | 'create';
      if (fail?.on === verb) throw fail.error;
      return verb === 'list' ? JSON.stringify(existing) : '';
    },
  };
}

describe('the federated credential made at provisioning', () => {
  it('is made after the Azure resources and the registration it names, in the provision stage', () => {
    const provision = readToolkitYml(readText('.', 'teamsapp.yml')).get('provision')!;
    const index = provision.findIndex((step) => step.uses === 'script' && step.fields.get('run') === 'node scripts/federated-credential.mjs');
    expect(index).toBeGreaterThan(provision.findIndex((step) => step.uses === 'arm/deploy'));
    expect(index).toBeGreaterThan(provision.findIndex((step) => step.uses === 'aadApp/create'));
  });

  it('trusts the identity by its object id, in its tenant, for the token-exchange audience of the cloud', () => {
    expect(credentialFor(ENV)).toEqual({
      ok: true,
      appId: ENV.AAD_APP_CLIENT_ID,
      credential: {
        name: 'web-app-identity',
        issuer: `https://login.microsoftonline.com/${ENV.MANAGED_IDENTITY_TENANT_ID}/v2.0`,
        subject: ENV.MANAGED_IDENTITY_PRINCIPAL_ID,
        audiences: ['api://AzureADTokenExchange'],
        description: expect.any(String),
      },
    });
    expect(credentialFor({ ...ENV, AAD_APP_OAUTH_AUTHORITY_HOST: 'https://login.microsoftonline.us/' }).credential.audiences).toEqual(['api://AzureADTokenExchangeUSGov']);
    expect(credentialFor({ ...ENV, MANAGED_IDENTITY_PRINCIPAL_ID: '' })).toEqual({ ok: false, missing: ['MANAGED_IDENTITY_PRINCIPAL_ID'] });
  });

  it('makes it once: a registration that already trusts the identity is left as it is', async () => {
    const fresh = fakeAz([]);
    expect(await ensureFederatedCredential(ENV, fresh.az)).toMatchObject({ made: true });
    expect(fresh.calls.map((args) => args.slice(0, 4).join(' '))).toEqual(['ad app federated-credential list', 'ad app federated-credential create']);
    const made = JSON.parse(fresh.calls[1]![fresh.calls[1]!.indexOf('--parameters') + 1]!) as { subject: string };
    expect(made.subject).toBe(ENV.MANAGED_IDENTITY_PRINCIPAL_ID);

    const again = fakeAz([{ name: 'by-hand', issuer: `https://login.microsoftonline.com/${ENV.MANAGED_IDENTITY_TENANT_ID}/v2.0`, subject: ENV.MANAGED_IDENTITY_PRINCIPAL_ID }]);
    expect(await ensureFederatedCredential(ENV, again.az)).toEqual({
      made: false,
      message: 'The app registration already trusts the Web App\'s identity (federated credential "by-hand").',
    });
    expect(again.calls).toHaveLength(1);
  });

  it('lets the provision go on, saying what to do by hand, without the right or the Azure CLI', async () => {
    const denied = fakeAz([], { on: 'create', error: Object.assign(new Error('failed'), { stderr: 'ERROR: Insufficient privileges to complete the operation.\nmore' }) });
    const outcome = await ensureFederatedCredential(ENV, denied.az);
    expect(outcome.made).toBe(false);
    expect(outcome.message).toContain('(ERROR: Insufficient privileges to complete the operation.)');
    expect(outcome.message).toContain('step 4 of "Deploy to your organization"');
    const noCli = fakeAz([], { on: 'list', error: Object.assign(new Error('spawn az ENOENT'), { code: 'ENOENT' }) });
    expect((await ensureFederatedCredential(ENV, noCli.az)).message).toContain('the Azure CLI, az, is not installed');
  });
});
