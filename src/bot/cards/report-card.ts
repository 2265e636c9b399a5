import { findingsWorstFirst } from '../../core/findings/finding-kinds.js';
import type { ReportDefinition, ReportResult } from '../../core/reports/report-model.js';
import type { TabLinks } from '../tab-links.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { FINDING_ITEMS_TEMPLATE, KIND_COUNTS_TEMPLATE, findingList, kindCounts } from './finding-list.js';

const REPORT_CARD_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    { type: 'TextBlock', text: '${title}', size: 'Medium', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'TextBlock', text: '${subtitle}', isSubtle: true, size: 'Small', spacing: 'None', wrap: true },
    {
      type: 'Container',
      $when: "${state == 'load-error'}",
      style: 'attention',
      items: [
        { type: 'TextBlock', text: '${errorHeadline}', weight: 'Bolder', color: 'Attention', wrap: true },
        { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: '${errorMessage}' }] },
      ],
    },
    { type: 'TextBlock', $when: "${state == 'empty'}", text: '${notice}', wrap: true },
    { type: 'TextBlock', $when: "${state == 'loaded' && findingCount == 0}", text: 'No findings: nothing here needs attention.', color: 'Good', wrap: true },
    { type: 'TextBlock', $when: '${findingCount > 0}', text: '${findingSummary}', weight: 'Bolder', wrap: true, spacing: 'Medium' },
    KIND_COUNTS_TEMPLATE,
    FINDING_ITEMS_TEMPLATE,
    { type: 'TextBlock', $when: "${state == 'loaded' && caveat != ''}", text: '${caveat}', isSubtle: true, size: 'Small', wrap: true, spacing: 'Medium' },
  ],
  actions: [{ type: 'Action.OpenUrl', title: 'Open the report', url: '${tabUrl}' }],
} as const;

/**
 * A report as a card: counts by kind worst first, the worst few findings by name, a button to the
 * tab at that report; or the load error naming the upstream status, or the empty notice.
 */
export function reportCard(result: ReportResult, definition: Pick<ReportDefinition<unknown>, 'beta'>, options: { tenantLabel: string; tabLinks: TabLinks }): AdaptiveCardJson {
  const findings = findingsWorstFirst(result.findings, result.findingKinds);
  const error = result.error;
  return expandCard(REPORT_CARD_TEMPLATE, {
    title: `${result.title}${definition.beta ? ' (beta)' : ''}`,
    subtitle: `${cardText(options.tenantLabel, 80)} · read ${readAt(result.generatedAt)}`,
    state: result.state,
    errorHeadline: error ? `This report could not load: ${error.status !== null ? `Graph answered ${error.status}` : 'Microsoft Graph could not be reached'}.` : '',
    errorMessage: error ? cardText(error.message, 600) : '',
    notice: result.notice ?? '',
    caveat: result.state === 'loaded' ? (result.notice ?? '') : '',
    findingCount: findings.length,
    findingSummary: `${findings.length.toLocaleString('en-US')} ${findings.length === 1 ? 'finding' : 'findings'}, worst first`,
    counts: kindCounts(findings, result.findingKinds),
    ...findingList(findings, result.rows, result.findingKinds),
    tabUrl: options.tabLinks(result.report),
  });
}

/** "Nov 23, 09:00 UTC": a card is read later than it is sent, so an absolute time. */
export function readAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;
}
