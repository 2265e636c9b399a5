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
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPORTS, ReportRegistry } from '../src/core/reports/registry.js';
import type { LoadMemory } from '../src/core/reports/report-model.js';
import { budgetOf } from '../src/graph/request-budget.js';
import type { BudgetName } from '../src/graph/request-budget.js';
import { PRODUCT_READS } from '../src/core/upstream-reads.js';
import { SharedAuditLog } from '../src/core/audit-story/shared-audit-log.js';
import { nodeSha256Hex } from '../src/app/node-digest.js';
import { AUDIT_EVENTS_PATH } from '../src/core/audit-story/read-audit-log.js';
import { emptyKnownNames, loadChangeFeed } from '../src/core/changes/load.js';

export interface LoadFigures {
  reports: string[];
  states: string[];
  findings: number;
  rows: number;
  timeMs: number;
  exchanges: Array<Pick<GraphExchange, 'method' | 'path' | 'status'>>;
  /** Requests to Intune's audit log among the exchanges, for what the stories cost. */
  auditRequests: number;
  /** Requests counted against each per-app limit, each `$batch` sub-request on its own (first attempts only). */
  units: Record<BudgetName, number>;
  peakRssMb: number;
  peakHeapMb: number;
  /** The client process's CPU time during the loads (parsing, inflating, paging, deriving, fingerprints). */
  cpuMs: number;
  /** Of it, the reports' own rules after their reads (`derive`). */
  deriveMs: number;
}

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  if (ids[0] === 'changes') return feedTwice(Number(ids[1] ?? '7'));
  if (ids.length === 0 || !ids.every((id) => REPORTS.has(id))) throw new Error(`usage: load-once <report id>... | load-once changes <days>; got ${ids.join(' ')}`);
  const { graph, exchanges, batched, close } = await benchGraph();
  // BENCH_MEMORY_DIR: what the loads keep between them, as the server keeps it in its state store.
  const memoryDir = process.env.BENCH_MEMORY_DIR;
  const memory: LoadMemory | undefined = memoryDir
    ? {
        read: (name) => readFile(join(memoryDir, name), 'utf8').catch(() => null),
        write: async (name, text) => {
          await mkdir(memoryDir, { recursive: true });
          await writeFile(join(memoryDir, name), text);
        },
      }
    : undefined;

  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 100);
  // The reports' rules timed where they run, so the bench can say where a load's time goes.
  let deriveMs = 0;
  // Reports loaded together share their records as the server's report cache shares them (the setting
  // conflicts report judges reports 3's and 2's): each named report's load, waited for by whoever asks
  // for its records; a load that fails hands none, so the asker loads its own, as the cache's does.
  const loadOf = new Map<string, { records: Promise<unknown>; started: (load: Promise<unknown>) => void }>();
  for (const id of ids) {
    let started!: (load: Promise<unknown>) => void;
    loadOf.set(id, { records: new Promise<unknown>((resolve) => (started = resolve)).catch(() => null), started });
  }
  const recordsOf = async (id: string): Promise<unknown> => (await loadOf.get(id)?.records) ?? null;
  const registry = new ReportRegistry(
    REPORTS.definitions.map((definition) => ({
      ...definition,
      load: (context: Parameters<typeof definition.load>[0]) => {
        const load = definition.load(context);
        loadOf.get(definition.id)?.started(load);
        return load;
      },
      derive: (records: unknown, context: Parameters<typeof definition.derive>[1]) => {
        const began = performance.now();
        try {
          return definition.derive(records, context);
        } finally {
          deriveMs += performance.now() - began;
        }
      },
    })),
  );
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  // Reports 2 and 3 share one read of the audit log, kept with the rest when BENCH_MEMORY_DIR is set, as the server does.
  const auditLog = new SharedAuditLog(memory);
  const results = await Promise.all(ids.map((id) => registry.load(id, graph, { auditLog, digest: nodeSha256Hex, recordsOf, ...(memory ? { memory } : {}) })));
  const timeMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const units = unitsOf(exchanges, batched);
  clearInterval(sampler);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);

  const figures: LoadFigures = {
    reports: ids,
    states: results.map((result) => result.state),
    findings: results.reduce((sum, result) => sum + result.findings.length, 0),
    rows: results.reduce((sum, result) => sum + result.rows.length, 0),
    timeMs,
    exchanges,
    auditRequests: exchanges.filter((exchange) => exchange.path.split('?')[0]!.endsWith(AUDIT_EVENTS_PATH)).length,
    units,
    // maxRSS is in kilobytes: the whole process's peak, Node itself included.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    peakHeapMb: peakHeap / 1024 / 1024,
    cpuMs: (cpu.user + cpu.system) / 1000,
    deriveMs,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await close();
}

