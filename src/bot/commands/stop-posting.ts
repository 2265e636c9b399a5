import { describeCadence, describePosts, removeSchedule } from '../../core/schedule/post-schedule.js';
import type { PostSchedule } from '../../core/schedule/post-schedule.js';
import type { Command } from './command.js';
import { changeSchedules } from './posting-schedules.js';
import { mayChangeChannel, notYourSchedule } from './schedule-posts.js';

/**
 * `stop posting`: this conversation's schedule ends; `post new findings` still posts when asked.
 * With the viewer scope on, an asker limited to scope tags stops only a schedule of one of their
 * tags, and the scope tag the channel is kept to stays (docs/finding-rules.md, "Viewer scope", "A
 * channel's audience").
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
      const may = mayChangeChannel(context.asker, book, channel);
      if (!may.ok) return { book: null, value: { removed: null, refused: notYourSchedule(context.asker, may.schedule) } };
      const { book: next, removed } = removeSchedule(book, channel);
      return { book: removed ? next : null, value: { removed } };
    });
    if (!changed.ok) return { text: changed.reply };
    if (changed.value.refused) return { text: changed.value.refused };
    const { removed } = changed.value;
    if (!removed) return { text: 'Nothing is posted here on a schedule, so there is nothing to stop.' };
    context.log(`posting schedule for ${channel}: stopped`);
    // The channel stays kept to its tag (removeSchedule): what is said here still answers in it, whoever asks.
    const kept = removed.scopeTag
      ? ` This conversation stays kept to scope tag ${removed.scopeTag.name}: what I post or answer here holds that tag's findings only, whoever asks.`
      : '';
    return { text: `Stopped: ${describePosts(removed)} are no longer posted here ${describeCadence(removed)}. "post new findings" still posts them when you ask.${kept}` };
  },
};
