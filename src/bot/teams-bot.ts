import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';
import type { CommandMessage, ConversationReferenceStore, TeamsFxBotCommandHandler } from '@microsoft/teamsfx';
import {
  ActivityTypes,
  CardFactory,
  CloudAdapter,
  ConfigurationBotFrameworkAuthentication,
  ConfigurationServiceClientCredentialFactory,
  MessageFactory,
  TurnContext,
} from 'botbuilder';
import type { Activity, ConversationReference, Middleware } from 'botbuilder';
import type { Request, Response } from 'restify';
import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import { isLoopback } from '../core/net/loopback.js';
import type { StateStore } from '../store/state-store.js';
import type { TriageRecords } from '../app/triage-records.js';
import type { TriageDecision } from '../core/triage/triage-book.js';
import { summarizeReport } from '../core/reports/report-summary.js';
import { describeCadence, describeSlot, nextSlotAfter, removeSchedule, setSchedule } from '../core/schedule/post-schedule.js';
import type { PostSchedule, ScheduleBook, ScheduleRequest } from '../core/schedule/post-schedule.js';
import type { ScheduleRecords } from '../app/schedule-records.js';
import { COMMAND_PATTERNS, canonicalText, commandWords, parseCommand } from './bot-command.js';
import type { AdaptiveCardJson } from './cards/adaptive-card.js';
import { helpCard } from './cards/help-card.js';
import { scheduleSentence } from './cards/schedule-sentence.js';
import { overviewCard } from './cards/overview-card.js';
import { reportCard } from './cards/report-card.js';
import { DEFAULT_NOTIFY_REPORTS, NewFindingsPoster } from './new-findings-poster.js';
import type { PostOutcome, PostTarget } from './new-findings-poster.js';
import type { ScheduledOutcome } from './post-scheduler.js';
import type { TabLinks } from './tab-links.js';
import { errorText } from '../core/error-text.js';

const { ConversationBot } = BotBuilderCloudAdapter;
type ConversationBot = BotBuilderCloudAdapter.ConversationBot;
type Installation = BotBuilderCloudAdapter.TeamsBotInstallation;

/** The bot's identity for Bot Framework authentication; without an id the bot answers this machine only. */
export interface BotIdentity {
  id?: string | undefined;
  password?: string | undefined;
  /** Set for a single-tenant bot registration. */
  tenantId?: string | undefined;
}

/** Where the bot gets reports: the server's shared cache, which loads a report once for every caller. */
export interface ReportSource {
  get(id: ReportId, options?: { refresh?: boolean }): Promise<ReportResult>;
}

export interface TeamsBotOptions {
  reports: ReportSource;
  /** The reports the bot offers; the six by default. */
  registry?: ReportRegistry;
  store: StateStore;
  /** Accepted and snoozed findings, which posts leave out. */
  triage?: TriageRecords;
  identity: BotIdentity;
  /** Activities from any other tenant are refused; null (the demo) accepts any, on loopback only. */
  allowedTenantId: string | null;
  tenantLabel: string;
  tabLinks: TabLinks;
  /** The tab itself, for the help card's button. */
  tabUrl: string;
  /**
   * How long `show` waits for a report before answering "reading…" and posting the card when it is
   * ready. Teams gives a bot about 15 s to answer a message, and a large tenant's report can take
   * longer than that to read.
   */
  followUpAfterMs?: number;
  /** The channels' posting schedules. */
  schedules: ScheduleRecords;
  /** The time, for schedules (a test runs the server on a clock it sets). */
  now?: () => Date;
  log?: (line: string) => void;
}

export type NotifyResult = { ok: true; outcomes: PostOutcome[] } | { ok: false; status: 404; message: string };

/** Words of the message as sent, kept before the command middleware normalises it. */
const ORIGINAL_TEXT = Symbol('originalText');
/** Set by a command handler, so the turn's fallback knows the message was a command. */
const HANDLED = Symbol('handled');

/**
 * The Teams bot: TeamsFx's ConversationBot on botbuilder's CloudAdapter, with its commands
 * (bot-command.ts) and notification targets kept in the state store (captured on install, removed
 * on uninstall). Incoming activities are authenticated by the adapter whenever a bot id is set, and
 * must come from the configured tenant.
 */
export class TeamsBot {
  readonly adapter: CloudAdapter;
  private readonly conversation: ConversationBot;
  private readonly poster: NewFindingsPoster;
  private readonly log: (line: string) => void;
  private readonly registry: ReportRegistry;
  private readonly now: () => Date;

