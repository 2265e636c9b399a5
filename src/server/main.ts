import { existsSync } from 'node:fs';
import { BETA_COVERAGE_SETTING } from '../core/reports/beta-coverage.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../app/config.js';
import type { ConfigError } from '../app/config.js';
import { GraphError } from '../core/graph/graph-error.js';
import { errorText } from '../core/error-text.js';
import { openStateStore, stateStoreKind } from '../app/open-state-store.js';
import { openStateStoreInBackground } from '../app/opening-state-store.js';
import { requiredGraphPermissions } from '../app/graph-consent.js';
import type { GraphConnection } from '../app/graph-connection.js';
import { REPORTS } from '../core/reports/registry.js';
import { readDemoSwitches, startDemoTenant } from './demo-switches.js';
import type { DemoSwitches } from './demo-switches.js';
import { openGraphConnection } from '../app/graph-connection.js';
import { assembleApp } from './app-assembly.js';
import { createReadiness } from './health-routes.js';
import { startAzureMonitor } from '../app/telemetry.js';
import { schedulerClock } from './scheduler-clock.js';
import { inertLog } from '../app/log-line.js';
import { makeConsoleInert } from './inert-console.js';
import { checkGraphAnswers } from '../app/graph-check.js';

// Every line the server writes is inert (log-line.ts): the tenant's name, Graph's messages and
// stack traces quote text the tenant wrote. So is every line a package writes to the console.
makeConsoleInert();
const say = inertLog((line: string) => console.log(line));
const sayError = inertLog((line: string) => console.error(line));
const sayWarning = inertLog((line: string) => console.warn(line));

/**
 * A stopping server (SIGTERM) exits within 10 seconds: App Service, like most platforms, waits a
 * short while after SIGTERM before it kills the process. The requests and loads under way get most
 * of that; flushing the store and telemetry the rest.
 */
const SHUTDOWN_GRACE_MS = 7_000;
const SHUTDOWN_DEADLINE_MS = 9_500;

/**
 * How long the start waits for the first Graph check and for the state store before it listens
 * anyway: a healthy start has both by then, and one whose storage or token is not there yet still
 * answers /healthz and /readyz within seconds (docs/contract.md, "Health").
 */
const GRAPH_CHECK_WAIT_MS = 5_000;
const STORE_WAIT_BEFORE_LISTEN_MS = 5_000;
/** Between Graph checks that fail, doubling from the first to the last. */
const GRAPH_CHECK_RETRY_MS = [10_000, 300_000] as const;

const NOTIFY_KEY_UNRESOLVED =
  'NOTIFY_API_KEY is a Key Vault reference App Service could not resolve (the secret notify-api-key is not in the vault, or the identity cannot read it): /api/notify stays off.';

/**
 * The app's single server process. It connects to the configured tenant (or starts the embedded
 * demo tenant), checks that Graph answers, and serves on PORT the tab and its report API, the bot
 * at /api/messages and, with NOTIFY_API_KEY, /api/notify.
 */
