import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/** What a hostile Bot Connector answers: a message that would write log lines of its own, in red. */
const FORGED = '[forged] report escrow-gaps: loaded (loaded) in 1 ms';
const HOSTILE_MESSAGE = `connector refused\n${FORGED}\r\u001b[31mred\u2028${FORGED}`;
/** The built server with its modules and the demo tenant: a process, which no clock can stand in for (main.test.ts). */
const PROCESS_WAIT_MS = 45_000;

const stateFolder = mkdtempSync(join(tmpdir(), 'dmhealth-console-lines-'));
let connector: Server;
let connectorUrl: string;
let server: ServerProcess;
let connectorCalls = 0;

beforeAll(async () => {
  connector = createServer((request, response) => {
    connectorCalls++;
    request.resume();
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'ServiceError', message: HOSTILE_MESSAGE } }));
  });
  await new Promise<void>((resolve) => connector.listen(0, '127.0.0.1', resolve));
  connectorUrl = `http://127.0.0.1:${(connector.address() as AddressInfo).port}/`;
  server = await startServerProcess([], { stateFolder, waitMs: PROCESS_WAIT_MS });
}, PROCESS_WAIT_MS + 15_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => connector?.close(resolve));
  rmSync(stateFolder, { recursive: true, force: true });
});

describe("the server process's log, as its packages write it", () => {
  it('writes a hostile Bot Connector error as escaped text on its lines, never as a line of its own', async () => {
    const response = await fetch(`${server.base}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'message',
        id: 'activity-1',
        text: 'help',
        channelId: 'msteams',
        serviceUrl: connectorUrl,
        from: { id: 'user-1', name: 'Someone' },
        recipient: { id: 'bot', name: 'Bot' },
        conversation: { id: 'a:conversation', conversationType: 'personal' },
      }),
    });
    await response.arrayBuffer();
    expect(connectorCalls).toBeGreaterThan(0);
    // botbuilder writes the failed send with console.error once the turn has failed; wait for it.
    await expect.poll(() => server.output(), { timeout: 20_000, interval: 100 }).toContain('connector refused');

    const lines = server.output().split('\n');
    for (const line of lines) {
      expect(line.startsWith(FORGED)).toBe(false);
      for (const control of ['\r', '\u001b', '\u2028']) expect(line).not.toContain(control);
    }
    expect(server.output()).toContain(`connector refused\\n${FORGED}\\r\\u001b[31mred\\u2028`);
  });
});
