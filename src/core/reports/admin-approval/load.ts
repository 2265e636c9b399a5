/** Report 5's Graph reads (the multi admin approval access policies and requests, and the approver groups), kept to the fields `derive` reads. */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { lookUpGroups, throwIfGroupsForbidden } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { asString, isoOrNull } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { loadSideBySide } from '../side-by-side.js';
import { selectOf } from '../../graph/upstream-read.js';
import type { POLICY_FIELDS, REQUEST_FIELDS } from './reads.js';
import { APPROVAL_POLICIES_READ, APPROVAL_REQUESTS_READ } from './reads.js';

export interface ApprovalPolicy {
  id: string;
  displayName: string;
  /** A string, not the truncated typed union: Graph documents about thirty members (docs/finding-rules.md, report 5). */
  policyType: string;
  /** `policySet.policyType`: Graph repeats the policy's type there; it counts as the type does (docs/finding-rules.md, report 5). */
  policySetType: string | null;
  policyPlatform: string | null;
  approverGroupIds: string[];
}

export interface ApprovalRequest {
  id: string;
  requestDateTime: string | null;
  lastModifiedDateTime: string | null;
  status: string;
  requestor: string | null;
  approver: string | null;
  policyTypes: string[];
  justification: string | null;
}

export interface ApprovalRecords {
  policies: ApprovalPolicy[];
  requests: ApprovalRequest[];
  approverGroups: Map<string, GroupLookup>;
}

/**
 * Multi admin approval's `policyType` is an evolvable enum: members after `unknownFutureValue`
 * (tenantConfiguration, operationApprovalPolicy, …) come back as `unknownFutureValue` unless the caller asks for them
 * (learn.microsoft.com/graph/best-practices-concept#handling-future-members-in-evolvable-enumerations).
 */
const EVOLVABLE_ENUMS = { Prefer: 'include-unknown-enum-members' };

function identityName(identitySet: unknown): string | null {
  const set = identitySet as Beta.IdentitySet | null | undefined;
  const identity = set?.user ?? set?.application ?? set?.device;
  return asString(identity?.displayName) ?? asString(identity?.id) ?? null;
}

type SelectedPolicy = Pick<Beta.OperationApprovalPolicy, (typeof POLICY_FIELDS)[number]>;
type SelectedRequest = Pick<Beta.OperationApprovalRequest, (typeof REQUEST_FIELDS)[number]>;

/** An access policy as Graph returns it (operationApprovalPolicy, beta), kept to what `derive` reads. */
export function readApprovalPolicy(policy: SelectedPolicy): ApprovalPolicy {
  return {
    id: String(policy.id),
    displayName: policy.displayName ?? String(policy.id),
    policyType: asString(policy.policyType) ?? 'unknown',
    policySetType: asString(policy.policySet?.policyType),
    policyPlatform: asString(policy.policyPlatform) ?? asString(policy.policySet?.policyPlatform),
    approverGroupIds: (policy.approverGroupIds ?? []).map((id) => String(id).toLowerCase()),
  };
}

/** An approval request as Graph returns it (operationApprovalRequest, beta), kept to what `derive` reads. */
export function readApprovalRequest(request: SelectedRequest): ApprovalRequest {
  return {
    id: String(request.id),
    requestDateTime: isoOrNull(request.requestDateTime),
    lastModifiedDateTime: isoOrNull(request.lastModifiedDateTime),
    status: asString(request.status) ?? 'unknown',
    requestor: identityName(request.requestor),
    approver: identityName(request.approver),
    policyTypes: (request.requiredOperationApprovalPolicyTypes ?? []).map(String),
    justification: asString(request.requestJustification),
  };
}

export async function loadApprovals(context: LoadContext): Promise<ApprovalRecords> {
  const [policies, requests] = await loadSideBySide<[ApprovalPolicy[], ApprovalRequest[]]>([
    (signal) =>
      readCollection<SelectedPolicy, ApprovalPolicy>(
        context,
        'operationApprovalPolicies',
        APPROVAL_POLICIES_READ.path,
        { query: { $select: selectOf(APPROVAL_POLICIES_READ) }, headers: EVOLVABLE_ENUMS, signal },
        readApprovalPolicy,
      ),
    (signal) =>
      readCollection<SelectedRequest, ApprovalRequest>(
        context,
        'operationApprovalRequests',
        APPROVAL_REQUESTS_READ.path,
        { query: { $select: selectOf(APPROVAL_REQUESTS_READ) }, headers: EVOLVABLE_ENUMS, signal },
        readApprovalRequest,
      ),
  ]);
  const approverGroups = await lookUpGroups(
    context.graph,
    policies.flatMap((policy) => policy.approverGroupIds),
  );
  context.onProgress?.('groups', approverGroups.size);
  throwIfGroupsForbidden(approverGroups);
  return { policies, requests, approverGroups };
}
