import type { CardTarget } from '../bot-services.js';
import type { Command } from './command.js';

/**
 * `post new findings`: what is new in this conversation since its last post, as a card of its own,
 * or a card that says nothing is (someone asked, so something is said).
 */
export const postNewFindings: Command<{ kind: 'post-new-findings' }> = {
  name: 'post new findings',
  read: ({ words }) => (/^post (?:the )?new findings(?: here)?$/.test(words) ? { kind: 'post-new-findings' } : null),
  nearMisses: ['post new findings'],
  helpLines: () => [{ command: 'post new findings', description: 'Post what is new since the last post here; add "daily at 9:00" or "weekly on monday" to post on a schedule' }],
  async handle(request, _reading, context) {
    await context.conversation.typing();
    const target: CardTarget = {
      channel: request.conversation.channel,
      name: request.conversation.name ?? 'this conversation',
      send: (card) => context.conversation.send({ card }),
    };
    const outcome = await context.poster.post(target, context.registry.postedByDefault, { alwaysAnswer: true });
    context.log(`post new findings in ${target.channel}: ${outcome.status}, ${outcome.fresh} new`);
    if (outcome.status === 'busy') return { text: 'Another post of new findings to this channel is under way; it will say what is new.' };
    if (outcome.status === 'failed') throw new Error(`posting new findings failed: ${outcome.message ?? 'unknown error'}`);
    return null;
  },
};
