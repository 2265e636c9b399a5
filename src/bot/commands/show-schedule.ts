import { scheduleSentence } from '../cards/schedule-sentence.js';
import type { Command } from './command.js';
import { scheduleOf } from './posting-schedules.js';

/** `show schedule`: this conversation's posting schedule in a sentence, as the help card says it. */
export const showSchedule: Command<{ kind: 'show-schedule' }> = {
  name: 'show schedule',
  read: ({ words }) => (/^(?:show |what is |whats |what s )?(?:the |my |our )?(?:posting |post )?schedule$|^when do you post$/.test(words) ? { kind: 'show-schedule' } : null),
  nearMisses: ['show schedule'],
  // The channel's schedule, not the tenant's data.
  viewerScope: 'no-tenant-data',
  helpLines: () => [],
  handle: async (request, _reading, context) => ({ text: scheduleSentence(await scheduleOf(context, request.conversation.channel), context.now()) }),
};
