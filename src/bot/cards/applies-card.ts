import type { AppliesResult } from '../../core/applies/applies-result.js';
import type { AppliesEntry, AppliesVerdict } from '../../core/applies/entry-types.js';
import { NOTHING_ASSIGNED, SUBJECT_WORDS, VERDICT_LABELS, appliesHeading, countsSentence, undecidedReasons } from '../../core/applies/words.js';
import { countOf } from '../../core/text/words.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { conflictsData } from './applies-conflicts.js';
import { readAt } from './report-card.js';

/**
 * How many decided objects (applies, excluded, depends on a filter) a card lists by name, across
 * its types; the rest are counted per type ("and N more"). With the text clipped below, a card of
 * any tenant stays far below Teams' size limit (adaptive-card.ts, `TEAMS_CARD_LIMIT_BYTES`).
 */
export const LISTED_ENTRIES = 20;
/** Reasons an answer could not be decided, listed in its "Could not be decided" section; and object names per reason. */
export const LISTED_REASONS = 5;
export const NAMES_PER_REASON = 5;
const VERDICT_COLOUR: Readonly<Record<AppliesVerdict, string>> = {
  applies: 'Good',
  excluded: 'Default',
  dependsOnFilter: 'Warning',
  unknown: 'Default',
  notForPlatform: 'Default',
};

/** The command that asks again about one candidate, as the bot reads it (what-applies.ts). */
export function appliesCommand(idOrName: string): string {
  return `what applies to ${idOrName}`;
}

const ENTRY_TEMPLATE = {
  type: 'Container',
  $data: '${entries}',
  spacing: 'Small',
  items: [
    {
      type: 'RichTextBlock',
      inlines: [
        { type: 'TextRun', text: '${verdict}', weight: 'Bolder', color: '${colour}' },
        { type: 'TextRun', text: ' · ' },
        { type: 'TextRun', $when: '${link != ""}', text: '${name}', weight: 'Bolder', selectAction: { type: 'Action.OpenUrl', url: '${link}', title: 'Open in Intune' } },
        { type: 'TextRun', $when: '${link == ""}', text: '${name}', weight: 'Bolder' },
        { type: 'TextRun', $when: '${intent != ""}', text: ' (${intent})', isSubtle: true },
      ],
    },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${why}', isSubtle: true, size: 'Small' }] },
    { type: 'RichTextBlock', $when: '${caveat != ""}', spacing: 'None', inlines: [{ type: 'TextRun', text: '${caveat}', isSubtle: true, size: 'Small', italic: true }] },
  ],
} as const;

const FOUND_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    { type: 'TextBlock', text: 'What applies', size: 'Medium', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${heading}', weight: 'Bolder' }] },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${subtitle}', isSubtle: true, size: 'Small' }] },
    { type: 'TextBlock', text: '${counts}', wrap: true, spacing: 'Small' },
    { type: 'TextBlock', $when: '${nothing}', text: '${nothingText}', wrap: true },
    {
      type: 'Container',
      $data: '${types}',
      spacing: 'Medium',
      items: [
        { type: 'TextBlock', text: '${heading}', weight: 'Bolder', wrap: true },
        ENTRY_TEMPLATE,
        { type: 'TextBlock', $when: '${more > 0}', text: '${moreText}', isSubtle: true, size: 'Small', wrap: true, spacing: 'Small' },
      ],
    },
    {
      type: 'Container',
      $when: '${undecided > 0}',
      style: 'emphasis',
      spacing: 'Medium',
      items: [
        { type: 'TextBlock', text: '${undecidedHeading}', weight: 'Bolder', wrap: true },
        { type: 'TextBlock', text: '${undecidedText}', wrap: true, size: 'Small', isSubtle: true, spacing: 'None' },
      ],
    },
    {
      type: 'Container',
      spacing: 'Medium',
      style: '${conflictsStyle}',
      items: [
        { type: 'TextBlock', text: '${conflictsHeading}', weight: 'Bolder', wrap: true },
        { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${conflictsSummary}', size: 'Small' }] },
        {
          type: 'Container',
          $data: '${conflicts}',
          spacing: 'Small',
          items: [
            {
              type: 'RichTextBlock',
              inlines: [
                { type: 'TextRun', text: '${label}', weight: 'Bolder', color: '${colour}' },
                { type: 'TextRun', text: ' · ' },
                { type: 'TextRun', text: '${setting}', weight: 'Bolder' },
              ],
            },
            { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: 'Applied: ${applied}', size: 'Small' }] },
            { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${policies}', isSubtle: true, size: 'Small' }] },
          ],
        },
        { type: 'TextBlock', $when: '${moreConflicts > 0}', text: '${moreConflictsText}', isSubtle: true, size: 'Small', wrap: true, spacing: 'Small' },
      ],
    },
    { type: 'Container', $data: '${notes}', items: [{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: '${text}', isSubtle: true, size: 'Small' }] }] },
  ],
  actions: [
    {
      type: 'Action.ShowCard',
      $when: '${undecided > 0}',
      title: '${undecidedHeading}',
      card: {
        type: 'AdaptiveCard',
        body: [
          {
            type: 'Container',
            $data: '${reasons}',
            spacing: 'Medium',
            items: [
              { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: '${why}' }] },
              { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${names}', isSubtle: true, size: 'Small' }] },
              { type: 'RichTextBlock', $when: '${paths != ""}', spacing: 'None', inlines: [{ type: 'TextRun', text: '${paths}', isSubtle: true, size: 'Small' }] },
            ],
          },
          { type: 'TextBlock', $when: '${moreReasons > 0}', text: '${moreReasonsText}', isSubtle: true, size: 'Small', wrap: true },
        ],
      },
    },
    { type: 'Action.OpenUrl', $when: '${subjectLink != ""}', title: 'Open the device in Intune', url: '${subjectLink}' },
    { type: 'Action.OpenUrl', title: 'Open the reports', url: '${tabUrl}' },
  ],
} as const;

