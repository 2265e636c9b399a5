import type { AddressInfo } from 'node:net';
import { assembleApp } from '../../src/server/app-assembly.js';
import type { ReportLoader } from '../../src/app/report-cache.js';
import type { BotIdentity, TeamsBot } from '../../src/bot/teams-bot.js';
import type { PostScheduler } from '../../src/app/post-scheduler.js';
import type { GraphClient } from '../../src/graph/graph-client.js';
import type { ReportRegistry } from '../../src/core/reports/registry.js';
import type { StateStore } from '../../src/store/state-store.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { simulatorConnection } from './simulated-tenant.js';
import { recordCredential, recordServerLog, serverLogStream } from './suite-log.js';

export interface BotServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  bot: TeamsBot;
  /** Not started: a test ticks it. */
  scheduler: PostScheduler;
  /** Lines the server logged. */
  log: string[];
  close(): Promise<void>;
}

export interface BotServerOptions {
  store: StateStore;
  identity?: BotIdentity;
  allowedTenantId?: string | null;
  notifyApiKey?: string;
  notifyRateLimit?: number;
  trustedProxy?: string;
  /** checkAccess against another authority than the simulator's (an unreachable one, say). */
  authorityHost?: string;
  followUpAfterMs?: number;
  load?: ReportLoader;
  registry?: ReportRegistry;
  /** The time as scheduled posts see it. */
  now?: () => Date;
  /** `VIEWER_SCOPE=intune-rbac`: each asker answered in their Intune scope. */
  viewerScope?: boolean;
}

/** The app's server with the bot, assembled as `npm start` assembles it, reading Graph through `graph`. */
export async function startBotServer(sim: Simulator, graph: GraphClient, options: BotServerOptions): Promise<BotServer> {
  const base = simulatorConnection(sim, graph);
  // checkAccess against another authority than the simulator's, if asked (an unreachable one, say).
  const connection = options.authorityHost ? { ...base, identity: { ...base.identity, authorityHost: options.authorityHost } } : base;
  const log: string[] = [];
  if (options.notifyApiKey) recordCredential(options.notifyApiKey);
  const { server, services, bot, scheduler } = assembleApp({
    connection,
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.load ? { load: options.load } : {}),
    ...(options.viewerScope ? { viewerScope: true } : {}),
    store: options.store,
    bot: {
      identity: options.identity ?? {},
      allowedTenantId: options.allowedTenantId ?? null,
      tabUrl: 'http://127.0.0.1:3978/tab/',
      ...(options.followUpAfterMs !== undefined ? { followUpAfterMs: options.followUpAfterMs } : {}),
      ...(options.notifyApiKey ? { notifyApiKey: options.notifyApiKey } : {}),
      ...(options.notifyRateLimit ? { notifyRateLimit: options.notifyRateLimit } : {}),
      ...(options.trustedProxy ? { trustedProxy: options.trustedProxy } : {}),
      ...(options.now ? { now: options.now } : {}),
      log: (line) => {
        log.push(line);
        recordServerLog('bot', line);
      },
    },
    log: (line) => {
      log.push(line);
      recordServerLog('bot server', line);
    },
    // restify's own warnings, as JSON lines, into the same log.
    logStream: serverLogStream('bot server (restify)', (line) => log.push(line)),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bot: bot!,
    scheduler: scheduler!,
    log,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.reports.settled();
      await connection.transport.close();
    },
  };
}
