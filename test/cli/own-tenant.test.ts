/**
 * The README's "Read your own tenant from a laptop", followed as written against the simulated
 * tenant: the certificate made with the README's own commands, an app registration holding exactly
 * the README's permission list, and the command line given the README's environment variables alone
 * (and, since the tenant is the simulator's, where its authority and Graph are and its CA).
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_IDS, reportDefinition } from '../../src/core/reports/registry.js';
import { simulatorEnvironment } from '../../src/sim/simulator.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';
const README = readFileSync('README.md', 'utf8');
const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** The README's section, from its heading to the next. */
const SECTION = /^## Read your own tenant from a laptop\n([\s\S]+?)^## /m.exec(README)?.[1] ?? '';
/** The lines of the section's code blocks, without their indent. */
const blocks = [...SECTION.matchAll(/```sh\n([\s\S]+?)```/g)].map((match) =>
  match[1]!
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean),
);
/** The permissions the README lists, from its **Permissions.** paragraph. */
const permissions = [...(/\*\*Permissions\.\*\*([\s\S]+?)Report 4 uses/.exec(README)?.[1] ?? '').matchAll(/`([A-Za-z.]+)`/g)].map((match) => match[1]!);

let directory: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-own-tenant-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the README's own-tenant section, followed as written", () => {
  it('reads the tenant with a certificate and the environment alone, and the overview prints every report', async () => {
    expect(blocks).toHaveLength(2);
    const [certificateCommands, cliCommands] = blocks as [string[], string[]];
    expect(permissions.length).toBeGreaterThanOrEqual(9);

    // Step 3: the certificate, made by the README's own commands.
    for (const command of certificateCommands) await run('bash', ['-c', command], { cwd: directory });
    const pemPath = join(directory, 'dmhealth.pem');
    expect(existsSync(join(directory, 'dmhealth-key.pem'))).toBe(false);
    const pem = readFileSync(pemPath, 'utf8');
    const certificate = new X509Certificate(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)![0]);

    // Steps 1 and 2: the registration, holding the README's permissions and the uploaded certificate.
    const app = harness.sim.addApplication({
      roles: permissions,
      displayName: 'dmhealth on a laptop',
      certificates: [
        {
          thumbprintSha256: certificate.fingerprint256.replaceAll(':', '').toLowerCase(),
          publicKeyPem: certificate.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
      ],
    });

    // Step 4: the variables the README exports, and nothing else of the tenant's.
    const exported = cliCommands.filter((line) => line.startsWith('export ')).map((line) => /^export ([A-Z0-9_]+)=/.exec(line)![1]!);
    expect(exported).toEqual(['M365_TENANT_ID', 'M365_CLIENT_ID', 'M365_CLIENT_CERTIFICATE']);
    const values: Record<string, string> = { M365_TENANT_ID: harness.sim.tenantId, M365_CLIENT_ID: app.clientId, M365_CLIENT_CERTIFICATE: pemPath };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|MANAGED_IDENTITY_|IDENTITY_|COLUMNS)/.test(name)) delete env[name];
    for (const name of exported) env[name] = values[name];
    // Only where the simulated tenant is: its authority, its Graph and its CA, which a real tenant needs none of.
    const { GRAPH_BASE_URL, M365_AUTHORITY_HOST, NODE_EXTRA_CA_CERTS } = simulatorEnvironment(harness.sim);
    Object.assign(env, { GRAPH_BASE_URL, M365_AUTHORITY_HOST, NODE_EXTRA_CA_CERTS, COLUMNS: '100' });

    const command = cliCommands.find((line) => line.startsWith('npx dmhealth '));
    expect(command).toBe('npx dmhealth overview');
    const before = harness.sim.graph.requests.length;
    const { stdout } = await run(process.execPath, [CLI, ...command!.split(/\s+/).slice(2)], { env, timeout: 60_000, maxBuffer: 8 * 1024 * 1024 });
    for (const id of REPORT_IDS) expect(stdout).toContain(reportDefinition(id).title);
    expect(stdout).not.toContain('Load error');
    // It read the simulated tenant, not the demo tenant a CLI with no tenant variables starts.
    expect(harness.sim.graph.requests.length).toBeGreaterThan(before);
    expect(harness.sim.violationCount()).toBe(0);
  });
});
