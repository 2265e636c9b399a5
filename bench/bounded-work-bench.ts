/**
 * `node dist-bench/bench/bounded-work-bench.js`: whether the server keeps answering while the
 * heaviest requests a reader may send run (docs/performance.md, "Bounded work per request"). The
 * large simulated tenant (a process of its own: simulator-process.ts) and the server reading it as
 * a configured tenant (`npm start`, a process of its own); report 4 is loaded and its windows built
 * first, unmeasured. Then the probe alone for 3 s (what the server does by itself just after a load),
 * and one workload at a time, four requests at once while a probe asks for
 * `/healthz` every 50 ms from outside, each probe waiting for the last: four 7,000-word window
 * queries (refused now), four costly filters a window takes (16 words each, each a different set of
 * words, so none is answered from a kept filter), and four CSV exports of
 * report 4 (at most two are written at once; the others are refused). Prints each request's status
 * and time, and the probe's latency while the four ran: its count, median, 99th percentile and
 * longest.
 *
 * Options: --devices N (100000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { freePort } from '../test/support/local-service.js';
import { ChildProcesses, ms, percentile } from './child-processes.js';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' } }, strict: true });
const devices = Number(values.devices);
if (!Number.isInteger(devices) || devices <= 0) throw new Error('--devices takes a whole number');

const MAIN = new URL('../src/server/main.js', import.meta.url).pathname;
const SIMULATOR = new URL('./simulator-process.js', import.meta.url).pathname;
/** How often the probe asks for /healthz, and how long it may wait for a load. */
const PROBE_EVERY_MS = 50;
const LOAD_WITHIN_MS = 600_000;

const processes = new ChildProcesses();
const start = processes.start.bind(processes);

/** The words of a filter: `count` single characters from an alphabet, starting at `from`, as a person could type them. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
function singleCharacterWords(count: number, from: number): string {
  return Array.from({ length: count }, (_, at) => ALPHABET[(from + at) % ALPHABET.length]!).join(' ');
}

/**
 * One of the costliest filters a window takes: 16 words, each looked for in every row. Fifteen
 * characters that nearly every row holds (so no row is passed over after its first word), then a
 * word no row holds (so each row's text is read to its end); `variant` picks another fifteen, so each
 * of the four is a filter of its own, not one answered from a kept filter.
 */
const COMMON_CHARACTERS = '0123456789-:etaoinsr';
function costlyAllowedFilter(variant: number): string {
  const common = Array.from({ length: 15 }, (_, at) => COMMON_CHARACTERS[(variant + at) % COMMON_CHARACTERS.length]!);
  return [...common, 'qzxqzxqzx'].join(' ');
}

interface Outcome {
  label: string;
  status: number;
  ms: number;
  bytes: number;
}

async function main(): Promise<void> {
  console.error(`Starting the large simulated tenant (${devices.toLocaleString('en-US')} devices) in a process of its own...`);
  const sim = await start([SIMULATOR, '--devices', String(devices)], { ...process.env }, /^\{.*\}$/m);
  const { env: simulator, token } = JSON.parse(/^\{.*\}$/m.exec(sim.output())![0]) as { env: Record<string, string>; token: string };
  const files = mkdtempSync(join(tmpdir(), 'dmhealth-bounded-'));
  try {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_|STATE_STORE|HOST|APPLICATIONINSIGHTS_)/.test(name)) delete env[name];
    Object.assign(env, simulator, { PORT: String(port), HOST: '127.0.0.1', STATE_STORE: `file:${files}` });
    const server = await start([MAIN], env, /Listening on/);
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${token}` };
    const work = new Agent({ connections: 8, pipelining: 1, headersTimeout: LOAD_WITHIN_MS, bodyTimeout: LOAD_WITHIN_MS });
    const probeAgent = new Agent({ connections: 1, pipelining: 1 });

    const call = async (label: string, path: string): Promise<Outcome> => {
      const begun = performance.now();
      try {
        const response = await request(`${base}${path}`, { headers, dispatcher: work });
        const body = await response.body.arrayBuffer();
        return { label, status: response.statusCode, ms: performance.now() - begun, bytes: body.byteLength };
      } catch (error) {
        return { label: `${label} (${error instanceof Error ? error.message : String(error)})`, status: 0, ms: performance.now() - begun, bytes: 0 };
      }
    };

    console.error('Loading report 4 and building its windows (unmeasured)...');
    const warm = await call('first window', '/api/reports/escrow-gaps/rows?limit=1');
    if (warm.status !== 200) throw new Error(`the first window answered ${warm.status}`);
    const { total } = (await (await request(`${base}/api/reports/escrow-gaps/rows?limit=1`, { headers, dispatcher: work })).body.json()) as { total: number };

    /** Four requests at once (or none, for `idleMs`), /healthz asked for every 50 ms from another connection until all four are answered. */
    const measure = async (name: string, requests: Array<() => Promise<Outcome>>, idleMs = 0) => {
      const probes: number[] = [];
      let running = true;
      const probe = (async () => {
        while (running) {
          const begun = performance.now();
          const response = await request(`${base}/healthz`, { dispatcher: probeAgent });
          await response.body.arrayBuffer();
          probes.push(performance.now() - begun);
          await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
        }
      })();
      const begun = performance.now();
      const [outcomes] = await Promise.all([Promise.all(requests.map((send) => send())), new Promise((resolve) => setTimeout(resolve, idleMs))]);
      const elapsed = performance.now() - begun;
      running = false;
      await probe;
      console.log(`\n${name} (${ms(elapsed)} ms)`);
      for (const outcome of outcomes) console.log(`  ${outcome.label}: ${outcome.status} in ${ms(outcome.ms)} ms, ${outcome.bytes.toLocaleString('en-US')} bytes`);
      console.log(
        `  /healthz while they ran: ${probes.length} answers, p50 ${ms(percentile(probes, 50))} ms, p99 ${ms(percentile(probes, 99))} ms, longest ${ms(Math.max(0, ...probes))} ms`,
      );
    };

    console.log(`Bounded work per request: report 4 (escrow-gaps) of ${devices.toLocaleString('en-US')} devices, ${total.toLocaleString('en-US')} rows, Node ${process.version}`);
    // What the server does by itself just after a load (the load's own work and its garbage), for comparison.
    await measure('Nothing else, for 3 s', [], 3_000);
    await measure(
      'Four 7,000-word window queries',
      [0, 1, 2, 3].map(
        (variant) => () => call(`7,000 words #${variant + 1}`, `/api/reports/escrow-gaps/rows?q=${encodeURIComponent(singleCharacterWords(7_000, variant)).replace(/%20/g, '+')}`),
      ),
    );
    await measure(
      'Four costly filters a window takes (16 words each)',
      [0, 1, 2, 3].map((variant) => () => call(`16-word filter #${variant + 1}`, `/api/reports/escrow-gaps/rows?q=${encodeURIComponent(costlyAllowedFilter(variant))}`)),
    );
    await measure(
      'Four CSV exports of report 4 at once',
      [0, 1, 2, 3].map((variant) => () => call(`export #${variant + 1}`, '/api/reports/escrow-gaps.csv')),
    );
    await work.close();
    await probeAgent.close();
    if (server.process.exitCode !== null) console.log(`The server stopped (exit ${server.process.exitCode}):\n${server.output().slice(-4_000)}`);
  } finally {
    await processes.stopAll();
    rmSync(files, { recursive: true, force: true });
  }
}

await main();
