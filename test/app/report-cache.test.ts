import { describe, expect, it } from 'vitest';
import type { LoadProgress, ReportResult } from '../../src/core/reports/report-model.js';
import { ReportCache } from '../../src/app/report-cache.js';
import { reportResult } from '../fixtures/report-result.js';

/** A loader whose loads the test finishes by hand, counting them. */
function manualLoader() {
  const pending: Array<(value: ReportResult) => void> = [];
  return {
    loads: () => pending.length,
    finish: (index: number, value: ReportResult) => pending[index]!(value),
    load: () => new Promise<ReportResult>((resolve) => pending.push(resolve)),
  };
}

describe('the report cache', () => {
  it('opens an aged report at once with its last good result while one newer load runs, then serves the newer one', async () => {
    let clock = 0;
    const loader = manualLoader();
    const cache = new ReportCache(loader.load, 60_000, () => clock);

    const first = cache.open('escrow-gaps');
    loader.finish(0, reportResult('first'));
    expect(await first).toEqual({ result: reportResult('first'), refreshing: false });

    clock = 61_000; // aged
    const [a, b] = await Promise.all([cache.open('escrow-gaps'), cache.open('escrow-gaps')]);
    expect([a.result.generatedAt, a.refreshing, b.result.generatedAt, b.refreshing]).toEqual(['first', true, 'first', true]);
    expect(loader.loads()).toBe(2); // one newer load for both viewers
    expect(cache.progress('escrow-gaps').loading).toBe(true);

    loader.finish(1, reportResult('second'));
    await cache.get('escrow-gaps');
    expect(await cache.open('escrow-gaps')).toEqual({ result: reportResult('second'), refreshing: false });
    expect(loader.loads()).toBe(2);
  });

  it('waits for an explicit refresh, and a refresh joins a load under way', async () => {
    let clock = 0;
    const loader = manualLoader();
    const cache = new ReportCache(loader.load, 60_000, () => clock);
    const first = cache.open('escrow-gaps');
    loader.finish(0, reportResult('first'));
    await first;
    clock = 61_000;
    await cache.open('escrow-gaps'); // starts the newer load
    const refreshed = cache.open('escrow-gaps', { refresh: true });
    expect(loader.loads()).toBe(2);
    loader.finish(1, reportResult('second'));
    expect(await refreshed).toEqual({ result: reportResult('second'), refreshing: false });
  });

  it('tells progress to whoever waits for a load, from its first event, and to a caller that joins it what was read so far', async () => {
    const heard: string[] = [];
    let finish!: (value: ReportResult) => void;
    let tell!: (progress: LoadProgress) => void;
    const cache = new ReportCache((_id, onProgress) => {
      // Told before the load first waits, as a report's first source does.
      onProgress({ report: 'escrow-gaps', source: 'managedDevices', records: 0 });
      tell = onProgress;
      return new Promise<ReportResult>((resolve) => (finish = resolve));
    });
    const first = cache.get('escrow-gaps', {
      onProgress: (progress) => {
        heard.push(`first ${progress.records}`);
        if (progress.records === 50) throw new Error('a broken progress line');
      },
    });
    tell({ report: 'escrow-gaps', source: 'managedDevices', records: 50 });
    const joined = cache.get('escrow-gaps', { onProgress: (progress) => heard.push(`joined ${progress.records}`) });
    tell({ report: 'escrow-gaps', source: 'managedDevices', records: 80 });
    finish(reportResult('done'));
    expect([(await first).generatedAt, (await joined).generatedAt]).toEqual(['done', 'done']);
    // The first caller's listener failed at 50 and heard no more; the load went on for both.
    expect(heard).toEqual(['first 0', 'first 50', 'joined 50', 'joined 80']);
  });

  it('tells progress to whoever waits for a load, a caller that joins it included, and settles once every load under way has ended', async () => {
    const loaded: ReportResult[] = [];
    const progressed: string[] = [];
    const held: Array<{ onProgress: (progress: LoadProgress) => void; finish: (value: ReportResult) => void }> = [];
    const cache = new ReportCache((_id, onProgress) => new Promise<ReportResult>((resolve) => held.push({ onProgress, finish: resolve })));
    const first = cache.get('escrow-gaps', { onProgress: (progress) => progressed.push(`first ${progress.records}`) });
    const joined = cache.get('escrow-gaps', { onProgress: (progress) => progressed.push(`joined ${progress.records}`) });
    held[0]!.onProgress({ report: 'escrow-gaps', source: 'managedDevices', records: 100 });
    expect(progressed).toEqual(['first 100', 'joined 100']);

    let settled = false;
    const settling = cache.settled().then(() => (settled = true));
    // A load that starts while the first is under way is waited for too.
    const other = cache.get('connector-health');
    held[0]!.finish(reportResult('first'));
    loaded.push(await first, await joined);
    await Promise.resolve();
    expect(settled).toBe(false);
    held[1]!.finish(reportResult('other'));
    await Promise.all([other, settling]);
    expect(settled).toBe(true);
    expect(loaded.map((result) => result.generatedAt)).toEqual(['first', 'first']);
    expect(held).toHaveLength(2);
  });
});