const MESSAGE_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    { type: 'TextBlock', text: 'What applies', size: 'Medium', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${subtitle}', isSubtle: true, size: 'Small' }] },
    { type: 'Container', style: '${style}', items: [{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: '${words}' }] }] },
    {
      type: 'Container',
      $data: '${candidates}',
      spacing: 'Small',
      selectAction: { type: 'Action.Submit', title: '${command}', data: { msteams: { type: 'imBack', value: '${command}' } } },
      items: [
        {
          type: 'RichTextBlock',
          inlines: [
            { type: 'TextRun', text: '${kind} ', isSubtle: true },
            { type: 'TextRun', text: '${name}', weight: 'Bolder' },
            { type: 'TextRun', text: ' · ${detail}', isSubtle: true },
          ],
        },
        { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${command}', fontType: 'Monospace', size: 'Small' }] },
      ],
    },
    { type: 'TextBlock', $when: '${more > 0}', text: '${moreText}', isSubtle: true, size: 'Small', wrap: true },
    { type: 'TextBlock', $when: "${hint != ''}", text: '${hint}', isSubtle: true, size: 'Small', wrap: true },
  ],
  actions: [{ type: 'Action.OpenUrl', title: 'Open the reports', url: '${tabUrl}' }],
} as const;

export interface AppliesCardOptions {
  tenantLabel: string;
  tabUrl: string;
}

/**
 * The answer to "what applies to …" as a card: the objects grouped by type in the admin center's
 * order, each with its verdict, the way it reaches the subject in words and a link to Intune; the
 * objects that could not be decided gathered by why (never shown as "does not apply"). Or why
 * there is no answer: nothing by that name, several things (each a command to ask again), or the
 * tenant could not be read. Tenant text is only ever data in TextRuns (adaptive-card.ts).
 */
