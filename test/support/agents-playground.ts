import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import { freePort, startLocalService } from './local-service.js';
import type { LocalService } from './local-service.js';

/** What the Microsoft 365 Agents Playground says about its pretend tenant and conversations. */
export interface PlaygroundConfig {
  tenantId: string;
  bot: { id: string; name: string };
  currentUser: { id: string; name: string };
  personalChat: { id: string; name: string };
  groupChats: Array<{ id: string; name: string }>;
  teams: Array<{ id: string; name: string; channels: Array<{ id: string; name: string }> }>;
}

/** A message the bot sent, as the playground's conversation stream reports it. */
export interface PlaygroundMessage {
  conversationId: string;
  text: string;
  /** How the text is to be read: `plain`, `markdown` (what the Playground takes a text without one for) or `xml`; none without text. */
  textFormat: string | undefined;
  /** Adaptive Card contents among the attachments. */
  cards: Array<Record<string, unknown>>;
}

export interface Playground {
  /** e.g. http://127.0.0.1:41234: the web UI and its APIs. */
  base: string;
  config: PlaygroundConfig;
  /** Every message the bot has sent since the playground started, in order. */
  messages: PlaygroundMessage[];
  /** Sends as the current user; in a group chat or channel the bot sees only a message that mentions it. */
  send(conversationId: string, text: string, options?: { mention?: boolean }): Promise<void>;
  /** Installs the app where the conversation is (installationUpdate add + conversationUpdate). */
  install(conversationId: string): Promise<void>;
  /** Waits until `count` messages have arrived since `from` (an index into `messages`). */
  waitForMessages(from: number, count: number, timeoutMs?: number): Promise<PlaygroundMessage[]>;
  close(): Promise<void>;
}

const CLI = createRequire(import.meta.url).resolve('@microsoft/m365agentsplayground/cli.js');

/**
 * What the Playground is told when tests start it, besides `--dt` (no telemetry events):
 * - never open a browser: by default it runs `xdg-open` once listening, and exits when there is none;
 * - no statsbeat: even with `--dt` it builds an Application Insights client, whose SDK-usage
 *   heartbeat asks the Azure instance metadata service (169.254.169.254) and resolves
 *   westus-0.in.applicationinsights.azure.com; `APPLICATION_INSIGHTS_NO_STATSBEAT` is that SDK's
 *   switch for it (both seen with strace on @microsoft/m365agentsplayground 0.2.28).
 */
export const PLAYGROUND_QUIET_ENV = { TEAMSAPPTESTER_BROWSER: 'none', APPLICATION_INSIGHTS_NO_STATSBEAT: 'true' } as const;

/** The Entra object id the current user sends with each message (`from.aadObjectId`) when a test names them (`currentUserName`). */
export const PLAYGROUND_CURRENT_USER_OBJECT_ID = '00000000-0000-0000-0000-000000000020';

/**
 * The Playground's own default tenant (its built-in `.m365agentsplayground.yml`, version 0.1.1),
 * with the current user named `currentUserName`: the file replaces the built-in one whole, and JSON is YAML.
 */
function playgroundConfigFile(currentUserName: string): string {
  const user = (index: number, name: string, login: string) => ({
    id: `user-id-${index}`,
    name,
    userPrincipleName: `${login}@example.com`,
    aadObjectId: `00000000-0000-0000-0000-00000000000${20 + index}`,
    givenName: name.split(' ')[0],
    surname: name.split(' ')[1],
    email: `${login}@example.com`,
  });
  return JSON.stringify({
    version: '0.1.1',
    tenantId: '00000000-0000-0000-0000-0000000000001',
    bot: { id: '00000000-0000-0000-0000-00000000000011', name: 'Test Bot' },
    currentUser: { ...user(0, 'Alex Wilber', 'alexw'), aadObjectId: PLAYGROUND_CURRENT_USER_OBJECT_ID, name: currentUserName },
    users: [
      user(1, 'Megan Bowen', 'meganb'),
      user(2, 'Adele Vance', 'adelev'),
      user(3, 'Isaiah Langer', 'isaiahl'),
      user(4, 'Patti Fernandez', 'pattif'),
      user(5, 'Lynne Robbins', 'lynner'),
    ],
    personalChat: { id: randomUUID() },
    groupChat: { id: randomUUID(), name: 'Group Chat' },
    team: { id: 'team-id', name: 'My Team', aadGroupId: '00000000-0000-0000-0000-000000000031', channels: [{ id: 'channel-announcements-id', name: 'Announcements' }] },
  });
}

