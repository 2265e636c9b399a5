import type { BotBuilderCloudAdapter } from '@microsoft/teamsfx';
import type { ConversationReferenceStore } from '@microsoft/teamsfx';
import type { ConversationReference, TurnContext } from 'botbuilder';
import type { StateStore } from '../../store/state-store.js';
import type { CardTarget } from '../bot-services.js';

type NotificationBot = BotBuilderCloudAdapter.NotificationBot;
type Installation = BotBuilderCloudAdapter.TeamsBotInstallation;

/** TeamsFx keeps notification targets through this interface; the state store keeps them. */
export function installationStore(store: StateStore): ConversationReferenceStore {
  return {
    add: (key, reference, options) => store.putInstallation(key, reference as Record<string, unknown>, { overwrite: options.overwrite ?? false }),
    remove: (key) => store.removeInstallation(key),
    async list(pageSize = 100, continuationToken) {
      const all = await store.listInstallations();
      const start = continuationToken ? Number(continuationToken) : 0;
      const end = start + pageSize;
      return {
        data: all.slice(start, end).map((installation) => installation.reference as Partial<ConversationReference>),
        continuationToken: end < all.length ? String(end) : '',
      };
    },
  };
}

/**
 * Where /api/notify posts: the channels where the app is installed (team installations, which post
 * to the team's General channel), or the one named target: an installation's conversation id, or a
 * channel of an installed team. None when the app is not installed where `wanted` points.
 */
export async function postTargets(notification: NotificationBot, wanted: string | undefined): Promise<CardTarget[]> {
  const installations: Installation[] = [];
  let continuationToken: string | undefined;
  // Bounded: a store holds at most a few thousand installations, 100 a page.
  for (let page = 0; page < 1_000; page++) {
    const paged = await notification.getPagedInstallations(100, continuationToken);
    installations.push(...paged.data);
    continuationToken = paged.continuationToken;
    if (!continuationToken) break;
  }
  if (!wanted) return installations.filter((installation) => installation.type === 'Channel').map((installation) => installationTarget(installation));
  for (const installation of installations) {
    if (installation.conversationReference.conversation?.id === wanted) return [installationTarget(installation)];
    if (installation.type !== 'Channel') continue;
    const channel = (await installation.channels()).find((candidate) => candidate.info.id === wanted);
    if (channel) {
      return [{ channel: wanted, name: channel.info.name ?? wanted, send: (card) => sendCard((onError) => channel.sendAdaptiveCard(card, onError)) }];
    }
  }
  return [];
}

function installationTarget(installation: Installation): CardTarget {
  const conversation = installation.conversationReference.conversation;
  const channel = conversation?.id ?? '';
  return { channel, name: conversation?.name ?? channel, send: (card) => sendCard((onError) => installation.sendAdaptiveCard(card, onError)) };
}

/**
 * TeamsFx sends proactively inside the adapter's turn, where a failure would go to the adapter's
 * error handler and be lost; the error callback brings it back, so a failed post records nothing.
 */
export async function sendCard(send: (onError: (context: TurnContext, error: Error) => Promise<void>) => Promise<unknown>): Promise<void> {
  let failure: Error | undefined;
  await send(async (_context, error) => {
    failure = error;
  });
  if (failure) throw failure;
}
