import { StateStoreError } from '../core/store/state-store.js';
import type { StateStore } from '../core/store/state-store.js';
import { dueSlot, recordRun } from '../core/schedule/post-schedule.js';
import type { PostSchedule } from '../core/schedule/post-schedule.js';
import type { ScheduleRecords } from '../core/schedule/schedule-records.js';
import type { PostOutcome } from './new-findings-poster.js';

export interface ScheduledRun {
  channel: string;
  slot: Date;
  outcome: PostOutcome;
}

export interface PostSchedulerOptions {
  store: StateStore;
  records: ScheduleRecords;
  /** Posts one schedule's new findings to its channel (TeamsBot.postOnSchedule). */
  post: (schedule: PostSchedule) => Promise<PostOutcome>;
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Runs the channels' posting schedules (docs/architecture.md, "Scheduled posts"). Every instance
 * ticks; a schedule's run happens under a lock of its own in the state store, taken without
 * waiting, and the schedule is read again under it, so of several instances ticking at once one
 * posts and the others find the slot closed. A slot closes when its run posted or found nothing
 * new; a run that failed is tried again later (post-schedule.ts, RETRY_AFTER_MS), until the next slot.
 */
export class PostScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(private readonly options: PostSchedulerOptions) {}

  /** Ticks now (a slot missed while no server ran is posted at once) and then every `everyMs`. */
  start(everyMs: number): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      this.running = this.tick()
        .catch((error: unknown) => this.options.log(`scheduled posts: a tick failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, everyMs).unref();
        });
    };
    this.timer = setTimeout(loop, 0).unref();
  }

  /** Stops ticking, after the run under way (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs every schedule that owes a post now; the runs this instance made. */
  async tick(): Promise<ScheduledRun[]> {
    const { records, store, log } = this.options;
    let schedules: PostSchedule[];
    try {
      schedules = (await records.read()).schedules;
    } catch (error) {
      if (!(error instanceof StateStoreError)) throw error;
      log(`scheduled posts: ${error.message}`);
      return [];
    }
    const runs: ScheduledRun[] = [];
    // One after another: a handful of channels, each a post of cached reports.
    for (const schedule of schedules.filter((candidate) => dueSlot(candidate, this.options.now()) !== null)) {
      const locked = await store.withLock(`schedule:${schedule.channel}`, () => this.runUnderLock(schedule), { waitMs: 0 });
      if (locked.ok && locked.value) runs.push(locked.value);
    }
    return runs;
  }

  private async runUnderLock(seen: PostSchedule): Promise<ScheduledRun | null> {
    const { records, log } = this.options;
    // Read again under the lock: another instance may have run this slot, or someone changed the schedule.
    const schedule = (await records.read()).schedules.find((candidate) => candidate.channel === seen.channel && candidate.setAt === seen.setAt);
    const slot = schedule ? dueSlot(schedule, this.options.now()) : null;
    if (!schedule || !slot) return null;
    const outcome = await this.options.post(schedule);
    const succeeded = outcome.status === 'posted' || outcome.status === 'nothing-new';
    log(`scheduled post to ${schedule.name} for ${slot.toISOString()}: ${outcome.status}, ${outcome.fresh} new${outcome.message ? ` (${outcome.message})` : ''}`);
    const recorded = await records.change((book) => ({
      book: recordRun(book, {
        channel: schedule.channel,
        setAt: schedule.setAt,
        slot,
        status: outcome.status,
        ...(outcome.message ? { message: outcome.message } : {}),
        succeeded,
        now: this.options.now(),
      }),
      value: true,
    }));
    // The ledger keeps the findings from being posted twice; the next tick may post "nothing new" again.
    if (!recorded.ok) log(`scheduled post to ${schedule.name}: the schedules were busy, so this run is not recorded`);
    return { channel: schedule.channel, slot, outcome };
  }
}
