/** Report 5's records in the demo tenant, typed against the Graph type packages. */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, daysAgo } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

const DAY_MS = 86_400_000;

export function operationApprovalPolicy(value: {
  id: string;
  displayName: string;
  policyType: string;
  approverGroupIds: string[];
  now: Date;
  /** Device action policies (Intune 2508 on) say which action in `policySet`, their type being `deviceAction`. */
  policySet?: { policyType: string; policyPlatform?: string };
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    lastModifiedDateTime: daysAgo(value.now, 45),
    // The typed union is truncated; Graph documents about thirty members (docs/finding-rules.md, report 5).
    policyType: value.policyType as Beta.OperationApprovalPolicyType,
    policyPlatform: 'notApplicable',
    ...(value.policySet
      ? {
          policySet: {
            policyType: value.policySet.policyType as Beta.OperationApprovalPolicyType,
            policyPlatform: (value.policySet.policyPlatform ?? 'notApplicable') as Beta.OperationApprovalPolicyPlatform,
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
    expirationDateTime: new Date(requested.getTime() + 30 * DAY_MS).toISOString(),
    lastModifiedDateTime: value.requestDateTime,
    requestJustification: value.justification,
    approvalJustification: value.approver ? 'Checked with the requester.' : null,
    requestor: { user: { id: value.requestor, displayName: value.requestor.split('@')[0] ?? value.requestor } },
    approver: value.approver ? { user: { id: value.approver, displayName: value.approver.split('@')[0] ?? value.approver } } : null,
    status: value.status,
    requiredOperationApprovalPolicyTypes: value.policyTypes as Beta.OperationApprovalPolicyType[],
  } satisfies Beta.OperationApprovalRequest);
}
