import { describeCadence, describePosts, removeSchedule } from '../../core/schedule/post-schedule.js';
import type { PostSchedule } from '../../core/schedule/post-schedule.js';
import type { Command } from './command.js';
import { changeSchedules } from './posting-schedules.js';
import { mayChangeSchedule, notYourSchedule } from './schedule-posts.js';

/**
 * `stop posting`: this conversation's schedule ends; `post new findings` still posts when asked.
 * With the viewer scope on, an asker limited to scope tags stops only a schedule of one of their
 * tags (docs/finding-rules.md, "Viewer scope").
 */
export const stopPosting: Command<{ kind: 'stop-posting' }> = {
  name: 'stop posting',
  read: ({ words }) =>
    /^(?:stop|cancel|end|turn off) (?:the )?(?:scheduled )?(?:posting|posts|schedule)(?: new findings)?(?: here)?$/.test(words) ? { kind: 'stop-posting' } : null,
  nearMisses: ['stop posting'],
  helpLines: () => [],
  viewerScope: 'in-scope',
  async handle(request, _reading, context) {
    const { channel } = request.conversation;
    const changed = await changeSchedules(context, 'stop', (book): { book: typeof book | null; value: { removed: PostSchedule | null; refused?: string } } => {
      const current = book.schedules.find((schedule) => schedule.channel === channel);
      if (current && !mayChangeSchedule(context.scope, current)) return { book: null, value: { removed: null, refused: notYourSchedule(context.scope, current) } };
      const { book: next, removed } = removeSchedule(book, channel);
      return { book: removed ? next : null, value: { removed } };
    });
    if (!changed.ok) return { text: changed.reply };
    if (changed.value.refused) return { text: changed.value.refused };
    const { removed } = changed.value;
    if (!removed) return { text: 'Nothing is posted here on a schedule, so there is nothing to stop.' };
    context.log(`posting schedule for ${channel}: stopped`);
    return { text: `Stopped: ${describePosts(removed)} are no longer posted here ${describeCadence(removed)}. "post new findings" still posts them when you ask.` };
  },
};
