import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { describe, expect, it } from 'vitest';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import { ACCESS_POLICIES_AREA, AREA_RULES, HEURISTIC_NOTICE, areasCovered, deriveAdminApproval, readPolicyType } from '../../../../src/core/reports/admin-approval/derive.js';
import { operationApprovalPolicy } from '../../../../src/core/reports/admin-approval/demo-records.js';
import { APPROVAL_FINDING_KINDS } from '../../../../src/core/reports/admin-approval/finding-kinds.js';
import { readApprovalPolicy, readApprovalRequest } from '../../../../src/core/reports/admin-approval/load.js';
import type { ApprovalRecords } from '../../../../src/core/reports/admin-approval/load.js';
import { intuneLinks } from '../../../../src/core/reports/intune-links.js';
import type { DeriveContext, ReportRow } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
const link = intuneLinks.multiAdminApproval();

const GROUP = {
  helpdeskLeads: '11111111-1111-4111-8111-111111111111',
  securityTeam: '22222222-2222-4222-8222-222222222222',
  emptyGroup: '33333333-3333-4333-8333-333333333333',
  deletedGroup: '44444444-4444-4444-8444-444444444444',
  unreadable: '55555555-5555-4555-8555-555555555555',
  microsoft365: '66666666-6666-4666-8666-666666666666',
  mailEnabledSecurity: '77777777-7777-4777-8777-777777777777',
  distribution: '88888888-8888-4888-8888-888888888888',
} as const;

const groups = (): Map<string, GroupLookup> =>
  new Map<string, GroupLookup>([
    [GROUP.helpdeskLeads, { state: 'found', id: GROUP.helpdeskLeads, displayName: 'Helpdesk leads', isEmpty: false }],
    [GROUP.securityTeam, { state: 'found', id: GROUP.securityTeam, displayName: 'Security team', isEmpty: false }],
    [GROUP.emptyGroup, { state: 'found', id: GROUP.emptyGroup, displayName: 'Script approvers', isEmpty: true }],
    [GROUP.deletedGroup, { state: 'deleted', id: GROUP.deletedGroup }],
    [
      GROUP.unreadable,
      {
        state: 'unknown',
        id: GROUP.unreadable,
        error: new GraphError({
          kind: 'http',
          status: 503,
          code: 'ServiceUnavailable',
          message: 'Service unavailable',
          method: 'GET',
          path: `/v1.0/groups/${GROUP.unreadable}`,
          attempts: 4,
        }),
      },
    ],
    [GROUP.microsoft365, { state: 'found', id: GROUP.microsoft365, displayName: 'Intune team', isEmpty: false, notSecurityGroup: 'microsoft365' }],
    [GROUP.mailEnabledSecurity, { state: 'found', id: GROUP.mailEnabledSecurity, displayName: 'IT approvers', isEmpty: false, notSecurityGroup: 'mailEnabledSecurity' }],
    [GROUP.distribution, { state: 'found', id: GROUP.distribution, displayName: 'IT list', isEmpty: false, notSecurityGroup: 'distribution' }],
  ]);

/**
 * An access policy as GET /beta/deviceManagement/operationApprovalPolicies returns it
 * (learn.microsoft.com/graph/api/resources/intune-rbac-operationapprovalpolicy): `policySet`
 * repeats the type and platform unless a case says otherwise.
 */
function graphPolicy(
  id: string,
  displayName: string,
  policyType: string,
  approverGroupIds: string[],
  options: { policyPlatform?: string; policySet?: { policyType: string; policyPlatform?: string } | null } = {},
): Beta.OperationApprovalPolicy {
  return operationApprovalPolicy({ id, displayName, policyType, approverGroupIds, now, ...options }) as Beta.OperationApprovalPolicy;
}

