/**
 * Connector bands of the Intune admin center's tenant status page
 * (learn.microsoft.com/mem/intune/fundamentals/tenant-status): last sync "more than one day ago"
 * is a warning, "three or more days ago" unhealthy. A team that wants earlier warnings configures
 * them (CONNECTOR_WARNING_DAYS, CONNECTOR_UNHEALTHY_DAYS); reports state the threshold they
 * applied in the finding's detail.
 */
export interface ConnectorThresholds {
  connectorWarningAfterDays: number;
  connectorUnhealthyAfterDays: number;
}

export const CONNECTOR_THRESHOLDS: ConnectorThresholds = {
  connectorWarningAfterDays: 1,
  connectorUnhealthyAfterDays: 3,
};
