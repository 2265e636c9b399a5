import { daysAgo } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { ApprovalFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

function accessPolicy(tenant: DemoTenantBuilder<ApprovalFindingKind>, displayName: string, policyType: string, approverGroupIds: string[], policyPlatform?: string): void {
  tenant.add(
    'operationApprovalPolicies',
    records.operationApprovalPolicy({ id: tenant.guid(), displayName, policyType, approverGroupIds, now: tenant.now, ...(policyPlatform ? { policyPlatform } : {}) }),
  );
}

/**
 * Report 5 in the demo tenant, with the shapes Graph documents (docs/finding-rules.md, report 5):
 * a device delete policy alone (wipe and retire stay open), apps protected on iOS/iPadOS only, one
 * policy whose type arrives as `unknown` and only its name says scripts, roles protected, scripts
 * protected through the older spelling `scripts` on Windows, device categories protected through a
 * type Graph names only on request (`tenantConfiguration`) by a Microsoft 365 group that cannot
 * approve, an old `operationApprovalPolicy` policy that protects no role, no policy for compliance
 * or configuration policies, and a month of requests in every status beside one too old to list.
 */
export const adminApprovalDemo: readonly DemoStep<ApprovalFindingKind>[] = [
  {
    step: 7,
    plant(tenant) {
      const { now } = tenant;
      const { helpdeskLeads, deletedGroup, emptyApprovers } = tenant.groups;
      // Delete only: "Each policy supports a single profile type", so wiping and retiring stay open.
      accessPolicy(tenant, 'Device delete approval', 'deviceDelete', [helpdeskLeads]);
      // Limited to one platform: protected there, a warning for the rest, not a finding.
      accessPolicy(tenant, 'iOS app deployment approval', 'app', [helpdeskLeads, deletedGroup], 'iOSiPadOS');
      // An old policy whose type arrives as "unknown": only its name says it guards scripts.
      accessPolicy(tenant, 'PowerShell script approval', 'unknown', [emptyApprovers]);
      const statuses = ['needsApproval', 'approved', 'completed', 'rejected', 'cancelled', 'expired', 'completed', 'needsApproval'] as const;
      statuses.forEach((status, index) =>
        tenant.add(
          'operationApprovalRequests',
          records.operationApprovalRequest({
            id: tenant.guid(),
            requestDateTime: daysAgo(now, index * 3 + 1),
            status,
            requestor: `admin${index % 3}@contoso-demo.example`,
            approver: status === 'needsApproval' || status === 'cancelled' || status === 'expired' ? null : 'lead@contoso-demo.example',
            justification: tenant.pick(['Lost device', 'Script update for printers', 'New line-of-business app']),
            policyTypes: [tenant.pick(['deviceDelete', 'app', 'script'])],
            now,
          }),
        ),
      );
      tenant.add(
        'operationApprovalRequests',
        records.operationApprovalRequest({
          id: tenant.guid(),
          requestDateTime: daysAgo(now, 75),
          status: 'completed',
          requestor: 'admin0@contoso-demo.example',
          approver: 'lead@contoso-demo.example',
          justification: 'Old request',
          policyTypes: ['app'],
          now,
        }),
      );
    },
  },
  {
    step: 11,
    plant(tenant) {
      accessPolicy(tenant, 'Role and role assignment changes', 'role', [tenant.groups.helpdeskLeads]);
    },
  },
  {
    step: 13,
    plant(tenant) {
      const { now } = tenant;
      // Learn: approver groups "must be a security group"; a Microsoft 365 group silently resolves no approver.
      const microsoft365Approvers = tenant.addGroup({ displayName: 'Intune Approvers (Microsoft 365)', memberCount: 4, kind: 'microsoft365' });
      // The older plural spelling, limited to Windows: scripts are protectable on Windows only, so the area is whole.
      accessPolicy(tenant, 'Script deployment approval', 'scripts', [tenant.groups.helpdeskLeads], 'windows10AndLater');
      // Declared after unknownFutureValue: Graph names it only to a caller that asks.
      accessPolicy(tenant, 'Device category changes', 'tenantConfiguration', [microsoft365Approvers]);
      // Intune protects the access policies itself; this old type protects no role.
      accessPolicy(tenant, 'Access policy changes', 'operationApprovalPolicy', [tenant.groups.helpdeskLeads]);
      tenant.add(
        'operationApprovalRequests',
        records.operationApprovalRequest({
          id: tenant.guid(),
          requestDateTime: daysAgo(now, 6),
          status: 'expired',
          requestor: 'admin1@contoso-demo.example',
          approver: null,
          justification: 'New device category for kiosks',
          policyTypes: ['tenantConfiguration'],
          now,
        }),
      );
      tenant.declare('area-unprotected', 'device-wipe');
      tenant.declare('area-unprotected', 'device-retire');
      tenant.declare('configuration-area-unprotected', 'compliance-policies');
      tenant.declare('configuration-area-unprotected', 'configuration-policies');
    },
  },
];
