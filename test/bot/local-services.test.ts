import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYGROUND_QUIET_ENV, startPlayground } from '../support/agents-playground.js';
import { freePort, startLocalService } from '../support/local-service.js';

// A stand-in for xdg-open, first on the PATH, that only writes down what it was asked to open.
const fakeBin = mkdtempSync(join(tmpdir(), 'dmhealth-fake-xdg-open-'));
const openedLog = join(fakeBin, 'opened.log');
writeFileSync(join(fakeBin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${openedLog}'\n`);
chmodSync(join(fakeBin, 'xdg-open'), 0o755);
const PATH_WITH_FAKE_OPENER = `${fakeBin}${delimiter}${process.env.PATH ?? ''}`;

// The Playground waits for its bot endpoint to answer before it serves its config: any answer will do.
const bot = createServer((_request, response) => response.end());
let botEndpoint: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
  botEndpoint = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/api/messages`;
});
afterAll(async () => {
  await new Promise((resolve) => bot.close(resolve));
  rmSync(fakeBin, { recursive: true, force: true });
});

/**
 * What the Playground opened as a browser: waited for when it is `expected` to open one; otherwise
 * looked for a second after its start (no wait can prove it never opens one; it opens one, when it
 * does, as it starts listening).
 */
async function browserOpenedByPlayground(env: Record<string, string>, expected: boolean): Promise<string | null> {
  rmSync(openedLog, { force: true });
  const playground = await startPlayground(botEndpoint, { env: { PATH: PATH_WITH_FAKE_OPENER, ...env } });
  try {
    await playground.install(playground.config.personalChat.id);
    if (expected) await expect.poll(() => existsSync(openedLog), { timeout: 20_000, interval: 50 }).toBe(true);
    else await new Promise((resolve) => setTimeout(resolve, 1_000));
  } finally {
    // Fails if the Playground tried to reach beyond loopback (telemetry, for one).
    await playground.close();
  }
  return existsSync(openedLog) ? readFileSync(openedLog, 'utf8') : null;
}

describe('the Agents Playground as the tests start it', () => {
  it('opens no browser and reaches nothing beyond loopback', async () => {
    expect(await browserOpenedByPlayground({}, false)).toBeNull();
  });

  it('would open one if not told otherwise: the probe above sees a browser being opened', async () => {
    expect(await browserOpenedByPlayground({ TEAMSAPPTESTER_BROWSER: '' }, true)).toMatch(/^http:\/\/localhost:\d+/);
  });

  it('is told what PLAYGROUND_QUIET_ENV says', () => {
    expect(PLAYGROUND_QUIET_ENV).toEqual({ TEAMSAPPTESTER_BROWSER: 'none', APPLICATION_INSIGHTS_NO_STATSBEAT: 'true' });
  });
});

describe('a local service that stops right after saying it is ready', () => {
  it('is reported with its own output and exit code, not with the refused connection', async () => {
    const port = await freePort();
    // What the Playground did where xdg-open was missing: listen, then die of an uncaught error.
    const program = `console.log('Listening on ${port}'); setTimeout(() => { console.error('Error: spawn xdg-open ENOENT'); process.exit(1); }, 100);`;
    const service = await startLocalService('The stand-in', ['--eval', program], /Listening on \d+/);
    try {
      // Until it has died, as the Playground had by the time a test reached it.
      await expect.poll(() => service.child.exitCode, { timeout: 20_000, interval: 20 }).not.toBeNull();
      await expect(service.whileRunning(fetch(`http://127.0.0.1:${port}/`))).rejects.toThrow(/^The stand-in exited \(1\):\nListening on \d+\nError: spawn xdg-open ENOENT/);
    } finally {
      await service.stop();
    }
  });
});

describe('freePort', () => {
  it('hands out distinct loopback ports below the ephemeral range, skipping one already taken', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const first = await freePort();
    // A port a connection might be given meanwhile is never one freePort hands out.
    expect(first).toBeLessThan(low);
    // Someone binds the next one outright: freePort passes over it.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(first + 1, '127.0.0.1', resolve));
    try {
      const second = await freePort();
      expect(second).toBeLessThan(low);
      expect(second).not.toBe(first);
      expect(second).not.toBe(first + 1);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
