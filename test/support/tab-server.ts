import type { AddressInfo } from 'node:net';
import { createAppServer } from '../../src/server/app-server.js';
import { ReportCache } from '../../src/server/report-cache.js';
import type { ReportLoader } from '../../src/server/report-cache.js';
import { IT_STAFF_ROLE, createTabAccessCheck } from '../../src/server/tab-access.js';
import type { GraphClient } from '../../src/core/graph/graph-client.js';
import { createHttpTransport } from '../../src/core/graph/http-transport.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import type { ReportRegistry } from '../../src/core/reports/registry.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { TAB_DIRECTORY } from './browser.js';
import { recordServerLog, serverLogStream } from './suite-log.js';

export interface TabServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  close(): Promise<void>;
}

/**
 * The app's server as `npm start` wires it in demo mode: the report API behind real token checks
 * against the simulator's keys, the loopback demo sign-in, and the built tab, reading Graph
 * through `graph`. A fresh one per scenario gives each its own report cache.
 */
export async function startTabServer(sim: Simulator, graph: GraphClient, options: { now?: () => Date; load?: ReportLoader; registry?: ReportRegistry } = {}): Promise<TabServer> {
  const registry = options.registry ?? REPORTS;
  const keysTransport = createHttpTransport({ extraCaPem: sim.caPem });
  const server = createAppServer({
    reports: new ReportCache(options.load ?? ((id, onProgress) => registry.load(id, graph, { onProgress, ...(options.now ? { now: options.now } : {}) }))),
    registry,
    tenant: { label: `${sim.tenant.displayName}`, demo: true },
    tabDirectory: TAB_DIRECTORY,
    checkAccess: createTabAccessCheck({ authorityHost: sim.authorityHost, tenantId: sim.tenantId, clientId: sim.clientId, transport: keysTransport }),
    demoToken: async () => ({ token: await sim.entra.issueUserToken({ audience: sim.clientId, roles: [IT_STAFF_ROLE], lifetimeSeconds: 3600 }), expiresIn: 3600 }),
    log: (line) => recordServerLog('tab server', line),
    logStream: serverLogStream('tab server (restify)'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await keysTransport.close();
    },
  };
}
