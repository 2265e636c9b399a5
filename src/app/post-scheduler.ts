import { StateStoreError } from '../store/state-store.js';
import type { StateStore } from '../store/state-store.js';
import { RETRY_AFTER_MS, dueSlot, recordRun, removeSchedule, scheduleReports } from '../core/schedule/post-schedule.js';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import type { PostSchedule } from '../core/schedule/post-schedule.js';
import type { ScheduleRecords } from './schedule-records.js';
import type { PostOutcome } from './new-findings-poster.js';
import { errorText } from '../core/error-text.js';

export interface ScheduledRun {
  channel: string;
  slot: Date;
  outcome: ScheduledOutcome;
}

/** A run's outcome; `botRemoved` when Teams says the bot is no longer in the conversation (the schedule then ends). */
export type ScheduledOutcome = PostOutcome & { botRemoved?: boolean };

export interface PostSchedulerOptions {
  store: StateStore;
  records: ScheduleRecords;
  /** The reports whose rows carry scope tags now, which a schedule of one scope tag posts (`scheduleReports`). */
  scopeTagged: readonly ReportId[];
  /** The reports as loaded now; a tick loads each set of reports once for all its due schedules. */
  loadReports: (reports: readonly ReportId[]) => Promise<ReportResult[]>;
  /** Posts one schedule's new findings to its channel (TeamsBot.postOnSchedule). */
  post: (schedule: PostSchedule, results: ReportResult[]) => Promise<ScheduledOutcome>;
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
  /** Bumped by start and stop: a loop of an earlier start ends rather than run beside a new one. */
  private generation = 0;
  /**
   * Slots this instance posted but could not record (the schedules were busy or unreadable), by
   * run key, until when: such a slot is recorded again, not posted again, for that long.
   */
  private readonly unrecorded = new Map<string, number>();

  constructor(private readonly options: PostSchedulerOptions) {}

  /** Ticks now (a slot missed while no server ran is posted at once) and then every `everyMs`. */
  start(everyMs: number): void {
    const generation = ++this.generation;
    clearTimeout(this.timer);
    const loop = () => {
      this.running = this.tick()
        .catch((error: unknown) => this.options.log(`scheduled posts: a tick failed: ${errorText(error)}`))
        .finally(() => {
          if (generation === this.generation) this.timer = setTimeout(loop, everyMs).unref();
        });
    };
    this.timer = setTimeout(loop, 0).unref();
  }

  /** Stops ticking, after the run under way (if any) has finished. */
  async stop(): Promise<void> {
    this.generation += 1;
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
    // One load per set of reports for every channel due now, as /api/notify loads once for all targets.
    const loads = new Map<string, Promise<ReportResult[]>>();
    const resultsFor = (reports: readonly ReportId[]) => {
      const key = [...reports].sort().join(',');
      let loading = loads.get(key);
      if (!loading) loads.set(key, (loading = this.options.loadReports(reports)));
      return loading;
    };
    const runs: ScheduledRun[] = [];
    for (const schedule of schedules.filter((candidate) => dueSlot(candidate, this.options.now()) !== null)) {
      // One schedule that fails (a store that answers oddly, a post that throws) never stops the others.
      try {
        const locked = await store.withLock(`schedule:${schedule.channel}`, () => this.runUnderLock(schedule, resultsFor), { waitMs: 0 });
        if (locked.ok && locked.value) runs.push(locked.value);
      } catch (error) {
        log(`scheduled post to ${schedule.name}: ${errorText(error)}`);
        const slot = dueSlot(schedule, this.options.now());
        // Tried again after the pause, like any failed run; if even this cannot be written, the next tick tries.
        if (slot) await this.record(schedule, slot, { status: 'failed', message: errorText(error), succeeded: false }).catch(() => undefined);
      }
    }
    return runs;
  }

  private async runUnderLock(seen: PostSchedule, resultsFor: (reports: readonly ReportId[]) => Promise<ReportResult[]>): Promise<ScheduledRun | null> {
    const { records, log } = this.options;
    // Read again under the lock: another instance may have run this slot, or someone changed the schedule.
    const schedule = (await records.read()).schedules.find((candidate) => candidate.channel === seen.channel && candidate.setAt === seen.setAt);
    const slot = schedule ? dueSlot(schedule, this.options.now()) : null;
    if (!schedule || !slot) return null;
    const key = `${schedule.channel}\n${schedule.setAt}\n${slot.toISOString()}`;
    const posted = this.unrecorded.get(key);
    if (posted !== undefined && posted > this.options.now().getTime()) {
      // Posted already by this instance; only its record is missing.
      if (await this.record(schedule, slot, { status: 'posted', succeeded: true })) this.unrecorded.delete(key);
      return null;
    }
    const outcome = await this.options.post(schedule, await resultsFor(scheduleReports(schedule, this.options)));
    log(`scheduled post to ${schedule.name} for ${slot.toISOString()}: ${outcome.status}, ${outcome.fresh} new${outcome.message ? ` (${outcome.message})` : ''}`);
    if (outcome.botRemoved) {
      // Nobody there can send "stop posting" any more, and every retry would load the reports again.
      const removed = await records.change((book) => ({ book: removeSchedule(book, schedule.channel).book, value: true }));
      if (removed.ok) {
        log(`scheduled posts to ${schedule.name}: stopped, as the bot is no longer in that conversation`);
        return { channel: schedule.channel, slot, outcome };
      }
      // The schedules were busy: the run is recorded as failed below, and the next try removes it.
    }
    const succeeded = outcome.status === 'posted' || outcome.status === 'nothing-new';
    const recorded = await this.record(schedule, slot, { status: outcome.status, ...(outcome.message ? { message: outcome.message } : {}), succeeded }).catch((error: unknown) => {
      log(`scheduled post to ${schedule.name}: ${errorText(error)}`);
      return false;
    });
    if (!recorded && succeeded) {
      // Not posted again (a "nothing new" card every tick) while the record is retried.
      this.unrecorded.set(key, this.options.now().getTime() + RETRY_AFTER_MS);
      log(`scheduled post to ${schedule.name}: the schedules could not be written, so this run is recorded later`);
    }
    return { channel: schedule.channel, slot, outcome };
  }

  /** Records a run of `schedule`; false when the schedules were busy. */
  private async record(schedule: PostSchedule, slot: Date, run: { status: string; message?: string; succeeded: boolean }): Promise<boolean> {
    const recorded = await this.options.records.change((book) => ({
      book: recordRun(book, { channel: schedule.channel, setAt: schedule.setAt, slot, ...run, now: this.options.now() }),
      value: true,
    }));
    return recorded.ok;
  }
}
