import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorPki } from '../../src/sim/certificates.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { freePort } from '../support/local-service.js';

const MAIN = 'dist/server/main.js';
const directory = mkdtempSync(join(tmpdir(), 'dmhealth-ingestion-'));
/** What Application Insights' ingestion endpoint received: the telemetry items, one JSON envelope each. */
const received: Array<{ name?: string; data?: { baseType?: string; baseData?: Record<string, unknown> } }> = [];
const paths: string[] = [];
let ingestion: Server;
let caPath: string;

// A stand-in for Application Insights' ingestion endpoint on this machine, over HTTPS as the real one:
// the exporter posts its envelopes (gzip'd JSON) to <IngestionEndpoint>/v2.1/track.
beforeAll(async () => {
  const pki = await createSimulatorPki(['127.0.0.1'], 'CN=Ingestion endpoint test CA');
  caPath = join(directory, 'ca.pem');
  writeFileSync(caPath, pki.caPem);
  ingestion = createServer({ cert: pki.serverCertificatePem, key: pki.serverPrivateKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const raw = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const items = text.trim().startsWith('[')
        ? (JSON.parse(text) as typeof received)
        : text
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as (typeof received)[number]);
      received.push(...items);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ itemsReceived: items.length, itemsAccepted: items.length, errors: [] }));
    });
  });
  await new Promise<void>((resolve) => ingestion.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => ingestion?.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

/**
 * The built server with telemetry on, sent to the stand-in endpoint, as its own process: it loads
 * report 4 once, for a viewer, and stops. `environment` adds to or overrides its environment;
 * `nodeOptions` go before the script (a `--require`).
 */
async function runWithTelemetry(environment: Record<string, string>, nodeOptions: string[] = []): Promise<string> {
  const port = await freePort();
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|BOT_|NOTIFY_|MANAGED_IDENTITY_|IDENTITY_|APPLICATIONINSIGHTS_|TELEMETRY_)/.test(name)) delete env[name];
  const { port: ingestionPort } = ingestion.address() as AddressInfo;
  const child = spawn(process.execPath, [...nodeOptions, MAIN], {
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATE_STORE: `file:${join(directory, 'state')}`,
      APPLICATIONINSIGHTS_CONNECTION_STRING: `InstrumentationKey=00000000-0000-4000-8000-000000000001;IngestionEndpoint=https://127.0.0.1:${ingestionPort}/`,
      NODE_EXTRA_CA_CERTS: caPath,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await expect.poll(() => output, { timeout: 45_000, interval: 100 }).toContain('Listening on');
    expect(output).toContain('Telemetry: on');
    const base = `http://127.0.0.1:${port}`;
    const { token } = (await (await fetch(`${base}/api/demo/token`)).json()) as { token: string };
    const answer = await fetch(`${base}/api/reports/escrow-gaps?refresh=true`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status, output).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  return output;
}

describe('telemetry to Application Insights', { timeout: 60_000 }, () => {
  it('arrives at the ingestion endpoint the connection string names: requests, Graph dependencies and report loads, without tenant data', async () => {
    // The SDK's own usage reports would go to Microsoft's endpoint, not the one named: the server turns them off.
    await runWithTelemetry({});
    expect(paths.every((path) => path.startsWith('/v2.1/track'))).toBe(true);
    const names = received.map((item) => String(item.data?.baseData?.name ?? ''));
    expect(names).toContain('GET /api/reports/:name');
    expect(names).toContain('report load escrow-gaps');
    expect(names.some((name) => name.startsWith('GET /v1.0/deviceManagement/managedDevices'))).toBe(true);
    expect(received.some((item) => item.data?.baseType === 'MetricData')).toBe(true);
    // The demo tenant's id, name, devices and users never leave in telemetry (the demo tenant is built the same way every time).
    const text = JSON.stringify(received);
    const demo = buildDemoTenant();
    const devices = demo.collections.managedDevices as Array<Record<string, unknown>>;
    const tenantValues = [demo.tenantId, demo.displayName, demo.domain, ...devices.flatMap((device) => [device.deviceName, device.userPrincipalName, device.id])];
    expect(devices.length).toBeGreaterThan(0);
    for (const value of tenantValues) if (typeof value === 'string' && value.length > 2) expect(text).not.toContain(value);
  });

  it("reaches no host but the ingestion endpoint: not the SDK's control plane, its own reports or the instance metadata service", async () => {
    // The loopback guard refuses, and writes down, any connection that would leave this machine,
    // after the server's own refusal of the SDK's endpoints has had its say.
    const guardLog = join(directory, 'egress.log');
    writeFileSync(guardLog, '');
    const output = await runWithTelemetry({ LOOPBACK_GUARD_LOG: guardLog }, ['--require', resolve('test/support/loopback-guard.cjs')]);
    expect(readFileSync(guardLog, 'utf8')).toBe('');
    // The metadata probe runs off Azure's platforms, as here; the control plane from the first exporter on.
    expect(output).toMatch(/telemetry: refused the SDK's own connection to (settings\.sdk\.monitor\.azure\.com|169\.254\.169\.254)/);
  });
});
