// Lets the app registration trust the Web App's managed identity (docs/deployment.md, "Deploy to your
// organization", step 4), run by `atk provision` after the Azure resources are made (teamsapp.yml):
// a federated identity credential on the registration, whose subject is the identity's object id
// ("Configure an application to trust a managed identity", Microsoft Learn). It uses the Azure CLI
// of whoever provisions. Writing a credential onto a registration is an Entra right (the
// registration's owner, an Application Administrator), not an Azure one: without it, or without
// the Azure CLI, this says what to do by hand and lets the provision go on.
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export const CREDENTIAL_NAME = 'web-app-identity';

/** The token-exchange audience of the authority's cloud (as src/graph/managed-identity.ts). */
const AUDIENCES = {
  'https://login.microsoftonline.us': 'api://AzureADTokenExchangeUSGov',
  'https://login.chinacloudapi.cn': 'api://AzureADTokenExchangeChina',
};

/** The credential the environment file's values call for, or the names missing from it. */
export function credentialFor(env) {
  const missing = ['AAD_APP_CLIENT_ID', 'MANAGED_IDENTITY_PRINCIPAL_ID', 'MANAGED_IDENTITY_TENANT_ID'].filter((name) => !env[name]?.trim());
  if (missing.length > 0) return { ok: false, missing };
  const authority = (env.AAD_APP_OAUTH_AUTHORITY_HOST?.trim() || 'https://login.microsoftonline.com').replace(/\/+$/, '').toLowerCase();
  return {
    ok: true,
    appId: env.AAD_APP_CLIENT_ID.trim(),
    credential: {
      name: CREDENTIAL_NAME,
      issuer: `${authority}/${env.MANAGED_IDENTITY_TENANT_ID.trim()}/v2.0`,
      subject: env.MANAGED_IDENTITY_PRINCIPAL_ID.trim(),
      audiences: [AUDIENCES[authority] ?? 'api://AzureADTokenExchange'],
      description: "Device Management Health's Web App reads Microsoft Graph as this registration with its managed identity.",
    },
  };
}

/**
 * Makes the credential unless the registration already trusts the identity. `az` runs the Azure
 * CLI with its arguments and resolves to its standard output. Resolves to what happened, in words;
 * never rejects, so a provision without the right goes on.
 */
export async function ensureFederatedCredential(env, az) {
  const wanted = credentialFor(env);
  const byHand = 'do step 4 of "Deploy to your organization" in docs/deployment.md by hand (or have the registration\'s owner or an Application Administrator do it)';
  if (!wanted.ok) return { made: false, message: `The federated credential was not made: ${wanted.missing.join(', ')} not set yet; ${byHand}.` };
  const { appId, credential } = wanted;
  let existing;
  try {
    existing = JSON.parse(await az(['ad', 'app', 'federated-credential', 'list', '--id', appId, '--output', 'json']));
  } catch (error) {
    return { made: false, message: `The federated credential was not made: the Azure CLI could not read the registration's credentials (${reasonOf(error)}); ${byHand}.` };
  }
  const trusting = existing.find((item) => item.issuer === credential.issuer && item.subject === credential.subject);
  if (trusting) return { made: false, message: `The app registration already trusts the Web App's identity (federated credential "${trusting.name}").` };
  if (existing.some((item) => item.name === credential.name)) {
    return { made: false, message: `The federated credential was not made: one named "${credential.name}" trusts another identity; remove it, then ${byHand}.` };
  }
  try {
    await az(['ad', 'app', 'federated-credential', 'create', '--id', appId, '--parameters', JSON.stringify(credential), '--output', 'none']);
  } catch (error) {
    return { made: false, message: `The federated credential was not made (${reasonOf(error)}); ${byHand}.` };
  }
  return { made: true, message: `The app registration now trusts the Web App's identity (federated credential "${credential.name}").` };
}

/** The CLI's first line of complaint, or that it is not installed: never a token. */
function reasonOf(error) {
  if (error?.code === 'ENOENT') return 'the Azure CLI, az, is not installed';
  const first = String(error?.stderr ?? error?.message ?? error)
    .split('\n')
    .find((line) => line.trim());
  return (first ?? 'no reason given').trim().slice(0, 300);
}

const runAz = async (args) => (await promisify(execFile)('az', args, { shell: process.platform === 'win32', maxBuffer: 4 * 1024 * 1024 })).stdout;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcome = await ensureFederatedCredential(process.env, runAz);
  console.log(outcome.message);
}