async function main(argv: string[]): Promise<void> {
  const result = readConfig(process.env);
  const options = readStartOptions(argv);
  if (!result.ok || !options.ok) {
    sayError(`Device Management Health cannot start: ${result.ok ? (options as { message: string }).message : result.error.message}`);
    process.exitCode = 2;
    return;
  }
  const { config } = result;
  const demoOnly = options.tenant === 'large' || options.switches.deny.length > 0 || options.switches.faults.length > 0;
  if (demoOnly && config.connection.mode !== 'demo') {
    sayError(
      'Device Management Health cannot start: --tenant large, --deny and --fault change the simulated tenant, and a tenant is configured (M365_TENANT_ID). Unset it to use them.',
    );
    process.exitCode = 2;
    return;
  }
  if (options.tenant === 'large') say(`Building the large simulated tenant (${options.devices.toLocaleString('en')} devices)...`);
  const { deny, faults } = options.switches;
  // Telemetry only with a connection string (docs/contract.md, "Configuration"); without one nothing is sent anywhere.
  const monitor = config.telemetryConnectionString
    ? await startAzureMonitor(config.telemetryConnectionString, { sdkOwnEndpoints: config.telemetrySdkEndpoints, log: sayWarning })
    : undefined;
  const telemetry = monitor?.telemetry;
  if (monitor) say('Telemetry: on, to Application Insights (APPLICATIONINSIGHTS_CONNECTION_STRING).');
  let simulator: Awaited<ReturnType<typeof startDemoTenant>> | undefined;
  const connection = await openGraphConnection(config.connection, {
    betaCoverage: config.betaCoverage,
    // The viewer scope needs each object's scope tags: the client reads them where only beta gives them.
    scopeTags: config.viewerScope,
    ...(telemetry ? { onCall: (call) => telemetry.graphCall(call) } : {}),
    startDemoTenant: async () => (simulator = await startDemoTenant(options, REPORTS)),
  });
  // The tab and the cards tell administrators that whoever runs the app can turn this on; the log tells that person how.
  if (!config.betaCoverage) say(`Graph coverage: v1.0, as the specification reads it; reports 2 and 4 say what it leaves out. ${BETA_COVERAGE_SETTING}`);
  if (deny.length > 0) say(`Demo switch: the app is not granted ${deny.join(', ')}.`);
  for (const fault of faults) say(`Demo switch: report ${fault.report} reads a source that answers HTTP ${fault.status}.`);
  if (connection.demo) {
    say(`DEMO MODE: reading the simulated tenant "${connection.tenantLabel}" (no M365_TENANT_ID configured).`);
    say(`  Simulated Graph: ${simulator?.graphUrl}  (CA: ${simulator?.caPath})`);
  }

  // The Graph check runs in the background and is tried again until it passes: a token refused
  // (consent or the federated credential still missing) must not keep the server from answering.
  // The first try is waited for a short while, so that a healthy start logs it before it listens.
  let stopped = false;
  const graphWait = new AbortController();
  await Promise.race([
    new Promise<void>((firstTried) => void checkGraph(connection, () => stopped, firstTried)),
    sleep(GRAPH_CHECK_WAIT_MS, undefined, { signal: graphWait.signal }).catch(() => undefined),
  ]);
  graphWait.abort();

  const builtTab = fileURLToPath(new URL('../tab/', import.meta.url));
  // Without the built tab the API still serves, and /tab answers 404.
  const tabDirectory = existsSync(builtTab) ? builtTab : undefined;
  if (!tabDirectory) sayWarning(`The tab is not built (${builtTab} is missing): run npm run build.`);

  // The tenant's own state: a demo's history and triage never show in a real tenant's, nor one tenant's in another's.
  // Opened in the background and tried again until it opens (opening-state-store.ts): on a first
  // provision, Azure applies the identity's role on the storage minutes after the Web App starts.
  let configError: ConfigError | undefined;
  // Set once the server listens; a setting the store refuses afterwards stops it.
  const stopper: { stop?: () => Promise<void> } = {};
  const store = openStateStoreInBackground({
    kind: stateStoreKind(config.stateStore),
    tenant: connection.tenantKey,
    open: () => openStateStore(config.stateStore, { tenant: connection.tenantKey, warn: (line) => sayWarning(line), managedIdentityClientId: config.managedIdentity?.clientId }),
    log: (line) => sayWarning(line),
    onConfigError: (error) => {
      configError = error;
      sayError(`Device Management Health cannot start: ${error.message}`);
      process.exitCode = 2;
      void stopper.stop?.();
    },
  });
  const { bot: botConfig } = config;
  const readiness = createReadiness({ tokens: connection.tokens, store, opening: store, requiredPermissions: requiredGraphPermissions(REPORTS) });
  const tabUrl = botConfig.tabDomain ? `https://${botConfig.tabDomain}/tab/` : `http://${connection.demo ? '127.0.0.1' : 'localhost'}:${config.port}/tab/`;
  const { server, services, scheduler, windows } = assembleApp({
    connection,
    loadOptions: {
      thresholds: config.thresholds,
      onUnexpectedError: (report, error) => sayError(`report ${report} could not be built: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    },
    ...(tabDirectory ? { tabDirectory } : {}),
    serveSourceMaps: process.env.NODE_ENV === 'development',
    ...(botConfig.tabDomain ? { applicationIdUri: `api://${botConfig.tabDomain}/${connection.identity.clientId}` } : {}),
    store,
    viewerScope: config.viewerScope,
    bot: {
      identity: { id: botConfig.id, password: botConfig.password, tenantId: botConfig.tenantId, managedIdentity: botConfig.managedIdentity },
      tabUrl,
      teamsAppId: botConfig.teamsAppId,
      notifyApiKey: botConfig.notifyApiKey,
      trustedProxy: botConfig.trustedProxy,
      now: () => schedulerClock.now(),
      ...(telemetry ? { onSend: (send) => telemetry.botSend(send) } : {}),
    },
    log: say,
    readiness,
    storeOpening: store,
    ...(telemetry ? { onReportLoaded: (load) => telemetry.reportLoaded(load), onRequest: (request) => telemetry.request(request) } : {}),
  });
  say(
    `Bot at /api/messages: ${botConfig.id ? 'Bot Framework authentication on' : 'no BOT_ID, so this machine only'}; state in ${store.kind === 'file' ? 'files' : 'Azure Blob Storage'}; ` +
      `/api/notify ${botConfig.notifyApiKey ? 'on' : 'off (no NOTIFY_API_KEY)'}.`,
  );
  if (botConfig.notifyApiKeyUnresolved) sayWarning(NOTIFY_KEY_UNRESOLVED);
  // A store that opens at once (a directory, storage that answers) is open before the first request.
  await store.whenOpen(STORE_WAIT_BEFORE_LISTEN_MS);
  if (configError) {
    stopped = true;
    await connection.close();
    await monitor?.shutdown().catch(() => undefined);
    return;
  }
  // The demo tenant is for this machine only; a configured deployment listens on all interfaces unless HOST narrows it.
  const host = config.host ?? (connection.demo ? '127.0.0.1' : '0.0.0.0');
  await new Promise<void>((resolve) => server.listen(config.port, host, resolve));
  // PORT=0 asks for any free port: the one given is the one to print.
  const port = (server.address() as { port?: number } | null)?.port ?? config.port;
  say(`Listening on http://${host}:${port}`);
  say(`Open the tab: http://${connection.demo ? '127.0.0.1' : 'localhost'}:${port}/tab/`);
  let stopping: Promise<void> | undefined;
  // Every instance runs the schedules, once the store is open; a lease in the state store makes each slot one post.
  void store.whenOpen().then(() => {
    if (!stopping) scheduler?.start(schedulerClock.tickMs);
  });

  const stop = (stopper.stop = () =>
    (stopping ??= (async () => {
      stopped = true;
      // Whatever still runs at the deadline, the process ends, and ends well: the platform's kill would come next.
      setTimeout(() => process.exit(process.exitCode ?? 0), SHUTDOWN_DEADLINE_MS).unref();
      readiness.markStopping();
      say('Stopping: no new requests; the ones under way finish first.');
      // No new connections, and idle kept-alive ones closed; requests under way finish (within the grace).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection whose request finishes after this is idle then, and is closed then.
      const closeIdle = setInterval(() => server.server.closeIdleConnections(), 100).unref();
      server.server.closeIdleConnections();
      await scheduler?.stop();
      // A load under way adds its point to the history as it ends, so it is given a while to end before
      // the store closes; a large tenant's load can take minutes, and the platform waits only so long.
      const grace = sleep(SHUTDOWN_GRACE_MS, undefined, { ref: false });
      await Promise.race([Promise.all([closed, services.reports.settled()]), grace]);
      clearInterval(closeIdle);
      server.server.closeAllConnections();
      await store.close();
      await connection.close();
      // For whoever measures the rows route (bench/viewers-bench.ts): what its windows cost to build.
      say(`Windows built while serving: ${windows.indexBuilds} indices, ${windows.sortBuilds} column orders, ${windows.filterBuilds} filters.`);
      // What telemetry holds is sent before the process ends.
      await monitor?.shutdown().catch((error: unknown) => sayWarning(`Telemetry could not be flushed: ${error instanceof Error ? error.message : String(error)}`));
      say('Stopped.');
    })()));
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/**
 * Reads one managed device's id (`checkGraphAnswers`), as a check that the tenant answers, and logs the
 * outcome; a failure is tried again, less often each time, until it passes or the server stops.
 */
async function checkGraph(connection: Pick<GraphConnection, 'graph' | 'tenantLabel'>, stopped: () => boolean, firstTried: () => void): Promise<void> {
  for (let wait: number = GRAPH_CHECK_RETRY_MS[0]; !stopped(); wait = Math.min(wait * 2, GRAPH_CHECK_RETRY_MS[1])) {
    try {
      const devices = await checkGraphAnswers(connection.graph);
      say(`Connected to ${connection.tenantLabel}: Microsoft Graph answers (${devices === 0 ? 'no managed device yet' : 'the managed devices can be read'}).`);
      firstTried();
      return;
    } catch (error) {
      // Keep serving: a missing permission is shown per report and on /readyz, not as a dead app.
      sayError(`Microsoft Graph check failed: ${error instanceof GraphError ? error.summary() : errorText(error)} (tried again in ${wait / 1000} s)`);
    }
    firstTried();
    await sleep(wait, undefined, { ref: false });
  }
}

type StartOptions = { ok: true; tenant: 'demo' | 'large'; devices: number; switches: DemoSwitches } | { ok: false; message: string };

/**
 * `npm start -- --tenant large [--devices N]`: demo mode on the large simulated tenant (100,000
 * devices by default), so anyone can see the app at scale without a tenant of their own; `--deny`
 * and `--fault` (demo-switches.ts) show the states a real tenant can be in.
 */
function readStartOptions(argv: string[]): StartOptions {
  let values: { tenant?: string | undefined; devices?: string | undefined; deny?: string[] | undefined; fault?: string[] | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { tenant: { type: 'string' }, devices: { type: 'string' }, deny: { type: 'string', multiple: true }, fault: { type: 'string', multiple: true } },
      strict: true,
    }));
  } catch (error) {
    return {
      ok: false,
      message: `${(error as Error).message}. Options: --tenant demo|large, --devices N (with --tenant large), --deny <permission>, --fault <report>:<status>.`,
    };
  }
  const switches = readDemoSwitches(values.deny ?? [], values.fault ?? [], REPORTS);
  if (!switches.ok) return { ok: false, message: switches.message };
  const tenant = values.tenant ?? 'demo';
  if (tenant !== 'demo' && tenant !== 'large') return { ok: false, message: `--tenant must be demo or large, got "${tenant}".` };
  const devices = values.devices === undefined ? 100_000 : Number(values.devices);
  if (!Number.isInteger(devices) || devices < 1 || devices > 1_000_000 || (values.devices !== undefined && tenant !== 'large')) {
    return { ok: false, message: '--devices takes a whole number from 1 to 1,000,000, with --tenant large.' };
  }
  return { ok: true, tenant, devices, switches: switches.switches };
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error('Device Management Health failed to start:', error);
  process.exitCode = 1;
});
