import type { ReportRegistry } from '../../core/reports/registry.js';
import type { BotServices } from '../bot-services.js';
import type { AdaptiveCardJson } from '../cards/adaptive-card.js';

/**
 * A message to the bot as plain values, read from the activity by the adapter (src/bot/adapter):
 * all a command needs to know of it, and nothing of the SDK that carried it.
 */
export interface BotRequest {
  /**
   * The message as the triggers matched it: its words (bot-command.ts, `commandWords`), or the
   * command they mean ("are my connectors ok" reads "show dead connectors").
   */
  text: string;
  /** What the trigger that took the message captured (`[whole, ...groups]`); empty for a message no trigger took. */
  matches: readonly (string | undefined)[];
  /** The text as sent, mention markup and all, for quoting back once made plain (bot-command.ts, `plainText`). */
  sentText: string;
  conversation: {
    id: string;
    /** `personal`, `groupChat` or `channel`, as Teams says. */
    kind: string | undefined;
    name: string | undefined;
    /** The key of where the message was typed: the channel, not the reply thread; or the chat. */
    channel: string;
    /**
     * Where a later post to `channel` goes: the conversation reference, on the channel rather than
     * the thread. Opaque outside the adapter, which alone reads it; a schedule keeps it as it is.
     */
    channelReference: Record<string, unknown>;
  };
  sender: {
    id: string | undefined;
    name: string | undefined;
    /** An IANA time zone: Teams sends the sender's with each message (`localTimezone`); null when it does not. */
    timeZone: string | null;
  };
}

/** What the bot answers: a line of text, or an Adaptive Card. */
export type BotReply = { text: string } | { card: AdaptiveCardJson };

/** The conversation a message came from, for as long as a command answers it. */
export interface Conversation {
  /** Shows that the bot is at work on an answer that takes a moment. */
  typing(): Promise<void>;
  /** Sends now, ahead of the command's own answer. */
  send(reply: BotReply): Promise<void>;
  /**
   * Sends once the turn is over, as the bot's own message in this conversation; `reply` is made at
   * the moment of sending.
   */
  followUp(reply: () => Promise<BotReply>): Promise<void>;
}

/** What the help card says besides the commands: what a message that was not a command said, and the command it comes closest to. */
export interface NotUnderstood {
  unknown?: string | undefined;
  suggestion?: string | null | undefined;
}

/** What a command works with: the app's parts, the conversation, and the help card, which lists every command. */
export interface CommandContext extends BotServices {
  conversation: Conversation;
  /** The help card as it reads in `channel` (the commands, the channel's posting schedule). */
  helpCard(channel: string, notUnderstood?: NotUnderstood): Promise<AdaptiveCardJson>;
}

/** A command as the help card names it. */
export interface BotCommandLine {
  command: string;
  description: string;
}

/** One of the bot's commands: a file of src/bot/commands, and a line of its list (index.ts). */
export interface Command {
  /** For the logs and the tests: the command as people type it. */
  name: string;
  /** The shapes of its messages, matched on `BotRequest.text`. */
  triggers: readonly RegExp[];
  /**
   * A command that takes any words after its own (`show <report>`) is tried after the fixed
   * phrases, so that "show overview" and "show schedule" are commands of their own, not reports.
   */
  takesAnyWords?: boolean;
  /** Its lines on the help card (and in the Teams manifest's command list); none for a command the help card tells of otherwise. */
  helpLines(registry: ReportRegistry): readonly BotCommandLine[];
  /** The answer; null when the command has sent all it had to say. A throw is answered with an apology and logged. */
  handle(request: BotRequest, context: CommandContext): Promise<BotReply | null>;
}
