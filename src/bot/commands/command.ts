import type { ReportRegistry } from '../../core/reports/registry.js';
import type { ReportResult } from '../../core/reports/report-model.js';
import type { ScopedReport } from '../../core/viewer-scope/scope-report.js';
import type { ViewerScope } from '../../core/viewer-scope/scope.js';
import type { BotServices } from '../bot-services.js';
import type { AdaptiveCardJson } from '../cards/adaptive-card.js';

/**
 * A message to the bot as plain values, read from the activity by the adapter (src/bot/adapter):
 * all a command needs to know of it, and nothing of the SDK that carried it.
 */
export interface BotRequest {
  /**
   * The message as it was read (read-message.ts): the command it means ("are my connectors ok"
   * reads "show dead connectors"), else its words (message-words.ts, `commandWords`).
   */
  text: string;
  /** The text as sent, mention markup and all (message-words.ts, `plainText`, makes it fit to quote back). */
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
    /** The sender's Entra object id (the activity's `from.aadObjectId`), when Teams sends it: whose Intune scope a command answers in. */
    objectId?: string | undefined;
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
  /** What the reader needs to ask again, said after the quote ("There are 6 reports…"). */
  why?: string | undefined;
}

/**
 * What a command works with: the app's parts, the conversation, the help card, which lists every
 * command, and the asker's viewer scope.
 */
export interface CommandContext extends BotServices {
  conversation: Conversation;
  /**
   * The scope the answer shows (docs/finding-rules.md, "Viewer scope"): the whole tenant when the
   * viewer scope is off; with it on, the asker's Intune scope, narrowed to the conversation's scope
   * tag where the conversation is kept to one ("A channel's audience": what is said in a channel is
   * read by all its members); never `none` for a command that answers in scope (the asker is told
   * why first), and `none` for a command that shows no tenant data, which must not ask.
   */
  scope: ViewerScope;
  /**
   * The asker's own Intune scope, not narrowed to the conversation's: what they may change (a
   * schedule, the tag the channel is kept to), never what is shown. `scope` where no tag narrows it.
   */
  asker: ViewerScope;
  /**
   * A report as the asker may see it: the server's own filtering of the shared result
   * (src/app/viewer-scopes.ts, `view`), or why it is not theirs to see. The result itself when the
   * scope is off or covers the whole tenant.
   */
  inScope(result: ReportResult): ScopedReport;
  /** The help card as it reads in `channel` (the commands, the channel's posting schedule). */
  helpCard(channel: string, notUnderstood?: NotUnderstood): Promise<AdaptiveCardJson>;
}

/** A command as the help card names it. */
export interface BotCommandLine {
  command: string;
  description: string;
}

/** A message as the commands read it. */
export interface CommandMessage {
  /** Its words (message-words.ts, `commandWords`): lower case, no punctuation, no mention. */
  words: string;
  /** The text as its author wrote it, made plain (`plainText`): what the words lose (a UPN's "@" and dots), and what is quoted back. */
  plain: string;
}

/** What a command reading a message may ask: the reports, and what other words mean. */
export interface ReadingContext {
  registry: ReportRegistry;
  /**
   * What these words mean in their author's own words, over every command's phrasings
   * (phrasing.ts): `show <report>` asks it of a name that is no report's ("show everything").
   */
  understand(words: string): Understood;
}

/**
 * Phrases that ask for a command in one's own words: a message naming them asks `reading` of it
 * ("are my connectors ok" asks for report 1).
 */
export interface Phrasing<R> {
  /** Lower case, each matched as whole words of the message. */
  phrases: readonly string[];
  reading: R;
  /**
   * Named at all, it decides, before the phrasings that count words ("what is broken with
   * bitlocker" is the overview). Of those others, the one whose phrases name the most words wins,
   * and one that ties is suggested rather than guessed; their words are also the subjects a typo is
   * forgiven in ("bitlokcer").
   */
  decides?: boolean;
}

