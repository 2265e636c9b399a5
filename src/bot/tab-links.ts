import type { ReportId } from '../core/reports/report-model.js';

/** The static tab's `entityId` in appPackage/manifest.json. */
export const TAB_ENTITY_ID = 'reports';

/** Where a card's "Open" button takes a person: the tab, at one report. */
export type TabLinks = (report: ReportId) => string;

/**
 * With the Teams app id, a Teams deep link to the static tab that names the report in
 * `subEntityId`, which the tab reads on start
 * (learn.microsoft.com/microsoftteams/platform/concepts/build-and-test/deep-link-application,
 * "Deep link to a tab"). Without it (the demo, a local run), the tab's own URL with the report in
 * its hash.
 */
export function createTabLinks(options: { teamsAppId?: string | undefined; tabUrl: string }): TabLinks {
  const { teamsAppId, tabUrl } = options;
  if (teamsAppId) {
    return (report) => {
      const query = new URLSearchParams({ webUrl: `${tabUrl}#/${report}`, label: 'Device Management Health', context: JSON.stringify({ subEntityId: report }) });
      return `https://teams.microsoft.com/l/entity/${encodeURIComponent(teamsAppId)}/${TAB_ENTITY_ID}?${query.toString()}`;
    };
  }
  return (report) => `${tabUrl}#/${report}`;
}
