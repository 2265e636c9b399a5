/**
 * One measured load, in a process of its own so that its peak memory is its own: reads the tenant
 * from the environment (as the CLI does), takes a token first so the timer covers Graph only, loads
 * the reports named on the command line side by side, and prints one JSON line of figures.
 */
import { readConfig } from '../src/app/config.js';
import { GraphClient } from '../src/graph/graph-client.js';
import type { GraphExchange } from '../src/graph/graph-client.js';
import { createHttpTransport } from '../src/graph/http-transport.js';
import { createMsalTokenSource } from '../src/graph/token-source.js';
import { loadReport } from '../src/core/reports/registry.js';
import { REPORTS } from '../src/core/reports/registry.js';

export interface LoadFigures {
  reports: string[];
  states: string[];
  findings: number;
  rows: number;
  timeMs: number;
  exchanges: Array<Pick<GraphExchange, 'method' | 'path' | 'status'>>;
  peakRssMb: number;
  peakHeapMb: number;
}

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  if (ids.length === 0 || !ids.every((id) => REPORTS.has(id))) throw new Error(`usage: load-once <report id>...; got ${ids.join(' ')}`);
  const config = readConfig(process.env);
  if (!config.ok || config.config.connection.mode !== 'tenant') throw new Error('load-once needs a tenant in the environment (the bench starts one)');
  const connection = config.config.connection;
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

  const exchanges: LoadFigures['exchanges'] = [];
  const transport = createHttpTransport();
  const tokens = createMsalTokenSource({ ...connection, transport });
  const graph = new GraphClient({
    baseUrl: connection.graphBaseUrl,
    tokens,
    transport,
    maxConcurrency: concurrency,
    onExchange: ({ method, path, status }) => exchanges.push({ method, path, status }),
  });
  await tokens.getToken();

  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 100);
  const started = performance.now();
  const results = await Promise.all(ids.map((id) => loadReport(id, graph)));
  const timeMs = performance.now() - started;
  clearInterval(sampler);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);

  const figures: LoadFigures = {
    reports: ids,
    states: results.map((result) => result.state),
    findings: results.reduce((sum, result) => sum + result.findings.length, 0),
    rows: results.reduce((sum, result) => sum + result.rows.length, 0),
    timeMs,
    exchanges,
    // maxRSS is in kilobytes: the whole process's peak, Node itself included.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    peakHeapMb: peakHeap / 1024 / 1024,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await transport.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
