/**
 * `npm run bench`, the window's memory: report 4 loaded from the large simulated tenant, then the
 * heap (and typed arrays' buffers) before and after building everything the window API keeps for that load
 * (src/core/reports/window/report-window.ts): the table's index, each column's compact copy and both of its
 * orders, the rows' filter text and the default order. Prints the heap it takes, and per 100,000
 * rows. Run with `--expose-gc` so each figure is taken after a full collection.
 *
 * Options: --devices N (100000).
 */
import { parseArgs } from 'node:util';
import { GraphClient } from '../src/graph/graph-client.js';
import { createHttpTransport } from '../src/graph/http-transport.js';
import { createMsalTokenSource } from '../src/graph/token-source.js';
import { loadReport } from '../src/core/reports/registry.js';
import { ReportWindows, windowQuery } from '../src/core/reports/window/report-window.js';
import type { WindowQuery } from '../src/core/reports/window/report-window.js';
import { startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant } from '../src/sim/tenants/large-tenant.js';
import { PRODUCT_READS } from '../src/core/upstream-reads.js';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' } }, strict: true });
const devices = Number(values.devices);
if (!(Number.isInteger(devices) && devices > 0)) throw new Error('--devices takes a whole number');
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');

const heapMb = () => {
  collect();
  collect();
  // Typed arrays keep their bytes outside the JS heap: both count.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
};

const sim = await startSimulator({ tenant: buildLargeTenant({ devices }), throttling: false });
const transport = createHttpTransport({ extraCaPem: sim.caPem });
try {
  const graph = new GraphClient({
    reads: PRODUCT_READS,
    baseUrl: sim.graphUrl,
    transport,
    tokens: createMsalTokenSource({
      tenantId: sim.tenantId,
      clientId: sim.clientId,
      credential: { kind: 'secret', secret: sim.clientSecret },
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphUrl,
      transport,
    }),
  });
  const result = await loadReport('escrow-gaps', graph);
  const windows = new ReportWindows();
  const before = heapMb();
  const shape = windows.shape(result);
  const table = shape.tables[0]!;
  const query = (overrides: Partial<WindowQuery>): WindowQuery => windowQuery(table, overrides);
  windows.window(result, query({}), new Map());
  for (const column of shape.columnsOf(table)) windows.window(result, query({ sort: column }), new Map());
  windows.window(result, query({ q: 'a' }), new Map());
  const after = heapMb();
  const rows = result.rows.length;
  const used = after - before;
  console.log(`\nThe window's memory: report 4 (escrow-gaps), ${rows.toLocaleString('en-US')} rows, ${shape.columnsOf(table).length} columns each sorted, Node ${process.version}`);
  console.log('| measure | MB |');
  console.log('|---|---:|');
  console.log(`| heap and buffers with the result loaded (the simulated tenant, in this process, included) | ${before.toFixed(1)} |`);
  console.log(`| heap the window keeps for the load (index, compact columns, every order, filter text) | ${used.toFixed(1)} |`);
  console.log(`| the same per 100,000 rows | ${((used * 100_000) / rows).toFixed(1)} |`);
} finally {
  await transport.close();
  await sim.close();
}