/** Requests counted against each per-app limit: each GET answered (not throttled), and each `$batch` sub-request on its own. */
function unitsOf(exchanges: LoadFigures['exchanges'], batched: readonly BudgetName[]): Record<BudgetName, number> {
  const units: Record<BudgetName, number> = { intune: 0, 'intune-auditing': 0, directory: 0 };
  for (const budget of batched) units[budget] += 1;
  for (const exchange of exchanges) if (exchange.method === 'GET' && ![429, 503, 504].includes(exchange.status ?? 0)) units[budgetOf(exchange.path.split('?')[0]!)] += 1;
  return units;
}

/** The tenant's Graph client as a load makes it, every exchange and every `$batch` sub-request's budget recorded. */
async function benchGraph(): Promise<{ graph: GraphClient; exchanges: LoadFigures['exchanges']; batched: BudgetName[]; close: () => Promise<void> }> {
  const config = readConfig(process.env);
  if (!config.ok || config.config.connection.mode !== 'tenant') throw new Error('load-once needs a tenant in the environment (the bench starts one)');
  const connection = config.config.connection;
  const exchanges: LoadFigures['exchanges'] = [];
  const transport = createHttpTransport();
  const tokens = createMsalTokenSource({ ...connection, transport });
  const graph = new GraphClient({
    reads: PRODUCT_READS,
    baseUrl: connection.graphBaseUrl,
    tokens,
    transport,
    maxConcurrency: Number(process.env.BENCH_CONCURRENCY ?? 8),
    onExchange: ({ method, path, status }) => exchanges.push({ method, path, status }),
  });
  await tokens.getToken();
  const batched: BudgetName[] = [];
  const batchGet = graph.batchGet.bind(graph);
  graph.batchGet = (requests, options) => {
    for (const request of requests) batched.push(budgetOf(`/${options?.version ?? 'v1.0'}${request.url.split('?')[0]}`));
    return batchGet(requests, options);
  };
  return { graph, exchanges, batched, close: () => transport.close() };
}

/**
 * The change feed of the last `days`, twice in one process as the server serves it: cold (the log
 * read for the window, the settings, groups and filters that name it), then warm (the log's new
 * pages only, and what changed since). Prints `{ cold, warm }`, each a load's figures.
 */
async function feedTwice(days: number): Promise<void> {
  const { graph, exchanges, batched, close } = await benchGraph();
  const auditLog = new SharedAuditLog();
  const known = emptyKnownNames();
  const pass = async (): Promise<LoadFigures> => {
    const from = exchanges.length;
    const fromBatched = batched.length;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = await loadChangeFeed({ graph, auditLog }, { since: new Date(Date.now() - days * 86_400_000) }, new AbortController().signal, known);
    const timeMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const mine = exchanges.slice(from);
    const units = unitsOf(mine, batched.slice(fromBatched));
    const changes = result.state === 'loaded' ? result.feed.changes.length : 0;
    return {
      reports: ['changes'],
      states: [result.state],
      findings: changes,
      rows: changes,
      timeMs,
      exchanges: mine,
      auditRequests: mine.filter((exchange) => exchange.path.split('?')[0]!.endsWith(AUDIT_EVENTS_PATH)).length,
      units,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      peakHeapMb: process.memoryUsage().heapUsed / 1024 / 1024,
      cpuMs: (cpu.user + cpu.system) / 1000,
      deriveMs: 0,
    };
  };
  const cold = await pass();
  const warm = await pass();
  process.stdout.write(`${JSON.stringify({ cold, warm })}\n`);
  await close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