/**
 * Starts the Microsoft 365 Agents Playground, a Teams-like client that works offline, against a
 * bot endpoint on this machine, and follows what the bot sends through the playground's
 * conversation stream. It runs in a folder of its own, where it writes its log. `env` is for the
 * test of what happens when it stops; `currentUserName` names the person who sends the messages
 * (Teams sends their display name with each); anything else leaves it alone.
 */
export async function startPlayground(botEndpoint: string, options: { env?: Record<string, string>; currentUserName?: string } = {}): Promise<Playground> {
  const port = await freePort();
  const workspace = mkdtempSync(join(tmpdir(), 'dmhealth-playground-'));
  // The Playground reads its tenant from this file in the folder it runs in, if there is one.
  if (options.currentUserName !== undefined) writeFileSync(join(workspace, '.m365agentsplayground.yml'), playgroundConfigFile(options.currentUserName));
  let service: LocalService;
  try {
    service = await startLocalService('The Agents Playground', [CLI, '-e', botEndpoint, '-c', 'msteams', '--dt', '-p', String(port)], /Listening on \d+/, {
      cwd: workspace,
      env: { ...PLAYGROUND_QUIET_ENV, ...options.env },
    });
  } catch (error) {
    rmSync(workspace, { recursive: true, force: true });
    throw error;
  }
  const base = `http://127.0.0.1:${port}`;
  let config: PlaygroundConfig;
  let stream: WebSocket | undefined;
  try {
    config = await service.whileRunning(
      (async () => {
        const answer = await fetch(`${base}/_internal/v1/config`);
        if (!answer.ok) throw new Error(`the playground's config answered ${answer.status}`);
        return ((await answer.json()) as { config: PlaygroundConfig }).config;
      })(),
    );
    const opening = new WebSocket(`ws://127.0.0.1:${port}/_ws_conversation/v1/conversations/stream`);
    stream = opening;
    await service.whileRunning(
      new Promise<void>((resolve, reject) => {
        opening.addEventListener('open', () => resolve(), { once: true });
        opening.addEventListener('error', () => reject(new Error('the playground stream did not open')), { once: true });
      }),
    );
  } catch (error) {
    stream?.close();
    await service.stop().catch(() => undefined); // the error that stopped the start says more

    rmSync(workspace, { recursive: true, force: true });
    throw error;
  }

  const messages: PlaygroundMessage[] = [];
  const waiters = new Set<() => void>();
  const conversation = stream;
  conversation.addEventListener('message', (event) => {
    const update = JSON.parse(String(event.data)) as {
      action?: string;
      actionConversationId?: string;
      message?: { text?: string; textFormat?: string; attachments?: Array<{ contentType?: string; content?: Record<string, unknown> }> };
    };
    if (update.action !== 'createMessage' || !update.message) return;
    messages.push({
      conversationId: update.actionConversationId ?? '',
      text: update.message.text ?? '',
      textFormat: update.message.textFormat,
      cards: (update.message.attachments ?? [])
        .filter((attachment) => attachment.contentType === 'application/vnd.microsoft.card.adaptive')
        .map((attachment) => attachment.content ?? {}),
    });
    for (const wake of waiters) wake();
  });

  const post = async (path: string, body?: unknown) => {
    const response = await service.whileRunning(
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }),
    );
    if (!response.ok) throw new Error(`playground ${path} answered ${response.status}: ${await response.text()}`);
  };

  return {
    base,
    config,
    messages,
    async send(conversationId, text, options = {}) {
      const mention = options.mention ? { mentions: [{ mentioned: { id: config.bot.id, name: config.bot.name }, text: `<at>${config.bot.name}</at>` }] } : {};
      await post(`/_conversation/v1/conversations/${encodeURIComponent(conversationId)}/messages`, {
        from: { id: config.currentUser.id },
        text: options.mention ? `<at>${config.bot.name}</at> ${text}` : text,
        textFormat: 'plain',
        ...mention,
      });
    },
    install: (conversationId) => post(`/_debug/conversation/${encodeURIComponent(conversationId)}/installation`),
    waitForMessages(from, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      const arrived = async () => {
        while (messages.length < from + count) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`expected ${count} message(s) from the bot, got ${messages.length - from}: ${JSON.stringify(messages.slice(from))}`);
          await new Promise<void>((resolve) => {
            const wake = () => {
              waiters.delete(wake);
              clearTimeout(timer);
              resolve();
            };
            const timer = setTimeout(wake, left);
            waiters.add(wake);
          });
        }
        return messages.slice(from, from + count);
      };
      return service.whileRunning(arrived());
    },
    async close() {
      conversation.close();
      try {
        await service.stop();
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    },
  };
}
