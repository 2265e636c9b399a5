/**
 * "What applies" on the large simulated tenant: one device's answer, cold (report 2's assignments,
 * the managed devices and the members of every assigned group read) and warm (the same load's
 * reads answering a second question), with the time and the Graph requests each made. Run by
 * `npm run bench` after the reports (report-bench.ts).
 *
 * Options: --latency MS (40), --devices N (100000).
 */
import { parseArgs } from 'node:util';
import { AppliesService } from '../src/app/applies-service.js';
import { connectToDemoTenant } from '../src/app/graph-connection.js';
import { startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant } from '../src/sim/tenants/large-tenant.js';
import { recordsOf } from '../src/sim/tenants/sim-tenant.js';

const { values } = parseArgs({ options: { latency: { type: 'string', default: '40' }, devices: { type: 'string', default: '100000' } }, strict: true });
const latencyMs = Number(values.latency);
const devices = Number(values.devices);

async function main(): Promise<void> {
  const sim = await startSimulator({ tenant: buildLargeTenant({ devices }), latencyMs });
  const connection = connectToDemoTenant(sim);
  try {
    const device = String(recordsOf(sim.tenant, 'managedDevices').at(42)?.deviceName);
    const service = new AppliesService({ graph: connection.graph, maxAgeMs: 10 * 60_000, log: () => undefined });
    const rows: string[] = [];
    for (const label of ['cold', 'warm']) {
      const started = performance.now();
      const result = await service.applies(device);
      const timeMs = performance.now() - started;
      if (result.kind !== 'found') throw new Error(`what applies to ${device}: ${result.kind}`);
      const { applies, excluded, dependsOnFilter, unknown } = result.answer.counts;
      rows.push(
        `| ${device} (${label}) | ${Math.round(timeMs).toLocaleString('en')} | ${result.requests.toLocaleString('en')} | ${applies} applies, ${excluded} excluded, ${dependsOnFilter} depend on a filter, ${unknown} unknown |`,
      );
    }
    console.log(`\nWhat applies, large tenant, ${devices.toLocaleString('en')} devices, ${latencyMs} ms per request, throttling as Microsoft's per-app limits.\n`);
    console.log('| device | time (ms) | requests | answer |');
    console.log('|---|---:|---:|---|');
    for (const row of rows) console.log(row);
  } finally {
    await connection.close();
    await sim.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
