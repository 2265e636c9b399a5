import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground, PlaygroundMessage } from '../support/agents-playground.js';
import { REPO_ROOT } from '../support/browser.js';
import { freePort, startLocalService } from '../support/local-service.js';
import type { LocalService } from '../support/local-service.js';
import { recordServerLog } from '../support/suite-log.js';

/**
 * Two instances of the app, as `npm start` runs it, sharing their state in Azurite, on a clock the
 * test sets (test/support/fake-clock/): a daily schedule posts once a day between them, and once
 * after both were down across several slots.
 */
const workspace = mkdtempSync(join(tmpdir(), 'dmhealth-schedule-'));
const clockFile = join(workspace, 'now.txt');
/** Written aside and renamed over, so a server never reads the file half-written. */
const setClock = (iso: string) => {
  writeFileSync(`${clockFile}.next`, iso);
  renameSync(`${clockFile}.next`, clockFile);
};
let azurite: Azurite;
let playground: Playground;
const ports: number[] = [];
let running: LocalService[] = [];
/** Every process started, for the suite log and the count of runs. */
const started: LocalService[] = [];

async function startInstance(port: number): Promise<LocalService> {
  const env: Record<string, string> = {
    PORT: String(port),
    STATE_STORE: azurite.connectionString,
    FAKE_CLOCK_FILE: clockFile,
    FAKE_CLOCK_TICK_MS: '100',
  };
  for (const name of [
    'M365_TENANT_ID',
    'M365_CLIENT_ID',
    'M365_CLIENT_SECRET',
    'M365_CLIENT_CERTIFICATE',
    'GRAPH_BASE_URL',
    'M365_AUTHORITY_HOST',
    'BOT_ID',
    'BOT_PASSWORD',
    'NOTIFY_API_KEY',
  ])
    env[name] = '';
  const instance = await startLocalService(
    'The app',
    ['--import', join(REPO_ROOT, 'test', 'support', 'fake-clock', 'register.mjs'), join(REPO_ROOT, 'dist', 'server', 'main.js')],
    /Listening on http/,
    {
      cwd: REPO_ROOT,
      env,
    },
  );
  started.push(instance);
  return instance;
}

async function startBoth(): Promise<void> {
  running = await Promise.all(ports.map((port) => startInstance(port)));
}

async function stopBoth(): Promise<void> {
  await Promise.all(running.map((instance) => instance.stop()));
  running = [];
}

/** The runs logged by every process so far, by slot. */
function runsBySlot(): Map<string, number> {
  const runs = new Map<string, number>();
  for (const instance of started) {
    for (const [, slot] of instance.output().matchAll(/scheduled post to .+? for (\S+):/g)) runs.set(slot!, (runs.get(slot!) ?? 0) + 1);
  }
  return runs;
}

beforeAll(async () => {
  setClock('2026-11-23T08:00:00Z'); // a Monday
  azurite = await startAzurite();
  ports.push(await freePort(), await freePort());
  await startBoth();
  playground = await startPlayground(`http://127.0.0.1:${ports[0]}/api/messages`);
  // Azurite, two instances of the app and the playground, each bounded on its own (local-service.ts).
}, 240_000);

afterAll(async () => {
  await stopBoth().catch(() => undefined);
  for (const instance of started) for (const line of instance.output().split('\n').filter(Boolean)) recordServerLog('app process (scheduled posts)', line);
  await playground?.close();
  await azurite?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a daily schedule across two instances on Azurite', () => {
  it('posts once a day between them, and once, not once per missed slot, after both were down', async () => {
    const team = playground.config.teams[0]!;
    const channel = team.channels.find((candidate) => candidate.name === 'General') ?? team.channels[0]!;
    const posts = () => playground.messages.filter((message) => message.conversationId === channel.id && message.cards.length > 0);
    /** Every tick of both instances for a while after a post: 20 ticks each at 100 ms. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));
    /** The one post after `before` posts were counted: counted before the clock moves, as a post may arrive at once. */
    const nextPost = async (before: number): Promise<PlaygroundMessage> => {
      await expect.poll(() => posts().length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(before);
      await settle();
      expect(posts()).toHaveLength(before + 1);
      return posts().at(-1)!;
    };

    const from = playground.messages.length;
    await playground.send(channel.id, 'post new findings daily at 9:00 UTC', { mention: true });
    const [confirmation] = await playground.waitForMessages(from, 1);
    expect(confirmation!.text).toContain('From now on I post new findings here daily at 09:00 (UTC), starting Mon 23 Nov, 09:00.');

    // Before its time, nothing.
    setClock('2026-11-23T08:59:00Z');
    await settle();
    expect(posts()).toHaveLength(0);

    setClock('2026-11-23T09:00:10Z');
    expect(JSON.stringify((await nextPost(0)).cards)).toMatch(/\d+ new findings in Contoso \(demo\)/);
    // Later the same day: still one.
    setClock('2026-11-23T17:00:00Z');
    await settle();
    expect(posts()).toHaveLength(1);

    setClock('2026-11-24T09:00:05Z');
    expect(JSON.stringify((await nextPost(1)).cards)).toContain('Nothing new in Contoso (demo)');

    // Both down from Tuesday to Friday afternoon: Wednesday's, Thursday's and Friday's slots pass.
    await stopBoth();
    setClock('2026-11-27T15:00:00Z');
    // The first instance up may post before the second is: nextPost counts from before the start.
    await startBoth();
    await nextPost(2);

    setClock('2026-11-28T09:00:01Z');
    await nextPost(3);
    expect(posts()).toHaveLength(4);
    // One run per slot across both processes; the missed slots are one run, for the latest of them.
    expect(Object.fromEntries(runsBySlot())).toEqual({
      '2026-11-23T09:00:00.000Z': 1,
      '2026-11-24T09:00:00.000Z': 1,
      '2026-11-27T09:00:00.000Z': 1,
      '2026-11-28T09:00:00.000Z': 1,
    });
  }, 120_000);
});
