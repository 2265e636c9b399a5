import { describeCadence, removeSchedule } from '../../core/schedule/post-schedule.js';
import type { Command } from './command.js';
import { changeSchedules } from './posting-schedules.js';

/** `stop posting`: this conversation's schedule ends; `post new findings` still posts when asked. */
export const stopPosting: Command<{ kind: 'stop-posting' }> = {
  name: 'stop posting',
  read: ({ words }) =>
    /^(?:stop|cancel|end|turn off) (?:the )?(?:scheduled )?(?:posting|posts|schedule)(?: new findings)?(?: here)?$/.test(words) ? { kind: 'stop-posting' } : null,
  nearMisses: ['stop posting'],
  helpLines: () => [],
  async handle(request, _reading, context) {
    const { channel } = request.conversation;
    const changed = await changeSchedules(context, 'stop', (book) => {
      const { book: next, removed } = removeSchedule(book, channel);
      return { book: removed ? next : null, value: removed };
    });
    if (!changed.ok) return { text: changed.reply };
    if (!changed.value) return { text: 'Nothing is posted here on a schedule, so there is nothing to stop.' };
    context.log(`posting schedule for ${channel}: stopped`);
    return { text: `Stopped: new findings are no longer posted here ${describeCadence(changed.value)}. "post new findings" still posts them when you ask.` };
  },
};
