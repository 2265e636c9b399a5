/** Report 5's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { describeGroup } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { DAY_MS, compareText } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportColumn, ReportRow } from '../report-model.js';
import { sectionColumns, severityTone } from '../report-model.js';
import { APPROVAL_FINDING_KINDS } from './finding-kinds.js';
import type { ApprovalFindingKind } from './finding-kinds.js';
import type { ApprovalPolicy, ApprovalRecords, ApprovalRequest } from './load.js';
import type { ApprovalThresholds } from './thresholds.js';

export type ProtectedArea = 'device-wipe' | 'scripts' | 'rbac';

interface AreaRule {
  area: ProtectedArea;
  label: string;
  types: readonly string[];
  name: RegExp;
}

/**
 * The three high-impact areas of the specification, matched on `policyType` first and on the
 * name only when the type says nothing (`unknown`, `unknownFutureValue` or a value this code does
 * not know). Types from learn.microsoft.com/graph/api/resources/intune-rbac-operationapprovalpolicytype
 * (beta); Device wipe / retire / delete access policies arrived with Intune service release 2508.
 */
export const AREA_RULES: readonly AreaRule[] = [
  {
    area: 'device-wipe',
    label: 'Wiping devices',
    types: ['deviceWipe', 'deviceRetire', 'deviceRetireNonCompliant', 'deviceDelete', 'deviceErase'],
    name: /wipe|retire|delete|erase/i,
  },
  { area: 'scripts', label: 'Pushing scripts', types: ['script'], name: /script|remediat/i },
  { area: 'rbac', label: 'Changing who administers the platform', types: ['role', 'operationApprovalPolicy'], name: /role|rbac|admin/i },
];

const KNOWN_TYPES = new Set([
  'deviceAction',
  'deviceWipe',
  'deviceRetire',
  'deviceRetireNonCompliant',
  'deviceDelete',
  'deviceLock',
  'deviceErase',
  'deviceDisableActivationLock',
  'windowsEnrollment',
  'compliancePolicy',
  'configurationPolicy',
  'appProtectionPolicy',
  'policySet',
  'filter',
  'endpointSecurityPolicy',
  'app',
  'script',
  'role',
  'deviceResetPasscode',
  'customOrganizationalMessage',
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
]);

/**
 * `deviceAction` names a family, not an action: device action access policies (wipe, retire,
 * delete; Intune service release 2508) may carry it as their `policyType` and the action itself in
 * `policySet.policyType` (operationApprovalPolicySet, beta). Alone it says nothing about which area.
 */
const FAMILY_TYPES = new Set(['deviceAction']);

/**
 * Which areas a policy covers, and whether that rests on its name rather than its type. Both
 * `policyType` and `policySet.policyType` are read; only when neither names a specific type this
 * code knows does the name decide, and the row says so.
 */
export function areasCovered(policy: Pick<ApprovalPolicy, 'policyType' | 'displayName'> & { policySetType?: string | null }): { areas: ProtectedArea[]; byName: boolean } {
  const specific = [policy.policyType, policy.policySetType ?? null].filter((type): type is string => type !== null && KNOWN_TYPES.has(type) && !FAMILY_TYPES.has(type));
  if (specific.length > 0) {
    return { areas: AREA_RULES.filter((rule) => rule.types.some((type) => specific.includes(type))).map((rule) => rule.area), byName: false };
  }
  return { areas: AREA_RULES.filter((rule) => rule.name.test(policy.displayName)).map((rule) => rule.area), byName: true };
}

/** The type as the row shows it: `deviceAction: deviceWipe` when the policy set says which action. */
function describePolicyType(policy: ApprovalPolicy): string {
  const type = policy.policySetType && policy.policySetType !== policy.policyType ? `${policy.policyType}: ${policy.policySetType}` : policy.policyType;
  return policy.policyPlatform && policy.policyPlatform !== 'notApplicable' ? `${type} (${policy.policyPlatform} only)` : type;
}

function approverLabel(group: GroupLookup | undefined, id: string): string {
  if (!group || group.state === 'unknown') return `${id} (could not be read)`;
  if (group.state === 'deleted') return `deleted group ${id}`;
  return describeGroup(group);
}

/** A policy whose every approver group is deleted or empty cannot be approved by anyone. */
function canBeApproved(policy: ApprovalPolicy, groups: ReadonlyMap<string, GroupLookup>): boolean | null {
  const lookups = policy.approverGroupIds.map((id) => groups.get(id));
  if (lookups.some((group) => group?.state === 'found' && !group.isEmpty)) return true;
  if (lookups.length > 0 && lookups.every((group) => group?.state === 'deleted' || (group?.state === 'found' && group.isEmpty))) return false;
  return lookups.length === 0 ? false : null;
}

export const SECTION_COVERAGE = 'coverage';
export const SECTION_POLICIES = 'policies';
export const SECTION_REQUESTS = 'requests';

export const HEURISTIC_NOTICE =
  'Built on beta interfaces. Coverage is matched on each access policy’s type and name, so edge cases can be misjudged: confirm them in the Intune admin center.';

