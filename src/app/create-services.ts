import { REPORTS } from '../core/reports/registry.js';
import { assignmentHygieneReport } from '../core/reports/assignment-hygiene/definition.js';
import type { LoadReportOptions, ReportRegistry } from '../core/reports/registry.js';
import { errorText } from '../core/error-text.js';
import type { StateStore } from '../store/state-store.js';
import type { LoadMemory } from '../core/reports/report-model.js';
import type { GraphReader } from '../core/graph/graph-reader.js';
import type { GraphConnection } from './graph-connection.js';
import { HistoryRecords } from './history-records.js';
import { DEFAULT_CACHE_MAX_AGE_MS, ReportCache } from './report-cache.js';
import { ViewerScopes } from './viewer-scopes.js';
import type { ReportLoader } from './report-cache.js';
import { ReportService } from './report-service.js';
import { AppliesService } from './applies-service.js';
import { ScheduleRecords } from './schedule-records.js';
import { sharedLoader } from './shared-loads.js';
import { TriageRecords } from './triage-records.js';
import { countedReader } from './request-count.js';
import { SharedAuditLog } from '../core/audit-story/shared-audit-log.js';
import { nodeSha256Hex } from './node-digest.js';
import { ChangeFeedService } from './change-feed-service.js';
import { BaselineRecords, InMemoryDemoBaseline } from './baseline-records.js';
import { BaselineService } from './baseline-service.js';
import { demoBaselineBook } from '../core/reports/baseline-drift/demo.js';
import { baselineDriftReport } from '../core/reports/baseline-drift/definition.js';

export interface ServicesOptions {
  /** The tenant, or the demo tenant, as `openGraphConnection` opens it: its Graph client and its label. */
  connection: Pick<GraphConnection, 'tenantLabel' | 'demo' | 'tenantKey'> & { graph?: GraphReader };
  /** The reports offered; the registry's seven by default. */
  registry?: ReportRegistry;
  /** How a report is loaded: by default through the registry and the connection's Graph client, which it then needs. */
  load?: ReportLoader;
  /** How long a loaded report counts as fresh (five minutes by default); older ones are served while a newer one loads. */
  cacheMaxAgeMs?: number;
  /** The time, in milliseconds, the cache judges a result's age by: `Date.now` unless a test moves it. */
  cacheClock?: () => number;
  loadOptions?: Pick<LoadReportOptions, 'thresholds' | 'now' | 'onUnexpectedError'>;
  /**
   * Where the app keeps its state: the reports' history, triage decisions, the bot's installations,
   * ledgers and schedules, opened for the connection's tenant. Without one (the CLI) there is no
   * history, no triage and no schedule.
   */
  store?: StateStore;
  log: (line: string) => void;
  /**
   * `VIEWER_SCOPE=intune-rbac`: each viewer sees what their Intune role assignments let them see
   * (viewer-scopes.ts). Needs the connection's Graph client, opened to read the objects' scope tags
   * (`scopeTags`); off by default.
   */
  viewerScope?: boolean;
  /** Each upstream report load once it ends (telemetry): counts and state only, never a record. */
  onReportLoaded?: (load: ReportLoadOutcome) => void;
}

export interface ReportLoadOutcome {
  report: string;
  state: string;
  durationMs: number;
  records: number;
  findings: number;
}

/** The application floor as one process has it: every front end (tab API, bot, CLI) works through these. */
export interface AppServices {
  registry: ReportRegistry;
  /** Whose data this is, so a demo tenant is never mistaken for a real one. */
  tenant: { label: string; demo: boolean };
  reports: ReportService;
  /** The state store and what is kept in it; absent for a caller that keeps no state. */
  store: StateStore | undefined;
  /** The triage decisions, which posts leave out. */
  triage: TriageRecords | undefined;
  schedules: ScheduleRecords | undefined;
  /** What applies to a device, a user or a group; absent when reports are loaded without a Graph client (some tests). */
  applies?: AppliesService;
  /** Each viewer's Intune scope, when the viewer scope is on (`VIEWER_SCOPE=intune-rbac`); absent, every viewer sees the whole tenant. */
  viewerScopes?: ViewerScopes;
  /** What changed in the tenant, from the audit log the reports share; absent without a Graph client. */
  changes?: ChangeFeedService;
  /** Approving policies for report 8's baseline; absent for a caller that keeps no state (the command line). */
  baselines?: BaselineService;
}

/**
 * The one composition root of the application floor, for `npm start`, the bot, the CLI and the
 * tests alike: one report cache over the registry (its loads shared with other instances when the
 * store is Azure Blob), each successful load added to the report's history, and the triage
 * decisions and schedules over the store.
 */
