import { errorText } from '../../core/error-text.js';
import type { CardTarget } from '../bot-services.js';
import { channelTag } from '../../core/schedule/post-schedule.js';
import { onDemandPost } from './channel-scope.js';
import type { Command } from './command.js';

/**
 * `post new findings`: what is new in this conversation since its last post, as a card of its own,
 * or a card that says nothing is (someone asked, so something is said). It keeps to a scope
 * (docs/finding-rules.md, "Viewer scope"): a channel set for one scope tag gets that tag's findings,
 * and an asker limited to scope tags posts at most what both they and the channel may see
 * (channel-scope.ts).
 */
export const postNewFindings: Command<{ kind: 'post-new-findings' }> = {
  name: 'post new findings',
  read: ({ words }) => (/^post (?:the )?new findings(?: here)?$/.test(words) ? { kind: 'post-new-findings' } : null),
  nearMisses: ['post new findings'],
  helpLines: () => [{ command: 'post new findings', description: 'Post what is new since the last post here; add "daily at 9:00" or "weekly on monday" to post on a schedule' }],
  viewerScope: 'in-scope',
  async handle(request, _reading, context) {
    await context.conversation.typing();
    const target: CardTarget = {
      channel: request.conversation.channel,
      name: request.conversation.name ?? 'this conversation',
      send: (card) => context.conversation.send({ card }),
    };
    let tag: { id: string; name: string } | undefined;
    try {
      // The channel's tag, kept when its schedule stopped (docs/finding-rules.md, "Viewer scope", "A channel's audience").
      tag = channelTag(await context.schedules.read(), target.channel);
    } catch (error) {
      // Whether this channel is kept to one scope tag is unknown, so nothing is posted rather than perhaps too much.
      context.log(`post new findings in ${target.channel}: the posting schedules could not be read: ${errorText(error)}`);
      return {
        text: "Nothing was posted: this conversation's posting schedule could not be read, so whether its posts are kept to one scope tag is unknown. Try again in a few minutes.",
      };
    }
    const plan = onDemandPost(context.asker, tag, context.registry);
    if (!plan.ok) return { text: plan.message };
    const outcome = await context.poster.post(target, plan.reports, { alwaysAnswer: true, ...(plan.scope ? { scope: plan.scope } : {}) });
    context.log(`post new findings in ${target.channel}: ${outcome.status}, ${outcome.fresh} new`);
    if (outcome.status === 'busy') return { text: 'Another post of new findings to this channel is under way; it will say what is new.' };
    if (outcome.status === 'failed') throw new Error(`posting new findings failed: ${outcome.message ?? 'unknown error'}`);
    return null;
  },
};
