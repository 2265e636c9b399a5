import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { EMPTY_NOTICE as NO_WINDOWS_DEVICES } from '../../../src/core/reports/escrow-gaps/derive.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import { EMPTY_NOTICE as NO_PERFORMANCE_DATA } from '../../../src/core/reports/startup-reliability/derive.js';
import * as records from '../../../src/core/reports/admin-approval/demo-records.js';
import { blankTenant, managedDevice, requestAppToken, useTestSimulator } from '../../support/simulated-tenant.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/graph/retry-policy.js';

const now = new Date('2026-11-22T09:00:00Z');
const approvers = '5d1c9a20-7c1e-4b8e-9f3a-2b6c1d0e4f11';
const tenant = blankTenant();
tenant.groups.set(approvers, { id: approvers, displayName: 'Intune Admins', members: [{ id: 'u1', type: 'user' }] });
tenant.collections.operationApprovalPolicies = [
  // A member declared after unknownFutureValue: Graph only names it to callers that ask. It protects no role.
  records.operationApprovalPolicy({ id: 'p-rbac', displayName: 'Approval policy changes', policyType: 'operationApprovalPolicy', approverGroupIds: [approvers], now }),
  // A device action policy as Graph returns it: the action as its type, repeated in policySet.
  records.operationApprovalPolicy({ id: 'p-delete', displayName: 'Untitled access policy', policyType: 'deviceDelete', approverGroupIds: [approvers], now }),
];
tenant.collections.managedDevices = [{ ...managedDevice(1), operatingSystem: 'iOS' }];
const harness = useTestSimulator({ tenant });

describe('loading reports from the simulated Graph', () => {
  it('report 5 asks for evolvable enum members, so a policy typed after unknownFutureValue reads as its type, and a delete policy protects deleting only (issues 11 and 26)', async () => {
    const report = await loadReport('admin-approval', harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(report.findings.map((finding) => finding.subjectId).sort()).toEqual([
      'apps',
      'compliance-policies',
      'configuration-policies',
      'device-retire',
      'device-wipe',
      'rbac',
      'scripts',
      'tenant-configuration',
    ]);
    const policyRows = report.rows.filter((row) => row.section === 'policies');
    expect(policyRows).toEqual([
      expect.objectContaining({
        policy: 'Approval policy changes',
        policyType: 'operationApprovalPolicy',
        areas: 'Access policies (Intune protects them already)',
        approvers: 'Intune Admins',
      }),
      expect.objectContaining({ policy: 'Untitled access policy', policyType: 'deviceDelete', areas: 'Device delete' }),
    ]);

    // Without the Prefer header the same record hides its type, as Graph documents.
    const token = await requestAppToken(harness.sim);
    const dispatcher = new Agent({ connect: { ca: harness.sim.caPem } });
    try {
      const response = await request(`${harness.sim.graphUrl}/beta/deviceManagement/operationApprovalPolicies`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher,
      });
      const body = (await response.body.json()) as { value: Array<{ policyType: string }> };
      expect(body.value[0]?.policyType).toBe('unknownFutureValue');
    } finally {
      await dispatcher.close();
    }
  });

  it('report 1 reads managed Google Play from beta only, where Graph declares it, never v1.0 (a 400 on every load)', async () => {
    const report = await loadReport('connector-health', harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    const store = harness.sim.graph.requests.filter((entry) => entry.path.endsWith('/androidManagedStoreAccountEnterpriseSettings'));
    expect(store.map((entry) => `${entry.path} ${entry.status}`)).toEqual(['/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings 404']);
    // Never bound is "not configured", not an error and not a finding.
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')?.health).toBe('not configured');
    expect(report.findings).toEqual([]);
  });

  it('report 4 shows the specification’s empty notice when Intune has no Windows devices', async () => {
    const report = await loadReport('escrow-gaps', harness.client(), { now: () => now });
    expect(report).toMatchObject({ state: 'empty', notice: NO_WINDOWS_DEVICES, rows: [], findings: [], error: null });
    expect(NO_WINDOWS_DEVICES).toContain('returned no Windows devices');
  });

  it('report 6 shows the specification’s empty notice when endpoint analytics has no data', async () => {
    const report = await loadReport('startup-reliability', harness.client(), { now: () => now });
    expect(report).toMatchObject({ state: 'empty', notice: NO_PERFORMANCE_DATA, rows: [] });
    expect(NO_PERFORMANCE_DATA).toMatch(/endpoint analytics.*no device performance data.*enabled/is);
  });

  it('a malformed page is a load error that says so, never an empty table', async () => {
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance', malformed: true, times: 1 });
    const report = await loadReport('startup-reliability', harness.client(), { now: () => now });
    expect(report.state).toBe('load-error');
    expect(report.error).toMatchObject({ status: 200, code: 'malformed-response' });
    expect(report.rows).toEqual([]);
  });

  it('a service that stays unavailable is a load error naming 503 after bounded retries', async () => {
    harness.sim.faults.add({ path: '/beta/deviceManagement/intents', status: 503, retryAfterSeconds: 0, times: 10 });
    const graph = harness.client({ sleep: async () => undefined });
    const report = await loadReport('security-posture', graph, { now: () => now });
    expect(report.state).toBe('load-error');
    expect(report.error?.status).toBe(503);
    expect(report.error?.message).toContain('/beta/deviceManagement/intents');
    expect(harness.sim.graph.requests.filter((entry) => entry.path === '/beta/deviceManagement/intents').length).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxAttempts);
  });

  it('a throttled group look-up that recovers still resolves, so approvers are not reported unknown', async () => {
    harness.sim.faults.add({ path: new RegExp(`/groups/${approvers}`), status: 429, retryAfterSeconds: 0, times: 1 });
    const report = await loadReport('admin-approval', harness.client({ sleep: async () => undefined }), { now: () => now });
    expect(report.rows.find((row) => row.section === 'policies')?.approvable).toBe('OK');
  });
});
