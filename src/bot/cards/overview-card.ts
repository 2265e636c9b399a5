import { notCheckedLine } from '../../core/reports/not-checked.js';
import { SEVERITY_LABEL } from '../../core/findings/finding-kinds.js';
import type { ReportId } from '../../core/reports/report-model.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { TabLinks } from '../tab-links.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { countKind, countOf } from '../../core/text/words.js';

/** Kinds a report's line names before "and N more": the card stays short and well inside Teams' size limit. */
const NAMED_KINDS = 2;

const OVERVIEW_CARD_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    { type: 'TextBlock', text: 'Overview', size: 'Medium', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${subtitle}', isSubtle: true, size: 'Small' }] },
    {
      type: 'Container',
      $data: '${reports}',
      spacing: 'Medium',
      separator: true,
      selectAction: { type: 'Action.OpenUrl', url: '${link}', title: 'Open ${title}' },
      items: [
        { type: 'TextBlock', text: '${title}', weight: 'Bolder', wrap: true },
        { type: 'TextBlock', text: '${status}', color: '${color}', wrap: true, spacing: 'None' },
        { type: 'TextBlock', $when: "${notChecked != ''}", text: '${notChecked}', color: 'Warning', weight: 'Bolder', wrap: true, spacing: 'None' },
        // The detail may quote Microsoft Graph's error message.
        { type: 'RichTextBlock', $when: "${detail != ''}", spacing: 'None', inlines: [{ type: 'TextRun', text: '${detail}', isSubtle: true, size: 'Small' }] },
      ],
    },
  ],
  actions: [{ type: 'Action.OpenUrl', title: 'Open the overview', url: '${tabUrl}' }],
} as const;

/** A report the asker's viewer scope does not show them, and why (docs/finding-rules.md, "Viewer scope"). */
export interface OutsideScopeLine {
  report: ReportId;
  title: string;
  outsideScope: string;
}

/**
 * Every report in one card (`show overview`): each one's state in a line (its open findings and the
 * worst severity, the load error with the upstream status, or the empty notice), the kinds it
 * found, what is accepted or snoozed, and a link to the report in the tab. With the viewer scope
 * on, `scope` names the asker's scope tags under the tenant's name, and a report outside them says why.
 */
export function overviewCard(
  summaries: readonly (ReportSummary | OutsideScopeLine)[],
  options: { tenantLabel: string; tabUrl: string; tabLinks: TabLinks; scope?: string | null },
): AdaptiveCardJson {
  const number = (value: number) => value.toLocaleString('en-US');
  return expandCard(OVERVIEW_CARD_TEMPLATE, {
    subtitle: cardText(options.tenantLabel, 80) + (options.scope ? ` · ${cardText(options.scope, 120)}` : ''),
    tabUrl: options.tabUrl,
    reports: summaries.map((summary) => {
      if ('outsideScope' in summary) {
        return {
          title: summary.title,
          link: options.tabLinks(summary.report),
          notChecked: '',
          status: 'Not in your scope',
          color: 'Default',
          detail: cardText(summary.outsideScope, 300),
        };
      }
      const base = {
        title: summary.title,
        link: options.tabLinks(summary.report),
        notChecked: summary.notChecked.length > 0 ? notCheckedLine(summary.notChecked) : '',
      };
      if (summary.state === 'load-error') {
        const status = summary.error?.status;
        return {
          ...base,
          status: status ? `Could not load: Microsoft Graph answered ${status}` : 'Could not load: Microsoft Graph could not be reached',
          color: 'Attention',
          detail: cardText(summary.error?.message ?? '', 200),
        };
      }
      if (summary.state === 'empty') return { ...base, status: 'Nothing to show', color: 'Default', detail: cardText(summary.notice ?? '', 200) };
      const named = summary.counts.slice(0, NAMED_KINDS).map((count) => countKind(count, count.count));
      const more = summary.counts.length - named.length;
      const apart = summary.triaged ? summary.triaged.accepted + summary.triaged.snoozed : 0;
      const detail = [
        named.join(', ') + (more > 0 ? `, and ${countOf(more, 'more kind', 'more kinds')}` : ''),
        apart > 0 ? `${number(apart)} accepted or snoozed, not counted` : '',
        summary.triaged === null ? 'accepted and snoozed findings could not be read, so every finding is counted' : '',
        summary.unavailable.length > 0 ? `n/a: ${summary.unavailable.join(', ')}` : '',
      ]
        .filter((part) => part !== '')
        .join(' · ');
      // "Not checked" is never good news: no findings from the checks that ran is not green.
      if (!summary.worst) return { ...base, status: `No open findings in ${countOf(summary.rows, 'row')}`, color: summary.notChecked.length > 0 ? 'Default' : 'Good', detail };
      return {
        ...base,
        status: `${countOf(summary.findings, 'open finding')}, worst ${SEVERITY_LABEL[summary.worst]}`,
        color: summary.worst === 'high' || summary.notChecked.some((source) => source.worst === 'high') ? 'Attention' : 'Warning',
        detail,
      };
    }),
  });
}