/** A request as GET /beta/deviceManagement/operationApprovalRequests returns it (intune-rbac-operationapprovalrequest). */
function graphRequest(id: string, requestDateTime: string | undefined, extra: Partial<Beta.OperationApprovalRequest> = {}): Beta.OperationApprovalRequest {
  return {
    id,
    requestDateTime,
    lastModifiedDateTime: requestDateTime,
    // "If a request isn't processed further within 3 days, it becomes Expired" (Learn, multi-admin-approval).
    expirationDateTime: requestDateTime ? new Date(new Date(requestDateTime).getTime() + 3 * DAY).toISOString() : undefined,
    requestJustification: 'Lost laptop',
    approvalJustification: null,
    requestor: { user: { id: 'a1', displayName: 'Avery Admin' } },
    approver: null,
    status: 'needsApproval',
    requiredOperationApprovalPolicyTypes: ['deviceWipe' as Beta.OperationApprovalPolicyType],
    ...extra,
  };
}

function records(policies: Beta.OperationApprovalPolicy[], requests: Beta.OperationApprovalRequest[] = []): ApprovalRecords {
  return { policies: policies.map(readApprovalPolicy), requests: requests.map(readApprovalRequest), approverGroups: groups() };
}

const section = (rows: ReportRow[], name: string) => rows.filter((row) => row.section === name);
const coverageOf = (rows: ReportRow[], area: string) => section(rows, 'coverage').find((row) => row.id === area);
const findingAreas = (policies: Beta.OperationApprovalPolicy[]) =>
  deriveAdminApproval(records(policies), context)
    .findings.map((finding) => finding.subjectId)
    .sort();

const ALL_AREAS = ['apps', 'compliance-policies', 'configuration-policies', 'device-wipe', 'device-retire', 'device-delete', 'rbac', 'scripts', 'tenant-configuration'] as const;
const without = (...covered: string[]) => ALL_AREAS.filter((area) => !covered.includes(area)).sort();

describe('the areas', () => {
  it('are the resources Microsoft lists, in its order, each device action on its own', () => {
    expect(AREA_RULES.map((rule) => [rule.area, rule.label])).toEqual([
      ['apps', 'Apps (app deployments)'],
      ['compliance-policies', 'Compliance policies'],
      ['configuration-policies', 'Configuration policies (settings catalog)'],
      ['device-wipe', 'Device wipe'],
      ['device-retire', 'Device retire'],
      ['device-delete', 'Device delete'],
      ['rbac', 'Role-based access control (roles and role assignments)'],
      ['scripts', 'Scripts (Windows)'],
      ['tenant-configuration', 'Tenant configuration (device categories)'],
    ]);
  });

  it('are high where devices are removed, code runs or administration changes, and medium for apps, policies and categories', () => {
    const severity = (area: string) => APPROVAL_FINDING_KINDS[AREA_RULES.find((rule) => rule.area === area)!.kind].severity;
    expect(ALL_AREAS.filter((area) => severity(area) === 'high')).toEqual(['device-wipe', 'device-retire', 'device-delete', 'rbac', 'scripts']);
    expect(ALL_AREAS.filter((area) => severity(area) === 'medium')).toEqual(['apps', 'compliance-policies', 'configuration-policies', 'tenant-configuration']);
  });
});

