/**
 * Report 5 against the simulated Graph: access policies in the shapes Graph documents, approver
 * groups of every kind, late enum members behind `Prefer`, and the demo tenant's cases.
 */
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import * as records from '../../../../src/core/reports/admin-approval/demo-records.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import type { ReportRow } from '../../../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import type { SimGroup } from '../../../../src/sim/tenants/sim-tenant.js';
import { blankTenant, requestAppToken, useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');

const GROUPS = {
  security: 'a0000000-0000-4000-8000-000000000001',
  microsoft365: 'a0000000-0000-4000-8000-000000000002',
  mailEnabledSecurity: 'a0000000-0000-4000-8000-000000000003',
  distribution: 'a0000000-0000-4000-8000-000000000004',
} as const;
const members = [{ id: 'u1', type: 'user' as const }];
const group = (id: string, displayName: string, kind?: SimGroup['kind']): [string, SimGroup] => [id, { id, displayName, members, ...(kind ? { kind } : {}) }];

const tenant = blankTenant();
tenant.groups = new Map([
  group(GROUPS.security, 'Intune Approvers'),
  group(GROUPS.microsoft365, 'Intune Team', 'microsoft365'),
  group(GROUPS.mailEnabledSecurity, 'IT Approvers', 'mailEnabledSecurity'),
  group(GROUPS.distribution, 'IT List', 'distribution'),
]);
const policy = (id: string, displayName: string, policyType: string, approverGroupIds: string[], policyPlatform?: string) =>
  records.operationApprovalPolicy({ id, displayName, policyType, approverGroupIds, now, ...(policyPlatform ? { policyPlatform } : {}) });
tenant.collections.operationApprovalPolicies = [
  policy('p-actions', 'Device actions', 'deviceAction', [GROUPS.security]),
  policy('p-scripts', 'Scripts', 'scripts', [GROUPS.security], 'windows10AndLater'),
  policy('p-categories', 'Device categories', 'tenantConfiguration', [GROUPS.microsoft365, GROUPS.mailEnabledSecurity, GROUPS.distribution]),
  policy('p-access', 'Access policy changes', 'operationApprovalPolicy', [GROUPS.security]),
  policy('p-apps', 'App rollout approval', 'unknown', [GROUPS.security]),
  policy('p-compliance', 'iOS compliance', 'compliancePolicy', [GROUPS.security], 'iOSiPadOS'),
];
tenant.collections.operationApprovalRequests = [
  records.operationApprovalRequest({
    id: 'r-expired',
    requestDateTime: new Date(now.getTime() - 5 * 86_400_000).toISOString(),
    status: 'expired',
    requestor: 'admin@fabrikam.example',
    approver: null,
    justification: 'New device category',
    policyTypes: ['tenantConfiguration'],
    now,
  }),
];
const harness = useTestSimulator({ tenant });

async function rawGet(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const token = await requestAppToken(harness.sim);
  const dispatcher = new Agent({ connect: { ca: harness.sim.caPem } });
  try {
    const response = await request(`${harness.sim.graphUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers }, dispatcher });
    return (await response.body.json()) as Record<string, unknown>;
  } finally {
    await dispatcher.close();
  }
}

const rowsOf = (rows: ReportRow[], section: string) => rows.filter((row) => row.section === section);

describe('report 5 on a tenant of documented shapes', () => {
  it('judges each area by the type that protects it, reading late members and approver groups as Graph sends them', async () => {
    const report = await loadReport('admin-approval', harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['configuration-area-unprotected', 'configuration-policies'],
      ['area-unprotected', 'rbac'],
    ]);
    expect(Object.fromEntries(rowsOf(report.rows, 'coverage').map((row) => [row.id, row.coverage]))).toEqual({
      apps: 'Protected (matched on the policy name)',
      'compliance-policies': 'Protected for iOS/iPadOS only',
      'configuration-policies': 'Not protected',
      'device-wipe': 'Protected',
      'device-retire': 'Protected',
      'device-delete': 'Protected',
      rbac: 'Not protected',
      scripts: 'Protected',
      'tenant-configuration': 'Protected, but cannot be approved',
      'access-policies': 'Protected by Intune',
    });
    const policies = Object.fromEntries(rowsOf(report.rows, 'policies').map((row) => [row.id, row]));
    expect(policies['p-categories']).toMatchObject({
      policyType: 'tenantConfiguration',
      areas: 'Tenant configuration (device categories)',
      approvers: 'Intune Team (Microsoft 365 group: cannot approve); IT Approvers (mail-enabled security group: cannot approve); IT List (distribution group: cannot approve)',
      approvable: 'Cannot be approved: each approver group is not a security group',
    });
    expect(policies['p-access']).toMatchObject({ policyType: 'operationApprovalPolicy', areas: 'Access policies (Intune protects them already)' });
    expect(policies['p-apps']).toMatchObject({ policyType: 'unknown (type not readable)', areas: 'Apps (app deployments) (by name)' });
    expect(policies['p-scripts']).toMatchObject({ policyType: 'scripts (Windows 10 and later only)', areas: 'Scripts (Windows)' });
    expect(rowsOf(report.rows, 'requests')).toEqual([expect.objectContaining({ id: 'r-expired', status: 'expired', requestTypes: 'tenantConfiguration' })]);

    // The group look-ups asked for the fields that tell a security group from the rest.
    const lookups = harness.sim.graph.requests.filter((entry) => entry.inBatch && entry.path.startsWith('/v1.0/groups/'));
    expect(lookups.length).toBe(4);
    for (const lookup of lookups) expect(new URLSearchParams(lookup.query).get('$select')).toBe('id,displayName,visibility,groupTypes,securityEnabled,mailEnabled');
  });

  it('serves late policy types as unknownFutureValue to a caller that does not ask for them, in the policy and its policy set', async () => {
    const plain = (await rawGet('/beta/deviceManagement/operationApprovalPolicies')).value as Array<{ id: string; policyType: string; policySet: { policyType: string } }>;
    const asked = (await rawGet('/beta/deviceManagement/operationApprovalPolicies', { prefer: 'include-unknown-enum-members' })).value as typeof plain;
    const types = (list: typeof plain) => Object.fromEntries(list.map((item) => [item.id, [item.policyType, item.policySet.policyType]]));
    expect(types(plain)).toMatchObject({
      'p-categories': ['unknownFutureValue', 'unknownFutureValue'],
      'p-access': ['unknownFutureValue', 'unknownFutureValue'],
      'p-actions': ['deviceAction', 'deviceAction'],
      'p-scripts': ['scripts', 'scripts'],
    });
    expect(types(asked)).toMatchObject({ 'p-categories': ['tenantConfiguration', 'tenantConfiguration'], 'p-access': ['operationApprovalPolicy', 'operationApprovalPolicy'] });
    const requests = (await rawGet('/beta/deviceManagement/operationApprovalRequests')).value as Array<{ requiredOperationApprovalPolicyTypes: string[] }>;
    expect(requests[0]?.requiredOperationApprovalPolicyTypes).toEqual(['unknownFutureValue']);
  });

  it.each([
    [GROUPS.security, { groupTypes: [], securityEnabled: true, mailEnabled: false }],
    [GROUPS.microsoft365, { groupTypes: ['Unified'], securityEnabled: false, mailEnabled: true }],
    [GROUPS.mailEnabledSecurity, { groupTypes: [], securityEnabled: true, mailEnabled: true }],
    [GROUPS.distribution, { groupTypes: [], securityEnabled: false, mailEnabled: true }],
  ])('serves group %s with the fields of its kind, as the group-types table has them', async (id, fields) => {
    expect(await rawGet(`/v1.0/groups/${id}?$select=id,groupTypes,securityEnabled,mailEnabled`)).toMatchObject({ id, ...fields });
  });
});

describe('report 5 on the demo tenant', () => {
  const demo = useTestSimulator({ tenant: buildDemoTenant({ now }) });

  it('shows the cases the demo plants: delete only, apps on one platform, a name match, a Microsoft 365 group approver, an old type protecting no role', async () => {
    const report = await loadReport('admin-approval', demo.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(Object.fromEntries(rowsOf(report.rows, 'coverage').map((row) => [row.id, [row.coverage, row.coverageTone]]))).toEqual({
      apps: ['Protected for iOS/iPadOS only', 'warning'],
      'compliance-policies': ['Not protected', 'warning'],
      'configuration-policies': ['Not protected', 'warning'],
      'device-wipe': ['Not protected', 'danger'],
      'device-retire': ['Not protected', 'danger'],
      'device-delete': ['Protected', 'ok'],
      rbac: ['Protected', 'ok'],
      scripts: ['Protected', 'ok'],
      'tenant-configuration': ['Protected, but cannot be approved', 'warning'],
      'access-policies': ['Protected by Intune', 'ok'],
    });
    const policies = Object.fromEntries(rowsOf(report.rows, 'policies').map((row) => [row.policy, row]));
    expect(policies['PowerShell script approval']).toMatchObject({ policyType: 'unknown (type not readable)', areas: 'Scripts (Windows) (by name)' });
    expect(policies['Device category changes']).toMatchObject({ approvers: 'Intune Approvers (Microsoft 365) (Microsoft 365 group: cannot approve)' });
    expect(policies['Access policy changes']).toMatchObject({ areas: 'Access policies (Intune protects them already)' });
    expect(new Set(rowsOf(report.rows, 'requests').map((row) => row.status))).toEqual(new Set(['needsApproval', 'approved', 'completed', 'rejected', 'cancelled', 'expired']));
  });
});
