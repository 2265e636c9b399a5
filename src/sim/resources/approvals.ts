import * as entity from '../entity-properties.js';
import { BETA, CONFIGURATION_PERMISSIONS, RBAC_PERMISSIONS } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/** Multiple admin approval: the policies that protect actions, and the requests made under them (report 5). */

/**
 * `operationApprovalPolicyType` members after `unknownFutureValue` (intune-rbac-operationapprovalpolicytype,
 * beta: values 22 to 31). The device actions (`deviceWipe` 2, `deviceRetire` 3, `deviceDelete` 5) and
 * the legacy plural spellings come before it and are always sent as they are.
 */
const LATE_APPROVAL_POLICY_TYPES = [
  'operationApprovalPolicy',
  'autopilot',
  'windows365',
  'deviceEnrollment',
  'deviceUpdate',
  'enrollmentRestriction',
  'tenantConfiguration',
  'tunnel',
  'endpointPrivilegeManagement',
  'deviceSecurityAction',
];

export const OPERATION_APPROVAL_POLICIES = {
  kind: 'collection',
  path: '/deviceManagement/operationApprovalPolicies',
  source: 'operationApprovalPolicies',
  versions: BETA,
  permissions: [...RBAC_PERMISSIONS, ...CONFIGURATION_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceManagement/operationApprovalPolicies',
  navigation: [],
  defaultPageSize: 100,
  evolvableEnums: { policyType: LATE_APPROVAL_POLICY_TYPES, 'policySet.policyType': LATE_APPROVAL_POLICY_TYPES },
  properties: entity.OPERATION_APPROVAL_POLICY,
} as const satisfies SimResource;

export const OPERATION_APPROVAL_REQUESTS = {
  kind: 'collection',
  path: '/deviceManagement/operationApprovalRequests',
  source: 'operationApprovalRequests',
  versions: BETA,
  permissions: [...RBAC_PERMISSIONS, ...CONFIGURATION_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceManagement/operationApprovalRequests',
  navigation: [],
  defaultPageSize: 100,
  evolvableEnums: { requiredOperationApprovalPolicyTypes: LATE_APPROVAL_POLICY_TYPES },
  properties: entity.OPERATION_APPROVAL_REQUEST,
} as const satisfies SimResource;
