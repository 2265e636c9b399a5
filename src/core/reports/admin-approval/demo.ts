import { daysAgo } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { ApprovalFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

function accessPolicy(tenant: DemoTenantBuilder<ApprovalFindingKind>, displayName: string, policyType: string, approverGroupIds: string[]): void {
  tenant.add('operationApprovalPolicies', records.operationApprovalPolicy({ id: tenant.guid(), displayName, policyType, approverGroupIds, now: tenant.now }));
}

/**
 * Report 5 in the demo tenant: access policies that guard wiping devices and pushing scripts (one
 * only by its name, one with no approver left to approve), none for changing who administers the
 * platform, and a month of requests in every status beside one too old to list.
 */
export const adminApprovalDemo: readonly DemoStep<ApprovalFindingKind>[] = [
  {
    step: 7,
    plant(tenant) {
      const { now } = tenant;
      const { helpdeskLeads, deletedGroup, emptyApprovers } = tenant.groups;
      accessPolicy(tenant, 'Device wipe approval', 'deviceWipe', [helpdeskLeads]);
      accessPolicy(tenant, 'App deployment approval', 'app', [helpdeskLeads, deletedGroup]);
      // An old policy whose type arrives as "unknown": only its name says it guards scripts.
      accessPolicy(tenant, 'PowerShell script approval', 'unknown', [emptyApprovers]);
      tenant.declare('area-unprotected', 'rbac');
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
            policyTypes: [tenant.pick(['deviceWipe', 'app', 'script'])],
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
      // A device action access policy (Intune 2508): its type is the family, policySet names the action.
      tenant.add(
        'operationApprovalPolicies',
        records.operationApprovalPolicy({
          id: tenant.guid(),
          displayName: 'Retire and delete devices',
          policyType: 'deviceAction',
          policySet: { policyType: 'deviceRetire' },
          approverGroupIds: [tenant.groups.helpdeskLeads],
          now: tenant.now,
        }),
      );
    },
  },
];
