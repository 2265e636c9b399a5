import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'restify';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { ReportLoader } from '../../src/app/report-cache.js';
import type { ReportId, ReportResult, ReportRow } from '../../src/core/reports/report-model.js';
import type { GraphClient } from '../../src/graph/graph-client.js';
import { createHttpTransport } from '../../src/graph/http-transport.js';
import { createAppServer } from '../../src/server/app-server.js';
import type { AppServerOptions } from '../../src/server/app-server.js';
import { createTabAccessCheck } from '../../src/server/tab-access.js';
import type { TabAccessOptions } from '../../src/server/tab-access.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { gate } from './gate.js';
import { simulatorTenantKey } from './simulated-tenant.js';
import type { SimulatorHarness } from './simulated-tenant.js';
import { recordServerLog, serverLogStream } from './suite-log.js';

/**
 * The app's server over the simulated tenant, as the server tests use it: the application floor with
 * a state store in a directory of its own, the tab's access check against the simulator's keys, and
 * the server on a loopback port, started before the file's tests and closed and removed after them.
 */
export interface ApiServerOptions {
  /** Names the file's lines in the suite log. */
  name: string;
  /** How reports are loaded, over the simulator's client. */
  load: (graph: GraphClient) => ReportLoader;
  /** The access check's options beside the simulator's authority, tenant, app and keys: asked for once the simulator runs. */
  access?: () => Pick<TabAccessOptions, 'applicationIdUri'>;
  /** Wraps the access check, to see each one answered. */
  aroundAccess?: (check: AppServerOptions['checkAccess']) => AppServerOptions['checkAccess'];
  /** The server's options beside the services, the access check and the logs. */
  server?: Omit<AppServerOptions, 'services' | 'checkAccess' | 'log' | 'logStream'>;
}

export interface ApiServer {
  /** `http://127.0.0.1:<port>`, once the server listens. */
  readonly base: string;
  /** A GET of one of the server's paths, its body read whole. */
  get(
    path: string,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; json: <T = Record<string, unknown>>() => T }>;
}

export function useApiServer(harness: SimulatorHarness, options: ApiServerOptions): ApiServer {
  let server: Server;
  let base = '';
  let keysTransport: ReturnType<typeof createHttpTransport>;
  let stateDirectory: string;
  let store: FileStateStore;

  beforeAll(async () => {
    const sim = harness.sim;
    const graph = harness.client();
    keysTransport = createHttpTransport({ extraCaPem: sim.caPem });
    stateDirectory = await mkdtemp(join(tmpdir(), 'dmhealth-api-state-'));
    store = await FileStateStore.open(stateDirectory, { tenant: simulatorTenantKey(sim) });
    const services = createServices({
      connection: { graph, tenantLabel: 'Contoso (demo)', demo: true, tenantKey: simulatorTenantKey(sim) },
      load: options.load(graph),
      store,
      log: (line) => recordServerLog(options.name, line),
    });
    const checkAccess = createTabAccessCheck({ authorityHost: sim.authorityHost, tenantId: sim.tenantId, clientId: sim.clientId, ...options.access?.(), transport: keysTransport });
    server = createAppServer({
      ...options.server,
      services,
      checkAccess: options.aroundAccess ? options.aroundAccess(checkAccess) : checkAccess,
      log: (line) => recordServerLog(options.name, line),
      logStream: serverLogStream(`${options.name} (restify)`),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    await rm(stateDirectory, { recursive: true, force: true });
    await keysTransport.close();
  });

  return {
    get base() {
      return base;
    },
    async get(path, token, headers = {}) {
      const response = await request(`${base}${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text, json: <T = Record<string, unknown>>() => JSON.parse(text) as T };
    },
  };
}

/**
 * Loads a test holds until it lets go: a held load says it has begun (a first progress line), then
 * waits for its gate. Each `hold` holds the next load of that report only.
 */
export class HeldLoads {
  private readonly held = new Map<ReportId, ReturnType<typeof gate>>();

  hold(id: ReportId): ReturnType<typeof gate> {
    const holding = gate();
    this.held.set(id, holding);
    return holding;
  }

  /** `load`, with the loads the test holds held. */
  around(load: ReportLoader): ReportLoader {
    return async (id, onProgress, request) => {
      const holding = this.held.get(id);
      if (holding) {
        onProgress({ report: id, source: 'managedDevices', records: 0 });
        await holding.opened;
        this.held.delete(id);
      }
      return load(id, onProgress, request);
    };
  }
}

/** A report's rows repeated to `rowCount`, each copy made unique by `copy` (its id and device name, say). */
export function enlargedRows(result: ReportResult, rowCount: number, copy: (row: ReportRow, index: number) => ReportRow): ReportResult {
  const rows: ReportRow[] = [];
  for (let index = 0; index < rowCount; index += 1) {
    const row = result.rows[index % result.rows.length]!;
    rows.push(index < result.rows.length ? row : copy(row, index));
  }
  return { ...result, rows };
}
