import { describe, expect, it } from 'vitest';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import { AREA_RULES, HEURISTIC_NOTICE, areasCovered, deriveAdminApproval } from '../../../../src/core/reports/admin-approval/derive.js';
import type { ApprovalPolicy, ApprovalRecords, ApprovalRequest } from '../../../../src/core/reports/admin-approval/load.js';
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
  ]);

function policy(
  id: string,
  displayName: string,
  policyType: string,
  approverGroupIds: string[],
  policyPlatform: string | null = 'notApplicable',
  policySetType: string | null = null,
): ApprovalPolicy {
  return { id, displayName, policyType, policySetType, policyPlatform, approverGroupIds };
}

function request(id: string, requestDateTime: string | null, extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id,
    requestDateTime,
    lastModifiedDateTime: requestDateTime,
    status: 'needsApproval',
    requestor: 'Avery Admin',
    approver: null,
    policyTypes: ['deviceWipe'],
    justification: 'Lost laptop',
    ...extra,
  };
}

const section = (rows: ReportRow[], name: string) => rows.filter((row) => row.section === name);

describe('areasCovered', () => {
  it.each([
    ['deviceWipe', 'device-wipe'],
    ['deviceRetire', 'device-wipe'],
    ['deviceRetireNonCompliant', 'device-wipe'],
    ['deviceDelete', 'device-wipe'],
    ['deviceErase', 'device-wipe'],
    ['script', 'scripts'],
    ['role', 'rbac'],
    ['operationApprovalPolicy', 'rbac'],
  ])('matches type %s to %s, whatever the name', (policyType, area) => {
    expect(areasCovered({ policyType, displayName: 'Untitled access policy' })).toEqual({ areas: [area], byName: false });
  });

  it('matches on the type only when the type is known, even when the name says otherwise', () => {
    expect(areasCovered({ policyType: 'app', displayName: 'PowerShell script approval' })).toEqual({ areas: [], byName: false });
    expect(areasCovered({ policyType: 'deviceLock', displayName: 'Wipe, retire and delete devices' })).toEqual({ areas: [], byName: false });
    expect(areasCovered({ policyType: 'compliancePolicy', displayName: 'Admin role changes' })).toEqual({ areas: [], byName: false });
    // A known type wins over the name pointing at another area.
    expect(areasCovered({ policyType: 'script', displayName: 'Wipe approvals' })).toEqual({ areas: ['scripts'], byName: false });
  });

  it.each([['unknown'], ['unknownFutureValue'], ['someTypeAddedNextYear']])('matches on the name when the type is %s', (policyType) => {
    expect(areasCovered({ policyType, displayName: 'PowerShell script approval' })).toEqual({ areas: ['scripts'], byName: true });
    expect(areasCovered({ policyType, displayName: 'Proactive remediations' })).toEqual({ areas: ['scripts'], byName: true });
    expect(areasCovered({ policyType, displayName: 'Retire corporate phones' })).toEqual({ areas: ['device-wipe'], byName: true });
    expect(areasCovered({ policyType, displayName: 'Intune RBAC changes' })).toEqual({ areas: ['rbac'], byName: true });
  });

  it('matches names case-insensitively and can match several areas', () => {
    expect(areasCovered({ policyType: 'unknown', displayName: 'WIPE DEVICES' })).toEqual({ areas: ['device-wipe'], byName: true });
    expect(areasCovered({ policyType: 'unknown', displayName: 'Erase devices and change admin roles' })).toEqual({ areas: ['device-wipe', 'rbac'], byName: true });
  });

  it('covers nothing when an unrecognised type has an unrelated name', () => {
    expect(areasCovered({ policyType: 'unknownFutureValue', displayName: 'Windows 365 cloud PCs' })).toEqual({ areas: [], byName: true });
  });

  describe('device action policies: deviceAction with the action in policySet (issue 11, point 4)', () => {
    it.each([['deviceWipe'], ['deviceRetire'], ['deviceDelete']])('deviceAction with policySet %s protects wiping devices, on its type, whatever the name', (action) => {
      expect(areasCovered({ policyType: 'deviceAction', policySetType: action, displayName: 'Untitled access policy' })).toEqual({ areas: ['device-wipe'], byName: false });
    });

    it('reads policySet when the top-level type says nothing (unknown, unknownFutureValue)', () => {
      expect(areasCovered({ policyType: 'unknownFutureValue', policySetType: 'deviceRetire', displayName: 'Untitled' })).toEqual({ areas: ['device-wipe'], byName: false });
      expect(areasCovered({ policyType: 'unknown', policySetType: 'script', displayName: 'Untitled' })).toEqual({ areas: ['scripts'], byName: false });
    });

    it('deviceAction alone, or with an action this code does not know, is matched on the name and says so', () => {
      expect(areasCovered({ policyType: 'deviceAction', displayName: 'Wipe and retire approval' })).toEqual({ areas: ['device-wipe'], byName: true });
      expect(areasCovered({ policyType: 'deviceAction', policySetType: 'unknownFutureValue', displayName: 'Delete devices' })).toEqual({ areas: ['device-wipe'], byName: true });
      expect(areasCovered({ policyType: 'deviceAction', policySetType: 'deviceQuarantine', displayName: 'Device actions' })).toEqual({ areas: [], byName: true });
    });

    it('a deviceAction wipe policy protects the area: no finding, and the row names the action', () => {
      const report = deriveAdminApproval(
        { policies: [policy('p-wipe', 'Untitled access policy', 'deviceAction', [GROUP.securityTeam], 'notApplicable', 'deviceWipe')], requests: [], approverGroups: groups() },
        context,
      );
      expect(report.findings.map((finding) => finding.subjectId)).not.toContain('device-wipe');
      expect(section(report.rows, 'coverage').find((row) => row.id === 'device-wipe')).toMatchObject({ coverage: 'Protected', coveredBy: 'Untitled access policy' });
      expect(section(report.rows, 'policies')[0]).toMatchObject({ policyType: 'deviceAction: deviceWipe', areas: 'Wiping devices' });
    });
  });

  it('has exactly the three areas of the specification, in order', () => {
    expect(AREA_RULES.map((rule) => rule.area)).toEqual(['device-wipe', 'scripts', 'rbac']);
  });
});

