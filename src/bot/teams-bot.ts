import type { Request, Response } from 'restify';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import { channelTag, scheduleReports } from '../core/schedule/post-schedule.js';
import type { PostSchedule, ScheduleBook } from '../core/schedule/post-schedule.js';
import { errorText } from '../core/error-text.js';
import { channelScope } from './commands/channel-scope.js';
import type { AppServices } from '../app/create-services.js';
import { TeamsAdapter } from './adapter/teams-adapter.js';
import type { BotIdentity, TeamsAdapterOptions } from './adapter/teams-adapter.js';
import type { CardPoster } from './bot-services.js';
import { newFindingsCardFor } from './cards/new-findings-card.js';
import { messageDispatch } from './message-dispatch.js';
import { NewFindingsPoster } from '../app/new-findings-poster.js';
import type { PostOutcome } from '../app/new-findings-poster.js';
import type { ScheduledOutcome } from '../app/post-scheduler.js';
import type { TabLinks } from './tab-links.js';

export type { BotIdentity } from './adapter/teams-adapter.js';

export interface TeamsBotOptions {
  /**
   * The application floor: the reports it offers and their loads, the triage decisions (which posts
   * leave out), and the state store, in which the bot keeps its installations, ledgers and schedules.
   */
  services: AppServices;
  identity: BotIdentity;
  /** Activities from any other tenant are refused; null (the demo) accepts any, on loopback only. */
  allowedTenantId: string | null;
  tabLinks: TabLinks;
  /** The tab itself, for the help card's button. */
  tabUrl: string;
  /**
   * How long `show` waits for a report before answering "reading…" and posting the card when it is
   * ready. Teams gives a bot about 15 s to answer a message, and a large tenant's report can take
   * longer than that to read.
   */
  followUpAfterMs?: number;
  /** The time, for schedules (a test runs the server on a clock it sets). */
  now?: () => Date;
  log?: (line: string) => void;
  /** Each send of the bot's, for telemetry (teams-adapter.ts). */
  onSend?: TeamsAdapterOptions['onSend'];
}

export type NotifyResult = { ok: true; outcomes: PostOutcome[] } | { ok: false; status: 404; message: string };

/**
 * The Teams bot: its commands (src/bot/commands, one file each) answer plain requests, and the
 * adapter (src/bot/adapter, the only code that knows botbuilder and TeamsFx) carries them to and
 * from Teams and keeps the notification targets in the state store (captured on install, removed
 * on uninstall). Posts of new findings, asked for, from /api/notify or on a schedule, all go
 * through one NewFindingsPoster.
 */
export class TeamsBot {
  private readonly teams: TeamsAdapter;
  private readonly poster: CardPoster;
  private readonly log: (line: string) => void;
  /** Where the posting schedules are kept: checked present when the bot is made. */
  private readonly schedules: NonNullable<AppServices['schedules']>;

  constructor(private readonly options: TeamsBotOptions) {
    this.log = options.log ?? (() => undefined);
    const now = options.now ?? (() => new Date());
    const { services } = options;
    const { store, schedules } = services;
    // A bug, not a state: the composition root gives the bot a store (createServices with one).
    if (!store || !schedules) throw new Error('The bot keeps its installations, ledgers and schedules in the state store, and its services have none.');
    this.schedules = schedules;
    this.poster = new NewFindingsPoster({
      store,
      ...(services.triage ? { triage: services.triage } : {}),
      loadReports: (ids) => this.loadFresh(ids),
      render: newFindingsCardFor({ tenantLabel: services.tenant.label, tabLinks: options.tabLinks }),
      now,
    });
    const dispatch = messageDispatch({
      reports: services.reports,
      ...(services.applies ? { applies: services.applies } : {}),
      registry: services.registry,
      schedules,
      poster: this.poster,
      tenantLabel: services.tenant.label,
      tabLinks: options.tabLinks,
      tabUrl: options.tabUrl,
      followUpAfterMs: options.followUpAfterMs ?? 8_000,
      now,
      log: this.log,
      ...(services.viewerScopes ? { viewerScopes: services.viewerScopes } : {}),
    });
    this.teams = new TeamsAdapter({ identity: options.identity, allowedTenantId: options.allowedTenantId, store, dispatch, log: this.log, onSend: options.onSend });
  }

  /** `POST /api/messages`. */
  async handle(req: Request, res: Response): Promise<void> {
    await this.teams.handle(req, res);
  }

