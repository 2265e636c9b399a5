import { canonicalText, commandWords, parseCommand } from './bot-command.js';
import type { BotServices } from './bot-services.js';
import { helpCard } from './cards/help-card.js';
import { scheduleSentence } from './cards/schedule-sentence.js';
import type { BotReply, BotRequest, Command, CommandContext, Conversation } from './commands/command.js';
import { notUnderstood } from './commands/help.js';
import { COMMANDS, botCommands } from './commands/index.js';
import { scheduleOf } from './commands/posting-schedules.js';

/** A command as the adapter runs it: the shapes of its messages, and its answer to one. */
export interface DispatchedCommand {
  name: string;
  triggers: readonly RegExp[];
  answer(request: BotRequest, conversation: Conversation): Promise<BotReply | null>;
}

/**
 * How the bot answers a message, whatever SDK carries it: the adapter rewrites the message's text
 * with `commandText`, gives it to the first command one of whose triggers matches it, and gives a
 * message that none took to `notUnderstood`.
 */
export interface MessageDispatch {
  /**
   * The text the triggers match: what the words mean, as the command they mean ("are my connectors
   * ok" reads "show dead connectors"), else the words themselves (bot-command.ts, `commandWords`:
   * the mention Teams adds in channels, case and punctuation do not matter).
   */
  commandText(text: string | undefined): string;
  /** The commands in the order a message is matched against them. */
  commands: readonly DispatchedCommand[];
  notUnderstood(request: BotRequest, conversation: Conversation): Promise<BotReply>;
}

export function messageDispatch(services: BotServices, commands: readonly Command[] = COMMANDS): MessageDispatch {
  const { registry } = services;
  const context = (conversation: Conversation): CommandContext => ({
    ...services,
    conversation,
    async helpCard(channel, notUnderstood = {}) {
      const schedule = await scheduleOf(services, channel);
      return helpCard({
        tenantLabel: services.tenantLabel,
        tabUrl: services.tabUrl,
        commands: botCommands(registry, commands),
        ...(notUnderstood.unknown !== undefined ? { unknown: notUnderstood.unknown } : {}),
        ...(notUnderstood.suggestion ? { suggestion: notUnderstood.suggestion } : {}),
        schedule: scheduleSentence(schedule, services.now()),
      });
    },
  });
  return {
    commandText: (text) => canonicalText(parseCommand(text, registry), registry) ?? commandWords(text),
    commands: matchingOrder(commands).map((command) => ({
      name: command.name,
      triggers: command.triggers,
      answer: (request, conversation) => command.handle(request, context(conversation)),
    })),
    notUnderstood: (request, conversation) => notUnderstood(request, context(conversation)),
  };
}

/**
 * The list's order, but the commands that take any words after their own last: "show schedule" is
 * the schedule and "show overview" the overview, not reports of those names. The fixed phrases
 * never match the same message, so their order among themselves does not matter.
 */
function matchingOrder(commands: readonly Command[]): Command[] {
  return [...commands.filter((command) => !command.takesAnyWords), ...commands.filter((command) => command.takesAnyWords)];
}