describe('deriveAdminApproval', () => {
  it('is loaded with the heuristic notice and sectioned columns', () => {
    const report = deriveAdminApproval({ policies: [], requests: [], approverGroups: new Map() }, context);
    expect(report.state).toBe('loaded');
    expect(report.notice).toBe(HEURISTIC_NOTICE);
    expect(HEURISTIC_NOTICE).toContain('beta');
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

  it('raises area-unprotected for every area when there is no access policy', () => {
    const report = deriveAdminApproval({ policies: [], requests: [], approverGroups: new Map() }, context);
    expect(report.findings).toEqual([
      {
        kind: 'area-unprotected',
        subjectId: 'device-wipe',
        subjectName: 'Wiping devices',
        detail: 'No multi admin approval access policy protects wiping devices: one administrator can do it alone.',
      },
      {
        kind: 'area-unprotected',
        subjectId: 'scripts',
        subjectName: 'Pushing scripts',
        detail: 'No multi admin approval access policy protects pushing scripts: one administrator can do it alone.',
      },
      {
        kind: 'area-unprotected',
        subjectId: 'rbac',
        subjectName: 'Changing who administers the platform',
        detail: 'No multi admin approval access policy protects changing who administers the platform: one administrator can do it alone.',
      },
    ]);
    expect(section(report.rows, 'coverage')).toEqual([
      { section: 'coverage', id: 'device-wipe', area: 'Wiping devices', coverage: 'Not protected', coverageTone: 'danger', coveredBy: null, link },
      { section: 'coverage', id: 'scripts', area: 'Pushing scripts', coverage: 'Not protected', coverageTone: 'danger', coveredBy: null, link },
      { section: 'coverage', id: 'rbac', area: 'Changing who administers the platform', coverage: 'Not protected', coverageTone: 'danger', coveredBy: null, link },
    ]);
  });

  it('raises area-unprotected only for the area no policy covers', () => {
    const records: ApprovalRecords = {
      policies: [
        policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.helpdeskLeads]),
        policy('p-rbac', 'Role changes', 'role', [GROUP.securityTeam]),
        // Its name mentions scripts, but its type (app) is known and is not the scripts area.
        policy('p-app', 'App and script deployments', 'app', [GROUP.securityTeam]),
      ],
      requests: [],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([['area-unprotected', 'scripts']]);
    expect(section(report.rows, 'coverage').map((row) => [row.id, row.coverage, row.coveredBy])).toEqual([
      ['device-wipe', 'Protected', 'Wipe approvals'],
      ['scripts', 'Not protected', null],
      ['rbac', 'Protected', 'Role changes'],
    ]);
  });

  it('raises no finding when every area is covered', () => {
    const records: ApprovalRecords = {
      policies: [
        policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.helpdeskLeads]),
        policy('p-retire', 'Retire approvals', 'deviceRetire', [GROUP.securityTeam]),
        policy('p-script', 'Script approvals', 'script', [GROUP.securityTeam]),
        policy('p-mma', 'Approval policy changes', 'operationApprovalPolicy', [GROUP.securityTeam]),
      ],
      requests: [],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(report.findings).toEqual([]);
    expect(section(report.rows, 'coverage').map((row) => [row.id, row.coverage, row.coveredBy])).toEqual([
      ['device-wipe', 'Protected', 'Wipe approvals; Retire approvals'],
      ['scripts', 'Protected', 'Script approvals'],
      ['rbac', 'Protected', 'Approval policy changes'],
    ]);
  });

  it('counts a policy matched on its name as coverage and says the match rests on the name', () => {
    const records: ApprovalRecords = {
      policies: [policy('p-ps', 'PowerShell script approval', 'unknown', [GROUP.securityTeam])],
      requests: [],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(report.findings.map((finding) => finding.subjectId)).toEqual(['device-wipe', 'rbac']);
    expect(section(report.rows, 'coverage').find((row) => row.id === 'scripts')).toMatchObject({
      coverage: 'Protected (matched on the policy name)',
      coveredBy: 'PowerShell script approval',
    });
    expect(section(report.rows, 'policies')).toEqual([
      {
        section: 'policies',
        id: 'p-ps',
        policy: 'PowerShell script approval',
        policyType: 'unknown',
        areas: 'Pushing scripts (by name)',
        approvers: 'Security team',
        approvable: 'OK',
        approvableTone: 'ok',
        link,
      },
    ]);
  });

  it('says "Protected" when at least one covering policy matched on its type', () => {
    const records: ApprovalRecords = {
      policies: [policy('p-name', 'Remediation scripts', 'unknownFutureValue', [GROUP.securityTeam]), policy('p-type', 'Scripts', 'script', [GROUP.securityTeam])],
      requests: [],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(section(report.rows, 'coverage').find((row) => row.id === 'scripts')?.coverage).toBe('Protected');
  });

  describe('approver groups', () => {
    it('does not raise a finding for a covered area whose only policy cannot be approved, but says so in both rows', () => {
      const records: ApprovalRecords = {
        policies: [
          policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.deletedGroup, GROUP.emptyGroup]),
          policy('p-script', 'Script approvals', 'script', [GROUP.helpdeskLeads]),
          policy('p-rbac', 'Role changes', 'role', [GROUP.securityTeam]),
        ],
        requests: [],
        approverGroups: groups(),
      };
      const report = deriveAdminApproval(records, context);
      expect(report.findings).toEqual([]);
      expect(section(report.rows, 'coverage').find((row) => row.id === 'device-wipe')).toEqual({
        section: 'coverage',
        id: 'device-wipe',
        area: 'Wiping devices',
        coverage: 'Protected, but no approver group has members',
        coverageTone: 'warning',
        coveredBy: 'Wipe approvals',
        link,
      });
      expect(section(report.rows, 'policies').find((row) => row.id === 'p-wipe')).toMatchObject({
        approvers: `deleted group ${GROUP.deletedGroup}; Script approvers (empty)`,
        approvable: 'Cannot be approved: every approver group is deleted or empty',
        approvableTone: 'warning',
      });
    });

    it('takes a policy with no approver group at all as one nobody can approve', () => {
      const records: ApprovalRecords = { policies: [policy('p-wipe', 'Wipe approvals', 'deviceWipe', [])], requests: [], approverGroups: groups() };
      const report = deriveAdminApproval(records, context);
      expect(report.findings.map((finding) => finding.subjectId)).toEqual(['scripts', 'rbac']);
      expect(section(report.rows, 'coverage').find((row) => row.id === 'device-wipe')?.coverage).toBe('Protected, but no approver group has members');
      expect(section(report.rows, 'policies')[0]).toMatchObject({ approvers: null, approvable: 'Cannot be approved: it names no approver group' });
    });

    it('is approvable when one approver group has members beside a deleted or empty one', () => {
      const records: ApprovalRecords = {
        policies: [policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.emptyGroup, GROUP.deletedGroup, GROUP.helpdeskLeads])],
        requests: [],
        approverGroups: groups(),
      };
      const report = deriveAdminApproval(records, context);
      expect(section(report.rows, 'coverage').find((row) => row.id === 'device-wipe')?.coverage).toBe('Protected');
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: `Script approvers (empty); deleted group ${GROUP.deletedGroup}; Helpdesk leads`,
        approvable: 'OK',
      });
    });

    it('never takes an approver group that could not be read as deleted or empty', () => {
      const records: ApprovalRecords = {
        policies: [policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.deletedGroup, GROUP.unreadable])],
        requests: [],
        approverGroups: groups(),
      };
      const report = deriveAdminApproval(records, context);
      expect(section(report.rows, 'coverage').find((row) => row.id === 'device-wipe')?.coverage).toBe('Protected');
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: `deleted group ${GROUP.deletedGroup}; ${GROUP.unreadable} (could not be read)`,
        approvable: 'Approver groups could not be read',
        approvableTone: 'neutral',
      });
      expect(report.findings.map((finding) => finding.subjectId)).toEqual(['scripts', 'rbac']);
    });

    it('labels a group missing from the look-up as unreadable, not deleted', () => {
      const records: ApprovalRecords = {
        policies: [policy('p-rbac', 'Role changes', 'role', ['66666666-6666-4666-8666-666666666666'])],
        requests: [],
        approverGroups: groups(),
      };
      const report = deriveAdminApproval(records, context);
      expect(section(report.rows, 'policies')[0]).toMatchObject({
        approvers: '66666666-6666-4666-8666-666666666666 (could not be read)',
        approvable: 'Approver groups could not be read',
        approvableTone: 'neutral',
      });
    });
  });

  it('lists policies by name with their type, platform, areas and approvers', () => {
    const records: ApprovalRecords = {
      policies: [
        policy('p-z', 'Zebra: wipe Windows', 'deviceWipe', [GROUP.helpdeskLeads, GROUP.securityTeam], 'windows'),
        policy('p-a', 'apps', 'app', [GROUP.securityTeam], null),
        policy('p-m', 'Multi-area by name: erase and admin roles', 'unknown', [GROUP.securityTeam]),
      ],
      requests: [],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(section(report.rows, 'policies')).toEqual([
      { section: 'policies', id: 'p-a', policy: 'apps', policyType: 'app', areas: null, approvers: 'Security team', approvable: 'OK', approvableTone: 'ok', link },
      {
        section: 'policies',
        id: 'p-m',
        policy: 'Multi-area by name: erase and admin roles',
        policyType: 'unknown',
        areas: 'Wiping devices; Changing who administers the platform (by name)',
        approvers: 'Security team',
        approvable: 'OK',
        approvableTone: 'ok',
        link,
      },
      {
        section: 'policies',
        id: 'p-z',
        policy: 'Zebra: wipe Windows',
        policyType: 'deviceWipe (windows only)',
        areas: 'Wiping devices',
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
      const records: ApprovalRecords = {
        policies: [],
        approverGroups: new Map(),
        requests: [
          request('r-10', daysAgo(10), { status: 'approved', approver: 'Blake Approver', policyTypes: ['script', 'role'], justification: null }),
          request('r-45', daysAgo(45), { status: 'expired' }),
          request('r-1', daysAgo(1)),
          request('r-29', daysAgo(29), { status: 'rejected', approver: 'Blake Approver', policyTypes: [] }),
          request('r-31', daysAgo(31), { status: 'expired' }),
          request('r-never', null, { lastModifiedDateTime: null }),
        ],
      };
      const report = deriveAdminApproval(records, context);
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

    it('lists no request older than the window', () => {
      const records: ApprovalRecords = {
        policies: [],
        approverGroups: new Map(),
        requests: [request('r-old', daysAgo(30.5)), request('r-older', '2026-01-01T00:00:00.000Z')],
      };
      expect(section(deriveAdminApproval(records, context).rows, 'requests')).toEqual([]);
    });

    it('follows the configured window', () => {
      const records: ApprovalRecords = { policies: [], approverGroups: new Map(), requests: [request('r-5', daysAgo(5)), request('r-9', daysAgo(9))] };
      const report = deriveAdminApproval(records, { now, thresholds: { ...DEFAULT_THRESHOLDS, approvalRequestWindowDays: 7 } });
      expect(section(report.rows, 'requests').map((row) => row.id)).toEqual(['r-5']);
    });
  });

  it('orders the rows coverage, then policies, then requests, each row naming its section', () => {
    const records: ApprovalRecords = {
      policies: [policy('p-wipe', 'Wipe approvals', 'deviceWipe', [GROUP.helpdeskLeads])],
      requests: [request('r-1', daysAgo(1))],
      approverGroups: groups(),
    };
    const report = deriveAdminApproval(records, context);
    expect(report.rows.map((row) => [row.section, row.id])).toEqual([
      ['coverage', 'device-wipe'],
      ['coverage', 'scripts'],
      ['coverage', 'rbac'],
      ['policies', 'p-wipe'],
      ['requests', 'r-1'],
    ]);
    expect(report.rows.every((row) => row.link === link)).toBe(true);
  });
});
