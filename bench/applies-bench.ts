/**
 * "What applies" on the large simulated tenant, at each device count asked for: a device's answer
 * cold (report 2's assignments and, for its setting conflicts, report 3's settings loaded with it,
 * through the report cache), the first answer for
 * another device once those assignments are kept (the question's own reads: the device by name,
 * its primary user's and its Entra device's groups, the groups above them), and a later answer to
 * the same question (its reads kept for the reports' freshness), with the time and the Graph
 * requests each made, the machine's load average, and the targets (docs/performance.md). Run by
 * `npm run bench` after the reports (report-bench.ts).
 *
 * The large tenant sizes its groups, policies, apps and scripts with its devices, and every answer
 * judges every assigned object, so each size beyond the first is also measured with the objects held
 * at the first size's: the ratio between sizes is taken there, since a question's cost must not grow
 * with the device count (the answer's own size grows with the objects, and is printed beside it).
 *
 * Options: --latency MS (40), --devices N[,N…] (100000,500000).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { AppliesService } from '../src/app/applies-service.js';
import type { AppliesResult } from '../src/core/applies/applies-result.js';
import { connectToDemoTenant } from '../src/app/graph-connection.js';
import { startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant } from '../src/sim/tenants/large-tenant.js';
import { recordsOf } from '../src/sim/tenants/sim-tenant.js';

const { values } = parseArgs({ options: { latency: { type: 'string', default: '40' }, devices: { type: 'string', default: '100000,500000' } }, strict: true });
const latencyMs = Number(values.latency);
const sizes = values.devices.split(',').map(Number);

/** First answers at most this long, at every size, and the largest within this ratio of the smallest; later answers at most this long. */
const FIRST_TARGET_MS = 5_000;
const SAME_WITHIN = 1.3;
const LATER_TARGET_MS = 300;

interface Row {
  devices: number;
  /** The device count the tenant's objects are sized for. */
  objectsFor: number;
  label: string;
  query: string;
  timeMs: number;
  requests: number;
  answer: string;
}

async function measure(devices: number, objectsFor: number): Promise<Row[]> {
  const sim = await startSimulator({ tenant: buildLargeTenant({ devices, objectsFor }), latencyMs });
  const connection = connectToDemoTenant(sim);
  try {
    const list = recordsOf(sim.tenant, 'managedDevices');
    // Device 42, then device 1,042: the first 2,000 devices have a primary user in the tenant's groups.
    const [first, second] = [42, 1_042].map((index) => String(list.at(index)?.deviceName));
    const service = new AppliesService({ graph: connection.graph, maxAgeMs: 10 * 60_000, log: () => undefined });
    const rows: Row[] = [];
    for (const [label, query] of [
      ["cold (report 2's assignments and report 3's settings loaded with it)", first!],
      ["first (report 2's assignments kept)", second!],
      ['later (the same question again)', second!],
    ] as const) {
      const started = performance.now();
      const result: AppliesResult = await service.applies(query);
      const timeMs = performance.now() - started;
      if (result.kind !== 'found') throw new Error(`what applies to ${query}: ${result.kind}`);
      const { applies, excluded, dependsOnFilter, unknown, notForPlatform } = result.answer.counts;
      rows.push({
        devices,
        objectsFor,
        label,
        query,
        timeMs,
        requests: result.requests,
        answer: `${applies} applies, ${excluded} excluded, ${dependsOnFilter} depend on a filter, ${unknown} unknown, ${notForPlatform} not for its platform`,
      });
    }
    return rows;
  } finally {
    await connection.close();
    await sim.close();
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const devices of sizes) {
    rows.push(...(await measure(devices, devices)));
    if (devices !== sizes[0]) rows.push(...(await measure(devices, sizes[0]!)));
  }
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  console.log(`\nWhat applies, large tenant, ${latencyMs} ms per request, throttling as Microsoft's per-app limits; load average ${load}.\n`);
  console.log('| devices | objects sized for | question | device | time (ms) | requests | answer |');
  console.log('|---:|---:|---|---|---:|---:|---|');
  for (const row of rows)
    console.log(
      `| ${row.devices.toLocaleString('en')} | ${row.objectsFor.toLocaleString('en')} devices | ${row.label} | ${row.query} | ${Math.round(row.timeMs).toLocaleString('en')} | ${row.requests.toLocaleString('en')} | ${row.answer} |`,
    );

  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  const of = (label: string) => rows.filter((row) => row.label.startsWith(label));
  console.log('\n| target | measured | |');
  console.log('|---|---:|---|');
  for (const row of of('first'))
    console.log(
      `| first answer at ${row.devices.toLocaleString('en')} devices (objects sized for ${row.objectsFor.toLocaleString('en')}) within ${FIRST_TARGET_MS.toLocaleString('en')} ms | ${Math.round(row.timeMs).toLocaleString('en')} ms | ${verdict(row.timeMs <= FIRST_TARGET_MS)} |`,
    );
  // The target: the same objects, more devices. Beside it, the tenant whose objects grew too, for what the answer's size costs.
  const sameObjects = of('first').filter((row) => row.objectsFor === sizes[0]);
  const firsts = sameObjects.map((row) => row.timeMs);
  if (firsts.length > 1) {
    const ratio = Math.max(...firsts) / Math.min(...firsts);
    console.log(
      `| first answers within ${SAME_WITHIN}× of each other as the devices grow (objects as at ${sizes[0]!.toLocaleString('en')}) | ${ratio.toFixed(2)}× | ${verdict(ratio <= SAME_WITHIN)} |`,
    );
  }
  const grown = of('first').filter((row) => row.objectsFor === row.devices);
  if (grown.length > 1) {
    const ratio = Math.max(...grown.map((row) => row.timeMs)) / Math.min(...grown.map((row) => row.timeMs));
    console.log(`| first answers as the objects grow with the devices (for information) | ${ratio.toFixed(2)}× | |`);
  }
  for (const row of of('later'))
    console.log(
      `| later answer at ${row.devices.toLocaleString('en')} devices (objects sized for ${row.objectsFor.toLocaleString('en')}) within ${LATER_TARGET_MS} ms | ${Math.round(row.timeMs).toLocaleString('en')} ms | ${verdict(row.timeMs <= LATER_TARGET_MS)} |`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