  /**
   * Posts new findings to the channels where the app is installed (team installations, which post to
   * the team's General channel) or to one named target: an installation's conversation id, or a
   * channel of an installed team. Reports load once for all targets. A channel kept to one scope tag
   * (its binding, kept when its schedule stops: `channelTag`) is sent that tag's findings only, from
   * the reports whose rows carry tags, as its scheduled posts are (docs/finding-rules.md, "Viewer
   * scope", "A channel's audience"); if the schedules cannot be read, which channels are kept to a
   * tag is unknown, and nothing is posted anywhere.
   */
  async notify(request: { reports?: readonly ReportId[]; target?: string }): Promise<NotifyResult> {
    const named = request.reports && request.reports.length > 0 ? request.reports : null;
    const targets = await this.teams.postTargets(request.target);
    if (request.target && targets.length === 0) return { ok: false, status: 404, message: `The app is not installed where "${request.target}" points.` };
    if (targets.length === 0) return { ok: true, outcomes: [] };
    const tagged = await this.taggedChannels();
    if (!tagged.ok) {
      this.log(`notify: nothing posted, the posting schedules could not be read: ${tagged.reason}`);
      const message = `Nothing was posted: the posting schedules could not be read, so which channels are kept to one scope tag is unknown (${tagged.reason}).`;
      return { ok: true, outcomes: targets.map((target) => ({ channel: target.channel, name: target.name, loadErrors: [], fresh: 0, resolved: 0, status: 'failed', message })) };
    }
    const { registry } = this.options.services;
    const plans = targets.map((target) => {
      // The channel's tag, kept when its schedule stopped (docs/finding-rules.md, "Viewer scope", "A channel's audience").
      const tag = channelTag(tagged.book, target.channel);
      const schedule = tagged.book.schedules.find((kept) => kept.channel === target.channel);
      // A channel kept to a tag: its schedule's reports as it posts them (its setter's reads), else every tagged report.
      const ofTag = tag && schedule?.scopeTag ? scheduleReports(schedule, registry) : registry.scopeTagged;
      const reports = named ?? (tag ? ofTag : (schedule?.reports ?? registry.postedByDefault));
      return { target, reports, ...(tag ? { scope: channelScope(tag) } : {}) };
    });
    const results = await this.loadFresh([...new Set(plans.flatMap((plan) => plan.reports))]);
    const outcomes: PostOutcome[] = [];
    for (const { target, reports, scope } of plans) {
      const mine = results.filter((result) => reports.includes(result.report));
      const outcome = await this.poster.post(target, reports, { results: mine, ...(scope ? { scope } : {}) });
      this.log(`notify ${target.name}: ${outcome.status}, ${outcome.fresh} new, ${outcome.resolved} resolved${outcome.message ? ` (${outcome.message})` : ''}`);
      outcomes.push(outcome);
    }
    return { ok: true, outcomes };
  }

  /** The schedules and the channels' scope tags, or why they could not be read. */
  private async taggedChannels(): Promise<{ ok: true; book: ScheduleBook } | { ok: false; reason: string }> {
    try {
      return { ok: true, book: await this.schedules.read() };
    } catch (error) {
      return { ok: false, reason: errorText(error) };
    }
  }

  /**
   * A scheduled post (post-scheduler.ts): the new findings, or a short "nothing new", so the
   * channel sees that its schedule ran, sent to the conversation the schedule was set in; a
   * schedule of one scope tag posts that tag's findings only (docs/finding-rules.md, "Viewer
   * scope"), filtered by the tag it keeps whether or not the scope is still on, so that a channel
   * set for one tag is never sent the whole tenant's.
   * `botRemoved` when Teams answers that the bot is not in that conversation any more (403 or 404).
   */
  async postOnSchedule(schedule: PostSchedule, results: ReportResult[]): Promise<ScheduledOutcome> {
    const { target, botRemoved } = this.teams.referenceTarget(schedule.reference, { channel: schedule.channel, name: schedule.name });
    const scope = schedule.scopeTag ? { scope: channelScope(schedule.scopeTag) } : {};
    const outcome = await this.poster.post(target, scheduleReports(schedule, this.options.services.registry), { results, alwaysAnswer: true, ...scope });
    return botRemoved() ? { ...outcome, botRemoved: true } : outcome;
  }

  /** The reports loaded afresh, as a post speaks of the present. */
  loadFresh(ids: readonly ReportId[]): Promise<ReportResult[]> {
    return this.options.services.reports.loadFresh(ids);
  }
}
