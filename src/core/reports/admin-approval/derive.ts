/** Report 5's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { describeGroup } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { DAY_MS, compareText, joinAnd } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportColumn, ReportRow } from '../report-model.js';
import { sectionColumns, severityTone } from '../report-model.js';
import { APPROVAL_FINDING_KINDS } from './finding-kinds.js';
import type { ApprovalFindingKind } from './finding-kinds.js';
import type { ApprovalPolicy, ApprovalRecords, ApprovalRequest } from './load.js';
import type { ApprovalThresholds } from './thresholds.js';

export type ProtectedArea =
  'apps' | 'compliance-policies' | 'configuration-policies' | 'device-wipe' | 'device-retire' | 'device-delete' | 'rbac' | 'scripts' | 'tenant-configuration';

interface AreaRule {
  area: ProtectedArea;
  /** The resource as Microsoft Learn lists it. */
  label: string;
  /** What one administrator can then do alone, for the finding's detail. */
  action: string;
  /** Its finding kind, which carries its severity. */
  kind: ApprovalFindingKind;
  /** The `policyType` values (as read: legacy spellings already made singular) that protect it. */
  types: readonly string[];
  /** Read only when a policy's type is not readable (`unknown`, `unknownFutureValue`, a value this code does not know). */
  name: RegExp;
  /** Platforms that cover the whole area: scripts are protectable on Windows only. */
  wholeAreaPlatforms?: readonly string[];
}

/**
 * One area per resource Microsoft lists as protectable by an access policy ("Use access policies
 * to require multiple administrative approvals", learn.microsoft.com/mem/intune/fundamentals/multi-admin-approval,
 * 2026-05-26), in its order, device actions one by one. "Each policy supports a single profile
 * type", so a type protects its own resource and nothing else: `deviceDelete` leaves wiping open,
 * `app` does not cover app protection policies ("doesn't apply to app protection policies"),
 * `operationApprovalPolicy` does not cover roles. `deviceAction` ("a Device Action",
 * learn.microsoft.com/graph/api/resources/intune-rbac-operationapprovalpolicytype) is the only
 * value that names a family; it covers each device action.
 */
export const AREA_RULES: readonly AreaRule[] = [
  {
    area: 'apps',
    label: 'Apps (app deployments)',
    action: 'deploy or change apps',
    kind: 'configuration-area-unprotected',
    types: ['app'],
    name: /\b(apps?|applications?)\b(?!\s+protection)/i,
  },
  {
    area: 'compliance-policies',
    label: 'Compliance policies',
    action: 'create or change compliance policies',
    kind: 'configuration-area-unprotected',
    types: ['compliancePolicy'],
    name: /complian/i,
  },
  {
    area: 'configuration-policies',
    label: 'Configuration policies (settings catalog)',
    action: 'create or change settings catalog policies',
    kind: 'configuration-area-unprotected',
    types: ['configurationPolicy'],
    name: /configuration polic|settings catalog/i,
  },
  { area: 'device-wipe', label: 'Device wipe', action: 'wipe a device', kind: 'area-unprotected', types: ['deviceWipe', 'deviceAction'], name: /wipe|device actions?/i },
  { area: 'device-retire', label: 'Device retire', action: 'retire a device', kind: 'area-unprotected', types: ['deviceRetire', 'deviceAction'], name: /retire|device actions?/i },
  { area: 'device-delete', label: 'Device delete', action: 'delete a device', kind: 'area-unprotected', types: ['deviceDelete', 'deviceAction'], name: /delet|device actions?/i },
  {
    area: 'rbac',
    label: 'Role-based access control (roles and role assignments)',
    action: 'change roles and role assignments, and so who administers Intune',
    kind: 'area-unprotected',
    types: ['role'],
    name: /\broles?\b|rbac|role-based/i,
  },
  {
    area: 'scripts',
    label: 'Scripts (Windows)',
    action: 'deploy a script to Windows devices',
    kind: 'area-unprotected',
    types: ['script'],
    name: /script|remediat/i,
    wholeAreaPlatforms: ['windows10AndLater'],
  },
  {
    area: 'tenant-configuration',
    label: 'Tenant configuration (device categories)',
    action: 'create, edit or delete device categories',
    kind: 'configuration-area-unprotected',
    types: ['tenantConfiguration'],
    name: /tenant configuration|device categor/i,
  },
];

