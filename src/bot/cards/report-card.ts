import { notCheckedChecksText, notCheckedHeadline, notCheckedReasonText } from '../../core/reports/not-checked.js';
import { countFindingsByKind, findingsWorstFirst } from '../../core/findings/finding-kinds.js';
import type { ReportDefinition, ReportResult } from '../../core/reports/report-model.js';
import type { TabLinks } from '../tab-links.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { FINDING_ITEMS_TEMPLATE, KIND_COUNTS_TEMPLATE, findingList, kindCounts } from './finding-list.js';
import { agree, countOf } from '../../core/text/words.js';

const REPORT_CARD_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    { type: 'TextBlock', text: '${title}', size: 'Medium', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${subtitle}', isSubtle: true, size: 'Small' }] },
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
    // Checks that did not run, before what was found: the findings below are not all there is.
    {
      type: 'Container',
      $when: '${count(notChecked) > 0}',
      style: 'warning',
      items: [
        { type: 'TextBlock', text: '${notCheckedHeadline}', weight: 'Bolder', wrap: true },
        { type: 'Container', $data: '${notChecked}', items: [{ type: 'TextBlock', text: '${text}', wrap: true, size: 'Small' }] },
      ],
    },
    { type: 'TextBlock', $when: "${state == 'loaded' && findingCount == 0}", text: '${clearText}', color: '${clearColor}', wrap: true },
    { type: 'TextBlock', $when: '${findingCount > 0}', text: '${findingSummary}', weight: 'Bolder', wrap: true, spacing: 'Medium' },
    { type: 'TextBlock', $when: "${triagedNote != ''}", text: '${triagedNote}', isSubtle: true, size: 'Small', wrap: true, spacing: 'Small' },
    KIND_COUNTS_TEMPLATE,
    FINDING_ITEMS_TEMPLATE,
    { type: 'TextBlock', $when: "${state == 'loaded' && caveat != ''}", text: '${caveat}', isSubtle: true, size: 'Small', wrap: true, spacing: 'Medium' },
  ],
  actions: [
    { type: 'Action.OpenUrl', title: 'Open the report', url: '${tabUrl}' },
    {
      type: 'Action.ShowCard',
      $when: '${count(fixes) > 0}',
      title: 'How to fix',
      card: {
        type: 'AdaptiveCard',
        body: [
          {
            type: 'Container',
            $data: '${fixes}',
            spacing: 'Medium',
            items: [
              { type: 'TextBlock', text: '${label}', weight: 'Bolder', wrap: true },
              { type: 'TextBlock', text: '${why}', wrap: true, isSubtle: true, spacing: 'Small' },
              { type: 'TextBlock', text: '${steps}', wrap: true, spacing: 'Small' },
              { type: 'TextBlock', text: '${learn}', wrap: true, size: 'Small', spacing: 'Small' },
            ],
          },
        ],
      },
    },
  ],
} as const;

/** Kinds whose fix a card spells out: the worst few, so the card stays well inside Teams' size limit. */
const EXPLAINED_KINDS = 3;

/**
 * How to fix the worst kinds, as card text: the steps as a Markdown numbered list and the Microsoft
 * Learn pages as links (the texts are ours, docs/finding-rules.md, "Remediation guidance").
 */
function fixesFor(result: ReportResult, findings: ReportResult['findings']): Array<{ label: string; why: string; steps: string; learn: string }> {
  return countFindingsByKind(findings, result.findingKinds)
    .slice(0, EXPLAINED_KINDS)
    .flatMap(({ label, remediation }) =>
      remediation
        ? [
            {
              label,
              why: remediation.why,
              steps: remediation.steps.map((step, index) => `${index + 1}. ${step}`).join('\r'),
              learn: `Learn more: ${remediation.sources.map((source) => `[${source.title.replace(/[[\]]/g, '')}](${source.url})`).join(' · ')}`,
            },
          ]
        : [],
    );
}

/**
 * A report as a card: its open findings counted by kind worst first, the worst few by name, a button
 * to the tab at that report; or the load error naming the upstream status, or the empty notice.
 * Accepted and snoozed findings (`triaged`, by fingerprint) are counted apart, not listed; with
 * `triaged` null (the decisions could not be read) every finding is listed, and the card says so.
 */
export function reportCard(
  result: ReportResult,
  definition: Pick<ReportDefinition<unknown>, 'beta'>,
  options: { tenantLabel: string; tabLinks: TabLinks; triaged?: ReadonlySet<string> | null },
): AdaptiveCardJson {
  const triaged = options.triaged === undefined ? new Set<string>() : options.triaged;
  const open = triaged ? result.findings.filter((finding) => !triaged.has(finding.fingerprint)) : result.findings;
  const apart = result.findings.length - open.length;
  const findings = findingsWorstFirst(open, result.findingKinds);
  const error = result.error;
  return expandCard(REPORT_CARD_TEMPLATE, {
    title: `${result.title}${definition.beta ? ' (beta)' : ''}`,
    // A failed load says when it failed: nothing was read then.
    subtitle: `${cardText(options.tenantLabel, 80)} · ${result.state === 'load-error' ? 'failed' : 'read'} ${readAt(result.generatedAt)}`,
    state: result.state,
    errorHeadline: error ? `This report could not load: ${error.status !== null ? `Graph answered ${error.status}` : 'Microsoft Graph could not be reached'}.` : '',
    errorMessage: error ? cardText(error.message, 600) : '',
    notice: result.notice ?? '',
    caveat: result.state === 'loaded' ? (result.notice ?? '') : '',
    findingCount: findings.length,
    findingSummary: `${countOf(findings.length, apart > 0 ? 'open finding' : 'finding')}, worst first`,
    clearText:
      result.notChecked.length > 0
        ? 'No findings from the checks that ran.'
        : apart > 0
          ? 'No open findings: the others are accepted or snoozed.'
          : 'No findings: nothing here needs attention.',
    // "Not checked" is never good news.
    clearColor: result.notChecked.length > 0 ? 'Default' : 'Good',
    notCheckedHeadline: result.notChecked.length > 0 ? `${notCheckedHeadline(result.notChecked)}. The findings below are not all there is.` : '',
    notChecked: result.notChecked.map((source) => ({ text: `${notCheckedChecksText(source)}. ${notCheckedReasonText(source)}` })),
    triagedNote:
      triaged === null
        ? 'Accepted and snoozed findings could not be read, so every finding is listed.'
        : apart > 0
          ? `${countOf(apart, 'accepted or snoozed finding')} ${agree(apart, 'is', 'are')} not listed; the tab shows ${agree(apart, 'it', 'them')}.`
          : '',
    counts: kindCounts(findings, result.findingKinds),
    ...findingList(findings, result.rows, result.findingKinds),
    tabUrl: options.tabLinks(result.report),
    fixes: result.state === 'loaded' ? fixesFor(result, findings) : [],
  });
}

/** "Nov 23, 09:00 UTC": a card is read later than it is sent, so an absolute time. */
export function readAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;
}