export function appliesCard(result: AppliesResult, options: AppliesCardOptions): AdaptiveCardJson {
  const tenant = cardText(options.tenantLabel, 80);
  if (result.kind !== 'found') {
    const candidates =
      result.kind === 'ambiguous'
        ? result.candidates.map((candidate) => ({
            kind: SUBJECT_WORDS[candidate.kind],
            name: cardText(candidate.name, 80),
            detail: cardText(candidate.detail, 120),
            // Asked again by id: one thing has it, whatever the names.
            command: appliesCommand(candidate.id),
          }))
        : [];
    const more = result.kind === 'ambiguous' ? result.more : 0;
    return expandCard(MESSAGE_TEMPLATE, {
      subtitle: tenant,
      style: result.kind === 'failed' ? 'attention' : result.kind === 'ambiguous' ? 'emphasis' : 'warning',
      words: cardText(result.words, 400),
      candidates,
      more,
      moreText: `and ${more.toLocaleString('en-US')} more: ask with a fuller name or an id`,
      hint:
        result.kind === 'ambiguous'
          ? 'Select one to ask about it.'
          : result.kind === 'notFound'
            ? 'Ask with a device name or its Intune device id, a user principal name (alice@contoso.com) or a group name or id.'
            : '',
      tabUrl: options.tabUrl,
    });
  }

  const { answer } = result;
  let budget = LISTED_ENTRIES;
  // A type none of whose objects fits is not a heading with nothing under it: it is named, counted, on the last type's line.
  const unlisted: string[] = [];
  const types = answer.groups.flatMap((group) => {
    const decided = group.entries.filter((entry) => entry.verdict !== 'unknown');
    if (decided.length === 0) return [];
    const listed = decided.slice(0, Math.max(0, budget));
    budget -= listed.length;
    const more = decided.length - listed.length;
    if (listed.length === 0) return (void unlisted.push(`${group.typeLabel} (${decided.length.toLocaleString('en-US')})`), []);
    return [
      { heading: `${group.typeLabel} (${decided.length.toLocaleString('en-US')})`, entries: listed.map(entryData), more, moreText: `and ${more.toLocaleString('en-US')} more` },
    ];
  });
  const last = types.at(-1);
  if (last && (last.more > 0 || unlisted.length > 0)) {
    const rest = [last.more > 0 ? last.moreText : null, unlisted.length > 0 ? `not listed here: ${unlisted.join(', ')}` : null].filter(Boolean).join('; ');
    Object.assign(last, { more: 1, moreText: `${rest}. Open the reports (below) to see every one in the tab.` });
  }
  for (const type of types) if (type !== last && type.more > 0) type.moreText = `${type.moreText}: open the reports (below) to see them in the tab`;
  const reasons = undecidedReasons(answer);
  const undecided = answer.counts.unknown;
  return expandCard(FOUND_TEMPLATE, {
    heading: cardText(appliesHeading(answer.subject), 200),
    subtitle: `${tenant} · read ${readAt(result.loadedAt)}`,
    counts: countsSentence(answer.counts),
    nothing: answer.groups.length === 0,
    nothingText: NOTHING_ASSIGNED,
    types,
    undecided,
    undecidedHeading: `${VERDICT_LABELS.unknown} (${undecided.toLocaleString('en-US')})`,
    undecidedText: undecidedSentence(undecided, reasons.length, `${VERDICT_LABELS.unknown} (${undecided.toLocaleString('en-US')})`),
    reasons: reasons.slice(0, LISTED_REASONS).map((reason) => {
      const names = reason.entries.slice(0, NAMES_PER_REASON).map((entry) => cardText(entry.name, 60));
      const left = reason.entries.length - names.length;
      // A reason the objects share (the device's own groups unknown): which of their paths it left undecided, each once.
      const paths = [...new Set(reason.paths ?? [])];
      const shownPaths = paths.slice(0, NAMES_PER_REASON).map((path) => cardText(path, 120));
      return {
        why: `${countOf(reason.entries.length, 'object')}: ${cardText(reason.words, 300)}`,
        names: `${names.join(', ')}${left > 0 ? ` and ${left} more` : ''}`,
        paths: `${shownPaths.join('; ')}${paths.length > shownPaths.length ? `; and ${paths.length - shownPaths.length} more` : ''}`,
      };
    }),
    moreReasons: Math.max(0, reasons.length - LISTED_REASONS),
    moreReasonsText: `and ${countOf(Math.max(0, reasons.length - LISTED_REASONS), 'more reason')}: open the reports (below) to see them in the tab`,
    ...conflictsData(answer.conflicts),
    notes: answer.notes.slice(0, 3).map((note) => ({ text: cardText(note, 300) })),
    subjectLink: answer.subject.kind === 'device' ? answer.subject.link : '',
    tabUrl: options.tabUrl,
  });
}

/**
 * What the undecided objects are, above the one button (titled `button`) that opens their reasons:
 * in the singular for one object, "the same reason" only for several that share it.
 */
export function undecidedSentence(undecided: number, reasons: number, button: string): string {
  const notNo = 'That is not "does not apply".';
  if (undecided === 1) return `One object may or may not apply: the app could not tell. ${button} below says why. ${notNo}`;
  const some = `${undecided.toLocaleString('en-US')} objects may or may not apply`;
  if (reasons === 1) return `${some}, all for the same reason: the app could not tell. ${button} below says which and why. ${notNo}`;
  return `${some}, for ${countOf(reasons, 'reason')}: the app could not tell. ${button} below says which and why. ${notNo}`;
}

function entryData(entry: AppliesEntry): { verdict: string; colour: string; name: string; link: string; intent: string; why: string; caveat: string } {
  return {
    verdict: VERDICT_LABELS[entry.verdict],
    colour: VERDICT_COLOUR[entry.verdict],
    name: cardText(entry.name, 80),
    link: entry.link,
    intent: entry.intent ? cardText(entry.intent, 20) : '',
    why: cardText(entry.words, 240),
    caveat: entry.caveats.length > 0 ? cardText(entry.caveats[0], 160) : '',
  };
}
