import type { AppServices } from '../app/create-services.js';
import { PostScheduler } from './post-scheduler.js';
import { createTabLinks } from './tab-links.js';
import { TeamsBot } from './teams-bot.js';
import type { BotIdentity } from './teams-bot.js';

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
}

/**
 * The bot and its scheduled posts over the application floor, with one log and one clock. The bot
 * needs the state store (installations, ledgers, schedules): services without one have no bot.
 */
export function createBot(services: AppServices, options: BotOptions): { bot: TeamsBot; scheduler: PostScheduler } {
  const { store, schedules, log } = { ...services, log: options.log };
  if (!store || !schedules) throw new Error('The bot keeps its installations, ledgers and schedules in the state store, and these services have none.');
  const now = options.now ?? (() => new Date());
  const bot = new TeamsBot({
    reports: services.reports,
    registry: services.registry,
    store,
    ...(services.triage ? { triage: services.triage } : {}),
    identity: options.identity,
    allowedTenantId: options.allowedTenantId,
    tenantLabel: services.tenant.label,
    tabLinks: createTabLinks({ teamsAppId: options.teamsAppId, tabUrl: options.tabUrl }),
    tabUrl: options.tabUrl,
    ...(options.followUpAfterMs !== undefined ? { followUpAfterMs: options.followUpAfterMs } : {}),
    schedules,
    now,
    log,
  });
  const scheduler = new PostScheduler({
    store,
    records: schedules,
    loadReports: (ids) => bot.loadFresh(ids),
    post: (schedule, results) => bot.postOnSchedule(schedule, results),
    now,
    log,
  });
  return { bot, scheduler };
}
