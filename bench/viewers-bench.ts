/**
 * `npm run bench`, viewers: the large simulated tenant (standing in for Microsoft Graph and Entra
 * ID, a process of its own: simulator-process.ts), and the server reading it as a configured
 * tenant, as a deployment runs (`npm start`, a process of its own, signing viewers in against the
 * simulator's Entra). Report 4 (one row per Windows
 * device) is loaded once, then N viewers (default 50) read it over and over for 30 s, as a whole IT
 * department would, with one more client reading `/api/tenant` beside them. Twice: against one
 * server with its state in files, then against two instances sharing Azure Storage (Azurite), the
 * viewers split between them. Prints requests per second, p50 and p99 latency, each server's peak
 * RSS (the simulator's memory is not the app's, so it is not in the server's process) and the
 * upstream loads made.
 *
 * The window workload (`--workload window`, or `both`, the default) runs against the one server
 * before it stops: N viewers read report 4 through `GET /api/reports/:id/rows` for 20 s (or
 * --window-seconds), each request one of paging (an offset anywhere in the table), sorting (each
 * column, both directions, at some offset) or filtering (text, a finding kind, open findings only),
 * as a tab over a very large tenant would. It prints requests per second, p50 and p99, errors, and
 * the peak RSS of the server and of the simulator and the two together, beside the targets (at
 * 500,000 devices: p99 under 1 s at 100 requests per second or more, no errors, the server and its
 * simulated tenant under 1.5 GB together). Then, on the same server, many filters: every request 100
 * rows at a random offset, a random sortable column and direction, one in five filtered by a
 * two-digit number, each viewer a person of their own; it prints requests per second, p50 and p99
 * beside their targets (at least 250 a second, p99 under 1 s at 500,000 devices) and what the
 * server says it built for the windows when it stops (indices, column orders, filters).
 *
 * `--embedded` measures what `npm start -- --tenant large --devices N` holds instead: the server and
 * its simulated tenant in ONE process, as the README's quick start runs it, signed in through the
 * demo sign-in. Its RSS is sampled every 100 ms from the start, through the tenant's build, the
 * first load of all seven reports (their summaries, as the overview asks) and the window workload on
 * report 4, and the peak is printed beside the target (under 1.5 GB at 500,000 devices). Memory
 * does not depend on the machine's load; times do.
 *
 * `--viewer-scope` adds a comparison after them (`--workload scope` runs it alone): the viewers read
 * report 4 (escrow-gaps, the viewers bench's report, its devices tagged) and then report 3
 * (security-posture, its policies tagged) for S seconds each from a server with the viewer scope
 * off, then from one with it on (`VIEWER_SCOPE=intune-rbac`,
 * docs/finding-rules.md "Viewer scope"), each viewer signed in as one of the large tenant's Intune
 * administrators: one in five whole-tenant (an assignment with no scope tag), the rest regional
 * (one or two scope tags). Each run has a server of its own, from a fresh state store, and starts
 * with one cold load. It prints each report's two runs and their ratios beside the target: the
 * scope on within 1.3× of it off.
 *
 * Options: --viewers N (50), --seconds S (30), --devices N (100000), --workload
 * whole|window|both|scope (both), --window-seconds S (20), --viewer-scope, --embedded.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { freePort } from '../test/support/local-service.js';
import { ChildProcesses, ms, percentile, stop } from './child-processes.js';
import type { Started } from './child-processes.js';
import { scopeComparisonLines, viewerMix } from './viewer-scope-comparison.js';
import type { ScopeRun } from './viewer-scope-comparison.js';
import { REPORT_IDS } from '../src/core/reports/registry.js';
import { ESCROW_FINDING_KINDS } from '../src/core/reports/escrow-gaps/finding-kinds.js';

const { values } = parseArgs({
  options: {
    viewers: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '30' },
    devices: { type: 'string', default: '100000' },
    workload: { type: 'string', default: 'both' },
    'window-seconds': { type: 'string', default: '20' },
    embedded: { type: 'boolean', default: false },
    'viewer-scope': { type: 'boolean', default: false },
  },
  strict: true,
});
const viewers = Number(values.viewers);
const seconds = Number(values.seconds);
const devices = Number(values.devices);
const workload = values.workload;
const windowSeconds = Number(values['window-seconds']);
const embedded = values.embedded;
const viewerScope = values['viewer-scope'] || workload === 'scope';
if (![viewers, seconds, devices, windowSeconds].every((value) => Number.isInteger(value) && value > 0))
  throw new Error('--viewers, --seconds, --devices and --window-seconds take whole numbers');
if (workload !== 'whole' && workload !== 'window' && workload !== 'both' && workload !== 'scope') throw new Error('--workload takes whole, window, both or scope');
if (viewerScope && embedded) throw new Error('--viewer-scope runs against the server and the simulator in processes of their own, not --embedded');

/** Azurite's published development account key: the emulator accepts nothing else. */
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const AZURITE_BLOB = join(createRequire(import.meta.url).resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js');
const MAIN = new URL('../src/server/main.js', import.meta.url).pathname;
const SIMULATOR = new URL('./simulator-process.js', import.meta.url).pathname;

/**
 * The reports the scope comparison reads, whose rows carry their objects' scope tags in the large
 * tenant (docs/finding-rules.md, "Which reports are scoped"): report 4, which the viewers above read,
 * and report 3, whose policies a load reads whole.
 */
const SCOPED_REPORTS = [
  { id: 'escrow-gaps', name: 'report 4' },
  { id: 'security-posture', name: 'report 3' },
] as const;

const processes = new ChildProcesses();
const start = processes.start.bind(processes);
const folders: string[] = [];

/** A process's resident memory now, in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** A started process's resident memory now, in MB; a process that has exited is an error naming how, with the end of its output. */
function rssOf(instance: Started): number {
  const gone = exitedError(instance);
  if (gone) throw gone;
  return rssMb(instance.process.pid!);
}

/** If the process has exited, an error naming how, with the end of its output; else null. */
function exitedError(instance: Started): Error | null {
  const { exitCode, signalCode, pid } = instance.process;
  if (exitCode === null && signalCode === null) return null;
  return new Error(`process ${pid} exited (${exitCode ?? signalCode}) during the run; its output ended:\n${instance.output().slice(-4000)}`);
}

const loadsIn = (instance: Started) => (instance.output().match(/loading from Microsoft Graph/g) ?? []).length;

interface Run {
  cold: number;
  rps: number;
  p50: number;
  p99: number;
  tenantP99: number;
  peakRss: number[];
  loads: number;
}

/** N viewers of report 4 split across `servers`, after one cold read from the first, all signed in as `token`. */
async function measure(servers: Array<{ base: string; instance: Started }>, token: string): Promise<Run> {
  const agent = new Agent({ connections: viewers + 2, pipelining: 1 });
  try {
    const read = async (index: number, path: string): Promise<number> => {
      const begun = performance.now();
      const response = await request(`${servers[index]!.base}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' }, dispatcher: agent });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
      return performance.now() - begun;
    };
    const cold = await read(0, '/api/reports/escrow-gaps');
    const peakRss = servers.map(({ instance }) => rssOf(instance));
    // A server that exits mid-run fails the run with its output, rather than throwing out of the timer past the processes' clean-up.
    let exited: unknown = null;
    const sampler = setInterval(() => {
      try {
        servers.forEach(({ instance }, index) => (peakRss[index] = Math.max(peakRss[index]!, rssOf(instance))));
      } catch (error) {
        exited ??= error;
      }
    }, 200);
    const deadline = Date.now() + seconds * 1000;
    const latencies: number[] = [];
    const tenantLatencies: number[] = [];
    const viewer = async (index: number) => {
      while (Date.now() < deadline) latencies.push(await read(index % servers.length, '/api/reports/escrow-gaps'));
    };
    const tenantReader = async () => {
      while (Date.now() < deadline) {
        tenantLatencies.push(await read(0, '/api/tenant'));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const begun = performance.now();
    try {
      await Promise.all([...Array.from({ length: viewers }, (_, index) => viewer(index)), tenantReader()]);
    } catch (error) {
      // A request cut short is most often a server that went: given a moment to be seen exiting, it is named with its output.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const { instance } of servers) {
        try {
          rssOf(instance);
        } catch (gone) {
          exited ??= gone;
        }
      }
      throw exited ?? error;
    } finally {
      clearInterval(sampler);
    }
    if (exited) throw exited;
    const elapsed = (performance.now() - begun) / 1000;
    return {
      cold,
      rps: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      tenantP99: percentile(tenantLatencies, 99),
      peakRss,
      // Every load the servers made, the cold one included: one is the aim, however many instances.
      loads: servers.reduce((total, { instance }) => total + loadsIn(instance), 0),
    };
  } finally {
    await agent.close();
  }
}

/** Report 4's columns and finding kinds, as its derive.ts and finding-kinds.ts state them: a 400 counts as an error, so a drift shows. */
const WINDOW_COLUMNS = ['device', 'user', 'lastCheckIn', 'recoveryKey', 'lapsPassword', 'note'];
const WINDOW_KINDS = Object.keys(ESCROW_FINDING_KINDS);
const WINDOW_WORDS = ['pc', 'desk', '2026', 'missing', 'laptop 1', 'contoso'];

interface WindowRun {
  rows: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string | null;
  peakServerRss: number;
  peakSimulatorRss: number;
  peakTogetherRss: number;
}

/**
 * N viewers of report 4 through the window API on one server: each request pages, sorts or filters,
 * chosen in turn so every column is sorted both ways many times over. The report is loaded before the
 * clock starts.
 */
async function measureWindows(
  server: { base: string; instance: Started },
  simulatorPid: number | null,
  people: readonly string[],
  mix: 'mixed' | 'manyFilters' = 'mixed',
): Promise<WindowRun> {
  const agent = new Agent({ connections: viewers + 1, pipelining: 1 });
  try {
    // One person per viewer: the server limits the windows one person may ask for a minute.
    const headersOf = (index: number) => ({ authorization: `Bearer ${people[index % people.length]!}`, 'accept-encoding': 'br, gzip' });
    const first = await request(`${server.base}/api/reports/escrow-gaps/rows?limit=1`, { headers: headersOf(0), dispatcher: agent });
    const { total } = (await first.body.json()) as { total: number };
    let peakServerRss = rssMb(server.instance.process.pid!);
    const simulatorRssMb = () => (simulatorPid === null ? 0 : rssMb(simulatorPid));
    let peakSimulatorRss = simulatorRssMb();
    let peakTogetherRss = peakServerRss + peakSimulatorRss;
    const sampler = setInterval(() => {
      // A server that has exited is not sampled (its /proc entry is gone); the viewers' loop stops and names it.
      if (exitedError(server.instance)) return;
      const serverRss = rssMb(server.instance.process.pid!);
      const simulatorRss = simulatorRssMb();
      peakServerRss = Math.max(peakServerRss, serverRss);
      peakSimulatorRss = Math.max(peakSimulatorRss, simulatorRss);
      peakTogetherRss = Math.max(peakTogetherRss, serverRss + simulatorRss);
    }, 200);
    const offsetAnywhere = () => Math.floor(Math.random() * Math.max(1, total - 100));
    // Many filters: every request a random offset, sortable column and direction, one in five filtered by a two-digit number.
    const manyFiltersPath = (step: number): string => {
      const column = WINDOW_COLUMNS[Math.floor(Math.random() * WINDOW_COLUMNS.length)]!;
      const filter = step % 5 === 4 ? `&q=${10 + Math.floor(Math.random() * 90)}` : '';
      return `sort=${column}&dir=${Math.random() < 0.5 ? 'asc' : 'desc'}&offset=${offsetAnywhere()}&limit=100${filter}`;
    };
    const mixedPath = (step: number): string => {
      const column = WINDOW_COLUMNS[Math.floor(step / 2) % WINDOW_COLUMNS.length]!;
      switch (step % 5) {
        case 0:
          return `offset=${offsetAnywhere()}&limit=100`;
        case 1:
          return `sort=${column}&dir=${step % 2 === 0 ? 'asc' : 'desc'}&offset=${offsetAnywhere()}&limit=100`;
        case 2:
          return `sort=${column}&dir=${step % 4 < 2 ? 'desc' : 'asc'}&limit=100`;
        case 3:
          return `q=${encodeURIComponent(WINDOW_WORDS[step % WINDOW_WORDS.length]!)}&limit=100`;
        default:
          return step % 2 === 0 ? `finding=${WINDOW_KINDS[step % WINDOW_KINDS.length]!}&open=true&limit=100` : `open=true&sort=${column}&limit=100`;
      }
    };
    // Cleared however the run ends: a run stopped early must not leave the sampler keeping the bench alive.
    const { latencies, errors, firstError, elapsed } = await readUntilDeadline(windowSeconds, [server.instance], async (index, step) => {
      const path = `/api/reports/escrow-gaps/rows?${mix === 'manyFilters' ? manyFiltersPath(step) : mixedPath(step)}`;
      const begun = performance.now();
      const response = await request(`${server.base}${path}`, { headers: headersOf(index), dispatcher: agent });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
      return performance.now() - begun;
    }).finally(() => clearInterval(sampler));
    return {
      rows: total,
      rps: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      firstError,
      peakServerRss,
      peakSimulatorRss,
      peakTogetherRss,
    };
  } finally {
    await agent.close();
  }
}

/** A window run's table head and its requests per second, p50, p99 and errors beside their targets at 500,000 devices. */
function printWindowRun(run: WindowRun, requestsPerSecondTarget: number): void {
  console.log('| measure | measured | target at 500,000 devices |');
  console.log('|---|---:|---:|');
  console.log(`| requests per second | ${run.rps.toFixed(1)} | at least ${requestsPerSecondTarget} |`);
  console.log(`| p50 latency, ms | ${ms(run.p50)} | |`);
  console.log(`| p99 latency, ms | ${ms(run.p99)} | under 1,000 |`);
  console.log(`| errors | ${run.errors}${run.firstError ? ` (first: ${run.firstError})` : ''} | none |`);
}

/** The environment of a server this bench starts: none of the caller's tenant, bot or store settings, then `settings`. */
function serverEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_|STATE_STORE|HOST|APPLICATIONINSIGHTS_)/.test(name)) delete env[name];
  return Object.assign(env, settings);
}

async function startServer(simulator: Record<string, string>, stateStore: string): Promise<{ base: string; instance: Started }> {
  const port = await freePort();
  const env = serverEnvironment({ ...simulator, PORT: String(port), HOST: '127.0.0.1', STATE_STORE: stateStore });
  const instance = await start([MAIN], env, /Listening on/);
  return { base: `http://127.0.0.1:${port}`, instance };
}

/**
 * `npm start -- --tenant large --devices N` as one process, its RSS sampled from its start: the
 * build of the tenant, the first load of every report (the overview's summaries, all at once) and
 * the window workload on report 4. The peak is the one figure the target is about.
 */
async function measureEmbedded(): Promise<void> {
  const port = await freePort();
  const files = mkdtempSync(join(tmpdir(), 'dmhealth-embedded-'));
  folders.push(files);
  const env = serverEnvironment({ PORT: String(port), HOST: '127.0.0.1', STATE_STORE: `file:${files}` });
  const child = spawn(process.execPath, [MAIN, '--tenant', 'large', '--devices', String(devices)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const instance: Started = { process: child, output: () => output };
  processes.adopt(instance);
  const begun = performance.now();
  const phases: Array<{ phase: string; seconds: number; peak: number }> = [];
  let peak = 0;
  let phasePeak = 0;
  const sampler = setInterval(() => {
    if (child.exitCode !== null) return;
    const now = rssMb(child.pid!);
    peak = Math.max(peak, now);
    phasePeak = Math.max(phasePeak, now);
  }, 100);
  const endPhase = (phase: string) => {
    phases.push({ phase, seconds: (performance.now() - begun) / 1000, peak: phasePeak });
    phasePeak = 0;
  };
  try {
    const deadline = Date.now() + 600_000;
    while (!/Listening on/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    endPhase('tenant built, server listening');
    const base = `http://127.0.0.1:${port}`;
    // A first load of a very large tenant may take minutes: no client timeout cuts it short.
    const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
    const signIn = await request(`${base}/api/demo/token`);
    const { token } = (await signIn.body.json()) as { token: string };
    const loadBegun = performance.now();
    const loads = await Promise.all(
      REPORT_IDS.map(async (id) => {
        const response = await request(`${base}/api/reports/${id}/summary`, { headers: { authorization: `Bearer ${token}` }, dispatcher: patient });
        await response.body.arrayBuffer();
        if (response.statusCode !== 200) throw new Error(`the summary of ${id} answered ${response.statusCode}`);
        return `${id} ${response.statusCode} in ${ms(performance.now() - loadBegun)} ms`;
      }),
    );
    endPhase('first load of the seven reports');
    await patient.close();
    // Each sign-in without the demo's cookie is another person, as each browser is.
    const people = await Promise.all(Array.from({ length: viewers }, async () => ((await (await request(`${base}/api/demo/token`)).body.json()) as { token: string }).token));
    const windowed = await measureWindows({ base, instance }, null, people);
    endPhase('window workload on report 4');
    clearInterval(sampler);
    console.log(
      `\nOne process: npm start -- --tenant large --devices ${devices.toLocaleString('en-US')} (the server and its simulated tenant together), Node ${process.version}; ${windowed.rows.toLocaleString('en-US')} rows in report 4`,
    );
    console.log(`First loads (summaries, all seven at once): ${loads.join('; ')}`);
    console.log('| phase | ends at, s | peak RSS in the phase, MB |');
    console.log('|---|---:|---:|');
    for (const { phase, seconds, peak: phasePeakMb } of phases) console.log(`| ${phase} | ${seconds.toFixed(1)} | ${ms(phasePeakMb)} |`);
    console.log(`| **peak RSS of the process, MB** | | **${ms(peak)}** (target: under 1,536 at 500,000 devices) |`);
    console.log(
      `Windows: ${windowed.rps.toFixed(1)} requests/s, p50 ${ms(windowed.p50)} ms, p99 ${ms(windowed.p99)} ms, ${windowed.errors} errors${windowed.firstError ? ` (first: ${windowed.firstError})` : ''}`,
    );
  } finally {
    clearInterval(sampler);
  }
}

try {
  if (embedded) await measureEmbedded();
  else await measureSeparate();
} finally {
  await processes.stopAll();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}

/** The server and the simulator in processes of their own: the whole-report and window workloads. */
async function measureSeparate(): Promise<void> {
  console.error(`Starting the large simulated tenant (${devices.toLocaleString('en-US')} devices) in a process of its own...`);
  const sim = await start([SIMULATOR, '--devices', String(devices), '--people', String(viewers)], { ...process.env }, /^\{.*\}$/m);
  const {
    env: simulator,
    token,
    people,
    scopes,
  } = JSON.parse(/^\{.*\}$/m.exec(sim.output())![0]) as {
    env: Record<string, string>;
    token: string;
    people: string[];
    scopes: Array<string[] | null>;
  };

  const files = mkdtempSync(join(tmpdir(), 'dmhealth-viewers-'));
  folders.push(files);
  const one = workload === 'scope' ? null : await startServer(simulator, `file:${files}`);
  const single = !one || workload === 'window' ? null : await measure([one], token);
  const windowed = !one || workload === 'whole' ? null : await measureWindows(one, sim.process.pid!, people);
  const filtered = !one || workload === 'whole' ? null : await measureWindows(one, sim.process.pid!, people, 'manyFilters');
  if (one) await stop(one.instance);
  // What the server built for those windows, as it says when it stops.
  const built = one?.instance.output().match(/^Windows built while serving: .*$/m)?.[0] ?? null;

  if (single) {
    const azuriteFolder = mkdtempSync(join(tmpdir(), 'dmhealth-viewers-azurite-'));
    folders.push(azuriteFolder);
    const azuritePort = await freePort();
    await start(
      [AZURITE_BLOB, '--blobHost', '127.0.0.1', '--blobPort', String(azuritePort), '--inMemoryPersistence', '--disableTelemetry', '--silent'],
      { ...process.env },
      /successfully listens/i,
      azuriteFolder,
    );
    const azurite = `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:${azuritePort}/devstoreaccount1;`;
    const pair = await Promise.all([startServer(simulator, azurite), startServer(simulator, azurite)]);
    const shared = await measure(pair, token);

    console.log(
      `\nViewers: ${viewers} clients reading report 4 (escrow-gaps, ${devices.toLocaleString('en-US')} devices) for ${seconds} s each run, warm cache, the simulator in its own process, Node ${process.version}`,
    );
    console.log('| measure | one server | two instances on Azurite |');
    console.log('|---|---:|---:|');
    console.log(`| first (cold) load, ms | ${ms(single.cold)} | ${ms(shared.cold)} |`);
    console.log(`| requests per second | ${single.rps.toFixed(1)} | ${shared.rps.toFixed(1)} |`);
    console.log(`| p50 latency, ms | ${ms(single.p50)} | ${ms(shared.p50)} |`);
    console.log(`| p99 latency, ms | ${ms(single.p99)} | ${ms(shared.p99)} |`);
    console.log(`| GET /api/tenant p99 beside them, ms | ${ms(single.tenantP99)} | ${ms(shared.tenantP99)} |`);
    console.log(`| peak RSS per server, MB | ${single.peakRss.map(ms).join(' ')} | ${shared.peakRss.map(ms).join(' and ')} |`);
    console.log(`| upstream loads (all instances) | ${single.loads} | ${shared.loads} |`);
  }
  if (windowed) {
    console.log(
      `\nWindows: ${viewers} clients paging, sorting and filtering report 4 (escrow-gaps, ${devices.toLocaleString('en-US')} devices, ${windowed.rows.toLocaleString('en-US')} rows) through /api/reports/:id/rows for ${windowSeconds} s, one server, the simulator in its own process, Node ${process.version}`,
    );
    printWindowRun(windowed, 100);
    console.log(`| peak RSS of the server, MB | ${ms(windowed.peakServerRss)} | |`);
    console.log(`| peak RSS of the simulator, MB | ${ms(windowed.peakSimulatorRss)} | |`);
    console.log(`| peak RSS of the two together, MB | ${ms(windowed.peakTogetherRss)} | under 1,536 |`);
  }
  if (filtered) {
    console.log(
      `\nMany filters: ${viewers} clients, each a person of their own, reading report 4 (${filtered.rows.toLocaleString('en-US')} rows) for ${windowSeconds} s on the same server after the windows above: every request 100 rows at a random offset, a random sortable column and direction, one in five filtered by a two-digit number`,
    );
    printWindowRun(filtered, 250);
    console.log(`| ${built ?? 'Windows built while serving: not said by the server'} | | |`);
  }
  if (viewerScope) await compareViewerScope(simulator, people, scopes);
}

/**
 * `viewers` viewers reading at once until `seconds` have passed, each one request after another
 * (`read` of the viewer and its step, answering its latency): the latencies answered, the failures
 * counted with the first one's words, and the seconds it took. A failure is counted and the viewer
 * reads on, but the run stops early, with an error, when one of `servers` has exited (named with its
 * output) or when the last `failuresInARowLimit()` requests of all viewers together failed with no
 * answer between them: a server gone or refusing everyone answers each request at once, and its
 * viewers would otherwise spin until the deadline counting failures rather than measure anything.
 */
async function readUntilDeadline(
  seconds: number,
  servers: readonly Started[],
  read: (viewer: number, step: number) => Promise<number>,
): Promise<{ latencies: number[]; errors: number; firstError: string | null; elapsed: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let failuresInARow = 0;
  let stopped: Error | null = null;
  const limit = failuresInARowLimit();
  const deadline = Date.now() + seconds * 1000;
  const viewer = async (index: number) => {
    for (let step = index * 7; Date.now() < deadline && stopped === null; step += 1) {
      try {
        latencies.push(await read(index, step));
        failuresInARow = 0;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors += 1;
        failuresInARow += 1;
        firstError ??= message;
        stopped ??=
          servers.map(exitedError).find((gone) => gone !== null) ??
          (failuresInARow >= limit
            ? new Error(`the last ${failuresInARow} requests all failed, so the run stopped before its deadline (the latest: ${message}; the run's first failure: ${firstError})`)
            : null);
      }
    }
  };
  const begun = performance.now();
  await Promise.all(Array.from({ length: viewers }, (_, index) => viewer(index)));
  if (stopped !== null) {
    // A server that went fails its requests a moment before it is seen to exit: given that moment, it is named with its output.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    throw servers.map(exitedError).find((gone) => gone !== null) ?? stopped;
  }
  return { latencies, errors, firstError, elapsed: (performance.now() - begun) / 1000 };
}

/** Failures in a row, across all viewers, that stop a run: several rounds of every viewer failing, which a few refusals among answers never reach. */
function failuresInARowLimit(): number {
  return Math.max(100, viewers * 4);
}

/** N viewers of one report on one server, viewer i signed in as `people[i]`, after one cold read by the first. */
async function measureScoped(server: { base: string; instance: Started }, people: readonly string[], report: string): Promise<ScopeRun> {
  const agent = new Agent({ connections: viewers + 1, pipelining: 1 });
  try {
    const path = `/api/reports/${report}`;
    const etags = new Set<string>();
    const read = async (index: number): Promise<number> => {
      const begun = performance.now();
      const response = await request(`${server.base}${path}`, {
        headers: { authorization: `Bearer ${people[index % people.length]!}`, 'accept-encoding': 'br, gzip' },
        dispatcher: agent,
      });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode} to viewer ${index}`);
      const etag = response.headers.etag;
      if (typeof etag === 'string') etags.add(etag);
      return performance.now() - begun;
    };
    const cold = await read(0);
    const { latencies, errors, firstError, elapsed } = await readUntilDeadline(seconds, [server.instance], read);
    return {
      cold,
      requests: latencies.length,
      rps: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      firstError,
      answers: etags.size,
      loads: loadsIn(server.instance),
    };
  } finally {
    await agent.close();
  }
}

/** Reports 4 and 3 read by the same viewers from a server with the viewer scope off, then from one with it on; the ratios beside the target. */
async function compareViewerScope(simulator: Record<string, string>, people: readonly string[], scopes: ReadonlyArray<readonly string[] | null>): Promise<void> {
  const { whole, oneTag, twoTags, noRole } = viewerMix(scopes.slice(0, viewers));
  for (const report of SCOPED_REPORTS) {
    const runs: ScopeRun[] = [];
    // Each run on a server of its own, which has loaded nothing else: what another report's
    // answers keep in its memory would weigh on one run and not the other.
    // Empty is off (src/app/config.ts), whatever the caller's environment says.
    for (const scope of ['', 'intune-rbac']) {
      const files = mkdtempSync(join(tmpdir(), 'dmhealth-viewers-scope-'));
      folders.push(files);
      const server = await startServer({ ...simulator, VIEWER_SCOPE: scope }, `file:${files}`);
      runs.push(await measureScoped(server, people, report.id));
      await stop(server.instance);
    }
    const [off, on] = runs as [ScopeRun, ScopeRun];
    console.log(
      `\nViewer scope: ${viewers} clients reading ${report.name} (${report.id}, ${devices.toLocaleString('en-US')} devices) for ${seconds} s each run, one server, the simulator in its own process, Node ${process.version}; ` +
        `signed in as ${whole} whole-tenant, ${oneTag} one-tag and ${twoTags} two-tag Intune administrators${noRole > 0 ? ` and ${noRole} with no role assignment` : ''}`,
    );
    for (const line of scopeComparisonLines(off, on).lines) console.log(line);
  }
}
