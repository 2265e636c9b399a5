import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import type { TriageRecords } from '../app/triage-records.js';
import type { ScheduleRecords } from '../app/schedule-records.js';
import type { NewFindingsPoster } from './new-findings-poster.js';
import type { TabLinks } from './tab-links.js';

/** Where the bot gets reports: the server's shared cache, which loads a report once for every caller. */
export interface ReportSource {
  get(id: ReportId, options?: { refresh?: boolean }): Promise<ReportResult>;
}

/** The app's parts the bot's commands work with, as TeamsBot was given them; nothing of Teams' SDK. */
export interface BotServices {
  reports: ReportSource;
  registry: ReportRegistry;
  /** Accepted and snoozed findings, which cards count apart and posts leave out. */
  triage: TriageRecords | undefined;
  /** The channels' posting schedules. */
  schedules: ScheduleRecords;
  /** Posts new findings, on request, from /api/notify and on a schedule. */
  poster: NewFindingsPoster;
  tenantLabel: string;
  tabLinks: TabLinks;
  /** The tab itself, for the help card's button. */
  tabUrl: string;
  /** How long an answer waits for a report before it says "reading…" and follows up (TeamsBotOptions.followUpAfterMs). */
  followUpAfterMs: number;
  now: () => Date;
  log: (line: string) => void;
}
