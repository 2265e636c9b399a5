import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostScheduler } from '../../src/app/post-scheduler.js';
import type { ScheduledOutcome } from '../../src/app/post-scheduler.js';
import type { ReportId, ReportResult } from '../../src/core/reports/report-model.js';
import { setSchedule } from '../../src/core/schedule/post-schedule.js';
import { readScheduleRequest } from '../../src/bot/commands/schedule-grammar.js';
import type { PostSchedule, ScheduleBook } from '../../src/core/schedule/post-schedule.js';
import { ScheduleRecords } from '../../src/app/schedule-records.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { reportResult } from '../fixtures/report-result.js';

let directory: string;
let store: FileStateStore;
let records: ScheduleRecords;
let now: Date;
const lines: string[] = [];

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-scheduler-'));
  store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
  records = new ScheduleRecords(store);
  now = new Date('2026-11-23T08:00:00Z');
  lines.length = 0;
});

afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Daily at 9:00 UTC in each of these channels, set at `now`. */
async function schedule(...channels: string[]): Promise<void> {
  const reading = readScheduleRequest('daily at 9 00 utc');
  if (!reading.ok) throw new Error(reading.message);
  await records.change((book) => {
    let next: ScheduleBook = book;
    for (const channel of channels) {
      const change = setSchedule(next, reading.request, { channel, name: channel, reference: {}, reports: ['escrow-gaps'], setBy: 'Megan', senderTimeZone: null, now });
      if (!change.ok) throw new Error(change.message);
      next = change.book;
    }
    return { book: next, value: null };
  });
}

const outcome = (schedule: PostSchedule, status: ScheduledOutcome['status']): ScheduledOutcome => ({
  channel: schedule.channel,
  name: schedule.name,
  status,
  fresh: 0,
  resolved: 0,
  loadErrors: [],
});

/** The reports whose rows carry scope tags, as the registry declares them now. */
const SCOPE_TAGGED: ReportId[] = ['assignment-hygiene', 'security-posture', 'escrow-gaps'];

function scheduler(
  post: (schedule: PostSchedule, results: ReportResult[]) => Promise<ScheduledOutcome>,
  loads: ReportId[][] = [],
  schedules: ScheduleRecords = records,
): PostScheduler {
  return new PostScheduler({
    store,
    records: schedules,
    loadReports: async (reports) => {
      loads.push([...reports]);
      return reports.map((id) => ({ ...reportResult(now.toISOString()), report: id }));
    },
    scopeTagged: SCOPE_TAGGED,
    post,
    now: () => now,
    log: (line) => lines.push(line),
  });
}

/** The schedules as stored, except that the next change once `busy` is set finds them busy, as under another instance's long hold. */
class BusyOnce extends ScheduleRecords {
  busy = false;
  override change<T>(change: (book: ScheduleBook) => { book: ScheduleBook | null; value: T }) {
    if (!this.busy) return super.change(change);
    this.busy = false;
    return Promise.resolve({ ok: false as const, reason: 'busy' as const });
  }
}

