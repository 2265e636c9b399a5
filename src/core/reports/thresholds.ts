import { APPROVAL_THRESHOLDS } from './admin-approval/thresholds.js';
import type { ApprovalThresholds } from './admin-approval/thresholds.js';
import { CONNECTOR_THRESHOLDS } from './connector-health/thresholds.js';
import type { ConnectorThresholds } from './connector-health/thresholds.js';
import { STARTUP_THRESHOLDS } from './startup-reliability/thresholds.js';
import type { StartupThresholds } from './startup-reliability/thresholds.js';

/**
 * Every threshold a finding rule uses: each report keeps its own in its folder, and these put them
 * together for what reads them all (the configuration, a result's `thresholds`). Reports state the
 * threshold they applied in the finding's detail.
 */
export type ReportThresholds = ConnectorThresholds & StartupThresholds & ApprovalThresholds;

export const DEFAULT_THRESHOLDS: ReportThresholds = {
  ...CONNECTOR_THRESHOLDS,
  ...STARTUP_THRESHOLDS,
  ...APPROVAL_THRESHOLDS,
};
