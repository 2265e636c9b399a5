import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';
import { ActivityTypes, CloudAdapter, ConfigurationBotFrameworkAuthentication, ConfigurationServiceClientCredentialFactory } from 'botbuilder';
import type { ConversationReference, Middleware, TurnContext } from 'botbuilder';
import type { Request, Response } from 'restify';
import { isLoopback, isLoopbackHost } from '../../core/net/loopback.js';
import type { BotSendOutcome } from '../../app/telemetry.js';
import { errorText } from '../../core/error-text.js';
import type { StateStore } from '../../store/state-store.js';
import type { MessageDispatch } from '../message-dispatch.js';
import type { CardTarget } from '../bot-services.js';
import { requestFrom } from './activity-request.js';
import { activityServiceUrl, activityTenantId } from './activity-tenant.js';
import { installationStore, postTargets, sendCard } from './installations.js';
import { cardMessage, replyActivity, textMessage, turnConversation } from './turn-conversation.js';

const { ConversationBot } = BotBuilderCloudAdapter;
type ConversationBot = BotBuilderCloudAdapter.ConversationBot;

/** The bot's identity for Bot Framework authentication; without an id the bot answers this machine only. */
export interface BotIdentity {
  id?: string | undefined;
  password?: string | undefined;
  /** Set for a single-tenant bot registration. */
  tenantId?: string | undefined;
  /**
   * The registration is the user-assigned managed identity `id` names (an Azure Bot of type
   * UserAssignedMSI): outgoing calls sign in with the identity, with no password.
   */
  managedIdentity?: boolean | undefined;
}

export interface TeamsAdapterOptions {
  identity: BotIdentity;
  /** Activities from any other tenant are refused; null (the demo) accepts any, on loopback only. */
  allowedTenantId: string | null;
  /** Keeps the notification targets: captured on install, removed on uninstall. */
  store: StateStore;
  /** What the bot answers to a message. */
  dispatch: MessageDispatch;
  log: (line: string) => void;
  /** Sees each send of the bot's (a reply or a post) once it ends: for telemetry, no text or conversation id. */
  onSend?: ((send: BotSendOutcome) => void) | undefined;
}

/**
 * The one place that speaks Bot Framework: TeamsFx's ConversationBot on botbuilder's CloudAdapter,
 * handing each message to `dispatch` as a plain request and keeping notification targets in the
 * state store. Messages are read by the bot's own registry of commands (read-message.ts), not by
 * TeamsFx's command handlers: one reading decides which command answers and what it was asked.
 * Incoming activities are authenticated by the adapter whenever a bot id is set, and must come
 * from the configured tenant.
 */
export class TeamsAdapter {
  private readonly cloudAdapter: CloudAdapter;
  private readonly conversation: ConversationBot;
  private readonly botAppId: string;

  constructor(private readonly options: TeamsAdapterOptions) {
    const { identity, log } = options;
    this.botAppId = identity.id ?? '';
    const credentials = new ConfigurationServiceClientCredentialFactory({
      MicrosoftAppId: identity.id ?? '',
      MicrosoftAppPassword: identity.password ?? '',
      // botbuilder's UserAssignedMSI type asks the identity endpoint (IDENTITY_ENDPOINT) for the
      // identity's tokens, and requires the app id and tenant and no password (ConfigurationServiceClientCredentialFactory).
      MicrosoftAppType: identity.managedIdentity ? 'UserAssignedMSI' : identity.id && identity.tenantId ? 'SingleTenant' : 'MultiTenant',
      MicrosoftAppTenantId: identity.tenantId ?? '',
    });
    this.cloudAdapter = new CloudAdapter(new ConfigurationBotFrameworkAuthentication({}, credentials));
    this.cloudAdapter.onTurnError = async (context, error) => {
      // The message only: an error from the connector can carry request details, never a secret we add.
      log(`bot turn failed (${context.activity.type}): ${errorText(error)}`);
      if (context.activity.type === ActivityTypes.Message) await context.sendActivity(textMessage('Sorry, something went wrong answering that. Please try again in a moment.'));
    };
    if (options.onSend) this.cloudAdapter.use(sendObserver(options.onSend));
    this.conversation = new ConversationBot({
      adapter: this.cloudAdapter,
      notification: { enabled: true, store: installationStore(options.store), botAppId: this.botAppId },
    });
  }

