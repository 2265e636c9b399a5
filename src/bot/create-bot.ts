import type { AppServices } from '../app/create-services.js';
import { PostScheduler } from '../app/post-scheduler.js';
import { createTabLinks } from './tab-links.js';
import { TeamsBot } from './teams-bot.js';
import type { BotIdentity, TeamsBotOptions } from './teams-bot.js';

export interface BotOptions {
  identity: BotIdentity;
  /** The tab as people open it, for the cards' links. */
  tabUrl: string;
  teamsAppId?: string | undefined;
  /** Activities from any other tenant are refused; null (the demo) accepts any, on loopback only. */
  allowedTenantId: string | null;
  followUpAfterMs?: number;
  /** The time as scheduled posts see it. */
  now?: () => Date;
  log: (line: string) => void;
  /** Each send of the bot's, for telemetry. */
  onSend?: TeamsBotOptions['onSend'];
}

/**
 * The bot and its scheduled posts over the application floor, with one log and one clock. The bot
 * needs the state store (installations, ledgers, schedules): services without one have no bot.
 */
export function createBot(services: AppServices, options: BotOptions): { bot: TeamsBot; scheduler: PostScheduler } {
  const { store, schedules } = services;
  if (!store || !schedules) throw new Error('The bot keeps its installations, ledgers and schedules in the state store, and these services have none.');
  const { log } = options;
  const now = options.now ?? (() => new Date());
  const bot = new TeamsBot({
    services,
    identity: options.identity,
    allowedTenantId: options.allowedTenantId,
    tabLinks: createTabLinks({ teamsAppId: options.teamsAppId, tabUrl: options.tabUrl }),
    tabUrl: options.tabUrl,
    ...(options.followUpAfterMs !== undefined ? { followUpAfterMs: options.followUpAfterMs } : {}),
    now,
    log,
    ...(options.onSend ? { onSend: options.onSend } : {}),
  });
  const scheduler = new PostScheduler({
    store,
    records: schedules,
    scopeTagged: services.registry.scopeTagged,
    loadReports: (ids) => services.reports.loadFresh(ids),
    post: (schedule, results) => bot.postOnSchedule(schedule, results),
    now,
    log,
  });
  return { bot, scheduler };
}
