/** Report 5's Graph reads: multi admin approval's access policies and requests, and the approver groups (src/core/directory). */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { GROUP_READ } from '../../directory/reads.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';

/**
 * The fields each read asks for (`$select`) and its projection may read: the projections take records
 * of types picked from these lists, so a field read but not asked for does not compile.
 */
export const POLICY_FIELDS = [
  'id',
  'displayName',
  'policyType',
  'policySet',
  'policyPlatform',
  'approverGroupIds',
] as const satisfies readonly (keyof Beta.OperationApprovalPolicy)[];
export const REQUEST_FIELDS = [
  'id',
  'requestDateTime',
  'lastModifiedDateTime',
  'status',
  'requestor',
  'approver',
  'requiredOperationApprovalPolicyTypes',
  'requestJustification',
] as const satisfies readonly (keyof Beta.OperationApprovalRequest)[];

/**
 * List operationApprovalPolicies, beta only (learn.microsoft.com/graph/api/intune-rbac-operationapprovalpolicy-list?view=graph-rest-beta):
 * DeviceManagementRBAC.Read.All, or DeviceManagementConfiguration.Read.All.
 */
export const APPROVAL_POLICIES_READ = {
  path: '/beta/deviceManagement/operationApprovalPolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-operationapprovalpolicy-list?view=graph-rest-beta',
  permissions: ['DeviceManagementRBAC.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: POLICY_FIELDS,
  optional: false,
  why: 'Which areas an access policy protects, and its approver groups.',
} as const satisfies UpstreamRead;

/** List operationApprovalRequests, beta only (intune-rbac-operationapprovalrequest-list?view=graph-rest-beta): the same permissions. */
export const APPROVAL_REQUESTS_READ = {
  path: '/beta/deviceManagement/operationApprovalRequests',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-operationapprovalrequest-list?view=graph-rest-beta',
  permissions: ['DeviceManagementRBAC.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: REQUEST_FIELDS,
  optional: false,
  why: 'The requests of the last 30 days: who asked, who approved, for what.',
} as const satisfies UpstreamRead;

export const APPROVAL_READS: readonly UpstreamRead[] = [APPROVAL_POLICIES_READ, APPROVAL_REQUESTS_READ, GROUP_READ];
