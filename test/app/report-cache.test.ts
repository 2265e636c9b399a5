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

describe("the report cache's records and other loads", () => {
  /** A stand-in for a report whose records the cache may keep: only its id and the type of its records matter. */
  const report = 'escrow-gaps';

  it('keeps the records a load hands over beside its result, for a report asked for, and serves them while fresh', async () => {
    let clock = 0;
    const requests: Array<{ refresh: boolean; onRecords?: unknown }> = [];
    let loads = 0;
    const cache = new ReportCache(
      async (_id, _onProgress, request) => {
        requests.push(request!);
        loads += 1;
        request?.onRecords?.({ devices: loads });
        return reportResult(`load ${loads}`);
      },
      60_000,
      () => clock,
    );
    await cache.get('connector-health');
    expect(requests[0]).toEqual({ refresh: false }); // asked of no report yet: nothing is kept
    cache.keepRecordsOf('escrow-gaps');
    expect(await cache.recordsOf(report)).toEqual({ records: { devices: 2 }, at: 0 });
    clock = 30_000;
    expect(await cache.recordsOf(report)).toEqual({ records: { devices: 2 }, at: 0 });
    expect((await cache.get('escrow-gaps')).generatedAt).toBe('load 2'); // the report's viewers take that load
    expect(loads).toBe(2);
    clock = 61_000; // aged: loaded again, for the report too
    expect(await cache.recordsOf(report)).toEqual({ records: { devices: 3 }, at: 61_000 });
    expect(await cache.recordsOf(report, { refresh: true })).toEqual({ records: { devices: 4 }, at: 61_000 });
    expect((await cache.get('escrow-gaps')).generatedAt).toBe('load 4');
  });

  it('has no records for a result that came without them or a load that failed, and joins a load under way', async () => {
    const loader = manualLoader();
    const cache = new ReportCache(loader.load, 60_000, () => 0);
    cache.keepRecordsOf('escrow-gaps');
    const viewer = cache.get('escrow-gaps');
    const records = cache.recordsOf(report);
    expect(loader.loads()).toBe(1);
    loader.finish(0, reportResult('served by another instance'));
    await viewer;
    expect(await records).toBeNull();

    const failing = new ReportCache(
      async () => reportResult('failed', [], { state: 'load-error' }),
      60_000,
      () => 0,
    );
    failing.keepRecordsOf('escrow-gaps');
    expect(await failing.recordsOf(report)).toBeNull();
  });

  it('loads a value once for everyone while it is fresh, from its oldest read, and not a failed one', async () => {
    let clock = 0;
    const cache = new ReportCache(manualLoader().load, 60_000, () => clock);
    let loads = 0;
    const load = async () => ({ n: (loads += 1), readAt: clock - 20_000 });
    const [a, b] = await Promise.all([cache.keep('reads', load), cache.keep('reads', load)]);
    expect([a.n, b.n]).toEqual([1, 1]);
    expect((await cache.keep('reads', load, { refresh: true })).n).toBe(2);
    expect((await cache.keep('other', load)).n).toBe(3); // another name, another value

    const aged = await cache.keep('aged', load, { readAt: (value) => value.readAt });
    clock = 45_000; // 45 s after its load started, 65 s after its oldest read
    expect((await cache.keep('aged', load, { readAt: (value) => value.readAt })).n).toBe(aged.n + 1);

    let failures = 0;
    const failing = async () => {
      failures += 1;
      throw new Error('down');
    };
    await expect(cache.keep('failing', failing)).rejects.toThrow('down');
    await expect(cache.keep('failing', failing)).rejects.toThrow('down');
    expect(failures).toBe(2);
  });
});
