import { ActivityTypes, CardFactory, MessageFactory, TurnContext } from 'botbuilder';
import type { Activity, CloudAdapter } from 'botbuilder';
import type { AdaptiveCardJson } from '../cards/adaptive-card.js';
import type { BotReply, Conversation } from '../commands/command.js';

/** The conversation of a turn, as the commands use it: typing, a message now, a message once the turn is over. */
export function turnConversation(context: TurnContext, adapter: CloudAdapter, botAppId: string): Conversation {
  const reference = TurnContext.getConversationReference(context.activity);
  return {
    typing: async () => void (await context.sendActivity({ type: ActivityTypes.Typing })),
    send: async (reply) => void (await context.sendActivity(replyActivity(reply))),
    // Proactively: the turn's own context is gone by the time a slow answer is ready.
    followUp: (reply) => adapter.continueConversationAsync(botAppId, reference, async (later) => void (await later.sendActivity(replyActivity(await reply())))),
  };
}

/** A reply as botbuilder sends it: text as it is, a card as an attachment. */
export function replyActivity(reply: BotReply): string | Partial<Activity> {
  return 'card' in reply ? cardMessage(reply.card) : reply.text;
}

export function cardMessage(card: AdaptiveCardJson): Partial<Activity> {
  return MessageFactory.attachment(CardFactory.adaptiveCard(card));
}
