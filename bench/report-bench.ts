/**
 * `npm run bench`: each report loaded from the large simulated tenant at a stated latency, then all
 * six together as the tab loads them. Prints, per row: time, requests, peak memory and the ratio of
 * time to the report's critical-path floor (design section 6), a lower bound counted in round trips
 * (see `criticalPathRounds`): a ratio near 1 means the load does little but wait for the network.
 *
 * Options: --latency MS (40), --devices N (100000), --concurrency N (8), --throttling (Microsoft's
 * per-app limits; off by default, since they would measure the limits rather than the client).
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { REPORT_IDS } from '../src/core/reports/registry.js';
import { criticalPathRounds } from './critical-path.js';
import type { LoadFigures } from './load-once.js';

const { values } = parseArgs({
  options: {
    latency: { type: 'string', default: '40' },
    devices: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '8' },
    throttling: { type: 'boolean', default: false },
  },
  strict: true,
});
const latencyMs = Number(values.latency);
const devices = Number(values.devices);
const concurrency = Number(values.concurrency);
if (![latencyMs, devices, concurrency].every((value) => Number.isFinite(value) && value >= 0) || concurrency < 1) {
  throw new Error('--latency, --devices and --concurrency take non-negative numbers (concurrency at least 1)');
}

const here = new URL('.', import.meta.url);
const cli = new URL('../src/cli/dmhealth.js', here).pathname;
const loadOnce = new URL('./load-once.js', here).pathname;

interface SimulatorProcess {
  env: Record<string, string>;
  stop(): void;
}

/** The large tenant in a process of its own, so serving it does not slow the client being measured. */
async function startSimulatorProcess(): Promise<SimulatorProcess> {
  const args = [cli, 'sim', '--tenant', 'large', '--devices', String(devices), '--latency', String(latencyMs), ...(values.throttling ? [] : ['--no-throttling'])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulator did not start within 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve(Object.fromEntries([...output.matchAll(/^\s+([A-Z0-9_]+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!])));
    });
  });
  return { env, stop: () => child.kill('SIGTERM') };
}

async function measure(ids: string[], env: Record<string, string>): Promise<LoadFigures> {
  const child = spawn(process.execPath, [loadOnce, ...ids], {
    env: { ...process.env, ...env, BENCH_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`measuring ${ids.join(', ')} failed (exit ${code})`);
  return JSON.parse(output) as LoadFigures;
}

function row(label: string, figures: LoadFigures, floorMs: number): string {
  const ratio = floorMs > 0 ? (figures.timeMs / floorMs).toFixed(2) : 'n/a';
  return `| ${label} | ${Math.round(figures.timeMs).toLocaleString('en')} | ${figures.exchanges.length.toLocaleString('en')} | ${Math.round(floorMs).toLocaleString('en')} | ${ratio} | ${Math.round(figures.peakRssMb)} | ${figures.findings.toLocaleString('en')} |`;
}

async function main(): Promise<void> {
  console.error(`Starting the large tenant (${devices.toLocaleString('en')} devices, ${latencyMs} ms per request, throttling ${values.throttling ? 'on' : 'off'})...`);
  const simulator = await startSimulatorProcess();
  try {
    console.log(
      `Large tenant, ${devices.toLocaleString('en')} devices, ${latencyMs} ms latency per request, client concurrency ${concurrency}, throttling ${values.throttling ? 'on' : 'off'}, Node ${process.version}.\n`,
    );
    console.log('| report | time (ms) | requests | floor (ms) | time / floor | peak RSS (MB) | findings |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    // One unmeasured pass first, as benchmarks do: it compiles the simulator's hot paths and fills
    // its serialised-record cache, so every measured row sees the same warm service.
    await measure([...REPORT_IDS], simulator.env);
    let longestFloor = 0;
    for (const id of REPORT_IDS) {
      const figures = await measure([id], simulator.env);
      if (figures.states[0] === 'load-error') throw new Error(`${id} failed to load on the large tenant`);
      const floorMs = criticalPathRounds(figures.exchanges, concurrency) * latencyMs;
      longestFloor = Math.max(longestFloor, floorMs);
      console.log(row(id, figures, floorMs));
    }
    const all = await measure([...REPORT_IDS], simulator.env);
    // Together they can be no faster than the slowest alone, nor than their requests through the slots.
    console.log(row('all six together', all, Math.max(longestFloor, criticalPathRounds(all.exchanges, concurrency) * latencyMs)));
  } finally {
    simulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
