import { describeCadence, describePosts, describeSlot, nextSlotAfter } from '../../core/schedule/post-schedule.js';
import type { PostSchedule } from '../../core/schedule/post-schedule.js';
import { capitalise } from '../../core/reports/graph-values.js';
import { cardText } from './adaptive-card.js';

/** What the help card says of a conversation without a schedule: how to set one. */
export const NO_SCHEDULE =
  'Nothing is posted here on a schedule. Send "post new findings daily at 9:00" or "post new findings weekly on monday" to start; times are in your time zone as Teams gives it (UTC if it does not), or in one you name.';

/**
 * A conversation's schedule as the help card and the schedule's own answers say it: when it posts,
 * when next, how the last run went, and how to stop it. Null for no schedule; `unreadable` when
 * the schedules could not be read.
 */
export function scheduleSentence(schedule: PostSchedule | null | 'unreadable', now: Date): string {
  if (schedule === 'unreadable') return 'The posting schedule could not be read just now; try again in a moment.';
  if (!schedule) return NO_SCHEDULE;
  const last = schedule.lastRun
    ? ` The last run (${describeSlot(new Date(schedule.lastRun.at), schedule.timeZone)}) ${LAST_RUN_WORDS[schedule.lastRun.status] ?? schedule.lastRun.status}.`
    : '';
  return (
    `${capitalise(cardText(describePosts(schedule), 160))} are posted here ${describeCadence(schedule)}; next on ${describeSlot(nextSlotAfter(schedule, now), schedule.timeZone)}.${last} ` +
    // The name as Teams gave it, on one line: a line break in it must not start a line of the answer's own.
    `Set by ${cardText(schedule.setBy, 100)}. Send "stop posting" to end it.`
  );
}

const LAST_RUN_WORDS: Record<string, string> = {
  posted: 'posted new findings',
  'nothing-new': 'found nothing new',
  failed: 'failed and is tried again',
  busy: 'found another post under way and is tried again',
};
