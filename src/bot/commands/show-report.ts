import type { ReportId, ReportResult } from '../../core/reports/report-model.js';
import { reportCard } from '../cards/report-card.js';
import { answerWhenReady } from './answer-when-ready.js';
import { readingFor } from './command.js';
import type { BotReply, Command, Understood } from './command.js';

/**
 * A report asked for; or `show` with a name that is no report's, quoted as its author wrote it
 * (`text`, "show LAPS status", not the lower-cased words), with the command it comes closest to.
 */
type ShowReading = { kind: 'show'; report: ReportId } | { kind: 'unknown-report'; name: string; text: string; suggestion: string | null };

const SHOW = /^(?:show|open|list|report)(?: me)?(?: the)?(?: report)? (.+?)(?: report)?$/;

/**
 * `show <report>`: the report's card, by any of its names, its id or its number (the report
 * registry's `find`), or by the subjects it names in one's own words (its `botTopics`); a name that
 * is no report gets the help card, with the command it comes closest to.
 */
export const showReport: Command<ShowReading> = {
  name: 'show <report>',
  takesAnyWords: true,
  read({ words, plain }, { registry, understand }) {
    const name = SHOW.exec(words)?.[1];
    if (name === undefined) return null;
    const report = registry.find(name);
    if (report) return { kind: 'show', report };
    const meant = understand(name);
    // Another command's ("show everything" is the overview) is read from the whole message's words, which name it too.
    if (meant.kind === 'reading') return readingFor(showReport, meant.reading);
    const near = meant.kind === 'suggest' ? meant.command : suggestion(understand(words));
    return { kind: 'unknown-report', name, text: plain, suggestion: near };
  },
  phrasings: (registry) => registry.definitions.map(({ id, botNames, botTopics }) => ({ phrases: [...botNames, ...botTopics], reading: { kind: 'show', report: id } })),
  says: (reading, registry) => (reading.kind === 'show' ? showCommand(registry.definition(reading.report)) : null),
  helpLines: (registry) => registry.definitions.map((definition) => ({ command: showCommand(definition), description: definition.botDescription })),
  viewerScope: 'in-scope',
  async handle(request, reading, context) {
    if (reading.kind === 'unknown-report') {
      return {
        card: await context.helpCard(request.conversation.channel, { unknown: reading.text, suggestion: reading.suggestion, why: reportsSentence(context.registry.ids.length) }),
      };
    }
    await context.conversation.typing();
    const definition = context.registry.definition(reading.report);
    const toCard = async (shared: ReportResult): Promise<BotReply> => {
      // The shared result filtered as the tab's API filters it, or why it is not the asker's to see (docs/finding-rules.md, "Viewer scope").
      const view = context.inScope(shared);
      if (!view.ok) return { text: view.explanation };
      return {
        card: reportCard(view.result, definition, {
          tenantLabel: context.tenantLabel,
          tabLinks: context.tabLinks,
          triaged: await context.reports.decisionsInForce().then((inForce) => (inForce ? new Set(inForce.keys()) : null)),
        }),
      };
    };
    const loading = context.reports.get(reading.report);
    return answerWhenReady(context, loading, toCard, {
      what: `show ${reading.report}`,
      meanwhile: `Reading ${definition.title} from ${context.tenantLabel} takes a while; the report follows here when it is ready.`,
    });
  },
};

/** Why `show 9` or `show <no report's name>` is not one: how many reports there are, and where they are listed. */
export function reportsSentence(count: number): string {
  return `There are ${count} reports, numbered 1 to ${count}, each listed below by name.`;
}

/** The command that shows a report, as the help card names it and as a message asking for it reads: `show` and its first name. */
export function showCommand(report: { botNames: readonly [string, ...string[]] }): string {
  return `show ${report.botNames[0]}`;
}

function suggestion(meant: Understood): string | null {
  return meant.kind === 'suggest' ? meant.command : null;
}
