import type { Server } from 'restify';
import { createServices } from '../app/create-services.js';
import type { AppServices, ServicesOptions } from '../app/create-services.js';
import type { GraphConnection } from '../app/graph-connection.js';
import { inertLog } from '../app/log-line.js';
import { createBot } from '../bot/create-bot.js';
import type { BotOptions } from '../bot/create-bot.js';
import type { PostScheduler } from '../app/post-scheduler.js';
import type { TeamsBot } from '../bot/teams-bot.js';
import type { StateStore } from '../store/state-store.js';
import { createAppServer } from './app-server.js';
import { ReportWindows } from '../core/reports/window/report-window.js';
import type { AppServerOptions } from './app-server.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE, createTabAccessCheck } from './tab-access.js';

export interface AppAssemblyOptions extends Omit<ServicesOptions, 'connection' | 'store'> {
  /** The tenant, or the demo tenant, as `openGraphConnection` opens it. */
  connection: Pick<GraphConnection, 'graph' | 'transport' | 'tenantLabel' | 'demo' | 'tenantKey' | 'demoTenant' | 'identity'>;
  /** Where the app keeps its state: the bot's installations and ledgers, triage decisions, report history. */
  store: StateStore;
  tabDirectory?: string;
  serveSourceMaps?: boolean;
  /** The audience the tab's tokens carry besides the client id, once the tab has its own domain. */
  applicationIdUri?: string;
  /** The Teams bot; without it, the server has no bot. */
  bot?: Omit<BotOptions, 'allowedTenantId' | 'log'> & {
    /** Activities from other tenants are refused; by default the connection's tenant (any, for the demo). */
    allowedTenantId?: string | null;
    notifyApiKey?: string | undefined;
    notifyRateLimit?: number;
    trustedProxy?: string | undefined;
    log?: (line: string) => void;
  };
  /** The clock per-minute limits count by (app-server.ts, `limitClock`), when a test holds it. */
  limitClock?: () => number;
  /** The reports' bytes for viewers, when a test counts how often they are made. */
  encodings?: AppServerOptions['encodings'];
  logStream?: NodeJS.WritableStream;
  /** What /readyz checks (health-routes.ts). */
  readiness?: AppServerOptions['readiness'];
  /** The state store's opening, when it is opened in the background (main.ts). */
  storeOpening?: AppServerOptions['storeOpening'];
  /** Each answered request by route (telemetry). */
  onRequest?: AppServerOptions['onRequest'];
}

export interface AssembledApp {
  server: Server;
  services: AppServices;
  bot: TeamsBot | undefined;
  /** Runs the channels' posting schedules once started (`start(tickMs)`); there is none without the bot. */
  scheduler: PostScheduler | undefined;
  /** The windows over each result the rows route answers from: what they built is said when the server stops. */
  windows: ReportWindows;
}

/**
 * The server's process assembled once, for `npm start` and for the tests: the application floor
 * (createServices), the bot over it with its scheduled posts, and the HTTP server in front of both,
 * with the SSO check against the connection's identity and the demo sign-in when the tenant is
 * simulated.
 */
export function assembleApp(options: AppAssemblyOptions): AssembledApp {
  const { connection, bot: botOptions } = options;
  // Every part logs through these, once made inert here: a Teams display name, a token's user name
  // or a tenant id from a request then cannot start a forged line of its own (src/app/log-line.ts).
  const log = inertLog(options.log);
  const botLog = botOptions?.log ? inertLog(botOptions.log) : log;
  const services = createServices({
    connection,
    store: options.store,
    log,
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.load ? { load: options.load } : {}),
    ...(options.cacheMaxAgeMs !== undefined ? { cacheMaxAgeMs: options.cacheMaxAgeMs } : {}),
    ...(options.cacheClock ? { cacheClock: options.cacheClock } : {}),
    ...(options.loadOptions ? { loadOptions: options.loadOptions } : {}),
    ...(options.onReportLoaded ? { onReportLoaded: options.onReportLoaded } : {}),
    ...(options.viewerScope ? { viewerScope: true } : {}),
  });
  const { bot, scheduler } = botOptions
    ? createBot(services, {
        ...botOptions,
        allowedTenantId: botOptions.allowedTenantId !== undefined ? botOptions.allowedTenantId : connection.demo ? null : connection.identity.tenantId,
        log: botLog,
      })
    : { bot: undefined, scheduler: undefined };
  const demoTenant = connection.demoTenant;
  const windows = new ReportWindows();
  const server = createAppServer({
    services,
    windows,
    ...(options.encodings ? { encodings: options.encodings } : {}),
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.tabDirectory ? { tabDirectory: options.tabDirectory, serveSourceMaps: options.serveSourceMaps ?? false } : {}),
    checkAccess: createTabAccessCheck({
      ...connection.identity,
      ...(options.applicationIdUri ? { applicationIdUri: options.applicationIdUri } : {}),
      transport: connection.transport,
    }),
    ...(demoTenant
      ? {
          demoToken: async (userId: string, entraRoleIds: readonly string[] = []) => ({
            // The demo user may try everything, triage included; one browser is one user (its `oid`).
            // A demo person's Entra roles ride in `wids`, as Entra sends them to an app whose
            // registration asks for directory roles (aad.manifest.json, `groupMembershipClaims`).
            token: await demoTenant.entra.issueUserToken({
              audience: demoTenant.clientId,
              roles: [IT_STAFF_ROLE, TRIAGER_ROLE],
              lifetimeSeconds: 3600,
              claims: { oid: userId, sub: userId, ...(entraRoleIds.length > 0 ? { wids: [...entraRoleIds] } : {}) },
            }),
            expiresIn: 3600,
          }),
          ...(demoTenant.tenant.demoAdministrators ? { demoAdministrators: demoTenant.tenant.demoAdministrators } : {}),
        }
      : {}),
    ...(bot ? { bot } : {}),
    ...(botOptions?.notifyApiKey ? { notifyApiKey: botOptions.notifyApiKey } : {}),
    ...(botOptions?.notifyRateLimit ? { notifyRateLimit: botOptions.notifyRateLimit } : {}),
    ...(botOptions?.trustedProxy ? { trustedProxy: botOptions.trustedProxy } : {}),
    log,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.readiness ? { readiness: options.readiness } : {}),
    ...(options.storeOpening ? { storeOpening: options.storeOpening } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  return { server, services, bot, scheduler, windows };
}
