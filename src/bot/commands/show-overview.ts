import type { ReportResult } from '../../core/reports/report-model.js';
import { overviewCard } from '../cards/overview-card.js';
import { answerWhenReady } from './answer-when-ready.js';
import type { BotReply, Command } from './command.js';

/** Phrases that ask for every report at once, whatever else a message names. */
const OVERVIEW_TOPICS = [
  'overview',
  'summary',
  'everything',
  'all reports',
  'all the reports',
  'what is broken',
  'what s broken',
  'whats broken',
  'how is my tenant',
  'how are things',
  'health check',
];

/** `show overview`: every report in one card, each with its state and its open findings. */
export const showOverview: Command<{ kind: 'overview' }> = {
  name: 'show overview',
  read: ({ words }) => (/^(?:show |open )?(?:me )?(?:the )?(?:overview|summary)$/.test(words) ? { kind: 'overview' } : null),
  phrasings: () => [{ phrases: OVERVIEW_TOPICS, reading: { kind: 'overview' }, decides: true }],
  says: () => 'show overview',
  nearMisses: ['show overview'],
  helpLines: () => [{ command: 'show overview', description: 'Every report in one card: its state and its open findings' }],
  async handle(_request, _reading, context) {
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
