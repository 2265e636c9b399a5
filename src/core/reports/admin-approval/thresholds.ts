/** Report 5's threshold. */
export interface ApprovalThresholds {
  /** Requests this recent are listed (Intune expires an unprocessed request after 30 days). */
  approvalRequestWindowDays: number;
}

export const APPROVAL_THRESHOLDS: ApprovalThresholds = {
  approvalRequestWindowDays: 30,
};
