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

/**
 * The Apple MDM push certificate, ADE tokens and VPP tokens each last a year and are renewed in
 * time or stop working (docs/finding-rules.md, report 1, "Apple tokens and the connector for
 * Active Directory"). Expired is unhealthy, as the tenant status page says ("The certificate or
 * credential has expired", learn.microsoft.com/mem/intune/fundamentals/tenant-status). Expiring
 * within 30 days is a warning and a finding of its own: that is community practice (Maester's
 * Apple token tests and CIPP's expiry alerts use 30 days), earlier than the tenant status page,
 * which turns Warning only "within seven days" (`TENANT_STATUS_EXPIRY_WARNING_DAYS`). Renewing a
 * token takes an Apple Business Manager or Apple ID holder who may be away, hence the earlier band.
 * The last sync of a token is judged in the bands above (`connectorWarningAfterDays`,
 * `connectorUnhealthyAfterDays`), the ones tenant status applies to sync-type connectors.
 */
export const APPLE_EXPIRY_WARNING_DAYS = 30;
/** The tenant status page's own warning band for an expiring certificate or credential (tenant-status, above). */
export const TENANT_STATUS_EXPIRY_WARNING_DAYS = 7;
/**
 * After the push certificate expires, "there is a 30-day grace period to renew it"
 * (learn.microsoft.com/intune/intune-service/enrollment/apple-mdm-push-certificate-get); a new
 * certificate instead of a renewal means re-enrolling every Apple device.
 */
export const PUSH_CERTIFICATE_GRACE_DAYS = 30;
/**
 * "The Intune Connector for Active Directory versions older than 6.2501.2000.5 are deprecated and
 * can no longer process enrollment requests" (learn.microsoft.com/autopilot/windows-autopilot-hybrid).
 */
export const AD_CONNECTOR_MINIMUM_VERSION: readonly number[] = [6, 2501, 2000, 5];
