import type { BotServices } from './bot-services.js';
import { helpCard } from './cards/help-card.js';
import { scheduleSentence } from './cards/schedule-sentence.js';
import type { BotReply, BotRequest, Command, CommandContext, Conversation, MessageReading } from './commands/command.js';
import { help, notUnderstood } from './commands/help.js';
import { COMMANDS, botCommands } from './commands/index.js';
import { scheduleOf } from './commands/posting-schedules.js';
import { readMessage } from './read-message.js';

/**
 * How the bot answers a message, whatever SDK carries it: the adapter has the message read once
 * (`read`, by the registry of commands), then asks for the answer of the command it was read as,
 * or of the help card for a message no command took.
 */
export interface MessageDispatch {
  /** What a message asks (read-message.ts): the mention Teams adds in channels, case and punctuation do not matter. */
  read(text: string | undefined): MessageReading;
  /** The answer to a message read; null when its command has sent all it had to say. */
  answer(reading: MessageReading, request: BotRequest, conversation: Conversation): Promise<BotReply | null>;
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
        ...(notUnderstood.why ? { why: notUnderstood.why } : {}),
        schedule: scheduleSentence(schedule, services.now()),
      });
    },
  });
  return {
    read: (text) => readMessage(text, commands, registry),
    answer: async (reading, request, conversation) => {
      if (reading.command && reading.command !== help) {
        const refusal = await outsideScope(services, request);
        if (refusal) return { text: refusal };
      }
      return reading.command ? reading.command.handle(request, reading.reading, context(conversation)) : notUnderstood(request, reading.reading, context(conversation));
    },
  };
}

/**
 * With the viewer scope on (docs/finding-rules.md, "Viewer scope"), the bot's commands are not yet
 * answered in the asker's scope, so only an asker whose Intune role assignment covers the whole
 * tenant is answered; anyone else is told why. Null when the command may be answered.
 */
async function outsideScope(services: BotServices, request: BotRequest): Promise<string | null> {
  if (!services.viewerScopes) return null;
  const objectId = request.sender.objectId;
  if (!objectId) return 'This app shows each person what their Intune role assignments let them see, and Teams did not say who you are, so I cannot answer.';
  const scope = await services.viewerScopes.scopeOf({ objectId });
  if (scope.kind === 'tenant') return null;
  if (scope.kind === 'none') return scope.explanation;
  return 'This app shows each person what their Intune role assignments let them see, and I cannot yet answer within yours (scope tags). Open the tab: it shows what your scope tags let you see.';
}
