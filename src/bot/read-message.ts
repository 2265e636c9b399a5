import type { ReportRegistry } from '../core/reports/registry.js';
import { readingOf } from './commands/command.js';
import type { Command, CommandMessage, MessageReading, ReadingContext } from './commands/command.js';
import { LONGEST_COMMAND, commandWords, plainText } from './message-words.js';
import { understand } from './phrasing.js';

/**
 * What a message asks, read once, by the registry of commands (commands/index.ts) and nothing
 * else: a command's own forms first (`show 4`, `post new findings`), the fixed phrases before a
 * command that takes any words (`show <report>`); then what the words mean (phrasing.ts: "which
 * devices have no bitlocker key" asks for report 4); otherwise no command, with the one the message
 * comes closest to, to suggest.
 */
export function readMessage(text: string | undefined | null, commands: readonly Command[], registry: ReportRegistry): MessageReading {
  const raw = text ?? '';
  const words = commandWords(raw);
  if (raw.length > LONGEST_COMMAND * 4 || words.length > LONGEST_COMMAND) return notACommand(plainText(raw.slice(0, LONGEST_COMMAND * 4)).slice(0, LONGEST_COMMAND), null, words);
  const message: CommandMessage = { words, plain: plainText(raw) };
  const context: ReadingContext = { registry, understand: (said) => understand(said, commands, registry) };
  for (const command of matchingOrder(commands)) {
    const reading = command.read(message, context);
    if (reading !== null) return readingOf(command, reading, registry, words);
  }
  const meant = context.understand(words);
  if (meant.kind === 'reading') return meant.reading;
  return notACommand(message.plain, meant.kind === 'suggest' ? meant.command : null, words);
}

function notACommand(text: string, suggestion: string | null, words: string): MessageReading {
  return { command: null, reading: { kind: 'unknown', text, suggestion }, text: words };
}

/**
 * The registry's order, but the commands that take any words after their own last: "show
 * schedule" is the schedule and "show overview" the overview, not reports of those names. The fixed
 * phrases never take the same message (test/bot/commands.test.ts holds them to it), so their order
 * among themselves does not matter.
 */
export function matchingOrder(commands: readonly Command[]): Command[] {
  return [...commands.filter((command) => !command.takesAnyWords), ...commands.filter((command) => command.takesAnyWords)];
}
