import type { ReportResult } from '../../core/reports/report-model.js';
import { COMMAND_PATTERNS, parseCommand } from '../bot-command.js';
import { reportCard } from '../cards/report-card.js';
import { showCommand } from '../phrasing.js';
import { answerWhenReady } from './answer-when-ready.js';
import type { BotReply, Command } from './command.js';

/**
 * `show <report>`: the report's card, by any of its names, its id or its number; a name that is
 * no report gets the help card, with the command it comes closest to.
 */
export const showReport: Command = {
  name: 'show <report>',
  triggers: [COMMAND_PATTERNS.show],
  takesAnyWords: true,
  helpLines: (registry) => registry.definitions.map((definition) => ({ command: showCommand(definition), description: definition.botDescription })),
  async handle(request, context) {
    const command = parseCommand(request.text, context.registry);
    if (command.kind !== 'show') {
      // Quoted as its author wrote it: "show LAPS status", not the lower-cased words the command was matched on.
      const notUnderstood = {
        unknown: command.kind === 'unknown-report' ? command.text : `show ${request.matches[1] ?? ''}`.trim(),
        suggestion: command.kind === 'unknown-report' ? command.suggestion : null,
      };
      return { card: await context.helpCard(request.conversation.channel, notUnderstood) };
    }
    await context.conversation.typing();
    const definition = context.registry.definition(command.report);
    const toCard = async (result: ReportResult): Promise<BotReply> => ({
      card: reportCard(result, definition, {
        tenantLabel: context.tenantLabel,
        tabLinks: context.tabLinks,
        triaged: await context.reports.decisionsInForce().then((inForce) => (inForce ? new Set(inForce.keys()) : null)),
      }),
    });
    const loading = context.reports.get(command.report);
    return answerWhenReady(context, loading, toCard, {
      what: `show ${command.report}`,
      meanwhile: `Reading ${definition.title} from ${context.tenantLabel} takes a while; the report follows here when it is ready.`,
    });
  },
};
