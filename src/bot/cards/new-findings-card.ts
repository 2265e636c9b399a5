import type { NewFindingsPost } from '../../app/new-findings-poster.js';
import { findingKind } from '../../core/findings/finding-kinds.js';
import { notCheckedLine } from '../../core/reports/not-checked.js';
import type { NewFindingsDigest } from '../../core/ledger/new-findings.js';
import type { ReportResult } from '../../core/reports/report-model.js';
import type { TabLinks } from '../tab-links.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { FINDING_ITEMS_TEMPLATE, KIND_COUNTS_TEMPLATE, findingList, kindCounts } from './finding-list.js';
import { readAt } from './report-card.js';
import { countOf, inSentence } from '../../core/text/words.js';

const NEW_FINDINGS_CARD_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    // The headline names the tenant, so it is a TextRun (expandCard), though a RichTextBlock has no heading style.
    { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: '${headline}', size: 'Medium', weight: 'Bolder' }] },
    { type: 'TextBlock', text: '${subtitle}', isSubtle: true, size: 'Small', spacing: 'None', wrap: true },
    { type: 'TextBlock', $when: "${interrupted != ''}", text: '${interrupted}', color: 'Warning', size: 'Small', wrap: true },
    {
      type: 'Container',
      $data: '${sections}',
      separator: true,
      spacing: 'Medium',
      items: [
        { type: 'TextBlock', text: '${title}', weight: 'Bolder', wrap: true },
        { type: 'TextBlock', $when: "${error != ''}", text: '${error}', color: 'Attention', wrap: true, spacing: 'Small' },
        { type: 'TextBlock', $when: "${summary != ''}", text: '${summary}', wrap: true, spacing: 'Small', isSubtle: true },
        KIND_COUNTS_TEMPLATE,
        FINDING_ITEMS_TEMPLATE,
        { type: 'TextBlock', $when: "${unchecked != ''}", text: '${unchecked}', color: 'Warning', size: 'Small', wrap: true, spacing: 'Small' },
        { type: 'ActionSet', $when: '${fresh > 0}', actions: [{ type: 'Action.OpenUrl', title: 'Open the report', url: '${tabUrl}' }] },
      ],
    },
  ],
} as const;

/**
 * What is new in a channel since its last post: per report, the new (and reopened) findings by
 * kind and the worst few by name, how many were resolved since, and the reports that could not be
 * checked. The same card says "nothing new" when asked in a channel where nothing is, and says so
 * when it may repeat a post that was cut off; a post for one scope tag names it.
 */
export function newFindingsCard(
  digest: NewFindingsDigest,
  options: { tenantLabel: string; tabLinks: TabLinks; rowsByReport: ReadonlyMap<string, ReportResult['rows']>; interruptedPostAt?: string; scope?: string },
): AdaptiveCardJson {
  const { freshCount, resolvedCount } = digest;
  // A post for one scope tag names it beside the tenant, in the headline's text run (tenant text is never read as Markdown).
  const where = `${cardText(options.tenantLabel, 60)}${options.scope ? `, ${cardText(options.scope, 80)}` : ''}`;
  const headline = freshCount > 0 ? `${countOf(freshCount, 'new finding')} in ${where}` : `Nothing new in ${where}`;
  const since = digest.lastPostedAt ? `since the last post here (${readAt(digest.lastPostedAt)})` : 'first post here';
  const resolved = resolvedCount > 0 ? ` · ${resolvedCount.toLocaleString('en-US')} resolved` : '';
  return expandCard(NEW_FINDINGS_CARD_TEMPLATE, {
    headline,
    subtitle: `${since}${resolved}`,
    interrupted: options.interruptedPostAt
      ? `A post here (${readAt(options.interruptedPostAt)}) was cut off before Teams confirmed it; if it arrived, this card repeats some of it.`
      : '',
    sections: digest.reports.map((news) => {
      const summary = [
        news.fresh.length > 0 ? `${news.fresh.length.toLocaleString('en-US')} new` : news.state === 'load-error' ? '' : 'nothing new',
        news.continuing > 0 ? `${news.continuing.toLocaleString('en-US')} already posted` : '',
        news.resolved > 0 ? `${news.resolved.toLocaleString('en-US')} resolved` : '',
      ].filter(Boolean);
      return {
        title: news.title,
        error: news.error
          ? `Could not check: ${news.error.status !== null ? `Graph answered ${news.error.status}` : 'Microsoft Graph could not be reached'}. Nothing from this report is counted as resolved.`
          : '',
        summary: summary.join(' · '),
        counts: kindCounts(news.fresh, news.findingKinds),
        ...findingList(news.fresh, options.rowsByReport.get(news.report) ?? [], news.findingKinds),
        // Which checks, how bad at worst and the permission to grant, as the report card and the tab say it.
        unchecked:
          news.notChecked.length > 0
            ? `${notCheckedLine(news.notChecked)} Earlier findings of those checks are not counted as resolved.`
            : news.unchecked.length > 0
              ? `Not checked (permission not granted): ${news.unchecked.map((kind) => inSentence(findingKind(news.findingKinds, kind).label)).join(', ')}.`
              : '',
        fresh: news.fresh.length,
        tabUrl: options.tabLinks(news.report),
      };
    }),
  });
}

/** A post of the posting service (src/app/new-findings-poster.ts) drawn as this card. */
export function newFindingsCardFor(options: { tenantLabel: string; tabLinks: TabLinks }): (post: NewFindingsPost) => AdaptiveCardJson {
  return (post) =>
    newFindingsCard(post.digest, {
      ...options,
      rowsByReport: post.rowsByReport,
      ...(post.interruptedPostAt !== undefined ? { interruptedPostAt: post.interruptedPostAt } : {}),
      ...(post.scope !== undefined ? { scope: post.scope } : {}),
    });
}
