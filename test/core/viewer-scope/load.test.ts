import { describe, expect, it } from 'vitest';
import { loadRbacRecords } from '../../../src/core/viewer-scope/load.js';
import { ADMIN_GROUP_MEMBERS_READ, ROLE_ASSIGNMENTS_READ, ROLE_SCOPE_TAGS_READ } from '../../../src/core/viewer-scope/reads.js';
import { viewerScopeOf } from '../../../src/core/viewer-scope/scope.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** A declared path as a pattern: `{id}` stands for one Graph id. */
const pattern = (path: string) => new RegExp(`^${path.replace('{id}', '[0-9a-f-]{36}')}$`);

describe("the viewer scope's reads", () => {
  it('reads through its declarations only, their paths and $select, and the admin groups’ direct members', async () => {
    harness.sim.graph.clearLog();
    const records = await loadRbacRecords(harness.client());
    expect(records.assignments.map((assignment) => assignment.displayName).sort()).toEqual(['Central IT (read only)', 'Europe IT']);
    expect(records.tags.map((tag) => tag.displayName)).toEqual(['Default', 'Europe', 'Americas']);
    expect([...records.members.values()].every((group) => group.state === 'read' && group.userIds.size === 1)).toBe(true);

    const sent = harness.sim.graph.requests;
    const assignments = sent.filter((request) => request.path === ROLE_ASSIGNMENTS_READ.path);
    const tags = sent.filter((request) => request.path === ROLE_SCOPE_TAGS_READ.path);
    const members = sent.filter((request) => pattern(ADMIN_GROUP_MEMBERS_READ.path).test(request.path));
    expect(assignments).toHaveLength(1);
    expect(new URLSearchParams(assignments[0]!.query).get('$select')).toBe(ROLE_ASSIGNMENTS_READ.select.join(','));
    expect(tags).toHaveLength(1);
    expect(new URLSearchParams(tags[0]!.query).get('$select')).toBe(ROLE_SCOPE_TAGS_READ.select.join(','));
    expect(members).toHaveLength(2);
    expect(sent).toHaveLength(4);
  });

  it("the demo's central administrator sees the whole tenant, the regional one Europe, anyone else nothing", async () => {
    const records = await loadRbacRecords(harness.client());
    const administrators = harness.sim.tenant.demoAdministrators!;
    expect(viewerScopeOf(records, { objectId: administrators.central })).toEqual({ kind: 'tenant', assignments: ['Central IT (read only)'] });
    expect(viewerScopeOf(records, { objectId: administrators.regional })).toMatchObject({ kind: 'tags', key: '1', tagNames: ['Europe'], assignments: ['Europe IT'] });
    expect(viewerScopeOf(records, { objectId: harness.sim.tenant.groups.values().next().value!.members[0]!.id }).kind).toBe('none');
  });

  it('fails when the role assignments cannot be read: no viewer’s scope is known then', async () => {
    const removeFault = harness.sim.faults.add({ path: ROLE_ASSIGNMENTS_READ.path, status: 403, times: 1 });
    try {
      await expect(loadRbacRecords(harness.client())).rejects.toThrow(/403/);
    } finally {
      removeFault();
    }
  });

  it('an admin group whose members cannot be read is unknown, not empty', async () => {
    const records = await loadRbacRecords(harness.client());
    const [someGroup] = records.members.keys();
    const removeFault = harness.sim.faults.add({ path: ADMIN_GROUP_MEMBERS_READ.path.replace('{id}', someGroup!), status: 500, times: 10 });
    try {
      const again = await loadRbacRecords(harness.client());
      expect(again.members.get(someGroup!)).toMatchObject({ state: 'unknown', reason: expect.stringContaining('could not be read') });
    } finally {
      removeFault();
    }
  });
});
