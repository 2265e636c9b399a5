/** Report 5's records in the demo tenant, typed against the Graph type packages. */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, daysAgo } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

const DAY_MS = 86_400_000;

/**
 * An access policy as Graph returns it: `policySet` repeats the policy's type and platform, the only
 * shape any source shows (the beta schema's example values and admins' exports), so it does unless a
 * case says otherwise. `policyPlatform` is `notApplicable`, Graph's default, unless a case says.
 */
export function operationApprovalPolicy(value: {
  id: string;
  displayName: string;
  policyType: string;
  approverGroupIds: string[];
  now: Date;
  policyPlatform?: string;
  /** Another policy set than the policy's own type and platform, or `null` for none at all. */
  policySet?: { policyType: string; policyPlatform?: string } | null;
}): DemoRecord {
  const policyPlatform = value.policyPlatform ?? 'notApplicable';
  const policySet = value.policySet === undefined ? { policyType: value.policyType, policyPlatform } : value.policySet;
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    lastModifiedDateTime: daysAgo(value.now, 45),
    // The typed union is truncated; Graph documents about thirty members (docs/finding-rules.md, report 5).
    policyType: value.policyType as Beta.OperationApprovalPolicyType,
    policyPlatform: policyPlatform as Beta.OperationApprovalPolicyPlatform,
    ...(policySet
      ? {
          policySet: {
            policyType: policySet.policyType as Beta.OperationApprovalPolicyType,
            policyPlatform: (policySet.policyPlatform ?? policyPlatform) as Beta.OperationApprovalPolicyPlatform,
          },
        }
      : {}),
    approverGroupIds: value.approverGroupIds,
  } satisfies Beta.OperationApprovalPolicy & { policyType: Beta.OperationApprovalPolicyType });
}

export function operationApprovalRequest(value: {
  id: string;
  requestDateTime: string;
  status: Beta.OperationApprovalRequestStatus;
  requestor: string;
  approver: string | null;
  justification: string;
  policyTypes: string[];
  now: Date;
}): DemoRecord {
  const requested = new Date(value.requestDateTime);
  return asDemoRecord({
    id: value.id,
    requestDateTime: value.requestDateTime,
    // "If a request isn't processed further within 3 days, it becomes Expired"
    // (learn.microsoft.com/mem/intune/fundamentals/multi-admin-approval).
    expirationDateTime: new Date(requested.getTime() + 3 * DAY_MS).toISOString(),
    lastModifiedDateTime: value.requestDateTime,
    requestJustification: value.justification,
    approvalJustification: value.approver ? 'Checked with the requester.' : null,
    requestor: { user: { id: value.requestor, displayName: value.requestor.split('@')[0] ?? value.requestor } },
    approver: value.approver ? { user: { id: value.approver, displayName: value.approver.split('@')[0] ?? value.approver } } : null,
    status: value.status,
    requiredOperationApprovalPolicyTypes: value.policyTypes as Beta.OperationApprovalPolicyType[],
  } satisfies Beta.OperationApprovalRequest);
}
