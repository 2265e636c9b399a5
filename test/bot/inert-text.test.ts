import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground, PlaygroundMessage } from '../support/agents-playground.js';
import { startBotServer } from '../support/bot-server.js';
import type { BotServer } from '../support/bot-server.js';
import { simulatorTenantKey, useTestSimulator } from '../support/simulated-tenant.js';
import { cardTexts } from '../support/card-texts.js';

/**
 * A Teams display name is whatever its owner typed: here Markdown for a link and bold, and a line
 * break after which it pretends to be a line of the server's log.
 */
const MARKDOWN_NAME = '[Click to re-authenticate](https://evil.example) **URGENT**';
const SENDER_NAME = `${MARKDOWN_NAME}\nscheduled posts: a forged line`;

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let dataDirectory: string;
let store: StateStore;
let server: BotServer;
let playground: Playground;

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-bot-inert-'));
  store = await openStateStore(`file:${dataDirectory}`, { tenant: simulatorTenantKey(harness.sim) });
  server = await startBotServer(harness.sim, harness.client(), { store, now: () => new Date('2026-11-23T10:00:00Z') });
  playground = await startPlayground(`${server.base}/api/messages`, { currentUserName: SENDER_NAME });
});

afterAll(async () => {
  await playground?.close();
  await server?.close();
  await store?.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

async function ask(text: string): Promise<PlaygroundMessage> {
  const from = playground.messages.length;
  await playground.send(playground.config.personalChat.id, text);
  const [reply] = await playground.waitForMessages(from, 1);
  return reply!;
}

describe('a sender whose display name is Markdown with a line break', () => {
  it('is answered in plain text, quoted on one line, only in text runs of the help card, and logged on one line', async () => {
    // The Playground sends the name it was given, as Teams would.
    expect(playground.config.currentUser.name).toBe(SENDER_NAME);

    const set = await ask('post new findings daily at 9:00 UTC');
    expect(set.text).toContain('From now on I post new findings here daily at 09:00 (UTC)');
    // Plain: Teams shows the text as it is, where Markdown (its reading of a text without a format) would make a link.
    expect(set.textFormat).toBe('plain');

    const shown = await ask('show schedule');
    expect(shown.textFormat).toBe('plain');
    expect(shown.text).toContain(`Set by ${MARKDOWN_NAME} scheduled posts: a forged line. Send "stop posting" to end it.`);
    expect(shown.text).not.toContain('\n');

    const help = await ask('help');
    const texts = cardTexts(help.cards[0]!);
    expect(texts.runs.some((run) => run.includes(`Set by ${MARKDOWN_NAME} scheduled posts: a forged line.`))).toBe(true);
    // Nowhere in a TextBlock, which Teams reads as Markdown.
    expect(texts.blocks.filter((block) => block.includes('evil.example'))).toEqual([]);

    const logged = server.log.filter((line) => line.includes('posting schedule for'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`set by ${MARKDOWN_NAME}\\nscheduled posts: a forged line`);
    for (const line of server.log) expect(line).not.toContain('\n');
  });
});
