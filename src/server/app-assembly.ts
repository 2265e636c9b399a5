import type { Server } from 'restify';
import { createTabLinks } from '../bot/tab-links.js';
import { TeamsBot } from '../bot/teams-bot.js';
import type { BotIdentity } from '../bot/teams-bot.js';
import { REPORTS } from '../core/reports/registry.js';
import type { LoadReportOptions, ReportRegistry } from '../core/reports/registry.js';
import type { StateStore } from '../store/state-store.js';
import { createAppServer } from './app-server.js';
import type { GraphConnection } from './graph-connection.js';
import { DEFAULT_CACHE_MAX_AGE_MS, ReportCache } from './report-cache.js';
import { sharedLoader } from './shared-loads.js';
import type { ReportLoader } from './report-cache.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE, createTabAccessCheck } from './tab-access.js';
import { HistoryRecords } from '../app/history-records.js';
import { TriageRecords } from '../app/triage-records.js';
import { ScheduleRecords } from '../app/schedule-records.js';
import { PostScheduler } from '../bot/post-scheduler.js';
import { errorText } from '../core/error-text.js';

export interface AppAssemblyOptions {
  /** The tenant, or the demo tenant, as `openGraphConnection` opens it. */
  connection: Pick<GraphConnection, 'graph' | 'transport' | 'tenantLabel' | 'demo' | 'simulator' | 'identity'>;
  /** The reports offered; the six by default. */
  registry?: ReportRegistry;
  /** How a report is loaded: by default through the registry and the connection's Graph client. */
  load?: ReportLoader;
  /** How long a loaded report counts as fresh (five minutes by default); older ones are served while a newer one loads. */
  cacheMaxAgeMs?: number;
  loadOptions?: Pick<LoadReportOptions, 'thresholds' | 'now' | 'onUnexpectedError'>;
  tabDirectory?: string;
  serveSourceMaps?: boolean;
  /** The audience the tab's tokens carry besides the client id, once the tab has its own domain. */
  applicationIdUri?: string;
  /** Where the app keeps its state: the bot's installations and ledgers, triage decisions, report history. */
  store: StateStore;
  /** The Teams bot; without it, the server has no bot. */
  bot?: {
    identity: BotIdentity;
    /** The tab as people open it, for the cards' links. */
    tabUrl: string;
    teamsAppId?: string | undefined;
    /** Activities from other tenants are refused; by default the connection's tenant (any, for the demo). */
    allowedTenantId?: string | null;
    followUpAfterMs?: number;
    notifyApiKey?: string | undefined;
    notifyRateLimit?: number;
    trustedProxy?: string | undefined;
    /** The time as scheduled posts see it. */
    now?: () => Date;
    log?: (line: string) => void;
  };
  log: (line: string) => void;
  logStream?: NodeJS.WritableStream;
}

export interface AssembledApp {
  server: Server;
  reports: ReportCache;
  bot: TeamsBot | undefined;
  /** Runs the channels' posting schedules once started (`start(tickMs)`); there is none without the bot. */
  scheduler: PostScheduler | undefined;
}

/**
 * The server's parts wired together once, for `npm start` and for the tests: the shared report
 * cache over the registry, the SSO check against the connection's identity, the demo sign-in when
 * the tenant is the simulator, and the bot with its scheduled posts.
 */
