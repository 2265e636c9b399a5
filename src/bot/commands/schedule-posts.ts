import { describeCadence, describeSlot, nextSlotAfter, setSchedule } from '../../core/schedule/post-schedule.js';
import type { ScheduleRequest } from '../../core/schedule/post-schedule.js';
import type { BotRequest, Command, CommandContext } from './command.js';
import { changeSchedules } from './posting-schedules.js';
import { SCHEDULE_PATTERN, readScheduleRequest } from './schedule-grammar.js';

/** A schedule as asked (schedule-grammar.ts), or why it was not understood. */
type ScheduleReading = { kind: 'schedule-posts'; request: ScheduleRequest } | { kind: 'schedule-not-understood'; message: string };

/**
 * `post new findings daily at 9:00`: this conversation's schedule, set or replaced; or what was not
 * understood in it. The help card tells of it on the line of `post new findings` and in its own
 * section, so it has no line of its own.
 */
export const schedulePosts: Command<ScheduleReading> = {
  name: 'post new findings <when>',
  read({ words }) {
    const when = SCHEDULE_PATTERN.exec(words)?.[1];
    if (when === undefined) return null;
    const reading = readScheduleRequest(when);
    return reading.ok ? { kind: 'schedule-posts', request: reading.request } : { kind: 'schedule-not-understood', message: reading.message };
  },
  nearMisses: ['post new findings daily at 9:00'],
  helpLines: () => [],
  async handle(request, reading, context) {
    if (reading.kind === 'schedule-posts') return { text: await replySetSchedule(request, reading.request, context) };
    return {
      text: `${reading.message} For example: "post new findings daily at 9:00", "post new findings weekly on monday at 14:30", or "post new findings daily at 8 am Europe/Berlin".`,
    };
  },
};

/**
 * The schedule set, in the time zone the message names, else the sender's (Teams sends it with
 * each message as `localTimezone`, an IANA name), else UTC. Scheduled posts go to the channel,
 * not the thread.
 */
async function replySetSchedule(request: BotRequest, scheduleRequest: ScheduleRequest, context: CommandContext): Promise<string> {
  const { channel } = request.conversation;
  const now = context.now();
  const changed = await changeSchedules(context, 'set', (book) => {
    const change = setSchedule(book, scheduleRequest, {
      channel,
      name: request.conversation.name ?? 'this conversation',
      reference: request.conversation.channelReference,
      reports: [...context.registry.postedByDefault],
      setBy: request.sender.name ?? 'someone',
      senderTimeZone: request.sender.timeZone,
      now,
    });
    return { book: change.ok ? change.book : null, value: change };
  });
  if (!changed.ok) return changed.reply;
  const change = changed.value;
  if (!change.ok) return change.message;
  const { schedule } = change;
  context.log(`posting schedule for ${channel}: ${describeCadence(schedule)}, set by ${schedule.setBy}`);
  const zoneNote = change.zoneFrom === 'default' ? ' Teams did not say your time zone, so the time is UTC; add one to the command ("… at 9:00 Europe/Berlin") to change it.' : '';
  return (
    `From now on I post new findings here ${describeCadence(schedule)}, starting ${describeSlot(nextSlotAfter(schedule, now), schedule.timeZone)}` +
    `${change.replaced ? ` (instead of ${describeCadence(change.replaced)})` : ''}. A post missed while the server is down follows once when it is back.${zoneNote} Send "stop posting" to end it.`
  );
}