  /** `POST /api/messages`. */
  async handle(req: Request, res: Response): Promise<void> {
    if (!this.options.identity.id && !isLoopback(req.socket.remoteAddress)) {
      res.send(403, { error: { status: 403, message: 'Without BOT_ID the bot answers this machine only.' } });
      return;
    }
    // A reply goes to the activity's serviceUrl. With BOT_ID, Bot Framework's token carries the
    // serviceUrl it was issued for, and botbuilder refuses an activity naming another
    // (ChannelValidation.authenticateChannelTokenWithServiceUrl). Without BOT_ID nothing signs it,
    // so the bot replies to this machine only, where the Agents Playground runs.
    // A body that is no activity at all is left to the adapter, which answers it 400.
    const isActivity = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body);
    if (!this.options.identity.id && isActivity && !isLoopbackServiceUrl(activityServiceUrl(req.body))) {
      this.options.log('bot: refused an activity whose serviceUrl is not on this machine (no BOT_ID)');
      res.send(403, { error: { status: 403, message: 'Without BOT_ID the bot replies to this machine only.' } });
      return;
    }
    const tenant = activityTenantId(req.body);
    const allowed = this.options.allowedTenantId;
    if (allowed && tenant?.toLowerCase() !== allowed.toLowerCase()) {
      this.options.log(`bot: refused an activity from tenant ${tenant ?? '(none)'}`);
      res.send(403, { error: { status: 403, message: 'This bot serves one tenant only.' } });
      return;
    }
    await this.conversation.requestHandler(req, res, (context) => this.answer(context));
  }

  /** Where /api/notify posts (installations.ts, `postTargets`). */
  postTargets(wanted: string | undefined): Promise<CardTarget[]> {
    return postTargets(this.conversation.notification!, wanted);
  }

  /**
   * A post to the conversation a stored reference names (a schedule's). `botRemoved` says, once it
   * was sent, whether Teams answered that the bot is not in that conversation any more (403 or 404).
   */
  referenceTarget(reference: Record<string, unknown>, place: { channel: string; name: string }): { target: CardTarget; botRemoved: () => boolean } {
    let botRemoved = false;
    const target: CardTarget = {
      ...place,
      send: (card) =>
        sendCard((onError) =>
          this.cloudAdapter.continueConversationAsync(this.botAppId, reference as Partial<ConversationReference>, async (context) => {
            try {
              await context.sendActivity(cardMessage(card));
            } catch (error) {
              const status = (error as { statusCode?: unknown }).statusCode;
              botRemoved = status === 403 || status === 404;
              await onError(context, error as Error);
            }
          }),
        ),
    };
    return { target, botRemoved: () => botRemoved };
  }

  /** A message gets the answer of the command it reads as, or the help card; other activities need no answer. */
  private async answer(context: TurnContext): Promise<void> {
    if (context.activity.type !== ActivityTypes.Message) return;
    const reading = this.options.dispatch.read(context.activity.text);
    const request = requestFrom(context.activity, reading.text);
    const reply = await this.options.dispatch.answer(reading, request, turnConversation(context, this.cloudAdapter, this.botAppId));
    if (reply) await context.sendActivity(replyActivity(reply));
  }
}

/**
 * Reports every send of a turn, the proactive ones (posts) as well: botbuilder runs the middleware
 * for continueConversationAsync's turns too, and a send that fails rejects `next`.
 */
function sendObserver(onSend: (send: BotSendOutcome) => void): Middleware {
  return {
    async onTurn(context, next) {
      const kind = context.activity.type === ActivityTypes.Event || context.activity.name === 'ContinueConversation' ? 'post' : 'reply';
      context.onSendActivities(async (_context, activities, nextSend) => {
        const started = Date.now();
        try {
          const sent = await nextSend();
          onSend({ kind, activities: activities.length, ok: true, status: undefined, durationMs: Date.now() - started });
          return sent;
        } catch (error) {
          const status = (error as { statusCode?: unknown }).statusCode;
          onSend({ kind, activities: activities.length, ok: false, status: typeof status === 'number' ? status : undefined, durationMs: Date.now() - started });
          throw error;
        }
      });
      await next();
    },
  };
}

/** Whether a serviceUrl names this machine (http or https on a loopback host). */
function isLoopbackServiceUrl(serviceUrl: string | undefined): boolean {
  if (!serviceUrl) return false;
  try {
    const url = new URL(serviceUrl);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
