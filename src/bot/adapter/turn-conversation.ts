import { ActivityTypes, CardFactory, MessageFactory, TextFormatTypes, TurnContext } from 'botbuilder';
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

/** A reply as botbuilder sends it: text as plain text (`textMessage`), a card as an attachment. */
export function replyActivity(reply: BotReply): Partial<Activity> {
  return 'card' in reply ? cardMessage(reply.card) : textMessage(reply.text);
}

/**
 * A text message that Teams shows as written. A message that names no `textFormat` is read as
 * Markdown (the Bot Framework connector's default, and what the Agents Playground does), so a
 * sender's display name such as "[Click to re-authenticate](https://evil.example)" quoted in a reply
 * would become a link; `plain` text is "treated as raw text with no formatting applied"
 * (learn.microsoft.com/microsoftteams/platform/bots/how-to/format-your-bot-messages, "Format text
 * content"). Every text the bot sends is made here, so no command can forget it.
 */
export function textMessage(text: string): Partial<Activity> {
  return { ...MessageFactory.text(text), textFormat: TextFormatTypes.Plain };
}

export function cardMessage(card: AdaptiveCardJson): Partial<Activity> {
  return MessageFactory.attachment(CardFactory.adaptiveCard(card));
}
