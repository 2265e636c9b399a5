import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const APPROVAL_FINDING_KINDS = {
  'area-unprotected': {
    label: 'High-impact areas without approval',
    severity: 'high',
    remediation: {
      why: 'With no access policy for the area, one administrator account, or one stolen account, can wipe, retire or delete devices, push a script to every Windows device, or change who administers Intune, with nobody else involved.',
      steps: [
        'Pick at least two approvers other than the admins who usually make these changes (the tenant needs at least two admin accounts), put them in a Microsoft Entra security group, and add that group as a member group of an Intune role assignment.',
        'In the Intune admin center, Tenant administration > Multi Admin Approval > Access policies, select Create and choose the policy type for the area the finding names: Device actions for wiping, Scripts for pushing scripts, Role-based access control for changing who administers Intune.',
        'Select the approver group and save; then protect the access policies themselves with a policy of type Access policies, so that one admin cannot remove the protection alone.',
        'Tell administrators the new flow: the requester gives a business justification, another admin approves, and the requester completes the request; a request not processed within 30 days expires.',
      ],
      sources: [
        { title: 'Use access policies to require multiple administrative approvals', url: 'https://learn.microsoft.com/en-us/mem/intune/fundamentals/multi-admin-approval' },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type ApprovalFindingKind = keyof typeof APPROVAL_FINDING_KINDS;
