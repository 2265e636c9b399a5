import { describe, expect, it } from 'vitest';
import { GraphAttempts } from '../../src/graph/graph-attempts.js';
import { withRetryListener } from '../../src/graph/retry-listener.js';
import type { GraphRetry } from '../../src/graph/retry-listener.js';
import { ReportCache, progressSource } from '../../src/app/report-cache.js';
import { describeProgress } from '../../src/tab/reports/progress-text.js';
import { CountingTokenSource, ReplayingTransport } from '../support/replaying-transport.js';
import type { CannedAnswer } from '../support/replaying-transport.js';
import { reportResult } from '../fixtures/report-result.js';
import { PRODUCT_READS } from '../../src/core/upstream-reads.js';
import { UpstreamAllowList } from '../../src/graph/upstream-allow-list.js';

const DEVICES = '/v1.0/deviceManagement/managedDevices';
const OK = { status: 200, body: { value: [{ id: 'a' }] } };

/** Attempts over a script, each wait held until the test releases it, no jitter, a clock at `clock.now`. */
function attemptsOver(script: CannedAnswer[], clock: { now: number }) {
  const waits: Array<{ ms: number; release: () => void }> = [];
  const attempts = new GraphAttempts({
    allowList: new UpstreamAllowList(PRODUCT_READS),
    tokens: new CountingTokenSource(),
    transport: new ReplayingTransport(script),
    userAgent: 'test-agent/1',
    retry: { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxTotalDelayMs: 120_000, throttleWindowMs: 20_000 },
    budget: false,
    sleep: (ms) => new Promise<void>((release) => waits.push({ ms, release })),
    random: () => 0,
    now: () => clock.now,
  });
  return { attempts, waits };
}

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000 && !condition(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe("a retrying source in a load's progress", () => {
  it('the client tells the listener of the work that made the request, and no other', async () => {
    const clock = { now: 0 };
    const { attempts, waits } = attemptsOver([{ status: 503, headers: { 'Retry-After': '8' } }, OK, { status: 503, headers: { 'Retry-After': '1' } }, OK], clock);
    const heard: GraphRetry[] = [];
    const within = withRetryListener(
      (retry) => heard.push(retry),
      () => attempts.sendForJson('GET', new URL(`${DEVICES}?$top=5`, 'https://graph.test')),
    );
    await until(() => waits.length === 1);
    expect(heard).toEqual([{ path: DEVICES, attempt: 1, status: 503, waitMs: 8000 }]);
    waits[0]!.release();
    await within;

    const outside = attempts.sendForJson('GET', new URL(DEVICES, 'https://graph.test'));
    await until(() => waits.length === 2);
    waits[1]!.release();
    await outside;
    expect(heard).toHaveLength(1);
  });

  it("the cache's progress shows the source retrying (attempt, status, when), and drops it once records arrive", async () => {
    const clock = { now: 1_000_000 };
    const { attempts, waits } = attemptsOver([{ status: 503, headers: { 'Retry-After': '8' } }, OK], clock);
    const cache = new ReportCache(
      async (_id, onProgress) => {
        await attempts.sendForJson('GET', new URL(DEVICES, 'https://graph.test'));
        onProgress({ report: 'escrow-gaps', source: 'managedDevices', records: 1 });
        return reportResult('read');
      },
      60_000,
      () => clock.now,
    );
    const loaded = cache.get('escrow-gaps');
    await until(() => waits.length === 1);
    const progress = cache.progress('escrow-gaps');
    expect(progress.sources).toEqual([{ source: 'managedDevices', records: 0, retrying: { attempt: 2, status: 503, waitMs: 8000, at: new Date(1_008_000).toISOString() } }]);
    // The tab's words for it, the wait counting down.
    expect(describeProgress({ ...progress, elapsedMs: 0 }, 1_003_000)).toBe('managedDevices: 0 records, Graph answered 503; retrying, attempt 2 in 5 s');
    waits[0]!.release();
    await loaded;
    expect(cache.progress('escrow-gaps').sources).toEqual([]);
  });

  it('names a source as the reports do: the last segment of its path that is not an id', () => {
    expect(progressSource('/v1.0/deviceManagement/managedDevices')).toBe('managedDevices');
    expect(progressSource('/beta/deviceManagement/deviceConfigurations/0b8a1c6e-1f3e-4e2a-9d1c-1a2b3c4d5e6f/assignments')).toBe('assignments');
    expect(progressSource('/v1.0/informationProtection/bitlocker/recoveryKeys?$top=5')).toBe('recoveryKeys');
  });
});
