import { countFindingsByKind, findingKind } from '../../core/findings/finding-kinds.js';
import type { FindingKindTable } from '../../core/findings/finding-kinds.js';
import type { FindingSeverity } from '../../core/findings/finding-kinds.js';
import type { Finding, ReportResult } from '../../core/reports/report-model.js';
import { cardText } from './adaptive-card.js';
import { changeTime } from '../../core/audit-story/audit-story.js';
import { formatCount, kindLabel } from '../../core/text/words.js';

/** How many findings a card lists by name; the rest are counted ("and N more"). */
export const LISTED_FINDINGS = 5;

const SEVERITY_COLOUR: Record<FindingSeverity, string> = { high: 'Attention', medium: 'Warning', low: 'Default' };

export interface KindCountData {
  /** Not `count`: that is an expression function in the templating language and would shadow it. */
  total: string;
  label: string;
  severity: string;
  colour: string;
}

export interface FindingItemData {
  name: string;
  /** The finding's detail, which says what is wrong in a sentence. */
  what: string;
  /** The object's page in the Intune admin center, or "" where the portal has none. */
  link: string;
  reopened: boolean;
  /** Who last changed the finding's object and when (`Changed by … on …`), or "" where the audit log does not say. */
  changed: string;
}

export function kindCounts(findings: readonly Pick<Finding, 'kind'>[], kinds: FindingKindTable): KindCountData[] {
  return countFindingsByKind(findings, kinds).map(({ count, severity, ...words }) => ({
    total: formatCount(count),
    label: kindLabel(words, count),
    severity: severity.charAt(0).toUpperCase() + severity.slice(1),
    colour: SEVERITY_COLOUR[severity],
  }));
}

export interface FindingListData {
  items: FindingItemData[];
  /** How many findings the list leaves out. */
  more: number;
  moreText: string;
}

/**
 * The first few findings (already worst first) with their admin center links, taken from the
 * report's rows, where each row's id is the finding's subject, and how many more there are. Text
 * is clipped so that a card of any report stays far below Teams' size limit.
 */
export function findingList(findings: readonly (Finding & { reopened?: boolean })[], rows: ReportResult['rows'], kinds: FindingKindTable): FindingListData {
  const listed = findings.slice(0, LISTED_FINDINGS);
  const wanted = new Set(listed.map((finding) => finding.subjectId));
  const links = new Map<string, string>();
  for (const row of rows) {
    const id = typeof row.id === 'string' ? row.id : null;
    if (id && wanted.has(id) && typeof row.link === 'string' && !links.has(id)) links.set(id, row.link);
  }
  const items = listed.map((finding) => ({
    name: cardText(finding.subjectName || finding.subjectId, 80),
    what: cardText(finding.detail || findingKind(kinds, finding.kind).label, 180),
    link: links.get(finding.subjectId) ?? '',
    reopened: finding.reopened === true,
    // Since when, and who: the line that gets acted on (docs/finding-rules.md, "A finding's last change").
    changed: finding.lastChange ? cardText(`Changed by ${finding.lastChange.by} on ${changeTime(finding.lastChange.at)}`, 140) : '',
  }));
  const more = findings.length - items.length;
  return { items, more, moreText: more.toLocaleString('en-US') };
}

/** The list of findings as card elements: one line each, the name linking to Intune where it can. */
export const FINDING_ITEMS_TEMPLATE = {
  type: 'Container',
  $when: '${count(items) > 0}',
  spacing: 'Medium',
  items: [
    {
      type: 'RichTextBlock',
      $data: '${items}',
      spacing: 'Small',
      inlines: [
        { type: 'TextRun', $when: '${reopened}', text: 'Reopened · ', weight: 'Bolder', color: 'Warning' },
        { type: 'TextRun', $when: '${link != ""}', text: '${name}', weight: 'Bolder', selectAction: { type: 'Action.OpenUrl', url: '${link}', title: 'Open in Intune' } },
        { type: 'TextRun', $when: '${link == ""}', text: '${name}', weight: 'Bolder' },
        { type: 'TextRun', text: ' · ${what}', isSubtle: true },
        { type: 'TextRun', $when: '${changed != ""}', text: ' · ${changed}', isSubtle: true, italic: true },
      ],
    },
    { type: 'TextBlock', $when: '${more > 0}', text: 'and ${moreText} more', isSubtle: true, spacing: 'Small', wrap: true },
  ],
} as const;

/** Counts by kind, worst first, each with its severity in colour. */
export const KIND_COUNTS_TEMPLATE = {
  type: 'Container',
  $when: '${count(counts) > 0}',
  items: [
    {
      type: 'ColumnSet',
      $data: '${counts}',
      spacing: 'Small',
      columns: [
        { type: 'Column', width: '48px', items: [{ type: 'TextBlock', text: '${total}', weight: 'Bolder', color: '${colour}', horizontalAlignment: 'Right' }] },
        { type: 'Column', width: 'stretch', items: [{ type: 'TextBlock', text: '${label}', wrap: true }] },
        { type: 'Column', width: 'auto', items: [{ type: 'TextBlock', text: '${severity}', color: '${colour}', isSubtle: true, size: 'Small' }] },
      ],
    },
  ],
} as const;
