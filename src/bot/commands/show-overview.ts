import type { ReportResult } from '../../core/reports/report-model.js';
import { describeScope } from '../../core/viewer-scope/scope.js';
import { overviewCard } from '../cards/overview-card.js';
import type { OutsideScopeLine } from '../cards/overview-card.js';
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
  viewerScope: 'in-scope',
  async handle(_request, _reading, context) {
    await context.conversation.typing();
    const ids = context.registry.ids;
    const loading = Promise.all(ids.map((id) => context.reports.get(id)));
    const toCard = async (shared: ReportResult[]): Promise<BotReply> => {
      // Each report as the asker may see it (docs/finding-rules.md, "Viewer scope"); one that is not theirs says why in its line.
      const views = shared.map((result) => ({ result, view: context.inScope(result) }));
      const seen = views.flatMap(({ view }) => (view.ok ? [view.result] : []));
      // The card shows no trend, so no history is read for it.
      const summaries = await context.reports.summarizeAll(seen, context.now(), { history: false });
      let next = 0;
      const lines = views.map(({ result, view }): OutsideScopeLine | (typeof summaries)[number] =>
        view.ok ? summaries[next++]! : { report: result.report, title: result.title, outsideScope: view.explanation },
      );
      const scope = context.scope.kind === 'tags' ? describeScope(context.scope) : null;
      return { card: overviewCard(lines, { tenantLabel: context.tenantLabel, tabUrl: context.tabUrl, tabLinks: context.tabLinks, scope }) };
    };
    return answerWhenReady(context, loading, toCard, {
      what: 'show overview',
      meanwhile: `Reading the ${ids.length} reports from ${context.tenantLabel} takes a while; the overview follows here when it is ready.`,
    });
  },
};