export function createServices(options: ServicesOptions): AppServices {
  const { connection, store, log } = options;
  // A bug, not a state: one tenant's reports must never be recorded in, or shown with, another's state.
  if (store && store.tenant !== connection.tenantKey) throw new Error(`The state store is opened for tenant ${store.tenant}, and the connection reads ${connection.tenantKey}.`);
  const registry = options.registry ?? REPORTS;
  const memory = store ? storeMemory(store, log) : undefined;
  // Counted so that a "what applies" question that starts report 2's load counts its requests (request-count.ts).
  const graph = connection.graph ? countedReader(connection.graph) : undefined;
  // Reports 2 and 3 read Intune's audit log for their stories: once for both, then only what is new.
  const auditLog = new SharedAuditLog(memory);
  // A report that judges another's records (the setting conflicts report, reports 3's and 2's) takes
  // them from the cache rather than read them again; the cache is made below, over this loader.
  const made: { cache?: ReportCache } = {};
  const recordsOf: LoadReportOptions['recordsOf'] = async (id) => {
    if (!made.cache) return null;
    made.cache.keepRecordsOf(id);
    return (await made.cache.recordsOf(id))?.records ?? null;
  };
  // Report 8's approved baseline: in the store, shared by instances; the demo's, where the demo keeps none yet (baseline-drift/demo.ts).
  const seed = connection.demo ? demoBaselineBook : undefined;
  const baselineRecords = store ? new BaselineRecords(store, seed ? { seed } : {}) : undefined;
  const approvedBaseline = baselineRecords ?? (seed ? new InMemoryDemoBaseline(seed) : undefined);
  const load =
    options.load ??
    loadThrough(registry, graph, {
      auditLog,
      digest: nodeSha256Hex,
      recordsOf,
      ...options.loadOptions,
      ...(memory ? { memory } : {}),
      ...(approvedBaseline ? { approvedBaseline } : {}),
    });
  const history = store ? new HistoryRecords(store) : undefined;
  const upstream: ReportLoader = async (id, onProgress, request) => {
    // One line per upstream load, so an operator (and the viewers bench) can count them.
    const started = Date.now();
    log(`report ${id}: loading from Microsoft Graph`);
    const result = await load(id, onProgress, request);
    log(`report ${id}: loaded (${result.state}) in ${Date.now() - started} ms`);
    options.onReportLoaded?.({ report: id, state: result.state, durationMs: Date.now() - started, records: result.rows.length, findings: result.findings.length });
    // Recorded before the result is handed out, so the summary that follows shows this load; the
    // history's lock is waited for briefly (history-records.ts), and a history that cannot be
    // written costs a point of the trend, never the report.
    await history?.record(result).then(
      (recorded) => recorded || log(`report ${id}: its history was busy; this load adds no point`),
      (error: unknown) => log(`report ${id}: could not add this load to its history: ${errorText(error)}`),
    );
    return result;
  };
  const cacheMaxAgeMs = options.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS;
  // Instances that share Azure Storage share loads too: one loads a report, the others serve its result.
  const cache = new ReportCache(store?.kind === 'azure-blob' ? sharedLoader(upstream, store, { maxAgeMs: cacheMaxAgeMs, log }) : upstream, cacheMaxAgeMs, options.cacheClock);
  made.cache = cache;
  const triage = store ? new TriageRecords(store) : undefined;
  // A bug, not a state: the scope reads Graph, so a scope asked for without a client must not be silently off.
  if (options.viewerScope && !graph) throw new Error('The viewer scope reads Intune role assignments through the connection’s Graph client: it was given none.');
  // Nor may the reports be loaded without the scope tags the scope filters their rows by: the one
  // shared load is read with them for every viewer (docs/finding-rules.md, "Viewer scope").
  if (options.viewerScope && !options.load && graph?.scopeTags !== true)
    throw new Error('The viewer scope filters the reports by their objects’ scope tags: open the connection with `scopeTags` so that the client reads them.');
  return {
    registry,
    tenant: { label: connection.tenantLabel, demo: connection.demo },
    reports: new ReportService({ cache, ...(history ? { history } : {}), ...(triage ? { triage } : {}), log }),
    store,
    triage,
    schedules: store ? new ScheduleRecords(store) : undefined,
    // Its reads are kept in the reports' cache, and it shares report 2's load there when the reports
    // are loaded through the registry, which hands a load's records over (docs/architecture.md,
    // "Loading once for everyone").
    ...(graph
      ? {
          applies: new AppliesService({
            graph,
            cache,
            sharesReportLoads: !options.load && registry.has(assignmentHygieneReport.id),
            maxAgeMs: cacheMaxAgeMs,
            ...(options.cacheClock ? { clock: options.cacheClock } : {}),
            log,
          }),
        }
      : {}),
    ...(options.viewerScope && graph ? { viewerScopes: new ViewerScopes({ graph, cache, log }) } : {}),
    ...(baselineRecords && registry.has(baselineDriftReport.id) ? { baselines: new BaselineService({ records: baselineRecords, cache, log }) } : {}),
    ...(graph ? { changes: new ChangeFeedService({ graph, auditLog, ...(options.loadOptions?.now ? { now: options.loadOptions.now } : {}), log }) } : {}),
  };
}

/** Loads through the registry and a Graph client: what a process reading a tenant does. */
function loadThrough(registry: ReportRegistry, graph: GraphReader | undefined, loadOptions: LoadReportOptions): ReportLoader {
  // A bug, not a state: a composition root gives either the connection's client or its own `load`.
  if (!graph) throw new Error("createServices loads reports through the connection's Graph client, or through `load`: it was given neither.");
  return (id, onProgress, request) => registry.load(id, graph, { ...loadOptions, onProgress, ...(request?.onRecords ? { onRecords: request.onRecords } : {}) });
}

/**
 * What reports keep between loads, in the tenant's state store as compressed documents
 * (`reads-<report>-<name>`, docs/contract.md "Kept between loads"). A store that cannot be read or
 * written costs the saving, never the report: the load reads Graph as if nothing were kept.
 */
function storeMemory(store: StateStore, log: (line: string) => void): LoadMemory {
  return {
    read: (name) =>
      store.readCompressed(`reads-${name}`).catch((error: unknown) => {
        log(`state store: could not read what the last load kept (reads-${name}), so everything is read again: ${errorText(error)}`);
        return null;
      }),
    write: (name, text) =>
      store.writeCompressed(`reads-${name}`, text).catch((error: unknown) => {
        log(`state store: could not keep this load's reads (reads-${name}) for the next one: ${errorText(error)}`);
      }),
  };
}