/**
 * One of the bot's commands: a file of src/bot/commands, and a line of the registry (index.ts).
 * All the bot knows of a command is here: the messages it takes (`read`, `phrasings`), the near
 * misses steered to it (`nearMisses`), its help lines (and so the Teams manifest's) and its answer.
 * `R` is what a message asks of it, which `read` or a phrasing makes and `handle` answers.
 */
export interface Command<R = unknown> {
  /** For the logs and the tests: the command as people type it. */
  name: string;
  /**
   * What a message asks of it in the command's own forms ("post new findings", "show 4"), or null
   * when the message is not one of them. Read on `commandWords`, or on the plain text where the
   * words lose what it needs.
   */
  read(message: CommandMessage, context: ReadingContext): R | null;
  /**
   * A command that takes any words after its own (`show <report>`) is read after the fixed
   * phrases, so that "show overview" and "show schedule" are commands of their own, not reports.
   */
  takesAnyWords?: boolean;
  /** How a message in one's own words asks for it, tried once no command's own forms took the message. */
  phrasings?(registry: ReportRegistry): readonly Phrasing<R>[];
  /**
   * The command as it reads when a reading of it is said back: what a phrasing is rewritten to
   * (`BotRequest.text`) and the suggestion when it ties. Without it (or null), the message's own words.
   */
  says?(reading: R, registry: ReportRegistry): string | null;
  /**
   * The forms a message that misses by a little is steered to ("post new finding"): within a few
   * edits of the message, or most of their words named in it. Its phrasings' `says` are steered to
   * by edits too.
   */
  nearMisses?: readonly string[];
  /** Its lines on the help card (and in the Teams manifest's command list); none for a command the help card tells of otherwise. */
  helpLines(registry: ReportRegistry): readonly BotCommandLine[];
  /**
   * How it answers with the viewer scope on (docs/finding-rules.md, "Viewer scope"): `in-scope`, it
   * shows only what the asker's scope lets them see (`CommandContext.inScope`); `no-tenant-data`, it
   * shows no tenant data and answers anyone. Without it, only an asker whose scope is the whole
   * tenant is answered: a new command shows nothing beyond a scope until it says how it keeps to one.
   */
  viewerScope?: 'in-scope' | 'no-tenant-data';
  /** The answer to what was asked of it; null when it has sent all it had to say. A throw is answered with an apology and logged. */
  handle(request: BotRequest, reading: R, context: CommandContext): Promise<BotReply | null>;
}

/**
 * What a message asks (read-message.ts): the command that answers it and what it asks of it
 * (`readingOf` makes one, so the two always belong together), or, with no command, a message none
 * took, which the help card answers with the command it comes closest to.
 */
export type MessageReading = { command: Command; reading: unknown; text: string } | { command: null; reading: NotACommand; text: string };

/** A message no command took: as its author wrote it, made plain, and the command it comes closest to, if any. */
export interface NotACommand {
  kind: 'unknown';
  text: string;
  suggestion: string | null;
}

/** What words mean in their author's own words: a command's reading, or a command to suggest, or nothing. */
export type Understood = { kind: 'reading'; reading: MessageReading & { command: Command } } | { kind: 'suggest'; command: string } | { kind: 'nothing' };

/** A command's reading of a message, and the words it is read as (`Command.says`, else the message's own). */
export function readingOf<R>(command: Command<R>, reading: R, registry: ReportRegistry, words: string): MessageReading & { command: Command } {
  return { command, reading, text: command.says?.(reading, registry) ?? words };
}

/**
 * What `command` was asked, if the reading is its: how a command finds its own reading among what
 * other words mean (`show <report>` asks what a name that is no report's means).
 */
export function readingFor<R>(command: Command<R>, reading: MessageReading): R | null {
  // `readingOf` pairs a reading with the command that made it, so the command's own is its type.
  return reading.command === command ? (reading.reading as R) : null;
}
