import type { ReportResult } from '../../core/reports/report-model.js';
import { COMMAND_PATTERNS } from '../bot-command.js';
import { overviewCard } from '../cards/overview-card.js';
import { answerWhenReady } from './answer-when-ready.js';
import type { BotReply, Command } from './command.js';

/** `show overview`: every report in one card, each with its state and its open findings. */
export const showOverview: Command = {
  name: 'show overview',
  triggers: [COMMAND_PATTERNS.overview],
  helpLines: () => [{ command: 'show overview', description: 'Every report in one card: its state and its open findings' }],
  async handle(_request, context) {
    await context.conversation.typing();
    const ids = context.registry.ids;
    const loading = Promise.all(ids.map((id) => context.reports.get(id)));
    const toCard = async (results: ReportResult[]): Promise<BotReply> => {
      // The card shows no trend, so no history is read for it.
      const summaries = await context.reports.summarizeAll(results, context.now(), { history: false });
      return { card: overviewCard(summaries, { tenantLabel: context.tenantLabel, tabUrl: context.tabUrl, tabLinks: context.tabLinks }) };
    };
    return answerWhenReady(context, loading, toCard, {
      what: 'show overview',
      meanwhile: `Reading the ${ids.length} reports from ${context.tenantLabel} takes a while; the overview follows here when it is ready.`,
    });
  },
};
