import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportService } from '../app/report-service.js';
import type { ScheduleRecords } from '../app/schedule-records.js';
import type { NewFindingsPoster, PostTarget } from '../app/new-findings-poster.js';
import type { AdaptiveCardJson } from './cards/adaptive-card.js';
import type { TabLinks } from './tab-links.js';
import type { AppliesService } from '../app/applies-service.js';
import type { ViewerScopes } from '../app/viewer-scopes.js';

/** A channel, chat or conversation the bot posts cards to. */
export type CardTarget = PostTarget<AdaptiveCardJson>;

/** The posting service (src/app/new-findings-poster.ts), posting Adaptive Cards. */
export type CardPoster = NewFindingsPoster<AdaptiveCardJson>;

/**
 * What the bot asks of the reports (the application floor's ReportService): a report through the
 * shared cache, which loads it once for every caller, reports loaded afresh for a post, summaries
 * for the overview, and the findings accepted or snoozed now.
 */
export type ReportSource = Pick<ReportService, 'get' | 'loadFresh' | 'summarizeAll' | 'decisionsInForce'>;

/** The app's parts the bot's commands work with, from the application floor; nothing of Teams' SDK. */
export interface BotServices {
  reports: ReportSource;
  /** What applies to a device, a user or a group; absent where the app reads no Graph (some tests). */
  applies?: Pick<AppliesService, 'applies'> | undefined;
  registry: ReportRegistry;
  /** The channels' posting schedules. */
  schedules: ScheduleRecords;
  /** Posts new findings, on request, from /api/notify and on a schedule. */
  poster: CardPoster;
  tenantLabel: string;
  tabLinks: TabLinks;
  /** The tab itself, for the help card's button. */
  tabUrl: string;
  /** How long an answer waits for a report before it says "reading…" and follows up (TeamsBotOptions.followUpAfterMs). */
  followUpAfterMs: number;
  now: () => Date;
  log: (line: string) => void;
  /** Each asker's Intune scope, when the viewer scope is on (`VIEWER_SCOPE=intune-rbac`). */
  viewerScopes?: Pick<ViewerScopes, 'scopeOf' | 'view' | 'scopeTags'> | undefined;
}
