import type { AppliesResult } from '../../app/applies-service.js';
import { LONGEST_APPLIES_QUERY } from '../../core/applies/words.js';
import { COMMAND_PATTERNS, plainText } from '../bot-command.js';
import { appliesCard } from '../cards/applies-card.js';
import { appliesQuery } from '../phrasing.js';
import { answerWhenReady } from './answer-when-ready.js';
import type { BotReply, Command } from './command.js';

const ASK_WITH_A_NAME = 'Ask with a name: "what applies to DESKTOP-0042" for a device, "what does alice@contoso.com get" for a user, or "what applies to Sales EMEA" for a group.';

/**
 * `what applies to <device|user|group>`: what targets it, through which group, and what takes it
 * out (docs/contract.md, "What applies"), as a card grouped by object type. The first question on a
 * large tenant reads for a while (about half a minute at 100,000 devices); it is answered the way a
 * slow report is: "working on it" now, the card when it is ready.
 */
export const whatApplies: Command = {
  name: 'what applies to [name]',
  triggers: [COMMAND_PATTERNS.applies],
  helpLines: () => [
    {
      command: 'what applies to [name]',
      description: 'For a device, a user (alice@contoso.com) or a group: each policy, app and script that targets it, and why',
    },
  ],
  async handle(request, context) {
    // The text as sent keeps what the matched words lose: a UPN's "@" and dots, a device name's hyphen.
    const query = (appliesQuery(plainText(request.sentText)) ?? request.matches[1] ?? '').slice(0, LONGEST_APPLIES_QUERY).trim();
    if (!context.applies) return { text: 'What applies cannot be asked here: this app reads no tenant.' };
    if (query === '') return { text: ASK_WITH_A_NAME };
    await context.conversation.typing();
    const loading = context.applies.applies(query);
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
