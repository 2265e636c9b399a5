import type { AppliesResult } from '../../core/applies/applies-result.js';
import { LONGEST_APPLIES_QUERY } from '../../core/applies/words.js';
import { commandWords } from '../message-words.js';
import { appliesCard } from '../cards/applies-card.js';
import { answerWhenReady } from './answer-when-ready.js';
import type { BotReply, Command } from './command.js';

const ASK_WITH_A_NAME =
  'Ask with a name: "what applies to CONTOSO-0040" for a device, "what does user41@contoso-demo.example get" for a user, or "what applies to Sales EMEA" for a group.';

/**
 * `what applies to <device|user|group>`: what targets it, through which group, and what takes it
 * out (docs/contract.md, "What applies"), as a card grouped by object type, in the asker's viewer
 * scope (docs/finding-rules.md, "What applies", "For a viewer limited to scope tags"). The first question on a
 * large tenant reads for a while (about half a minute at 100,000 devices); it is answered the way a
 * slow report is: "working on it" now, the card when it is ready.
 */
export const whatApplies: Command<{ kind: 'applies'; query: string }> = {
  name: 'what applies to [name]',
  read({ words, plain }) {
    // Read from the text as sent, which keeps what the words lose: a UPN's "@" and dots, a device name's hyphen.
    const query = appliesQuery(plain);
    if (query) return { kind: 'applies', query };
    // The help card's own line, `what applies to [name]`, and the question without its subject: answered with how to ask.
    return /^(?:what applies|what applies to|applies to|what applies to name)$/.test(words) ? { kind: 'applies', query: '' } : null;
  },
  says: ({ query }) => `what applies to ${commandWords(query) || '?'}`.trim(),
  helpLines: () => [
    {
      command: 'what applies to [name]',
      description: 'For a device, a user (alice@contoso.com) or a group: each policy, app and script that targets it, and why',
    },
  ],
  // Answered in the asker's scope: a viewer limited to scope tags about a device they may see only, with the objects of their tags (AppliesService).
  viewerScope: 'in-scope',
  async handle(_request, reading, context) {
    const query = reading.query.slice(0, LONGEST_APPLIES_QUERY).trim();
    if (!context.applies) return { text: 'What applies cannot be asked here: this app reads no tenant.' };
    if (query === '') return { text: ASK_WITH_A_NAME };
    await context.conversation.typing();
    const loading = context.applies.applies(query, { scope: context.scope });
    const toCard = (result: AppliesResult): Promise<BotReply> => {
      if (result.kind === 'failed') context.log(`what applies: ${result.words}`);
      return Promise.resolve({ card: appliesCard(result, { tenantLabel: context.tenantLabel, tabUrl: context.tabUrl }) });
    };
    return answerWhenReady(context, loading, toCard, {
      what: 'what applies',
      meanwhile: `Working out what applies: the first question reads every assignment and group in ${context.tenantLabel}, which takes a while on a large tenant. The answer follows here when it is ready.`,
    });
  },
};

/**
 * What a message asks "what applies" about, as its author wrote it (a UPN keeps its "@" and dots, a
 * device name its hyphen), or null when it asks something else: "what applies to CONTOSO-0040",
 * "what does alice@contoso.com get", "which apps apply to Sales EMEA?", "effective assignments for
 * CONTOSO-0040". Report phrasings ("which policies are not assigned to anyone", "what is targeted
 * at all users") are not of this shape.
 */
export function appliesQuery(text: string): string | null {
  const line = text
    .replace(/[?!.\s]+$/u, '')
    .replace(/^(?:please|hey|hi)[,\s]+/iu, '')
    .trim();
  for (const pattern of APPLIES_PATTERNS) {
    const subject = pattern.exec(line)?.[1];
    if (!subject) continue;
    const query = subject
      .replace(/^(?:the\s+)?(?:device|user|group|computer|laptop|pc)\s+(?=\S)/iu, '')
      .replace(/\s+(?:please|now)$/iu, '')
      .replace(/^["'“‘]|["'”’]$/gu, '')
      .trim();
    // The help card's placeholder (`what applies to [name]`) is no name: asked as it stands, it gets how to ask.
    if (query === '' || NO_ONE.test(query) || /^\[[^\]]*\]$/.test(query)) return null;
    return query;
  }
  return null;
}

const APPLIES_PATTERNS: readonly RegExp[] = [
  /^(?:show\s+(?:me\s+)?|tell\s+me\s+)?(?:what|which)(?:'s|’s|\s+is|\s+are)?\s+(?:[\p{L}-]+\s+){0,2}(?:applies|apply|applied|is\s+applied|gets\s+applied|is\s+assigned|are\s+assigned|assigned|targets|target)\s+to\s+(.+)$/iu,
  /^(?:what|which\s+[\p{L}-]+)\s+(?:does|do|will|would)\s+(.+?)\s+(?:get|receive|have\s+assigned|get\s+assigned)$/iu,
  /^(?:show\s+(?:me\s+)?)?(?:the\s+)?(?:effective\s+assignments|what\s+applies)\s+(?:of|for|to|on)\s+(.+)$/iu,
  /^applies\s+(?:to\s+)?(.+)$/iu,
];

/** Not a subject but a report's question ("assigned to anyone" is report 2's, "to all users" its broad targets). */
const NO_ONE = /^(?:anyone|anybody|everyone|everybody|nothing|no\s?one|nobody|all\s+users|all\s+devices|all\s+users\s+and\s+all\s+devices|deleted\s+groups?|empty\s+groups?)$/iu;
