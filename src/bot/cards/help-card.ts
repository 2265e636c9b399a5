import type { BotCommandLine } from '../commands/command.js';
import { CARD_SCHEMA, cardText, expandCard } from './adaptive-card.js';
import type { AdaptiveCardJson } from './adaptive-card.js';
import { NO_SCHEDULE } from './schedule-sentence.js';

const HELP_CARD_TEMPLATE = {
  ...CARD_SCHEMA,
  body: [
    {
      type: 'RichTextBlock',
      $when: "${unknown != ''}",
      inlines: [
        { type: 'TextRun', text: "I don't know " },
        { type: 'TextRun', text: '${unknown}', weight: 'Bolder' },
        { type: 'TextRun', text: '. ' },
        { type: 'TextRun', $when: "${why != ''}", text: '${why} ' },
        { type: 'TextRun', $when: "${suggestion != ''}", text: 'Did you mean ' },
        { type: 'TextRun', $when: "${suggestion != ''}", text: '${suggestion}', weight: 'Bolder', fontType: 'Monospace' },
        { type: 'TextRun', $when: "${suggestion != ''}", text: '?' },
      ],
    },
    { type: 'TextBlock', text: 'Device Management Health', size: 'Medium', weight: 'Bolder', style: 'heading', wrap: true },
    {
      type: 'RichTextBlock',
      spacing: 'None',
      inlines: [
        { type: 'TextRun', text: 'What is quietly broken in ' },
        { type: 'TextRun', text: '${tenant}' },
        { type: 'TextRun', text: '. Send me one of these:' },
      ],
    },
    {
      type: 'ColumnSet',
      $data: '${commands}',
      spacing: 'Small',
      columns: [
        { type: 'Column', width: 'auto', items: [{ type: 'TextBlock', text: '${command}', weight: 'Bolder', fontType: 'Monospace' }] },
        { type: 'Column', width: 'stretch', items: [{ type: 'TextBlock', text: '${description}', wrap: true, isSubtle: true }] },
      ],
    },
    { type: 'TextBlock', text: 'Scheduled posts', weight: 'Bolder', spacing: 'Medium', wrap: true },
    // The sentence names who set the schedule, as Teams gave their name.
    { type: 'RichTextBlock', spacing: 'None', inlines: [{ type: 'TextRun', text: '${schedule}' }] },
    {
      type: 'TextBlock',
      text: 'A report also answers to its id or number (`show 4`, `show escrow-gaps`) and to a question in your own words, such as "which devices have no BitLocker key?".',
      isSubtle: true,
      size: 'Small',
      wrap: true,
    },
  ],
  actions: [{ type: 'Action.OpenUrl', title: 'Open the reports', url: '${tabUrl}' }],
} as const;

/**
 * The short help card: the commands, and, for a message that was not one, what was not understood.
 * What others wrote (the quote, the tenant's name, the name of whoever set the schedule) is in
 * TextRuns, so nothing in it is read as Markdown (adaptive-card.ts, `expandCard`).
 */
export function helpCard(options: {
  tenantLabel: string;
  tabUrl: string;
  unknown?: string;
  suggestion?: string;
  /** What the reader needs to ask again, after the quote. */
  why?: string;
  /** The lines to list: each command's own, in the order of src/bot/commands/index.ts (`botCommands`). */
  commands: readonly BotCommandLine[];
  /** This conversation's posting schedule in a sentence (scheduleSentence); by default, how to set one. */
  schedule?: string;
}): AdaptiveCardJson {
  return expandCard(HELP_CARD_TEMPLATE, {
    unknown: options.unknown ? `"${cardText(options.unknown, 60)}"` : '',
    suggestion: options.suggestion ?? '',
    why: options.why ? cardText(options.why, 200) : '',
    tenant: cardText(options.tenantLabel, 80),
    commands: options.commands,
    tabUrl: options.tabUrl,
    schedule: cardText(options.schedule ?? NO_SCHEDULE, 400),
  });
}
