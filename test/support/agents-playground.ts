import { createRequire } from 'node:module';
import { WebSocket } from 'undici';
import { freePort, startLocalService } from './local-service.js';

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
 * Starts the Microsoft 365 Agents Playground, a Teams-like client that works offline, against a
 * bot endpoint on this machine, and follows what the bot sends through the playground's
 * conversation stream.
 */
export async function startPlayground(botEndpoint: string): Promise<Playground> {
  const port = await freePort();
  const service = await startLocalService('The Agents Playground', [CLI, '-e', botEndpoint, '-c', 'msteams', '--dt', '-p', String(port)], /Listening on \d+/);
  const base = `http://127.0.0.1:${port}`;
  const config = ((await (await fetch(`${base}/_internal/v1/config`)).json()) as { config: PlaygroundConfig }).config;

  const messages: PlaygroundMessage[] = [];
  const waiters = new Set<() => void>();
  const stream = new WebSocket(`ws://127.0.0.1:${port}/_ws_conversation/v1/conversations/stream`);
  await new Promise<void>((resolve, reject) => {
    stream.addEventListener('open', () => resolve(), { once: true });
    stream.addEventListener('error', () => reject(new Error('the playground stream did not open')), { once: true });
  });
  stream.addEventListener('message', (event) => {
    const update = JSON.parse(String(event.data)) as { action?: string; actionConversationId?: string; message?: { text?: string; attachments?: Array<{ contentType?: string; content?: Record<string, unknown> }> } };
    if (update.action !== 'createMessage' || !update.message) return;
    messages.push({
      conversationId: update.actionConversationId ?? '',
      text: update.message.text ?? '',
      cards: (update.message.attachments ?? []).filter((attachment) => attachment.contentType === 'application/vnd.microsoft.card.adaptive').map((attachment) => attachment.content ?? {}),
    });
    for (const wake of waiters) wake();
  });

  const post = async (path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
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
    async waitForMessages(from, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
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
    },
    async close() {
      stream.close();
      await service.stop();
    },
  };
}
