/** Report 5's threshold. */
export interface ApprovalThresholds {
  /**
   * Requests this recent are listed. Intune expires a request not processed within 3 days, and
   * "each change of status remains visible for up to 30 days"
   * (learn.microsoft.com/mem/intune/fundamentals/multi-admin-approval).
   */
  approvalRequestWindowDays: number;
}

export const APPROVAL_THRESHOLDS: ApprovalThresholds = {
  approvalRequestWindowDays: 30,
};
