#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startSimulator } from '../sim/simulator.js';
import { buildDemoTenant } from '../sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../sim/tenants/large-tenant.js';

const USAGE = `Usage: dmhealth <command>

Commands:
  sim [--tenant demo|large] [--port N] [--latency MS] [--no-throttling]
      Run the simulated tenant (HTTPS Graph and Entra look-alike on loopback) and print
      what a client needs to reach it: Graph URL, authority, tenant id, client id and
      secret, and the CA file to trust through NODE_EXTRA_CA_CERTS.
  help
      Show this text.

Exit status: 0 success, 2 usage or configuration error.`;

/** Exit statuses of the design's section 3. */
const EXIT_USAGE = 2;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command === undefined ? EXIT_USAGE : 0;
  }
  if (command === 'sim') return runSimulator(rest);
  console.error(`dmhealth: unknown command "${command}"\n\n${USAGE}`);
  return EXIT_USAGE;
}

async function runSimulator(args: string[]): Promise<number> {
  let values: { tenant?: string; port?: string; latency?: string; 'no-throttling'?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { tenant: { type: 'string' }, port: { type: 'string' }, latency: { type: 'string' }, 'no-throttling': { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`dmhealth sim: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const tenantName = values.tenant ?? 'demo';
  if (tenantName !== 'demo' && tenantName !== 'large') {
    console.error(`dmhealth sim: --tenant must be demo or large, got "${tenantName}"`);
    return EXIT_USAGE;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  const latencyMs = values.latency === undefined ? 0 : Number(values.latency);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !Number.isFinite(latencyMs) || latencyMs < 0) {
    console.error('dmhealth sim: --port must be a port number and --latency a number of milliseconds');
    return EXIT_USAGE;
  }

  if (tenantName === 'large') console.error('Building the large tenant (100,000 devices)...');
  const tenant = tenantName === 'large' ? buildLargeTenant() : buildDemoTenant();
  const sim = await startSimulator({ tenant, port, latencyMs, throttling: !values['no-throttling'] });
  console.log(`Simulated tenant "${tenant.displayName}" is running (loopback only).

  GRAPH_BASE_URL=${sim.graphUrl}
  M365_AUTHORITY_HOST=${sim.authorityHost}
  M365_TENANT_ID=${sim.tenantId}
  M365_CLIENT_ID=${sim.clientId}
  M365_CLIENT_SECRET=${sim.clientSecret}
  NODE_EXTRA_CA_CERTS=${sim.caPath}

The secret is made anew at every start and is good for this simulator only. Press Ctrl+C to stop.`);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sim.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('dmhealth: unexpected failure:', error);
    process.exitCode = 1;
  },
);