export function deriveAdminApproval(records: ApprovalRecords, { now, thresholds }: DeriveContext<ApprovalThresholds>): DerivedReport<ApprovalFindingKind> {
  const columns: ReportColumn[] = [
    ...sectionColumns(SECTION_COVERAGE, [
      { key: 'area', label: 'Area', format: 'text' },
      { key: 'coverage', label: 'Coverage', format: 'status', toneKey: 'coverageTone' },
      { key: 'coveredBy', label: 'Access policies', format: 'text' },
    ]),
    ...sectionColumns(SECTION_POLICIES, [
      { key: 'policy', label: 'Access policy', format: 'text' },
      { key: 'policyType', label: 'Type', format: 'text' },
      { key: 'areas', label: 'Protects', format: 'text' },
      { key: 'approvers', label: 'Approver groups', format: 'text' },
      { key: 'approvable', label: 'Status', format: 'status', toneKey: 'approvableTone' },
    ]),
    ...sectionColumns(SECTION_REQUESTS, [
      { key: 'requested', label: 'Requested', format: 'date' },
      // Graph's request status as it is (needsApproval, approved, …): a record, not a verdict of ours.
      { key: 'status', label: 'Status', format: 'text' },
      { key: 'requestor', label: 'Requested by', format: 'text' },
      { key: 'approver', label: 'Approved by', format: 'text' },
      { key: 'requestTypes', label: 'Policy types', format: 'text' },
      { key: 'justification', label: 'Justification', format: 'text' },
    ]),
  ];
  const rows: ReportRow[] = [];
  const findings: FindingDraft<ApprovalFindingKind>[] = [];
  const link = intuneLinks.multiAdminApproval();
  const coverage = records.policies.map((policy) => ({ policy, ...areasCovered(policy), approvable: canBeApproved(policy, records.approverGroups) }));

  for (const rule of AREA_RULES) {
    const covering = coverage.filter((entry) => entry.areas.includes(rule.area));
    const approvable = covering.filter((entry) => entry.approvable !== false);
    const [state, coverageTone]: [string, CellTone] =
      covering.length === 0
        ? ['Not protected', severityTone(APPROVAL_FINDING_KINDS['area-unprotected'].severity)]
        : approvable.length === 0
          ? ['Protected, but no approver group has members', 'warning']
          : covering.every((entry) => entry.byName)
            ? ['Protected (matched on the policy name)', 'ok']
            : ['Protected', 'ok'];
    rows.push({
      section: SECTION_COVERAGE,
      id: rule.area,
      area: rule.label,
      coverage: state,
      coverageTone,
      coveredBy: covering.map((entry) => entry.policy.displayName).join('; ') || null,
      link,
    });
    if (covering.length === 0) {
      findings.push({
        kind: 'area-unprotected',
        subjectId: rule.area,
        subjectName: rule.label,
        detail: `No multi admin approval access policy protects ${rule.label.toLowerCase()}: one administrator can do it alone.`,
      });
    }
  }

  for (const entry of [...coverage].sort((a, b) => compareText(a.policy.displayName, b.policy.displayName))) {
    const { policy } = entry;
    const areaLabels = entry.areas.map((area) => AREA_RULES.find((rule) => rule.area === area)!.label);
    rows.push({
      section: SECTION_POLICIES,
      id: policy.id,
      policy: policy.displayName,
      policyType: describePolicyType(policy),
      areas: areaLabels.length > 0 ? `${areaLabels.join('; ')}${entry.byName ? ' (by name)' : ''}` : null,
      approvers: policy.approverGroupIds.map((id) => approverLabel(records.approverGroups.get(id), id)).join('; ') || null,
      approvable:
        policy.approverGroupIds.length === 0
          ? 'Cannot be approved: it names no approver group'
          : entry.approvable === false
            ? 'Cannot be approved: every approver group is deleted or empty'
            : entry.approvable === null
              ? 'Approver groups could not be read'
              : 'OK',
      approvableTone: policy.approverGroupIds.length === 0 || entry.approvable === false ? 'warning' : entry.approvable === null ? 'neutral' : 'ok',
      link,
    });
  }

  // Recent means recently active: a request approved yesterday counts however old it is, and the
  // newest activity comes first.
  const since = now.getTime() - thresholds.approvalRequestWindowDays * DAY_MS;
  const lastActivity = (request: ApprovalRequest) => request.lastModifiedDateTime ?? request.requestDateTime;
  const recent = records.requests
    .filter((request) => {
      const when = lastActivity(request);
      return when !== null && new Date(when).getTime() >= since;
    })
    .sort((a, b) => String(lastActivity(b)).localeCompare(String(lastActivity(a))));
  for (const request of recent) {
    rows.push({
      section: SECTION_REQUESTS,
      id: request.id,
      requested: request.requestDateTime,
      status: request.status,
      requestor: request.requestor,
      approver: request.approver,
      requestTypes: request.policyTypes.join(', ') || null,
      justification: request.justification,
      link,
    });
  }
  return { state: 'loaded', notice: HEURISTIC_NOTICE, columns, rows, findings };
}