export function assembleApp(options: AppAssemblyOptions): AssembledApp {
  const { connection } = options;
  const registry = options.registry ?? REPORTS;
  const load = options.load ?? ((id, onProgress) => registry.load(id, connection.graph, { ...options.loadOptions, onProgress }));
  const history = new HistoryRecords(options.store);
  const triage = new TriageRecords(options.store);
  const upstream: ReportLoader = async (id, onProgress) => {
    // One line per upstream load, so an operator (and the viewers bench) can count them.
    const started = Date.now();
    options.log(`report ${id}: loading from Microsoft Graph`);
    const result = await load(id, onProgress);
    options.log(`report ${id}: loaded (${result.state}) in ${Date.now() - started} ms`);
    // Recorded before the result is handed out, so the summary that follows shows this load; the
    // history's lock is waited for briefly (history-records.ts), and a history that cannot be
    // written costs a point of the trend, never the report.
    await history.record(result).then(
      (recorded) => recorded || options.log(`report ${id}: its history was busy; this load adds no point`),
      (error: unknown) => options.log(`report ${id}: could not add this load to its history: ${errorText(error)}`),
    );
    return result;
  };
  const cacheMaxAgeMs = options.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS;
  // Instances that share Azure Storage share loads too: one loads a report, the others serve its result.
  const reports = new ReportCache(
    options.store.kind === 'azure-blob' ? sharedLoader(upstream, options.store, { maxAgeMs: cacheMaxAgeMs, log: options.log }) : upstream,
    cacheMaxAgeMs,
  );
  const { bot, scheduler } = options.bot ? assembleBot(options, options.bot, { reports, registry, triage }) : { bot: undefined, scheduler: undefined };
  const sim = connection.simulator;
  const server = createAppServer({
    reports,
    history,
    triage,
    registry,
    tenant: { label: connection.tenantLabel, demo: connection.demo },
    ...(options.tabDirectory ? { tabDirectory: options.tabDirectory, serveSourceMaps: options.serveSourceMaps ?? false } : {}),
    checkAccess: createTabAccessCheck({
      ...connection.identity,
      ...(options.applicationIdUri ? { applicationIdUri: options.applicationIdUri } : {}),
      transport: connection.transport,
    }),
    ...(sim
      ? {
          demoToken: async () => ({
            // The demo user may try everything, triage included.
            token: await sim.entra.issueUserToken({ audience: sim.clientId, roles: [IT_STAFF_ROLE, TRIAGER_ROLE], lifetimeSeconds: 3600 }),
            expiresIn: 3600,
          }),
        }
      : {}),
    ...(bot ? { bot } : {}),
    ...(options.bot?.notifyApiKey ? { notifyApiKey: options.bot.notifyApiKey } : {}),
    ...(options.bot?.notifyRateLimit ? { notifyRateLimit: options.bot.notifyRateLimit } : {}),
    ...(options.bot?.trustedProxy ? { trustedProxy: options.bot.trustedProxy } : {}),
    log: options.log,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  return { server, reports, bot, scheduler };
}

/** The bot and its scheduled posts, on the app's cache and state store, with one log and one clock. */
function assembleBot(
  options: AppAssemblyOptions,
  botOptions: NonNullable<AppAssemblyOptions['bot']>,
  parts: { reports: ReportCache; registry: ReportRegistry; triage: TriageRecords },
): { bot: TeamsBot; scheduler: PostScheduler } {
  const { connection } = options;
  const log = botOptions.log ?? options.log;
  const now = botOptions.now ?? (() => new Date());
  const schedules = new ScheduleRecords(options.store);
  const bot = new TeamsBot({
    ...parts,
    store: options.store,
    identity: botOptions.identity,
    allowedTenantId: botOptions.allowedTenantId !== undefined ? botOptions.allowedTenantId : connection.demo ? null : connection.identity.tenantId,
    tenantLabel: connection.tenantLabel,
    tabLinks: createTabLinks({ teamsAppId: botOptions.teamsAppId, tabUrl: botOptions.tabUrl }),
    tabUrl: botOptions.tabUrl,
    ...(botOptions.followUpAfterMs !== undefined ? { followUpAfterMs: botOptions.followUpAfterMs } : {}),
    schedules,
    now,
    log,
  });
  const scheduler = new PostScheduler({
    store: options.store,
    records: schedules,
    loadReports: (ids) => bot.loadFresh(ids),
    post: (schedule, results) => bot.postOnSchedule(schedule, results),
    now,
    log,
  });
  return { bot, scheduler };
}