describe('the post scheduler', () => {
  it('loads the reports once for every channel due at the same slot', async () => {
    await schedule('channel-a', 'channel-b', 'channel-c');
    const loads: ReportId[][] = [];
    const posted: string[] = [];
    const runs = scheduler(async (due, results) => {
      expect(results.map((result) => result.report)).toEqual(['escrow-gaps']);
      posted.push(due.channel);
      return outcome(due, 'posted');
    }, loads);
    now = new Date('2026-11-23T09:00:10Z');
    expect(await runs.tick()).toHaveLength(3);
    expect(posted.sort()).toEqual(['channel-a', 'channel-b', 'channel-c']);
    expect(loads).toEqual([['escrow-gaps']]);
  });

  it('posts a schedule of one scope tag the reports that carry tags now, not the list kept when it was set; one of the whole tenant its own', async () => {
    await schedule('whole-tenant');
    const reading = readScheduleRequest('daily at 9 00 utc');
    if (!reading.ok) throw new Error(reading.message);
    // Set when only report 3's rows carried tags, by someone whose roles read everything: the list kept with it names report 3 alone.
    await records.change((book) => {
      const change = setSchedule(book, reading.request, {
        channel: 'europe',
        name: 'europe',
        reference: {},
        reports: ['security-posture'],
        scopeTag: { id: '1', name: 'Europe' },
        setterReads: 'all',
        setBy: 'Megan',
        senderTimeZone: null,
        now,
      });
      if (!change.ok) throw new Error(change.message);
      return { book: change.book, value: null };
    });
    const loads: ReportId[][] = [];
    const posted = new Map<string, ReportId[]>();
    const runs = scheduler(async (due, results) => {
      posted.set(
        due.channel,
        results.map((result) => result.report),
      );
      return outcome(due, 'posted');
    }, loads);
    now = new Date('2026-11-23T09:00:10Z');
    expect(await runs.tick()).toHaveLength(2);
    expect(Object.fromEntries(posted)).toEqual({ 'whole-tenant': ['escrow-gaps'], europe: SCOPE_TAGGED });
    expect(loads.map((load) => [...load].sort())).toEqual(expect.arrayContaining([['escrow-gaps'], [...SCOPE_TAGGED].sort()]));
    expect(loads).toHaveLength(2);
  });

  it('goes on to the other channels when one run throws, and tries that one again after the pause', async () => {
    await schedule('broken', 'fine');
    const posted: string[] = [];
    const runs = scheduler(async (due) => {
      if (due.channel === 'broken') throw new Error('the card could not be built');
      posted.push(due.channel);
      return outcome(due, 'posted');
    });
    now = new Date('2026-11-23T09:00:10Z');
    await runs.tick();
    expect(posted).toEqual(['fine']);
    const broken = (await records.read()).schedules.find((candidate) => candidate.channel === 'broken')!;
    expect(broken.lastRun).toMatchObject({ status: 'failed', message: 'the card could not be built' });
    expect(broken.retryAt).toBe('2026-11-23T09:10:10.000Z');
    expect(lines.join('\n')).toContain('scheduled post to broken: the card could not be built');
  });

  it('ends a schedule whose conversation the bot was removed from', async () => {
    await schedule('gone', 'kept');
    const runs = scheduler(async (due) => (due.channel === 'gone' ? { ...outcome(due, 'failed'), botRemoved: true } : outcome(due, 'posted')));
    now = new Date('2026-11-23T09:00:10Z');
    await runs.tick();
    expect((await records.read()).schedules.map((candidate) => candidate.channel)).toEqual(['kept']);
  });

  it('records later, rather than posting again, a run whose record found the schedules busy', async () => {
    await schedule('channel-a');
    const schedules = new BusyOnce(store);
    let posts = 0;
    const runs = scheduler(
      async (due) => {
        posts += 1;
        schedules.busy = true;
        return outcome(due, 'posted');
      },
      [],
      schedules,
    );
    now = new Date('2026-11-23T09:00:10Z');
    await runs.tick();
    expect((await records.read()).schedules[0]!.lastSlot).toBeNull();
    expect(lines.join('\n')).toContain('scheduled post to channel-a: the schedules could not be written, so this run is recorded later');
    now = new Date('2026-11-23T09:00:40Z');
    await runs.tick();
    expect(posts).toBe(1);
    expect((await records.read()).schedules[0]!.lastSlot).toBe('2026-11-23T09:00:00.000Z');
  });

  it('keeps, and tries again, a schedule whose conversation the bot left when its removal found the schedules busy', async () => {
    await schedule('gone');
    const schedules = new BusyOnce(store);
    const runs = scheduler(
      async (due) => {
        schedules.busy = true;
        return { ...outcome(due, 'failed'), botRemoved: true };
      },
      [],
      schedules,
    );
    now = new Date('2026-11-23T09:00:10Z');
    await runs.tick();
    const [kept] = (await records.read()).schedules;
    expect(kept).toMatchObject({ channel: 'gone', lastRun: { status: 'failed' }, retryAt: '2026-11-23T09:10:10.000Z' });
    expect(lines.join('\n')).not.toContain('stopped, as the bot is no longer in that conversation');
  });

  it('stops ticking when stopped, and a new start runs one loop, not two', async () => {
    await schedule('channel-a');
    let posts = 0;
    const runs = scheduler(async (due) => {
      posts += 1;
      return outcome(due, 'posted');
    });
    now = new Date('2026-11-23T09:00:10Z');
    runs.start(10);
    runs.start(10);
    await expect.poll(() => posts).toBe(1);
    await runs.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts).toBe(1);
  });

  it('posts nothing and says why when the schedules are torn, and leaves them for someone to move aside', async () => {
    await store.writeDocument('schedules', '{"version":1,"schedules":[{"channel":');
    let posts = 0;
    const runs = scheduler(async (due) => {
      posts += 1;
      return outcome(due, 'posted');
    });
    now = new Date('2026-11-23T09:00:10Z');
    expect(await runs.tick()).toEqual([]);
    expect(posts).toBe(0);
    expect(lines).toContain('scheduled posts: The posting schedules in the state store are not readable; move tenants/test-tenant/documents/schedules.json aside to start afresh.');
    await expect(records.change((book) => ({ book, value: null }))).rejects.toThrow('not readable');
    expect(await store.readDocument('schedules')).toBe('{"version":1,"schedules":[{"channel":');
  });
});