  constructor(private readonly options: TeamsBotOptions) {
    this.log = options.log ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
    this.registry = options.registry ?? REPORTS;
    const { identity } = options;
    const credentials = new ConfigurationServiceClientCredentialFactory({
      MicrosoftAppId: identity.id ?? '',
      MicrosoftAppPassword: identity.password ?? '',
      MicrosoftAppType: identity.id && identity.tenantId ? 'SingleTenant' : 'MultiTenant',
      MicrosoftAppTenantId: identity.tenantId ?? '',
    });
    this.adapter = new CloudAdapter(new ConfigurationBotFrameworkAuthentication({}, credentials));
    this.adapter.onTurnError = async (context, error) => {
      // The message only: an error from the connector can carry request details, never a secret we add.
      this.log(`bot turn failed (${context.activity.type}): ${errorText(error)}`);
      if (context.activity.type === ActivityTypes.Message) await context.sendActivity('Sorry, something went wrong answering that. Please try again in a moment.');
    };
    this.adapter.use(normaliseCommandText(this.registry));
    this.poster = new NewFindingsPoster({
      store: options.store,
      ...(options.triage ? { triage: options.triage } : {}),
      loadReports: (ids) => this.loadFresh(ids),
      tenantLabel: options.tenantLabel,
      tabLinks: options.tabLinks,
      now: this.now,
    });
    this.conversation = new ConversationBot({
      adapter: this.adapter,
      command: { enabled: true, commands: this.commandHandlers() },
      notification: { enabled: true, store: installationStore(options.store), botAppId: identity.id ?? '' },
    });
  }

  /** `POST /api/messages`. */
  async handle(req: Request, res: Response): Promise<void> {
    if (!this.options.identity.id && !isLoopback(req.socket.remoteAddress)) {
      res.send(403, { error: { status: 403, message: 'Without BOT_ID the bot answers this machine only.' } });
      return;
    }
    const tenant = activityTenantId(req.body);
    const allowed = this.options.allowedTenantId;
    if (allowed && tenant?.toLowerCase() !== allowed.toLowerCase()) {
      this.log(`bot: refused an activity from tenant ${tenant ?? '(none)'}`);
      res.send(403, { error: { status: 403, message: 'This bot serves one tenant only.' } });
      return;
    }
    await this.conversation.requestHandler(req, res, (context) => this.fallback(context));
  }

  /**
   * Posts new findings to the channels where the app is installed (team installations, which post to
   * the team's General channel) or to one named target: an installation's conversation id, or a
   * channel of an installed team. Reports load once for all targets.
   */
  async notify(request: { reports?: readonly ReportId[]; target?: string }): Promise<NotifyResult> {
    const reports = request.reports && request.reports.length > 0 ? request.reports : DEFAULT_NOTIFY_REPORTS;
    const targets = await this.postTargets(request.target);
    if (request.target && targets.length === 0) return { ok: false, status: 404, message: `The app is not installed where "${request.target}" points.` };
    if (targets.length === 0) return { ok: true, outcomes: [] };
    const results = await this.loadFresh(reports);
    const outcomes: PostOutcome[] = [];
    for (const target of targets) {
      const outcome = await this.poster.post(target, reports, { results });
      this.log(`notify ${target.name}: ${outcome.status}, ${outcome.fresh} new, ${outcome.resolved} resolved${outcome.message ? ` (${outcome.message})` : ''}`);
      outcomes.push(outcome);
    }
    return { ok: true, outcomes };
  }

