import { createRequire } from 'node:module';
import { singleLine } from '../../core/reports/graph-values.js';

/**
 * The templating engine, typed here: its published declarations import the renderer's TypeScript
 * sources (`adaptivecards/src/schema`), which do not compile under this project's settings.
 */
const { Template } = createRequire(import.meta.url)('adaptivecards-templating') as {
  Template: new (payload: object) => { expand(context: { $root: object }): unknown };
};

/** An Adaptive Card as JSON, ready to attach. */
export type AdaptiveCardJson = Record<string, unknown>;

/**
 * Teams refuses a message over about 28 KB, cards included
 * (learn.microsoft.com/microsoftteams/platform/bots/how-to/format-your-bot-messages, "Message size
 * limits"). Every card here is built to stay well under it; `expandCard` checks.
 */
export const TEAMS_CARD_LIMIT_BYTES = 28 * 1024;

/** Adaptive Cards 1.5: the newest schema Teams renders on every client. */
export const CARD_SCHEMA = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.5', msteams: { width: 'Full' } } as const;

/**
 * Binds a template to its data with the Adaptive Cards templating engine. Tenant text travels only
 * as data (a device named "${…}" is not evaluated again) and is shown in TextRuns, never in a
 * TextBlock: Teams reads a TextBlock's text as Markdown
 * (learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-format, "Format
 * cards with Markdown"), and a RichTextBlock's TextRuns as they are
 * (learn.microsoft.com/adaptive-cards/create/textfeatures, "Markdown (Commonmark subset)"), so a
 * policy name, a tenant's name or a person's cannot turn into a link. Escaping the Markdown instead
 * would not do: Teams' clients do not read backslash escapes alike (microsoft/AdaptiveCards#5590).
 */
export function expandCard(template: object, data: object): AdaptiveCardJson {
  const card = new Template(template).expand({ $root: data }) as AdaptiveCardJson;
  const bytes = cardBytes(card);
  // Cards cap their lists and clip their text; a card over the limit is a bug in that capping.
  if (bytes > TEAMS_CARD_LIMIT_BYTES) throw new Error(`card of ${bytes} bytes exceeds Teams' ${TEAMS_CARD_LIMIT_BYTES}-byte limit`);
  return card;
}

export function cardBytes(card: AdaptiveCardJson): number {
  return Buffer.byteLength(JSON.stringify(card), 'utf8');
}

/** Tenant text for a card: printable, on one line, and at most `max` characters. */
export function cardText(text: string | null | undefined, max: number): string {
  const line = singleLine(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
