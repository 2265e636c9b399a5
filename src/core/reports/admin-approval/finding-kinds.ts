import type { FindingKindTable } from '../../findings/finding-kinds.js';

const MULTI_ADMIN_APPROVAL = {
  title: 'Use access policies to require multiple administrative approvals',
  url: 'https://learn.microsoft.com/en-us/mem/intune/fundamentals/multi-admin-approval',
};

const APPROVER_STEP =
  'Pick at least two approvers other than the admins who usually make these changes (the tenant needs at least two admin accounts), put them in a Microsoft Entra security group (not a Microsoft 365 group, a distribution list or a mail-enabled security group: those fail to resolve approvers), and add that group as a member group of an Intune role assignment.';

const FLOW_STEP =
  'Tell administrators the new flow: the requester gives a business justification, another admin approves, and the requester completes the request; a request not processed within 3 days expires.';

/**
 * The finding kinds this report states (docs/contract.md, "Finding kinds"). Microsoft lists the
 * resources an access policy can protect; the ones that remove devices, run code on them or change
 * who administers Intune are high, the ones that change apps, policies and device categories are
 * medium (docs/finding-rules.md, report 5).
 */
export const APPROVAL_FINDING_KINDS = {
  'area-unprotected': {
    label: 'High-impact areas without approval',
    one: 'High-impact area without approval',
    severity: 'high',
    remediation: {
      why: 'With no access policy for the area, one administrator account, or one stolen account, can wipe, retire or delete devices, push a script to every Windows device, or change who administers Intune, with nobody else involved.',
      steps: [
        APPROVER_STEP,
        'In the Intune admin center, Tenant administration > Multi Admin Approval > Access policies, select Create and choose the profile type the finding names: Device wipe, Device retire and Device delete each need a policy of their own, Scripts covers scripts for Windows devices, Role-based access control covers roles and role assignments.',
        'Select the approver group and save. Changes to the access policies themselves need a second administrator already: Intune protects them without a policy.',
        FLOW_STEP,
      ],
      sources: [MULTI_ADMIN_APPROVAL],
    },
  },
  'configuration-area-unprotected': {
    label: 'Configuration areas without approval',
    one: 'Configuration area without approval',
    severity: 'medium',
    remediation: {
      why: 'With no access policy for the area, one administrator account, or one stolen account, can deploy or change apps, compliance policies, settings catalog policies or device categories for every device, with nobody else involved.',
      steps: [
        APPROVER_STEP,
        'In the Intune admin center, Tenant administration > Multi Admin Approval > Access policies, select Create and choose the profile type the finding names (Apps, Compliance policies, Configuration policies or Tenant configuration); each policy protects one profile type.',
        'Select the approver group and save.',
        FLOW_STEP,
      ],
      sources: [MULTI_ADMIN_APPROVAL],
    },
  },
} as const satisfies FindingKindTable;
export type ApprovalFindingKind = keyof typeof APPROVAL_FINDING_KINDS;
