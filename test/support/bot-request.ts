import type { BotRequest } from '../../src/bot/commands/command.js';

/**
 * A message Megan sent the bot in a personal chat, as the adapter hands it to a command: `sentText`
 * as she typed it, `text`, the words the command reads (by default the sent text in lower case), and
 * what the adapter says of her beyond her name (`sender`: her Teams id, her Entra object id).
 */
export function personalRequest(sentText: string, text = sentText.toLowerCase(), sender: Partial<BotRequest['sender']> = {}): BotRequest {
  return {
    text,
    sentText,
    conversation: { id: 'c', kind: 'personal', name: undefined, channel: 'c', channelReference: {} },
    sender: { id: 'u', name: 'Megan', timeZone: null, ...sender },
  };
}
