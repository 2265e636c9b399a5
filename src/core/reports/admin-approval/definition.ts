/** Report 5 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { INITIALIZING_TEXT, LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { APPROVAL_POLICIES_READ, APPROVAL_READS } from './reads.js';
import { SECTION_COVERAGE, SECTION_POLICIES, SECTION_REQUESTS, deriveAdminApproval } from './derive.js';
import { APPROVAL_FINDING_KINDS } from './finding-kinds.js';
import type { ApprovalFindingKind } from './finding-kinds.js';
import { loadApprovals } from './load.js';
import type { ApprovalRecords } from './load.js';
import { adminApprovalDemo } from './demo.js';

export const adminApprovalReport: ReportDefinition<ApprovalRecords, ApprovalFindingKind> = {
  id: 'admin-approval',
  title: 'Multi Admin Approval Coverage',
  summary:
    'Which areas multi admin approval protects, from the high-impact ones (wiping, retiring or deleting devices, pushing scripts, changing who administers the platform) to apps, policies and device categories, who approves, and the last 30 days of requests.',
  permissions: ['DeviceManagementRBAC.Read.All', 'Group.Read.All'],
  prerequisites: ['An Intune licence for the tenant.'],
  beta: true,
  navigationLabel: 'Multi admin approval',
  botNames: ['approval coverage', 'admin approval', 'multi admin approval', 'multi admin approval coverage', 'approvals'],
  botTopics: ['approval', 'approve', 'approver', 'approvers', 'multi admin', 'multiple admin', 'maa', 'wipe', 'wipes', 'second admin', 'two admins'],
  botDescription: 'Multi admin approval coverage of high-impact areas',
  tables: { [SECTION_COVERAGE]: 'Coverage of protectable areas', [SECTION_POLICIES]: 'Access policies', [SECTION_REQUESTS]: 'Recent approval requests' },
  pending: { starting: INITIALIZING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: APPROVAL_FINDING_KINDS,
  optionalSources: [],
  /**
   * Tenant-wide, and no Intune read permission opens it: "Multi Admin Approval/Read access policy" reads the
   * access policies, but the report also shows the approval requests, which Microsoft documents as
   * seen by their requestor ("My requests") and the policy's approver group ("Received requests"),
   * not through a read permission (learn.microsoft.com/intune/intune-service/fundamentals/multi-admin-approval).
   */
  seenBy: { kind: 'tenantWide', area: null },
  demo: adminApprovalDemo,
  reads: APPROVAL_READS,
  faultSource: APPROVAL_POLICIES_READ.path,
  load: loadApprovals,
  derive: deriveAdminApproval,
};
