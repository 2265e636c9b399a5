import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { tenantKeyOf } from '../../src/app/graph-connection.js';
import { DEMO_TENANT_ID } from '../../src/sim/tenants/demo-tenant.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground } from '../support/agents-playground.js';
import { REPO_ROOT } from '../support/browser.js';
import { freePort, startLocalService } from '../support/local-service.js';
import { recordCredential, recordServerLog } from '../support/suite-log.js';
import type { LocalService } from '../support/local-service.js';

const NOTIFY_KEY = 'crash-test-notify-key-0123456789';
recordCredential(NOTIFY_KEY);
const directory = mkdtempSync(join(tmpdir(), 'dmhealth-notify-crash-'));
let port: number;
let app: LocalService | undefined;
/** Every app process started, for their output in the suite log. */
const apps: LocalService[] = [];
let playground: Playground;
let store: FileStateStore;

/** The app as `npm start` runs it on the demo tenant, as a process of its own that a test can kill. */
async function startApp(): Promise<LocalService> {
  const env: Record<string, string> = { PORT: String(port), STATE_STORE: `file:${directory}`, NOTIFY_API_KEY: NOTIFY_KEY };
  for (const name of ['M365_TENANT_ID', 'M365_CLIENT_ID', 'M365_CLIENT_SECRET', 'M365_CLIENT_CERTIFICATE', 'GRAPH_BASE_URL', 'M365_AUTHORITY_HOST', 'BOT_ID', 'BOT_PASSWORD'])
    env[name] = '';
  const started = await startLocalService('The app', [join(REPO_ROOT, 'dist', 'server', 'main.js')], /Listening on http/, { cwd: REPO_ROOT, env });
  apps.push(started);
  return started;
}

async function notify(): Promise<{ status: number; targets?: Array<{ status: string; fresh: number }> }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/notify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${NOTIFY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reports: ['escrow-gaps'] }),
  });
  return { status: response.status, ...((await response.json()) as { targets?: Array<{ status: string; fresh: number }> }) };
}

/**
 * Teams' side, seen through a proxy in front of the Playground's connector: it passes everything on,
 * except that once armed, it lets the next posted card reach the Playground and then kills the app
 * before the app hears that Teams took it.
 */
let proxy: Server;
let killOnNextPost = false;
async function startCuttingProxy(connectorOrigin: string): Promise<string> {
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${connectorOrigin}${req.url}`, {
      method: req.method!,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as Array<[string, string]>),
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    // A card reaches a channel as a new conversation (a thread), or as an activity in one.
    if (killOnNextPost && req.method === 'POST' && /\/v3\/conversations(\/[^/]+\/activities(\/[^/]+)?)?$/.test(req.url ?? '')) {
      killOnNextPost = false;
      app!.child.kill('SIGKILL');
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  port = await freePort();
  app = await startApp();
  playground = await startPlayground(`http://127.0.0.1:${port}/api/messages`);
  const team = playground.config.teams[0]!;
  await playground.install(team.id);
  // The store of the server, which reads the embedded demo tenant.
  store = await FileStateStore.open(directory, { tenant: tenantKeyOf({ demo: true, tenantId: DEMO_TENANT_ID }) });
  for (let attempt = 0; attempt < 100 && (await store.listInstallations()).length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  const [installation] = await store.listInstallations();
  const serviceUrl = new URL(String(installation!.reference.serviceUrl));
  const proxyOrigin = await startCuttingProxy(serviceUrl.origin);
  await store.putInstallation(installation!.key, { ...installation!.reference, serviceUrl: `${proxyOrigin}${serviceUrl.pathname}` }, { overwrite: true });
});

afterAll(async () => {
  await app?.stop();
  for (const started of apps) for (const line of started.output().split('\n').filter(Boolean)) recordServerLog('app process', line);
  await playground?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('a post cut off by kill -9 between Teams taking the card and the ledger recording it', () => {
  it('is posted again after a restart (at least once), saying it may repeat the first, and then not again', async () => {
    const team = playground.config.teams[0]!;
    const cards = () => playground.messages.filter((message) => message.conversationId === team.id && message.cards.length > 0);

    killOnNextPost = true;
    await expect(notify()).rejects.toThrow();
    await playground.waitForMessages(0, 1);
    expect(cards()).toHaveLength(1);
    await new Promise<void>((resolve) => (app!.child.exitCode !== null || app!.child.signalCode !== null ? resolve() : app!.child.once('exit', () => resolve())));
    expect(app!.child.signalCode).toBe('SIGKILL');

    app = await startApp();
    const again = await notify();
    expect(again.status).toBe(200);
    expect(again.targets).toEqual([expect.objectContaining({ status: 'posted' })]);
    await playground.waitForMessages(1, 1);
    expect(cards()).toHaveLength(2);
    const [first, second] = cards().map((message) => JSON.stringify(message.cards));
    expect(second).toContain('was cut off before Teams confirmed it; if it arrived, this card repeats some of it.');
    expect(first).not.toContain('cut off');
    // The same findings, as many as the first card announced.
    const headline = (card: string) => /"text":"(\d+) new findings? in /.exec(card)?.[1];
    expect(headline(second!)).toBe(headline(first!));
    expect(again.targets![0]!.fresh).toBe(Number(headline(first!)));

    expect((await notify()).targets).toEqual([expect.objectContaining({ status: 'nothing-new' })]);
    expect(cards()).toHaveLength(2);
  });
});
