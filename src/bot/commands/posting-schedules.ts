import type { PostSchedule, ScheduleBook } from '../../core/schedule/post-schedule.js';
import { errorText } from '../../core/error-text.js';
import type { BotServices } from '../bot-services.js';

/** The conversation's schedule, null for none, `unreadable` when the schedules cannot be read (the reason is logged). */
export async function scheduleOf(services: Pick<BotServices, 'schedules' | 'log'>, channel: string): Promise<PostSchedule | null | 'unreadable'> {
  try {
    return (await services.schedules.read()).schedules.find((schedule) => schedule.channel === channel) ?? null;
  } catch (error) {
    services.log(`could not read the posting schedules: ${errorText(error)}`);
    return 'unreadable';
  }
}

/**
 * A change to the schedules under their lock, or the reply for a change that could not be made
 * (the schedules busy or unreadable, the reason logged).
 */
export async function changeSchedules<T>(
  services: Pick<BotServices, 'schedules' | 'log'>,
  what: string,
  change: (book: ScheduleBook) => { book: ScheduleBook | null; value: T },
): Promise<{ ok: true; value: T } | { ok: false; reply: string }> {
  const changed = await services.schedules.change(change).catch((error: unknown) => {
    services.log(`could not ${what} a posting schedule: ${errorText(error)}`);
    return null;
  });
  return changed?.ok ? { ok: true, value: changed.value } : { ok: false, reply: 'The posting schedules could not be changed just now; try again in a moment.' };
}
