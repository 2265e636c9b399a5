import { parseArgs } from 'node:util';
import { simulatorEnvironment, startSimulator } from '../sim/simulator.js';
import type { Simulator } from '../sim/simulator.js';
import { buildDemoTenant } from '../sim/tenants/demo-tenant.js';
import type { DemoTenantOptions } from '../sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../sim/tenants/large-tenant.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import { EXIT_USAGE } from './exit-status.js';
import { outputWidth, wrap } from './text-layout.js';
import { printError } from './print-error.js';

// The one file of the command line that knows the simulator (docs/architecture.md, "The parts").

/**
 * The demo tenant `dmhealth report` and `overview` read when no tenant is configured: the records of
 * the registry's reports, and the resources a report that exists only in a test brings.
 */
export function startDemoTenant(registry: ReportRegistry, extras: Pick<DemoTenantOptions, 'resources'> = {}): Promise<Simulator> {
  return startSimulator({ tenant: buildDemoTenant({ registry, ...extras }) });
}

/**
 * `dmhealth sim`: the simulated tenant on its own, for another process to read as a configured
 * tenant, until Ctrl+C.
 */
export async function runSimulator(args: string[]): Promise<number> {
  let values: { tenant?: string; devices?: string; policies?: string; port?: string; latency?: string; 'no-throttling'?: boolean; 'managed-identity'?: boolean; env?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        tenant: { type: 'string' },
        devices: { type: 'string' },
        policies: { type: 'string' },
        port: { type: 'string' },
        latency: { type: 'string' },
        'no-throttling': { type: 'boolean' },
        'managed-identity': { type: 'boolean' },
        env: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    printError(`dmhealth sim: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const tenantName = values.tenant ?? 'demo';
  if (tenantName !== 'demo' && tenantName !== 'large') {
    printError(`dmhealth sim: --tenant must be demo or large, got "${tenantName}"`);
    return EXIT_USAGE;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  const latencyMs = values.latency === undefined ? 0 : Number(values.latency);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !Number.isFinite(latencyMs) || latencyMs < 0) {
    printError('dmhealth sim: --port must be a port number and --latency a number of milliseconds');
    return EXIT_USAGE;
  }

  const devices = values.devices === undefined ? 100_000 : Number(values.devices);
  if (!Number.isInteger(devices) || devices < 1 || devices > 1_000_000 || (values.devices !== undefined && tenantName !== 'large')) {
    printError('dmhealth sim: --devices takes a whole number from 1 to 1,000,000, with --tenant large');
    return EXIT_USAGE;
  }
  const policies = values.policies === undefined ? undefined : Number(values.policies);
  if (policies !== undefined && (!Number.isInteger(policies) || policies < 0 || policies > 100_000 || tenantName !== 'large')) {
    printError('dmhealth sim: --policies takes a whole number from 0 to 100,000, with --tenant large');
    return EXIT_USAGE;
  }
  if (tenantName === 'large') printError(`Building the large tenant (${devices.toLocaleString('en')} devices)...`);
  const tenant = tenantName === 'large' ? buildLargeTenant({ devices, ...(policies === undefined ? {} : { policies }) }) : buildDemoTenant();
  const managedIdentity = values['managed-identity'] === true;
  const sim = await startSimulator({ tenant, port, latencyMs, throttling: !values['no-throttling'], managedIdentity });
  const environment = shellLines(simulatorEnvironment(sim), values.env === true ? 'env' : 'export');
  const about = managedIdentity
    ? 'No secret: the app signs in as its managed identity, through the identity endpoint as App Service serves one, and the app registration trusts that identity (a federated credential). IDENTITY_HEADER is made anew at every start and is good for this machine only.'
    : 'The secret is made anew at every start and is good for this simulator only.';
  // Every line is one a shell or a .env file takes: the variables, and what the reader is told as
  // comments, so the output can be pasted, or saved as a .env file, whole.
  const how = values.env === true ? 'Lines for a .env file.' : 'Paste these lines into a shell (or print them for a .env file with --env).';
  console.log([...comment(`Simulated tenant "${tenant.displayName}" is running (loopback only). ${how}`), ...environment, ...comment(about), '# Press Ctrl+C to stop.'].join('\n'));

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sim.close();
  return 0;
}

/**
 * Variables as lines a shell or a `.env` file takes as they are: `export NAME='value'` (POSIX shell
 * quoting: a single quote inside is closed, escaped and reopened), or with `env`, `NAME=value` (a
 * value with a space, quote, `#` or `$` is double-quoted, as dotenv files read it).
 */
export function shellLines(variables: Readonly<Record<string, string>>, form: 'export' | 'env'): string[] {
  return Object.entries(variables).map(([name, value]) => {
    if (form === 'export') return `export ${name}='${value.replace(/'/g, `'\\''`)}'`;
    return /^[\w./:@%+,=-]*$/.test(value) ? `${name}=${value}` : `${name}="${value.replace(/(["\\$`])/g, '\\$1')}"`;
  });
}

/** Text as `# ` comment lines of at most 100 characters, or the output's width if less, which a shell and a .env file both skip. */
function comment(text: string): string[] {
  return wrap(text, Math.min(100, outputWidth(undefined, process.stdout, process.env) ?? 100), '# ', '# ');
}
