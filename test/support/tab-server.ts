import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateStore } from '../../src/store/file-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import type { ReportLoader } from '../../src/app/report-cache.js';
import { assembleApp } from '../../src/server/app-assembly.js';
import type { GraphClient } from '../../src/graph/graph-client.js';
import type { ReportRegistry } from '../../src/core/reports/registry.js';
import type { Simulator } from '../../src/sim/simulator.js';
import type { Page, Response, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TAB_DIRECTORY, launchTestBrowser } from './browser.js';
import { gate } from './gate.js';
import type { TestBrowser } from './browser.js';
import { simulatorConnection } from './simulated-tenant.js';
import type { SimulatorHarness } from './simulated-tenant.js';
import { recordServerLog, serverLogStream } from './suite-log.js';

export interface TabServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  close(): Promise<void>;
}

/**
 * The app's server as `npm start` assembles it in demo mode, without the bot: the report API behind
 * real token checks against the simulator's keys, the loopback demo sign-in, and the built tab,
 * reading Graph through `graph`. A fresh one per scenario gives each its own report cache.
 */
export async function startTabServer(
  sim: Simulator,
  graph: GraphClient,
  options: {
    now?: () => Date;
    load?: ReportLoader;
    registry?: ReportRegistry;
    cacheMaxAgeMs?: number;
    cacheClock?: () => number;
    /** The clock the per-minute limits count by. */
    limitClock?: () => number;
    store?: StateStore;
    /** Also hears every line the server logs, as the server wrote it. */
    log?: (line: string) => void;
    /** `VIEWER_SCOPE=intune-rbac`: `graph` must read the objects' scope tags (`harness.client({ scopeTags: true })`). */
    viewerScope?: boolean;
  } = {},
): Promise<TabServer> {
  const connection = simulatorConnection(sim, graph);
  // A store of its own unless the test shares one between servers (a restart, a second instance).
  const ownDirectory = options.store ? null : await mkdtemp(join(tmpdir(), 'dmhealth-tab-state-'));
  const store = options.store ?? (await FileStateStore.open(ownDirectory!, { tenant: connection.tenantKey }));
  const { server, services } = assembleApp({
    connection,
    store,
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.load ? { load: options.load } : {}),
    ...(options.cacheMaxAgeMs !== undefined ? { cacheMaxAgeMs: options.cacheMaxAgeMs } : {}),
    ...(options.cacheClock ? { cacheClock: options.cacheClock } : {}),
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.now ? { loadOptions: { now: options.now } } : {}),
    ...(options.viewerScope ? { viewerScope: true } : {}),
    tabDirectory: TAB_DIRECTORY,
    log: (line) => {
      recordServerLog('tab server', line);
      options.log?.(line);
    },
    logStream: serverLogStream('tab server (restify)'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A load a page started (a tile of the overview, a revalidation) writes its history into the store when it ends.
      await services.reports.settled();
      await connection.transport.close();
      if (ownDirectory) {
        await store.close();
        await rm(ownDirectory, { recursive: true, force: true });
      }
    },
  };
}

export interface TabPages {
  /** The server started for the file (valid inside tests). */
  readonly server: TabServer;
  /** A page of the file's browser, closed after the test that opened it. */
  newPage(options?: Parameters<TestBrowser['newPage']>[0]): Promise<Page>;
  /**
   * A page in a browser of its own, closed after the test that opened it: for a test that sets the
   * page's clock (`page.clock`), which is its browser's and would hold for every page opened after.
   */
  newPageOnOwnClock(options?: Parameters<TestBrowser['newPage']>[0]): Promise<Page>;
  /** Another server for a scenario (its own cache, another app registration), closed with the file's. */
  startServer(graph: GraphClient, options?: Parameters<typeof startTabServer>[2]): Promise<TabServer>;
}

/**
 * One headless browser and one tab server on the harness's tenant for a test file: started before
 * its tests, closed after them, and every page a test opens closed when that test ends.
 */
export function useTabPages(harness: SimulatorHarness, options: Parameters<typeof startTabServer>[2] = {}): TabPages {
  let browser: TestBrowser | undefined;
  let server: TabServer | undefined;
  const others: TabServer[] = [];
  const pages: Page[] = [];
  const ownBrowsers: TestBrowser[] = [];
  beforeAll(async () => {
    browser = await launchTestBrowser();
    // With the viewer scope on, the client reads the objects' scope tags, as `npm start` opens it.
    server = await startTabServer(harness.sim, harness.client(options.viewerScope ? { scopeTags: true } : {}), options);
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
    await Promise.all(ownBrowsers.splice(0).map((own) => own.close()));
  });
  afterAll(async () => {
    // The browser first: a server closes once its connections have, and the browser keeps them alive.
    await browser?.close();
    await Promise.all([server, ...others].map((started) => started?.close()));
  });
  return {
    get server() {
      return server!;
    },
    async startServer(graph, serverOptions = {}) {
      const started = await startTabServer(harness.sim, graph, serverOptions);
      others.push(started);
      return started;
    },
    async newPage(pageOptions) {
      const page = await browser!.newPage(pageOptions);
      pages.push(page);
      return page;
    },
    async newPageOnOwnClock(pageOptions) {
      const own = await launchTestBrowser();
      ownBrowsers.push(own);
      return own.newPage(pageOptions);
    },
  };
}

/**
 * Holds every request of `page` matching `url` until the returned release is called, then lets it
 * go on to the server, or answers it with `answer` instead.
 */
export async function holdRequests(page: Page, url: string | RegExp, answer: (route: Route) => Promise<void> = (route) => route.continue()): Promise<() => void> {
  const released = gate();
  await page.route(url, async (route) => {
    await released.opened;
    await answer(route);
  });
  return released.open;
}

/**
 * The page's next answer that `test` accepts and whose body arrived whole. The tab aborts a request it
 * no longer needs (a window superseded by a newer one); such an answer may have matched already and its
 * body is gone, so it is passed over, as `waitForResponse` would not.
 */
export async function finishedAnswer(page: Page, test: (response: Response) => boolean | Promise<boolean>): Promise<Response> {
  const request = await page.waitForEvent('requestfinished', async (finished) => {
    const response = await finished.response();
    return response !== null && (await test(response));
  });
  const response = await request.response();
  if (response === null) throw new Error(`no answer to ${request.url()}`);
  return response;
}
