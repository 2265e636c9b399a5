import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../../src/core/reports/registry.js';
import { settingConflictsReport } from '../../../../src/core/reports/setting-conflicts/definition.js';
import { CAMERA } from '../../../../src/core/reports/setting-conflicts/demo.js';
import { configurationPolicy } from '../../../../src/core/reports/demo-records.js';
import { deviceConfiguration } from '../../../../src/core/reports/assignment-hygiene/demo-records.js';
import { choiceSetting } from '../../../../src/core/reports/security-posture/demo-records.js';
import { emptyCollections } from '../../../../src/sim/tenants/sim-tenant.js';
import type { GraphRecord } from '../../../../src/sim/tenants/sim-tenant.js';
import { blankTenant, useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * The case a tenant built from Microsoft Learn holds: a device restrictions profile blocks the
 * camera and a settings catalog policy allows it, both for one group. Before device restrictions
 * profiles were read, report 7 was empty here and said no setting was set by two policies.
 */
const now = new Date('2026-12-01T09:00:00Z');
const GROUP = '5d7c1a2e-0b9f-4e3a-9c61-2f8e4b7d1a90';
const USER = '8e2b4f6a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const PROFILE = 'a3c5e7f9-1b2d-4f6a-8c0e-2a4c6e8f0b1d';
const POLICY = 'b4d6f8a0-2c3e-4a7b-9d1f-3b5d7f9a1c2e';

const profile = Object.assign(deviceConfiguration({ id: PROFILE, displayName: 'Reception - device restrictions', targets: [{ kind: 'include', groupId: GROUP }], now }), {
  cameraBlocked: true,
});
const policy = configurationPolicy({
  id: POLICY,
  name: 'Reception - camera allowed',
  templateFamily: 'none',
  settings: [choiceSetting(CAMERA, '1')],
  targets: [{ kind: 'include', groupId: GROUP }],
  now,
}) as GraphRecord & { assignments: Array<{ target: Record<string, unknown> }> };
// As Graph beta returns a settings catalog policy's targets: no filter is "none", read, not unknown.
for (const assignment of policy.assignments)
  Object.assign(assignment.target, { deviceAndAppManagementAssignmentFilterId: null, deviceAndAppManagementAssignmentFilterType: 'none' });

const harness = useTestSimulator({
  tenant: blankTenant({
    collections: { ...emptyCollections(), deviceConfigurations: [profile], configurationPolicies: [policy] },
    groups: new Map([[GROUP, { id: GROUP, displayName: 'Reception', members: [{ id: USER, type: 'user' }] }]]),
  }),
});

describe('a device restrictions profile beside a settings catalog policy, on the strict simulator', () => {
  it('finds the profile that blocks the camera and the policy that allows it for one group a conflict, naming both by name', async () => {
    const result = await REPORTS.load(settingConflictsReport.id, harness.client(), { now: () => now });
    expect(result.error).toBeNull();
    expect(result.state).toBe('loaded');
    expect(result.notice ?? '').not.toContain('No setting is set');
    const finding = result.findings.find((candidate) => candidate.subjectId === CAMERA);
    expect(finding?.kind).toBe('setting-conflict');
    expect(finding?.detail).toContain('"Reception - camera allowed" sets');
    expect(finding?.detail).toContain('"Reception - device restrictions" sets Blocked');
    expect(finding?.detail).toContain('Both reach group "Reception"');
    // The profile is read whole, once, through $batch.
    const reads = harness.sim.graph.requests.filter((request) => request.path === `/v1.0/deviceManagement/deviceConfigurations/${PROFILE}`);
    expect(reads.map((request) => request.inBatch)).toEqual([true]);
  });

  it('says it could not check the profile, never that nothing conflicts, when its settings cannot be read', async () => {
    const removeFault = harness.sim.faults.add({ path: `/v1.0/deviceManagement/deviceConfigurations/${PROFILE}`, status: 403 });
    try {
      const result = await REPORTS.load(settingConflictsReport.id, harness.client(), { now: () => now });
      expect(result.state).toBe('loaded');
      expect(result.findings.filter((finding) => finding.subjectId === CAMERA)).toEqual([]);
      expect(result.rows).toEqual([
        expect.objectContaining({ id: PROFILE, verdict: 'Could not check', setting: 'Settings of "Reception - device restrictions"', policies: expect.stringContaining('403') }),
      ]);
    } finally {
      removeFault();
    }
  });
});
