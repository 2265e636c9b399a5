import { TurnContext } from 'botbuilder';
import type { Activity } from 'botbuilder';
import type { BotRequest } from '../commands/command.js';

/**
 * A message activity as the plain request the commands take. `text` is the message as it was read
 * (read-message.ts), `sentText` as it was sent.
 */
export function requestFrom(activity: Activity, text: string): BotRequest {
  const channel = conversationChannel(activity);
  const reference = TurnContext.getConversationReference(activity);
  return {
    text,
    sentText: activity.text ?? '',
    conversation: {
      id: activity.conversation.id,
      kind: activity.conversation.conversationType,
      name: activity.conversation.name,
      channel,
      // Scheduled posts go to the channel, not the thread the schedule was set in.
      channelReference: { ...reference, conversation: { ...reference.conversation, id: channel } } as Record<string, unknown>,
    },
    sender: { id: activity.from?.id, name: activity.from?.name, objectId: activity.from?.aadObjectId, timeZone: activity.localTimezone ?? null },
  };
}

/** The ledger key of where a message was typed: the channel, not the reply thread; or the chat. */
function conversationChannel(activity: Activity): string {
  const channelData = activity.channelData as { channel?: { id?: string } } | undefined;
  return channelData?.channel?.id ?? activity.conversation.id.split(';')[0]!;
}
