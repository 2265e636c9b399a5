/**
 * Every threshold a finding rule uses, in one place; reports state the threshold they applied in
 * the finding's detail.
 */
export interface ReportThresholds {
  /**
   * Connector bands of the Intune admin center's tenant status page
   * (learn.microsoft.com/mem/intune/fundamentals/tenant-status): last sync "more than one day ago"
   * is a warning, "three or more days ago" unhealthy.
   */
  connectorWarningAfterDays: number;
  connectorUnhealthyAfterDays: number;
  /** Report 6: power-on to usable desktop slower than this is `slow-startup`. */
  slowStartupSeconds: number;
  /** Report 6: an app failing on average within this much use is `unreliable-app` (one day). */
  unreliableAppMttfMinutes: number;
  /** Report 5: requests this recent are listed (Intune expires an unprocessed request after 30 days). */
  approvalRequestWindowDays: number;
}

export const DEFAULT_THRESHOLDS: ReportThresholds = {
  connectorWarningAfterDays: 1,
  connectorUnhealthyAfterDays: 3,
  slowStartupSeconds: 120,
  unreliableAppMttfMinutes: 1440,
  approvalRequestWindowDays: 30,
};