describe('areasCovered: a policy protects what its type covers and nothing else', () => {
  it.each([
    ['app', 'apps'],
    ['compliancePolicy', 'compliance-policies'],
    ['configurationPolicy', 'configuration-policies'],
    ['deviceWipe', 'device-wipe'],
    ['deviceRetire', 'device-retire'],
    ['deviceDelete', 'device-delete'],
    ['role', 'rbac'],
    ['script', 'scripts'],
    ['tenantConfiguration', 'tenant-configuration'],
  ])('type %s protects %s only, whatever the name', (policyType, area) => {
    expect(areasCovered({ policyType, policySetType: policyType, displayName: 'Wipe, scripts and roles' })).toEqual({ areas: [area], byName: false });
  });

  it.each([
    ['apps', 'apps'],
    ['scripts', 'scripts'],
    ['roles', 'rbac'],
    ['compliancePolicies', 'compliance-policies'],
    ['configurationPolicies', 'configuration-policies'],
  ])('reads the older spelling %s as its singular', (policyType, area) => {
    expect(areasCovered({ policyType, displayName: 'Untitled' })).toEqual({ areas: [area], byName: false });
    expect(readPolicyType(policyType)).not.toBeNull();
  });

  it.each([['deviceAction'], ['deviceActions']])('takes the family %s as each device action', (policyType) => {
    expect(areasCovered({ policyType, policySetType: policyType, displayName: 'Untitled' })).toEqual({ areas: ['device-wipe', 'device-retire', 'device-delete'], byName: false });
  });

  it.each([
    // Learn: the access policies are protected by Intune itself; this type protects no role.
    ['operationApprovalPolicy', 'Role changes'],
    // Learn: apps "doesn't apply to app protection policies".
    ['appProtectionPolicy', 'App deployments'],
    // Other actions than the three Microsoft lists.
    ['deviceRetireNonCompliant', 'Retire devices'],
    ['deviceErase', 'Wipe devices'],
    ['deviceLock', 'Wipe devices'],
    ['endpointSecurityPolicy', 'Configuration policies'],
    ['autopilot', 'Scripts'],
    ['deviceSecurityAction', 'Device actions'],
  ])('takes the documented type %s as covering no area, even named "%s"', (policyType, displayName) => {
    expect(areasCovered({ policyType, policySetType: policyType, displayName })).toEqual({ areas: [], byName: false });
  });

  it('counts policySet.policyType as it counts policyType', () => {
    expect(areasCovered({ policyType: 'unknownFutureValue', policySetType: 'deviceWipe', displayName: 'Role changes' })).toEqual({ areas: ['device-wipe'], byName: false });
    expect(areasCovered({ policyType: 'deviceDelete', policySetType: 'deviceRetire', displayName: 'Untitled' })).toEqual({
      areas: ['device-retire', 'device-delete'],
      byName: false,
    });
  });

  it.each([['unknown'], ['unknownFutureValue'], ['someTypeAddedNextYear'], ['']])('falls back on the name only when the type (%s) is not readable', (policyType) => {
    const by = (displayName: string) => areasCovered({ policyType, policySetType: policyType === '' ? null : policyType, displayName });
    expect(by('PowerShell script approval')).toEqual({ areas: ['scripts'], byName: true });
    expect(by('Proactive remediations')).toEqual({ areas: ['scripts'], byName: true });
    expect(by('Retire corporate phones')).toEqual({ areas: ['device-retire'], byName: true });
    expect(by('Device actions')).toEqual({ areas: ['device-wipe', 'device-retire', 'device-delete'], byName: true });
    expect(by('Intune RBAC changes')).toEqual({ areas: ['rbac'], byName: true });
    expect(by('New line-of-business app')).toEqual({ areas: ['apps'], byName: true });
    expect(by('Device categories')).toEqual({ areas: ['tenant-configuration'], byName: true });
    expect(by('Compliance rules')).toEqual({ areas: ['compliance-policies'], byName: true });
    expect(by('Settings catalog')).toEqual({ areas: ['configuration-policies'], byName: true });
    // Not app deployments, and "approval" is no app.
    expect(by('App protection approval')).toEqual({ areas: [], byName: true });
    expect(by('Multi admin approval')).toEqual({ areas: [], byName: true });
  });
});