  /**
   * A scheduled post (post-scheduler.ts): the new findings, or a short "nothing new", so the
   * channel sees that its schedule ran, sent to the conversation the schedule was set in.
   * `botRemoved` when Teams answers that the bot is not in that conversation any more (403 or 404).
   */
  async postOnSchedule(schedule: PostSchedule, results: ReportResult[]): Promise<ScheduledOutcome> {
    const reference = schedule.reference as Partial<ConversationReference>;
    let botRemoved = false;
    const target: PostTarget = {
      channel: schedule.channel,
      name: schedule.name,
      send: (card) =>
        sendCard((onError) =>
          this.adapter.continueConversationAsync(this.options.identity.id ?? '', reference, async (context) => {
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
    const outcome = await this.poster.post(target, schedule.reports, { results, alwaysAnswer: true });
    return botRemoved ? { ...outcome, botRemoved } : outcome;
  }

  /** The reports loaded afresh, as a post speaks of the present. */
  loadFresh(ids: readonly ReportId[]): Promise<ReportResult[]> {
    return Promise.all(ids.map((id) => this.options.reports.get(id, { refresh: true })));
  }

  private async postTargets(wanted: string | undefined): Promise<PostTarget[]> {
    const notification = this.conversation.notification!;
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

  private commandHandlers(): TeamsFxBotCommandHandler[] {
    const handled = (context: TurnContext) => context.turnState.set(HANDLED, true);
    return [
      {
        triggerPatterns: COMMAND_PATTERNS.help,
        handleCommandReceived: async (context) => {
          handled(context);
          return cardMessage(await this.helpCard(context));
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.schedulePosts,
        handleCommandReceived: async (context, message: CommandMessage) => {
          handled(context);
          const command = parseCommand(message.text, this.registry);
          if (command.kind === 'schedule-posts') return this.replySetSchedule(context, command.request);
          // This handler's pattern is the one parseCommand reads schedules by: anything else is a bug.
          if (command.kind !== 'schedule-not-understood') throw new Error(`a schedule command read as ${command.kind}`);
          return `${command.message} For example: "post new findings daily at 9:00", "post new findings weekly on monday at 14:30", or "post new findings daily at 8 am Europe/Berlin".`;
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.stopPosting,
        handleCommandReceived: async (context) => {
          handled(context);
          return this.replyStopSchedule(context);
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.showSchedule,
        handleCommandReceived: async (context) => {
          handled(context);
          return scheduleSentence(await this.scheduleOf(conversationChannel(context.activity)), this.now());
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.overview,
        handleCommandReceived: async (context) => {
          handled(context);
          await context.sendActivity({ type: ActivityTypes.Typing });
          const ids = this.registry.ids;
          const loading = Promise.all(ids.map((id) => this.options.reports.get(id)));
          const toCard = async (results: ReportResult[]) => {
            const inForce = await this.decisionsInForce();
            const summaries = results.map((result) => summarizeReport(result, { changes: null, trend: [], inForce, now: this.now() }));
            return cardMessage(overviewCard(summaries, { tenantLabel: this.options.tenantLabel, tabUrl: this.options.tabUrl, tabLinks: this.options.tabLinks }));
          };
          return this.answerWhenReady(context, loading, toCard, {
            what: 'show overview',
            meanwhile: `Reading the ${ids.length} reports from ${this.options.tenantLabel} takes a while; the overview follows here when it is ready.`,
          });
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.show,
        handleCommandReceived: async (context, message: CommandMessage) => {
          handled(context);
          const command = parseCommand(message.text, this.registry);
          if (command.kind !== 'show')
            return cardMessage(await this.helpCard(context, `show ${message.matches?.[1] ?? ''}`.trim(), command.kind === 'unknown-report' ? command.suggestion : null));
          await context.sendActivity({ type: ActivityTypes.Typing });
          const definition = this.registry.definition(command.report);
          const toCard = async (result: ReportResult) =>
            cardMessage(
              reportCard(result, definition, {
                tenantLabel: this.options.tenantLabel,
                tabLinks: this.options.tabLinks,
                triaged: await this.decisionsInForce().then((inForce) => (inForce ? new Set(inForce.keys()) : null)),
              }),
            );
          const loading = this.options.reports.get(command.report);
          return this.answerWhenReady(context, loading, toCard, {
            what: `show ${command.report}`,
            meanwhile: `Reading ${definition.title} from ${this.options.tenantLabel} takes a while; the report follows here when it is ready.`,
          });
        },
      },
      {
        triggerPatterns: COMMAND_PATTERNS.postNewFindings,
        handleCommandReceived: async (context) => {
          handled(context);
          await context.sendActivity({ type: ActivityTypes.Typing });
          const target: PostTarget = {
            channel: conversationChannel(context.activity),
            name: context.activity.conversation.name ?? 'this conversation',
            send: async (card) => void (await context.sendActivity(cardMessage(card))),
          };
          const outcome = await this.poster.post(target, DEFAULT_NOTIFY_REPORTS, { alwaysAnswer: true });
          this.log(`post new findings in ${target.channel}: ${outcome.status}, ${outcome.fresh} new`);
          if (outcome.status === 'busy') return 'Another post of new findings to this channel is under way; it will say what is new.';
          if (outcome.status === 'failed') throw new Error(`posting new findings failed: ${outcome.message ?? 'unknown error'}`);
          return undefined;
        },
      },
    ];
  }

  /**
   * The answer to a message, once `loading` has settled: at once if it settles within the time
   * Teams gives a bot to answer (`followUpAfterMs`), else a "reading…" line now and the answer
   * posted to the conversation when it is ready.
   */
  private async answerWhenReady<T>(
    context: TurnContext,
    loading: Promise<T>,
    toAnswer: (value: T) => Promise<Partial<Activity>>,
    options: { what: string; meanwhile: string },
  ): Promise<Partial<Activity> | string> {
    const settled = await settledWithin(loading, this.options.followUpAfterMs ?? 8_000);
    if (settled) return toAnswer(settled);
    const reference = TurnContext.getConversationReference(context.activity);
    void loading
      .then((late) => this.adapter.continueConversationAsync(this.options.identity.id ?? '', reference, async (later) => void (await later.sendActivity(await toAnswer(late)))))
      .catch((error: unknown) => this.log(`${options.what}: the follow-up failed: ${errorText(error)}`));
    return options.meanwhile;
  }

  /**
   * Findings accepted or snoozed now, by fingerprint, which the cards count apart; null when they
   * cannot be read (a card then counts every finding and says so).
   */
  private async decisionsInForce(): Promise<ReadonlyMap<string, TriageDecision> | null> {
    return this.options.triage ? this.options.triage.inForceOrNull((line) => this.log(line)) : new Map();
  }

  private async helpCard(context: TurnContext, unknown?: string, suggestion?: string | null): Promise<AdaptiveCardJson> {
    const schedule = await this.scheduleOf(conversationChannel(context.activity));
    return helpCard({
      tenantLabel: this.options.tenantLabel,
      tabUrl: this.options.tabUrl,
      registry: this.registry,
      ...(unknown !== undefined ? { unknown } : {}),
      ...(suggestion ? { suggestion } : {}),
      schedule: scheduleSentence(schedule, this.now()),
    });
  }

  /** The conversation's schedule, null for none, `unreadable` when the schedules cannot be read (the reason is logged). */
  private async scheduleOf(channel: string): Promise<PostSchedule | null | 'unreadable'> {
    try {
      return (await this.options.schedules.read()).schedules.find((schedule) => schedule.channel === channel) ?? null;
    } catch (error) {
      this.log(`could not read the posting schedules: ${errorText(error)}`);
      return 'unreadable';
    }
  }

  /**
   * `post new findings daily at 9:00`: this conversation's schedule, set or replaced, in the time
   * zone the message names, else the sender's (Teams sends it with each message as
   * `localTimezone`, an IANA name), else UTC. Scheduled posts go to the channel, not the thread.
   */
  private async replySetSchedule(context: TurnContext, request: ScheduleRequest): Promise<string> {
    const activity = context.activity;
    const channel = conversationChannel(activity);
    const reference = TurnContext.getConversationReference(activity);
    const now = this.now();
    const changed = await this.changeSchedules('set', (book) => {
      const change = setSchedule(book, request, {
        channel,
        name: activity.conversation.name ?? 'this conversation',
        reference: { ...reference, conversation: { ...reference.conversation, id: channel } } as Record<string, unknown>,
        reports: [...DEFAULT_NOTIFY_REPORTS],
        setBy: activity.from?.name ?? 'someone',
        senderTimeZone: activity.localTimezone ?? null,
        now,
      });
      return { book: change.ok ? change.book : null, value: change };
    });
    if (!changed.ok) return changed.reply;
    const change = changed.value;
    if (!change.ok) return change.message;
    const { schedule } = change;
    this.log(`posting schedule for ${channel}: ${describeCadence(schedule)}, set by ${schedule.setBy}`);
    const zoneNote = change.zoneFrom === 'default' ? ' Teams did not say your time zone, so the time is UTC; add one to the command ("… at 9:00 Europe/Berlin") to change it.' : '';
    return (
      `From now on I post new findings here ${describeCadence(schedule)}, starting ${describeSlot(nextSlotAfter(schedule, now), schedule.timeZone)}` +
      `${change.replaced ? ` (instead of ${describeCadence(change.replaced)})` : ''}. A post missed while the server is down follows once when it is back.${zoneNote} Send "stop posting" to end it.`
    );
  }

  private async replyStopSchedule(context: TurnContext): Promise<string> {
    const channel = conversationChannel(context.activity);
    const changed = await this.changeSchedules('stop', (book) => {
      const { book: next, removed } = removeSchedule(book, channel);
      return { book: removed ? next : null, value: removed };
    });
    if (!changed.ok) return changed.reply;
    if (!changed.value) return 'Nothing is posted here on a schedule, so there is nothing to stop.';
    this.log(`posting schedule for ${channel}: stopped`);
    return `Stopped: new findings are no longer posted here ${describeCadence(changed.value)}. "post new findings" still posts them when you ask.`;
  }

  /**
   * A change to the schedules under their lock, or the reply for a change that could not be made
   * (the schedules busy or unreadable, the reason logged).
   */
  private async changeSchedules<T>(
    what: string,
    change: (book: ScheduleBook) => { book: ScheduleBook | null; value: T },
  ): Promise<{ ok: true; value: T } | { ok: false; reply: string }> {
    const changed = await this.options.schedules.change(change).catch((error: unknown) => {
      this.log(`could not ${what} a posting schedule: ${errorText(error)}`);
      return null;
    });
    return changed?.ok ? { ok: true, value: changed.value } : { ok: false, reply: 'The posting schedules could not be changed just now; try again in a moment.' };
  }

  /** A message that no command took gets the help card; other activities need no answer. */
  private async fallback(context: TurnContext): Promise<void> {
    if (context.activity.type !== ActivityTypes.Message || context.turnState.get(HANDLED)) return;
    const original = String(context.turnState.get(ORIGINAL_TEXT) ?? '');
    const command = parseCommand(original, this.registry);
    const unknown = command.kind === 'unknown' && command.text !== '' ? command.text : command.kind === 'unknown-report' ? `show ${command.name}` : undefined;
    const suggestion = command.kind === 'unknown' || command.kind === 'unknown-report' ? command.suggestion : null;
    await context.sendActivity(cardMessage(await this.helpCard(context, unknown, suggestion)));
  }
}

/**
 * Commands are matched on their words (see `commandWords`): the mention Teams adds in channels,
 * case and punctuation do not matter. The text as sent is kept for the help card's quote. Card
 * submits and other messages without text pass untouched.
 */
function normaliseCommandText(registry: ReportRegistry): Middleware {
  return {
    async onTurn(context, next) {
      const activity = context.activity;
      if (activity.type === ActivityTypes.Message) {
        context.turnState.set(ORIGINAL_TEXT, activity.text ?? '');
        // What the words mean, as the command they mean ("are my connectors ok" reads "show dead connectors").
        activity.text = canonicalText(parseCommand(activity.text, registry), registry) ?? commandWords(activity.text);
        // The mention is gone from the text: stop TeamsFx removing it again from what is left.
        activity.entities = activity.entities?.filter((entity) => entity.type !== 'mention');
      }
      await next();
    },
  };
}

/** The value if the promise settles within `ms`, else null (it goes on settling). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function cardMessage(card: AdaptiveCardJson): Partial<Activity> {
  return MessageFactory.attachment(CardFactory.adaptiveCard(card));
}

function installationTarget(installation: Installation): PostTarget {
  const conversation = installation.conversationReference.conversation;
  const channel = conversation?.id ?? '';
  return { channel, name: conversation?.name ?? channel, send: (card) => sendCard((onError) => installation.sendAdaptiveCard(card, onError)) };
}

/**
 * TeamsFx sends proactively inside the adapter's turn, where a failure would go to the adapter's
 * error handler and be lost; the error callback brings it back, so a failed post records nothing.
 */
async function sendCard(send: (onError: (context: TurnContext, error: Error) => Promise<void>) => Promise<unknown>): Promise<void> {
  let failure: Error | undefined;
  await send(async (_context, error) => {
    failure = error;
  });
  if (failure) throw failure;
}

/** The ledger key of where a message was typed: the channel, not the reply thread; or the chat. */
function conversationChannel(activity: Activity): string {
  const channelData = activity.channelData as { channel?: { id?: string } } | undefined;
  return channelData?.channel?.id ?? activity.conversation.id.split(';')[0]!;
}

export function activityTenantId(body: unknown): string | undefined {
  const activity = body as { conversation?: { tenantId?: unknown }; channelData?: { tenant?: { id?: unknown } } } | undefined;
  const tenant = activity?.conversation?.tenantId ?? activity?.channelData?.tenant?.id;
  return typeof tenant === 'string' ? tenant : undefined;
}

/** TeamsFx keeps notification targets through this interface; the state store keeps them. */
function installationStore(store: StateStore): ConversationReferenceStore {
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
