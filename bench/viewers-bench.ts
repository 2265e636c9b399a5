/**
 * `npm run bench`, viewers: the server in demo mode on the large simulated tenant (`npm start --
 * --tenant large`, as its own process), report 4 (one row per Windows device) loaded once, then N
 * viewers (default 50) reading it over and over for 30 s, as a whole IT department would, with one
 * more client reading `/api/tenant` beside them. Prints requests per second, p50 and p99 latency,
 * the server's peak RSS and the upstream loads it made.
 *
 * Options: --viewers N (50), --seconds S (30), --devices N (100000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const { values } = parseArgs({
  options: { viewers: { type: 'string', default: '50' }, seconds: { type: 'string', default: '30' }, devices: { type: 'string', default: '100000' } },
  strict: true,
});
const viewers = Number(values.viewers);
const seconds = Number(values.seconds);
const devices = Number(values.devices);
if (![viewers, seconds, devices].every((value) => Number.isInteger(value) && value > 0)) throw new Error('--viewers, --seconds and --devices take whole numbers');

const probe = createServer();
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
const port = (probe.address() as AddressInfo).port;
await new Promise<void>((resolve) => probe.close(() => resolve()));

const dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-viewers-'));
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), STATE_STORE: `file:${dataDirectory}` };
for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_)/.test(name)) delete env[name];
const main = new URL('../src/server/main.js', import.meta.url).pathname;
const server = spawn(process.execPath, [main, '--tenant', 'large', '--devices', String(devices)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));

/** The server's resident memory now, in MB (Linux). */
function serverRssMb(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const base = `http://127.0.0.1:${port}`;
const agent = new Agent({ connections: viewers + 2, pipelining: 1 });
try {
  const ready = Date.now() + 120_000;
  while (!output.includes('Listening on')) {
    if (Date.now() > ready || server.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { token } = (await (await request(`${base}/api/demo/token`, { dispatcher: agent })).body.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' };
  const read = async (path: string): Promise<number> => {
    const started = performance.now();
    const response = await request(`${base}${path}`, { headers, dispatcher: agent });
    await response.body.arrayBuffer();
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
    return performance.now() - started;
  };

  const cold = await read('/api/reports/escrow-gaps');
  const loadsBefore = (output.match(/loading from Microsoft Graph/g) ?? []).length;
  let peakRss = serverRssMb();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, serverRssMb())), 200);
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  const tenantLatencies: number[] = [];
  const viewer = async () => {
    while (Date.now() < deadline) latencies.push(await read('/api/reports/escrow-gaps'));
  };
  const tenantReader = async () => {
    while (Date.now() < deadline) {
      tenantLatencies.push(await read('/api/tenant'));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const started = performance.now();
  await Promise.all([...Array.from({ length: viewers }, viewer), tenantReader()]);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const loads = (output.match(/loading from Microsoft Graph/g) ?? []).length - loadsBefore;

  const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
  const ms = (value: number) => Math.round(value).toLocaleString('en-US');
  console.log(
    `\nViewers: ${viewers} clients reading report 4 (escrow-gaps, ${devices.toLocaleString('en-US')} devices) for ${seconds} s, warm cache, one server, Node ${process.version}`,
  );
  console.log('| measure | value |');
  console.log('|---|---:|');
  console.log(`| first (cold) load, ms | ${ms(cold)} |`);
  console.log(`| requests per second | ${(latencies.length / elapsed).toFixed(1)} |`);
  console.log(`| p50 latency, ms | ${ms(percentile(latencies, 50))} |`);
  console.log(`| p99 latency, ms | ${ms(percentile(latencies, 99))} |`);
  console.log(`| GET /api/tenant p99 beside them, ms | ${ms(percentile(tenantLatencies, 99))} |`);
  console.log(`| server peak RSS, MB | ${ms(peakRss)} |`);
  console.log(`| upstream loads during the run | ${loads} |`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await agent.close();
  rmSync(dataDirectory, { recursive: true, force: true });
}