/** The row for the access policies themselves: "automatically protected", never selectable, never a finding (Learn, as above). */
export const ACCESS_POLICIES_AREA = 'access-policies';
const ACCESS_POLICIES_LABEL = 'Access policies';

/**
 * `operationApprovalPolicyType` members as Graph documents them (intune-rbac-operationapprovalpolicytype,
 * beta, and the beta schema); `unknown` and `unknownFutureValue` say nothing and are not here.
 */
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
 * Earlier spellings of the same members (Graph's 2021 pages listed `apps`, `scripts`, `roles`,
 * `compliancePolicies`, …; the policy type's description still speaks of "changes from `apps` to
 * `scripts`"): read as their singular.
 */
const LEGACY_SPELLINGS: Readonly<Record<string, string>> = {
  apps: 'app',
  scripts: 'script',
  roles: 'role',
  compliancePolicies: 'compliancePolicy',
  configurationPolicies: 'configurationPolicy',
  deviceActions: 'deviceAction',
  appProtectionPolicies: 'appProtectionPolicy',
  policySets: 'policySet',
  filters: 'filter',
  endpointSecurity: 'endpointSecurityPolicy',
};

/** A documented type as this code reads it, or null when the value says nothing this code can read. */
export function readPolicyType(value: string | null | undefined): string | null {
  if (!value) return null;
  const type = Object.hasOwn(LEGACY_SPELLINGS, value) ? LEGACY_SPELLINGS[value]! : value;
  return KNOWN_TYPES.has(type) ? type : null;
}

export interface PolicyCoverage {
  areas: ProtectedArea[];
  /** The areas rest on the policy's name: neither `policyType` nor `policySet.policyType` is readable. */
  byName: boolean;
}

/**
 * Which areas a policy covers. `policyType` and `policySet.policyType` both count; only when
 * neither is readable does the name decide, and the row says so.
 */
export function areasCovered(policy: Pick<ApprovalPolicy, 'policyType' | 'displayName'> & { policySetType?: string | null }): PolicyCoverage {
  const types = [readPolicyType(policy.policyType), readPolicyType(policy.policySetType)].filter((type): type is string => type !== null);
  if (types.length > 0) {
    return { areas: AREA_RULES.filter((rule) => rule.types.some((type) => types.includes(type))).map((rule) => rule.area), byName: false };
  }
  return { areas: AREA_RULES.filter((rule) => rule.name.test(policy.displayName)).map((rule) => rule.area), byName: true };
}

/** `operationApprovalPolicyPlatform` (beta) as people say it. */
const PLATFORM_LABELS: Readonly<Record<string, string>> = {
  androidDeviceAdministrator: 'Android device administrator',
  androidEnterprise: 'Android Enterprise',
  iOSiPadOS: 'iOS/iPadOS',
  macOS: 'macOS',
  windows10AndLater: 'Windows 10 and later',
  windows81AndLater: 'Windows 8.1 and later',
  windows10X: 'Windows 10X',
};

/** The policy's platform when it is limited to one: `notApplicable` (Graph's default) or none means every platform. */
function platformOf(policy: ApprovalPolicy): string | null {
  return policy.policyPlatform && policy.policyPlatform !== 'notApplicable' ? policy.policyPlatform : null;
}

function platformLabel(platform: string): string {
  return PLATFORM_LABELS[platform] ?? `an unreadable platform (${platform})`;
}

/** The type as the row shows it: both fields when the policy set names another, and what could not be read. */
function describePolicyType(policy: ApprovalPolicy): string {
  const readable = readPolicyType(policy.policyType) !== null || readPolicyType(policy.policySetType) !== null;
  const both = policy.policySetType && policy.policySetType !== policy.policyType ? `${policy.policyType}: ${policy.policySetType}` : policy.policyType;
  const type = readable ? both : `${both} (type not readable)`;
  const platform = platformOf(policy);
  return platform ? `${type} (${platformLabel(platform)} only)` : type;
}

/** Why a group that was read cannot resolve approvers: Learn says approvers "must be a security group". */
const NOT_SECURITY_GROUP: Readonly<Record<NonNullable<Extract<GroupLookup, { state: 'found' }>['notSecurityGroup']>, string>> = {
  microsoft365: 'Microsoft 365 group',
  mailEnabledSecurity: 'mail-enabled security group',
  distribution: 'distribution group',
  notSecurityEnabled: 'not security-enabled',
};

function approverLabel(group: GroupLookup | undefined, id: string): string {
  if (!group || group.state === 'unknown') return group?.displayName ? `${group.displayName} (its members could not be read)` : `${id} (could not be read)`;
  if (group.state === 'deleted') return `deleted group ${id}`;
  if (group.notSecurityGroup) return `${group.displayName} (${NOT_SECURITY_GROUP[group.notSecurityGroup]}: cannot approve)`;
  return describeGroup(group);
}

type UnusableReason = 'deleted' | 'empty' | 'not a security group';

/** Why a group cannot resolve approvers, or null when it can (or might: unread is not unusable). */
function unusable(group: GroupLookup | undefined): UnusableReason | null {
  if (group?.state === 'deleted') return 'deleted';
  if (group?.state !== 'found') return null;
  if (group.notSecurityGroup) return 'not a security group';
  return group.isEmpty ? 'empty' : null;
}

/**
 * Whether anyone can approve a request under the policy: false when it names no approver group or
 * every one is deleted, empty, or not a security group (Learn: those "silently fail to resolve
 * approver membership"); null when a group could not be read and none is known to be usable.
 */
function approvability(policy: ApprovalPolicy, groups: ReadonlyMap<string, GroupLookup>): { approvable: boolean | null; reasons: UnusableReason[] } {
  const lookups = policy.approverGroupIds.map((id) => groups.get(id));
  if (lookups.length === 0) return { approvable: false, reasons: [] };
  if (lookups.some((group) => group?.state === 'found' && unusable(group) === null)) return { approvable: true, reasons: [] };
  const reasons = lookups.map(unusable);
  if (reasons.every((reason) => reason !== null)) {
    const order: UnusableReason[] = ['deleted', 'empty', 'not a security group'];
    return { approvable: false, reasons: order.filter((reason) => reasons.includes(reason)) };
  }
  return { approvable: null, reasons: [] };
}

function joinOr(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

export const SECTION_COVERAGE = 'coverage';
export const SECTION_POLICIES = 'policies';
export const SECTION_REQUESTS = 'requests';

/**
 * The report's standing notice: beta interfaces, the name read only for an unreadable type, and the
 * exclusions Graph does not show ("up to 50 enterprise applications" per access policy can change
 * protected resources without approval, Learn as above; the access policy resource has no such field).
 */
export const HEURISTIC_NOTICE =
  'Built on beta interfaces. Coverage is read from each access policy’s type; only a policy whose type cannot be read is matched on its name, and the row says so. An access policy can also exempt up to 50 enterprise applications from approval, and Graph does not show them: check each policy’s Exclusions in the Intune admin center.';

export function deriveAdminApproval(records: ApprovalRecords, { now, thresholds }: DeriveContext<ApprovalThresholds>): DerivedReport<ApprovalFindingKind> {
  const columns: ReportColumn[] = [
    ...sectionColumns(SECTION_COVERAGE, [
      { key: 'area', label: 'Area', format: 'text', role: 'name' },
      { key: 'coverage', label: 'Coverage', format: 'status', toneKey: 'coverageTone' },
      { key: 'coveredBy', label: 'Access policies', format: 'text', role: 'wide' },
    ]),
    ...sectionColumns(SECTION_POLICIES, [
      { key: 'policy', label: 'Access policy', format: 'text', role: 'name' },
      { key: 'policyType', label: 'Type', format: 'text' },
      { key: 'areas', label: 'Protects', format: 'text', role: 'wide' },
      { key: 'approvers', label: 'Approver groups', format: 'text', role: 'wide' },
      { key: 'approvable', label: 'Status', format: 'status', toneKey: 'approvableTone' },
    ]),
    ...sectionColumns(SECTION_REQUESTS, [
      { key: 'requested', label: 'Requested', format: 'date', role: 'name' },
      // Graph's request status as it is (needsApproval, approved, …): a record, not a verdict of ours.
      { key: 'status', label: 'Status', format: 'text' },
      { key: 'requestor', label: 'Requested by', format: 'text' },
      { key: 'approver', label: 'Approved by', format: 'text' },
      { key: 'requestTypes', label: 'Policy types', format: 'text' },
      { key: 'justification', label: 'Justification', format: 'text', role: 'wide' },
    ]),
  ];
  const rows: ReportRow[] = [];
  const findings: FindingDraft<ApprovalFindingKind>[] = [];
  const link = intuneLinks.multiAdminApproval();
  const coverage = records.policies.map((policy) => ({
    policy,
    ...areasCovered(policy),
    ...approvability(policy, records.approverGroups),
    platform: platformOf(policy),
  }));

  for (const rule of AREA_RULES) {
    const covering = coverage.filter((entry) => entry.areas.includes(rule.area));
    const approvable = covering.filter((entry) => entry.approvable !== false);
    const wholeArea = approvable.filter((entry) => entry.platform === null || (rule.wholeAreaPlatforms ?? []).includes(entry.platform));
    const [state, coverageTone]: [string, CellTone] =
      covering.length === 0
        ? ['Not protected', severityTone(APPROVAL_FINDING_KINDS[rule.kind].severity)]
        : approvable.length === 0
          ? ['Protected, but cannot be approved', 'warning']
          : wholeArea.length === 0
            ? [`Protected for ${joinAnd([...new Set(approvable.map((entry) => platformLabel(entry.platform!)))].sort(compareText))} only`, 'warning']
            : wholeArea.every((entry) => entry.byName)
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
        kind: rule.kind,
        subjectId: rule.area,
        subjectName: rule.label,
        detail: `No multi admin approval access policy protects ${rule.label}: one administrator can ${rule.action} alone.`,
      });
    }
  }

  // Intune protects its access policies itself; a policy of the old `operationApprovalPolicy` type adds nothing.
  const legacy = coverage.filter((entry) => [entry.policy.policyType, entry.policy.policySetType].some((type) => readPolicyType(type) === 'operationApprovalPolicy'));
  rows.push({
    section: SECTION_COVERAGE,
    id: ACCESS_POLICIES_AREA,
    area: ACCESS_POLICIES_LABEL,
    coverage: 'Protected by Intune',
    coverageTone: 'ok',
    coveredBy: ['Intune (always)', ...legacy.map((entry) => entry.policy.displayName)].join('; '),
    link,
  });

  for (const entry of [...coverage].sort((a, b) => compareText(a.policy.displayName, b.policy.displayName))) {
    const { policy } = entry;
    const areaLabels = entry.areas.map((area) => AREA_RULES.find((rule) => rule.area === area)!.label);
    if (legacy.includes(entry)) areaLabels.push(`${ACCESS_POLICIES_LABEL} (Intune protects them already)`);
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
            ? `Cannot be approved: each approver group is ${joinOr(entry.reasons)}`
            : entry.approvable === null
              ? 'Approver groups could not be read'
              : 'OK',
      approvableTone: entry.approvable === false ? 'warning' : entry.approvable === null ? 'neutral' : 'ok',
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
