import type { BotReply, BotRequest, Command, CommandContext, NotACommand } from './command.js';

/** `help` (or hi, hello, an empty message): the help card, with this conversation's posting schedule. */
export const help: Command<{ kind: 'help' }> = {
  name: 'help',
  read: ({ words }) => (/^(?:help|hi|hello|commands|what can you do)?$/.test(words) ? { kind: 'help' } : null),
  nearMisses: ['help'],
  viewerScope: 'no-tenant-data',
  helpLines: () => [{ command: 'help', description: 'This list' }],
  handle: async (request, _reading, context) => ({ card: await context.helpCard(request.conversation.channel) }),
};

/**
 * A message that no command took gets the help card too, quoting what it said (as sent, made
 * plain) and suggesting the command it comes closest to, if any.
 */
export async function notUnderstood(request: BotRequest, reading: NotACommand, context: CommandContext): Promise<BotReply> {
  const unknown = reading.text !== '' ? reading.text : undefined;
  return { card: await context.helpCard(request.conversation.channel, { unknown, suggestion: reading.suggestion }) };
}
