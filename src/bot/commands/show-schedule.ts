import { COMMAND_PATTERNS } from '../bot-command.js';
import { scheduleSentence } from '../cards/schedule-sentence.js';
import type { Command } from './command.js';
import { scheduleOf } from './posting-schedules.js';

/** `show schedule`: this conversation's posting schedule in a sentence, as the help card says it. */
export const showSchedule: Command = {
  name: 'show schedule',
  triggers: [COMMAND_PATTERNS.showSchedule],
  helpLines: () => [],
  handle: async (request, context) => ({ text: scheduleSentence(await scheduleOf(context, request.conversation.channel), context.now()) }),
};
