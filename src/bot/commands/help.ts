import { COMMAND_PATTERNS, parseCommand } from '../bot-command.js';
import type { BotReply, BotRequest, Command, CommandContext } from './command.js';

/** `help` (or hi, hello, an empty message): the help card, with this conversation's posting schedule. */
export const help: Command = {
  name: 'help',
  triggers: [COMMAND_PATTERNS.help],
  helpLines: () => [{ command: 'help', description: 'This list' }],
  handle: async (request, context) => ({ card: await context.helpCard(request.conversation.channel) }),
};

/**
 * A message that no command took gets the help card too, quoting what it said (as sent, made
 * plain) and suggesting the command it comes closest to, if any.
 */
export async function notUnderstood(request: BotRequest, context: CommandContext): Promise<BotReply> {
  const command = parseCommand(request.sentText, context.registry);
  const unknown = command.kind === 'unknown' && command.text !== '' ? command.text : command.kind === 'unknown-report' ? command.text : undefined;
  const suggestion = command.kind === 'unknown' || command.kind === 'unknown-report' ? command.suggestion : null;
  return { card: await context.helpCard(request.conversation.channel, { unknown, suggestion }) };
}