describe('deriveAdminApproval', () => {
  it('is loaded with the standing notice: beta, the name read only for an unreadable type, and the exclusions Graph does not show', () => {
    const report = deriveAdminApproval(records([]), context);
    expect(report.state).toBe('loaded');
    expect(report.notice).toBe(HEURISTIC_NOTICE);
    expect(HEURISTIC_NOTICE).toContain('beta');
    expect(HEURISTIC_NOTICE).toContain('up to 50 enterprise applications');
    expect(HEURISTIC_NOTICE).toContain('Graph does not show them');
    expect(HEURISTIC_NOTICE).toContain('Exclusions');
    expect(report.columns.map((column) => [column.key, column.section])).toEqual([
      ['area', 'coverage'],
      ['coverage', 'coverage'],
      ['coveredBy', 'coverage'],
      ['policy', 'policies'],
      ['policyType', 'policies'],
      ['areas', 'policies'],
      ['approvers', 'policies'],
      ['approvable', 'policies'],
      ['requested', 'requests'],
      ['status', 'requests'],
      ['requestor', 'requests'],
      ['approver', 'requests'],
      ['requestTypes', 'requests'],
      ['justification', 'requests'],
    ]);
  });

  it('finds every area unprotected when there is no access policy, and the access policies protected by Intune', () => {
    const report = deriveAdminApproval(records([]), context);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['configuration-area-unprotected', 'apps'],
      ['configuration-area-unprotected', 'compliance-policies'],
      ['configuration-area-unprotected', 'configuration-policies'],
      ['area-unprotected', 'device-wipe'],
      ['area-unprotected', 'device-retire'],
      ['area-unprotected', 'device-delete'],
      ['area-unprotected', 'rbac'],
      ['area-unprotected', 'scripts'],
      ['configuration-area-unprotected', 'tenant-configuration'],
    ]);
    expect(report.findings.find((finding) => finding.subjectId === 'device-wipe')).toEqual({
      kind: 'area-unprotected',
      subjectId: 'device-wipe',
      subjectName: 'Device wipe',
      detail: 'No multi admin approval access policy protects Device wipe: one administrator can wipe a device alone.',
    });
    expect(section(report.rows, 'coverage').map((row) => [row.id, row.coverage, row.coverageTone])).toEqual([
      ['apps', 'Not protected', 'warning'],
      ['compliance-policies', 'Not protected', 'warning'],
      ['configuration-policies', 'Not protected', 'warning'],
      ['device-wipe', 'Not protected', 'danger'],
      ['device-retire', 'Not protected', 'danger'],
      ['device-delete', 'Not protected', 'danger'],
      ['rbac', 'Not protected', 'danger'],
      ['scripts', 'Not protected', 'danger'],
      ['tenant-configuration', 'Not protected', 'warning'],
      [ACCESS_POLICIES_AREA, 'Protected by Intune', 'ok'],
    ]);
    expect(coverageOf(report.rows, ACCESS_POLICIES_AREA)).toEqual({
      section: 'coverage',
      id: 'access-policies',
      area: 'Access policies',
      coverage: 'Protected by Intune',
      coverageTone: 'ok',
      coveredBy: 'Intune (always)',
      link,
    });
  });

  it('finds nothing when every area has a policy of its type', () => {
    const report = deriveAdminApproval(
      records(
        ['app', 'compliancePolicy', 'configurationPolicy', 'deviceWipe', 'deviceRetire', 'deviceDelete', 'role', 'script', 'tenantConfiguration'].map((type) =>
          graphPolicy(`p-${type}`, `${type} approval`, type, [GROUP.helpdeskLeads]),
        ),
      ),
      context,
    );
    expect(report.findings).toEqual([]);
    expect(section(report.rows, 'coverage').every((row) => row.coverageTone === 'ok')).toBe(true);
    expect(coverageOf(report.rows, 'tenant-configuration')).toMatchObject({ coverage: 'Protected', coveredBy: 'tenantConfiguration approval' });
  });

  it('leaves wiping and retiring open under a delete-only policy', () => {
    const policies = [graphPolicy('p-del', 'Device delete approval', 'deviceDelete', [GROUP.helpdeskLeads])];
    expect(findingAreas(policies)).toEqual(without('device-delete'));
    const report = deriveAdminApproval(records(policies), context);
    expect(coverageOf(report.rows, 'device-delete')).toMatchObject({ coverage: 'Protected', coveredBy: 'Device delete approval' });
    expect(coverageOf(report.rows, 'device-wipe')).toMatchObject({ coverage: 'Not protected', coveredBy: null });
    expect(section(report.rows, 'policies')[0]).toMatchObject({ policyType: 'deviceDelete', areas: 'Device delete' });
  });

  it('leaves roles open under a policy of the old operationApprovalPolicy type, which the access policies row lists', () => {
    const policies = [graphPolicy('p-oap', 'Approval policy changes', 'operationApprovalPolicy', [GROUP.securityTeam])];
    expect(findingAreas(policies)).toEqual(without());
    const report = deriveAdminApproval(records(policies), context);
    expect(coverageOf(report.rows, 'rbac')?.coverage).toBe('Not protected');
    expect(coverageOf(report.rows, ACCESS_POLICIES_AREA)).toMatchObject({ coverage: 'Protected by Intune', coveredBy: 'Intune (always); Approval policy changes' });
    expect(section(report.rows, 'policies')[0]).toMatchObject({ policyType: 'operationApprovalPolicy', areas: 'Access policies (Intune protects them already)' });
  });

  it('leaves app deployments open under an app protection policy', () => {
    expect(findingAreas([graphPolicy('p-mam', 'App protection approval', 'appProtectionPolicy', [GROUP.securityTeam])])).toContain('apps');
    expect(findingAreas([graphPolicy('p-app', 'Apps', 'app', [GROUP.securityTeam])])).not.toContain('apps');
  });

  it('protects each device action under a deviceAction family policy', () => {
    const policies = [graphPolicy('p-da', 'Untitled access policy', 'deviceAction', [GROUP.securityTeam])];
    expect(findingAreas(policies)).toEqual(without('device-wipe', 'device-retire', 'device-delete'));
    expect(section(deriveAdminApproval(records(policies), context).rows, 'policies')[0]).toMatchObject({
      policyType: 'deviceAction',
      areas: 'Device wipe; Device retire; Device delete',
    });
  });

  it('tolerates a policy set that names another action than the policy type: both count, and the row shows both', () => {
    const policies = [graphPolicy('p-x', 'Retire and delete', 'deviceDelete', [GROUP.securityTeam], { policySet: { policyType: 'deviceRetire' } })];
    expect(findingAreas(policies)).toEqual(without('device-retire', 'device-delete'));
    expect(section(deriveAdminApproval(records(policies), context).rows, 'policies')[0]).toMatchObject({
      policyType: 'deviceDelete: deviceRetire',
      areas: 'Device retire; Device delete',
    });
  });

  it('protects scripts under the older plural spelling "scripts"', () => {
    const policies = [graphPolicy('p-s', 'Scripts', 'scripts', [GROUP.securityTeam])];
    expect(findingAreas(policies)).toEqual(without('scripts'));
    expect(section(deriveAdminApproval(records(policies), context).rows, 'policies')[0]).toMatchObject({ policyType: 'scripts', areas: 'Scripts (Windows)' });
  });

  describe('a type that is not readable', () => {
    it.each([['unknown'], ['unknownFutureValue'], ['windowsQualityUpdate']])('makes a policy typed %s "type not readable", matched on its name and saying so', (policyType) => {
      const report = deriveAdminApproval(records([graphPolicy('p-ps', 'PowerShell script approval', policyType, [GROUP.securityTeam])]), context);
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('scripts');
      expect(coverageOf(report.rows, 'scripts')).toMatchObject({ coverage: 'Protected (matched on the policy name)', coverageTone: 'ok', coveredBy: 'PowerShell script approval' });
      expect(section(report.rows, 'policies')).toEqual([
        {
          section: 'policies',
          id: 'p-ps',
          policy: 'PowerShell script approval',
          policyType: `${policyType} (type not readable)`,
          areas: 'Scripts (Windows) (by name)',
          approvers: 'Security team',
          approvable: 'OK',
          approvableTone: 'ok',
          link,
        },
      ]);
    });

    it('covers nothing when its name says nothing either', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-u', 'Windows 365 cloud PCs', 'unknownFutureValue', [GROUP.securityTeam])]), context);
      expect(report.findings).toHaveLength(9);
      expect(section(report.rows, 'policies')[0]).toMatchObject({ policyType: 'unknownFutureValue (type not readable)', areas: null });
    });

    it('says "Protected" when a policy of a readable type covers the area beside one matched on its name', () => {
      const report = deriveAdminApproval(
        records([graphPolicy('p-name', 'Remediation scripts', 'unknownFutureValue', [GROUP.securityTeam]), graphPolicy('p-type', 'Scripts', 'script', [GROUP.securityTeam])]),
        context,
      );
      expect(coverageOf(report.rows, 'scripts')?.coverage).toBe('Protected');
    });
  });

  describe('platforms', () => {
    it('takes notApplicable, or no platform at all, as every platform', () => {
      const report = deriveAdminApproval(
        records([
          graphPolicy('p-w', 'Wipe', 'deviceWipe', [GROUP.securityTeam]),
          { ...graphPolicy('p-r', 'Retire', 'deviceRetire', [GROUP.securityTeam], { policySet: null }), policyPlatform: undefined },
        ]),
        context,
      );
      expect(coverageOf(report.rows, 'device-wipe')?.coverage).toBe('Protected');
      expect(coverageOf(report.rows, 'device-retire')?.coverage).toBe('Protected');
    });

    it('shows a platform-specific policy as "Protected for <platform> only": a warning, not a finding', () => {
      const report = deriveAdminApproval(
        records([
          graphPolicy('p-ios', 'Wipe iPhones', 'deviceWipe', [GROUP.securityTeam], { policyPlatform: 'iOSiPadOS' }),
          graphPolicy('p-and', 'Wipe Android', 'deviceWipe', [GROUP.securityTeam], { policyPlatform: 'androidEnterprise' }),
          graphPolicy('p-odd', 'Apps on some platform', 'app', [GROUP.securityTeam], { policyPlatform: 'unknownFutureValue' }),
        ]),
        context,
      );
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('device-wipe');
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('apps');
      expect(coverageOf(report.rows, 'device-wipe')).toMatchObject({ coverage: 'Protected for Android Enterprise and iOS/iPadOS only', coverageTone: 'warning' });
      expect(coverageOf(report.rows, 'apps')).toMatchObject({ coverage: 'Protected for an unreadable platform (unknownFutureValue) only', coverageTone: 'warning' });
      expect(section(report.rows, 'policies').find((row) => row.id === 'p-ios')).toMatchObject({ policyType: 'deviceWipe (iOS/iPadOS only)' });
    });

    it('says "Protected" when an every-platform policy stands beside a platform-specific one', () => {
      const report = deriveAdminApproval(
        records([
          graphPolicy('p-ios', 'Wipe iPhones', 'deviceWipe', [GROUP.securityTeam], { policyPlatform: 'iOSiPadOS' }),
          graphPolicy('p-all', 'Wipe', 'deviceWipe', [GROUP.securityTeam]),
        ]),
        context,
      );
      expect(coverageOf(report.rows, 'device-wipe')?.coverage).toBe('Protected');
    });

    it('takes a Windows script policy as the whole scripts area, which Microsoft limits to Windows', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-win', 'Scripts', 'script', [GROUP.securityTeam], { policyPlatform: 'windows10AndLater' })]), context);
      expect(coverageOf(report.rows, 'scripts')).toMatchObject({ coverage: 'Protected', coverageTone: 'ok' });
      expect(section(report.rows, 'policies')[0]).toMatchObject({ policyType: 'script (Windows 10 and later only)' });
    });
  });

  describe('approver groups', () => {
    it('does not raise a finding for a covered area whose only policy cannot be approved, but says so in both rows', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.deletedGroup, GROUP.emptyGroup])]), context);
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('device-wipe');
      expect(coverageOf(report.rows, 'device-wipe')).toEqual({
        section: 'coverage',
        id: 'device-wipe',
        area: 'Device wipe',
        coverage: 'Protected, but cannot be approved',
        coverageTone: 'warning',
        coveredBy: 'Wipe approvals',
        link,
      });
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: `deleted group ${GROUP.deletedGroup}; Script approvers (empty)`,
        approvable: 'Cannot be approved: each approver group is deleted or empty',
        approvableTone: 'warning',
      });
    });

    it.each([
      [GROUP.microsoft365, 'Intune team (Microsoft 365 group: cannot approve)'],
      [GROUP.mailEnabledSecurity, 'IT approvers (mail-enabled security group: cannot approve)'],
      [GROUP.distribution, 'IT list (distribution group: cannot approve)'],
    ])('takes a group that is not a security group (%s) as one that cannot resolve approvers, members or not', (groupId, label) => {
      const report = deriveAdminApproval(records([graphPolicy('p-rbac', 'Role changes', 'role', [groupId])]), context);
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('rbac');
      expect(coverageOf(report.rows, 'rbac')).toMatchObject({ coverage: 'Protected, but cannot be approved', coverageTone: 'warning' });
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: label,
        approvable: 'Cannot be approved: each approver group is not a security group',
        approvableTone: 'warning',
      });
    });

    it('names every reason when the groups fail in different ways', () => {
      const report = deriveAdminApproval(records([graphPolicy('p', 'Role changes', 'role', [GROUP.microsoft365, GROUP.emptyGroup, GROUP.deletedGroup])]), context);
      expect(section(report.rows, 'policies')[0]?.approvable).toBe('Cannot be approved: each approver group is deleted, empty or not a security group');
    });

    it('is approvable when one security group with members stands beside groups that cannot approve', () => {
      const report = deriveAdminApproval(
        records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.emptyGroup, GROUP.deletedGroup, GROUP.microsoft365, GROUP.helpdeskLeads])]),
        context,
      );
      expect(coverageOf(report.rows, 'device-wipe')?.coverage).toBe('Protected');
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: `Script approvers (empty); deleted group ${GROUP.deletedGroup}; Intune team (Microsoft 365 group: cannot approve); Helpdesk leads`,
        approvable: 'OK',
      });
    });

    it('takes a policy with no approver group at all as one nobody can approve', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [])]), context);
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('device-wipe');
      expect(coverageOf(report.rows, 'device-wipe')?.coverage).toBe('Protected, but cannot be approved');
      expect(section(report.rows, 'policies')[0]).toMatchObject({ approvers: null, approvable: 'Cannot be approved: it names no approver group', approvableTone: 'warning' });
    });

    it('never takes an approver group that could not be read as deleted, empty or unfit', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.deletedGroup, GROUP.microsoft365, GROUP.unreadable])]), context);
      expect(coverageOf(report.rows, 'device-wipe')?.coverage).toBe('Protected');
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: `deleted group ${GROUP.deletedGroup}; Intune team (Microsoft 365 group: cannot approve); ${GROUP.unreadable} (could not be read)`,
        approvable: 'Approver groups could not be read',
        approvableTone: 'neutral',
      });
    });

    it('names an approver group whose name was read though its members were not (a hidden membership), and keeps it unknown', () => {
      const hidden = '99999999-9999-4999-8999-999999999998';
      const approvers = records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [hidden])]);
      approvers.approverGroups.set(hidden, {
        state: 'unknown',
        id: hidden,
        displayName: 'Board members',
        error: { message: 'its membership is hidden from this app (Member.Read.Hidden)' },
      });
      const report = deriveAdminApproval(approvers, context);
      expect(section(report.rows, 'policies')[0]).toMatchObject({ approvers: 'Board members (its members could not be read)', approvable: 'Approver groups could not be read' });
    });

    it('labels a group missing from the look-up as unreadable, not deleted', () => {
      const report = deriveAdminApproval(records([graphPolicy('p-rbac', 'Role changes', 'role', ['99999999-9999-4999-8999-999999999999'])]), context);
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: '99999999-9999-4999-8999-999999999999 (could not be read)',
        approvable: 'Approver groups could not be read',
        approvableTone: 'neutral',
      });
    });
  });

  it('lists policies by name with their type, platform, areas and approvers', () => {
    const report = deriveAdminApproval(
      records([
        graphPolicy('p-z', 'Zebra: wipe Windows', 'deviceWipe', [GROUP.helpdeskLeads, GROUP.securityTeam], { policyPlatform: 'windows10AndLater' }),
        graphPolicy('p-a', 'apps', 'app', [GROUP.securityTeam]),
        graphPolicy('p-m', 'Multi-area by name: wipe and admin roles', 'unknown', [GROUP.securityTeam]),
      ]),
      context,
    );
    expect(section(report.rows, 'policies')).toEqual([
      {
        section: 'policies',
        id: 'p-a',
        policy: 'apps',
        policyType: 'app',
        areas: 'Apps (app deployments)',
        approvers: 'Security team',
        approvable: 'OK',
        approvableTone: 'ok',
        link,
      },
      {
        section: 'policies',
        id: 'p-m',
        policy: 'Multi-area by name: wipe and admin roles',
        policyType: 'unknown (type not readable)',
        areas: 'Device wipe; Role-based access control (roles and role assignments) (by name)',
        approvers: 'Security team',
        approvable: 'OK',
        approvableTone: 'ok',
        link,
      },
      {
        section: 'policies',
        id: 'p-z',
        policy: 'Zebra: wipe Windows',
        policyType: 'deviceWipe (Windows 10 and later only)',
        areas: 'Device wipe',
        approvers: 'Helpdesk leads; Security team',
        approvable: 'OK',
        approvableTone: 'ok',
        link,
      },
    ]);
  });

  describe('requests', () => {
    it('lists the last 30 days of requests, newest first, with status, requester and approver', () => {
      expect(DEFAULT_THRESHOLDS.approvalRequestWindowDays).toBe(30);
      const report = deriveAdminApproval(
        records(
          [],
          [
            graphRequest('r-10', daysAgo(10), {
              status: 'approved',
              approver: { user: { id: 'b1', displayName: 'Blake Approver' } },
              requiredOperationApprovalPolicyTypes: ['script', 'role'],
              requestJustification: null,
            }),
            graphRequest('r-45', daysAgo(45), { status: 'expired' }),
            graphRequest('r-1', daysAgo(1)),
            graphRequest('r-29', daysAgo(29), { status: 'rejected', approver: { user: { id: 'b1', displayName: 'Blake Approver' } }, requiredOperationApprovalPolicyTypes: [] }),
            graphRequest('r-31', daysAgo(31), { status: 'expired' }),
            graphRequest('r-never', undefined),
          ],
        ),
        context,
      );
      const requests = section(report.rows, 'requests');
      expect(requests.map((row) => row.id)).toEqual(['r-1', 'r-10', 'r-29']);
      expect(requests[1]).toEqual({
        section: 'requests',
        id: 'r-10',
        requested: daysAgo(10),
        status: 'approved',
        requestor: 'Avery Admin',
        approver: 'Blake Approver',
        requestTypes: 'script, role',
        justification: null,
        link,
      });
      expect(requests[0]).toMatchObject({ status: 'needsApproval', approver: null, requestTypes: 'deviceWipe', justification: 'Lost laptop' });
      expect(requests[2]).toMatchObject({ status: 'rejected', requestTypes: null });
    });

    it('lists every status Graph documents as it is, expired included, and late policy types as sent', () => {
      const statuses = ['unknown', 'needsApproval', 'approved', 'rejected', 'cancelled', 'completed', 'expired', 'unknownFutureValue'] as const;
      const report = deriveAdminApproval(
        records(
          [],
          statuses.map((status, index) =>
            graphRequest(`r-${status}`, daysAgo(index + 1), { status, requiredOperationApprovalPolicyTypes: ['tenantConfiguration' as Beta.OperationApprovalPolicyType] }),
          ),
        ),
        context,
      );
      expect(section(report.rows, 'requests').map((row) => [row.status, row.requestTypes])).toEqual(statuses.map((status) => [status, 'tenantConfiguration']));
      // Requests are records, never findings.
      expect(report.findings).toHaveLength(9);
    });

    it('keeps a request expired long ago but changed within the window (its last activity)', () => {
      const report = deriveAdminApproval(records([], [graphRequest('r-old', daysAgo(40), { status: 'expired', lastModifiedDateTime: daysAgo(2) })]), context);
      expect(section(report.rows, 'requests').map((row) => row.id)).toEqual(['r-old']);
    });

    it('lists no request older than the window', () => {
      const report = deriveAdminApproval(records([], [graphRequest('r-old', daysAgo(30.5)), graphRequest('r-older', '2026-01-01T00:00:00.000Z')]), context);
      expect(section(report.rows, 'requests')).toEqual([]);
    });

    it('follows the configured window', () => {
      const report = deriveAdminApproval(records([], [graphRequest('r-5', daysAgo(5)), graphRequest('r-9', daysAgo(9))]), {
        now,
        thresholds: { ...DEFAULT_THRESHOLDS, approvalRequestWindowDays: 7 },
      });
      expect(section(report.rows, 'requests').map((row) => row.id)).toEqual(['r-5']);
    });
  });

  it('orders the rows coverage, then policies, then requests, each row naming its section', () => {
    const report = deriveAdminApproval(records([graphPolicy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.helpdeskLeads])], [graphRequest('r-1', daysAgo(1))]), context);
    expect(report.rows.map((row) => [row.section, row.id])).toEqual([
      ...ALL_AREAS.map((area) => ['coverage', area]),
      ['coverage', ACCESS_POLICIES_AREA],
      ['policies', 'p-wipe'],
      ['requests', 'r-1'],
    ]);
    expect(report.rows.every((row) => row.link === link)).toBe(true);
  });
});
