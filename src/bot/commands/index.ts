import { REPORTS } from '../../core/reports/registry.js';
import type { ReportRegistry } from '../../core/reports/registry.js';
import type { BotCommandLine, Command } from './command.js';
import { help } from './help.js';
import { postNewFindings } from './post-new-findings.js';
import { schedulePosts } from './schedule-posts.js';
import { showOverview } from './show-overview.js';
import { showReport } from './show-report.js';
import { showSchedule } from './show-schedule.js';
import { stopPosting } from './stop-posting.js';
import { whatApplies } from './what-applies.js';

/**
 * The registry of the bot's commands, in the order the help card lists them: reading a message
 * (read-message.ts), its phrasings and "did you mean" (phrasing.ts), the help card and the Teams
 * manifest's command list (`BOT_COMMANDS`) all come from it. A message is read against them in this
 * order too, except that those taking any words (`show <report>`) come after the fixed phrases. A
 * new command is a file beside this one and its line here (CONTRIBUTING.md, "Adding a bot command").
 */
export const COMMANDS: readonly Command[] = [showReport, showOverview, whatApplies, postNewFindings, schedulePosts, stopPosting, showSchedule, help];

/** The commands as the help card names them: `show <name>` for each report, in the registry's order, then the rest. */
export function botCommands(registry: ReportRegistry, commands: readonly Command[] = COMMANDS): BotCommandLine[] {
  return commands.flatMap((command) => command.helpLines(registry));
}

/** The seven reports' commands; the Teams manifest's command list must say the same (a test holds them together). */
export const BOT_COMMANDS: readonly BotCommandLine[] = botCommands(REPORTS);
