import type { AddressInfo } from 'node:net';
import { createAppServer } from '../../src/server/app-server.js';
import { ReportCache } from '../../src/server/report-cache.js';
import type { ReportLoader } from '../../src/server/report-cache.js';
import { createTabAccessCheck } from '../../src/server/tab-access.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { TeamsBot } from '../../src/bot/teams-bot.js';
import type { BotIdentity } from '../../src/bot/teams-bot.js';
import type { GraphClient } from '../../src/core/graph/graph-client.js';
import { createHttpTransport } from '../../src/core/graph/http-transport.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import type { ReportRegistry } from '../../src/core/reports/registry.js';
import type { StateStore } from '../../src/core/store/state-store.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { recordCredential, recordServerLog, serverLogStream } from './suite-log.js';

export interface BotServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  bot: TeamsBot;
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
}

/** The app's server with the bot, wired as `npm start` wires it, reading Graph through `graph`. */
export async function startBotServer(sim: Simulator, graph: GraphClient, options: BotServerOptions): Promise<BotServer> {
  const keysTransport = createHttpTransport({ extraCaPem: sim.caPem });
  const log: string[] = [];
  const registry = options.registry ?? REPORTS;
  const reports = new ReportCache(options.load ?? ((id, onProgress) => registry.load(id, graph, { onProgress })));
  const tabUrl = 'http://127.0.0.1:3978/tab/';
  const bot = new TeamsBot({
    reports,
    registry,
    store: options.store,
    identity: options.identity ?? {},
    allowedTenantId: options.allowedTenantId ?? null,
    tenantLabel: sim.tenant.displayName,
    tabLinks: createTabLinks({ tabUrl }),
    tabUrl,
    ...(options.followUpAfterMs !== undefined ? { followUpAfterMs: options.followUpAfterMs } : {}),
    log: (line) => {
      log.push(line);
      recordServerLog('bot', line);
    },
  });
  if (options.notifyApiKey) recordCredential(options.notifyApiKey);
  const server = createAppServer({
    reports,
    registry,
    tenant: { label: sim.tenant.displayName, demo: true },
    checkAccess: createTabAccessCheck({ authorityHost: options.authorityHost ?? sim.authorityHost, tenantId: sim.tenantId, clientId: sim.clientId, transport: keysTransport }),
    bot,
    ...(options.notifyApiKey ? { notifyApiKey: options.notifyApiKey } : {}),
    ...(options.notifyRateLimit ? { notifyRateLimit: options.notifyRateLimit } : {}),
    ...(options.trustedProxy ? { trustedProxy: options.trustedProxy } : {}),
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
    bot,
    log,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await keysTransport.close();
    },
  };
}
