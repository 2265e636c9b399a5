import { describe, expect, it } from 'vitest';
import { loadRbacRecords } from '../../../src/core/viewer-scope/load.js';
import { REBOOT_ONLY_ROLE, VIEWER_SCOPE_DEMO } from '../../../src/core/viewer-scope/demo.js';
import { READ_AREAS } from '../../../src/core/viewer-scope/areas.js';
import {
  ADMIN_GROUP_MEMBERS_READ,
  ROLE_ASSIGNMENTS_READ,
  ROLE_DEFINITION_ASSIGNMENTS_READ,
  ROLE_DEFINITIONS_READ,
  ROLE_SCOPE_TAGS_READ,
} from '../../../src/core/viewer-scope/reads.js';
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
    expect(records.assignments.map((assignment) => assignment.displayName).sort()).toEqual(['Central IT (read only)', 'Europe IT', 'Europe service desk']);
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
    expect(members).toHaveLength(3);
    // The role definitions once, then the assignments of every role, one read each (Read Only
    // Operator, Policy and Profile Manager, the Europe role and the service desk's reboot-only role):
    // the role behind each assignment a viewer holds is known, whatever it grants.
    const definitions = sent.filter((request) => request.path === ROLE_DEFINITIONS_READ.path);
    const roleAssignments = sent.filter((request) => pattern(ROLE_DEFINITION_ASSIGNMENTS_READ.path).test(request.path));
    expect(definitions).toHaveLength(1);
    expect(new URLSearchParams(definitions[0]!.query).get('$select')).toBe(ROLE_DEFINITIONS_READ.select.join(','));
    expect(roleAssignments).toHaveLength(4);
    expect(roleAssignments.every((request) => new URLSearchParams(request.query).get('$select') === 'id')).toBe(true);
    expect(sent).toHaveLength(10);
    expect(records.definitions.state === 'read' && records.definitions.roles.map((role) => [role.displayName, role.isBuiltIn, role.areas]).sort()).toEqual([
      [VIEWER_SCOPE_DEMO.europeRole, false, ['endpointAnalytics', 'deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps', 'securityBaselines', 'managedDevices']],
      ['Policy and Profile Manager', true, ['deviceConfigurations', 'deviceCompliancePolicies', 'securityBaselines']],
      ['Read Only Operator', true, ['endpointAnalytics', 'deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps', 'securityBaselines', 'managedDevices']],
      [REBOOT_ONLY_ROLE.displayName, false, []],
    ]);
  });

  it("the demo's central administrator sees the whole tenant, the regional one Europe, anyone else nothing", async () => {
    const records = await loadRbacRecords(harness.client());
    const administrators = harness.sim.tenant.demoAdministrators!;
    // Read Only Operator reads endpoint analytics (the one tenant-wide area a role opens) and every
    // kind of object reports 2, 3 and 4 show.
    const everyRead = (role: string) => new Map(READ_AREAS.map((area) => [area, [role]]));
    expect(viewerScopeOf(records, { objectId: administrators.central })).toEqual({
      kind: 'tenant',
      assignments: ['Central IT (read only)'],
      areas: { granted: everyRead('Read Only Operator'), unknown: new Map(), roles: ['Read Only Operator'] },
    });
    const regional = viewerScopeOf(records, { objectId: administrators.regional });
    expect(regional).toMatchObject({ kind: 'tags', tagNames: ['Europe'], assignments: ['Europe IT'] });
    expect(regional.kind === 'tags' && regional.areas!.granted).toEqual(everyRead(VIEWER_SCOPE_DEMO.europeRole));
    // The service desk's holder: Europe's tag, and a role that reads nothing.
    const desk = [...harness.sim.tenant.groups.values()].find((group) => group.displayName === 'Intune Europe Service Desk')!;
    const operator = viewerScopeOf(records, { objectId: desk.members[0]!.id });
    expect(operator).toMatchObject({ kind: 'tags', tagNames: ['Europe'], assignments: ['Europe service desk'] });
    expect(operator.kind === 'tags' && operator.areas).toEqual({ granted: new Map(), unknown: new Map(), roles: [REBOOT_ONLY_ROLE.displayName] });
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

  it('a bug while reading is thrown, never told as a source that could not be read (an unknown that grants nothing)', async () => {
    const client = harness.client();
    for (const path of [ROLE_DEFINITIONS_READ.path, '/members', '/roleAssignments']) {
      // The real client, but for one read that fails as a programming error would.
      const buggy: typeof client = Object.assign(Object.create(client) as typeof client, {
        getAll: (wanted: string, ...rest: unknown[]) =>
          wanted === path || (path.startsWith('/') && wanted.endsWith(path) && wanted !== ROLE_ASSIGNMENTS_READ.path)
            ? Promise.reject(new TypeError('Cannot read properties of undefined'))
            : (client.getAll as (...args: unknown[]) => Promise<unknown[]>)(wanted, ...rest),
      });
      await expect(loadRbacRecords(buggy), path).rejects.toThrow(TypeError);
    }
  });

  it('role definitions that cannot be read grant nothing, and leave the tags as they were', async () => {
    const removeFault = harness.sim.faults.add({ path: ROLE_DEFINITIONS_READ.path, status: 403, times: 1 });
    try {
      const records = await loadRbacRecords(harness.client());
      expect(records.definitions).toMatchObject({ state: 'unknown', reason: expect.stringContaining('could not be read') });
      const regional = viewerScopeOf(records, { objectId: harness.sim.tenant.demoAdministrators!.regional });
      // The key names why the area is not known, so no viewer whose answer is known shares its views.
      expect(regional).toMatchObject({ kind: 'tags', key: expect.stringContaining('endpointAnalytics?'), tagNames: ['Europe'] });
      expect(regional.kind === 'tags' && regional.areas!.granted.size).toBe(0);
      expect(regional.kind === 'tags' && regional.areas!.unknown.get('endpointAnalytics')).toMatch(/role definitions could not be read/);
    } finally {
      removeFault();
    }
  });
});

describe('scope tags that cannot be read, through the simulator', () => {
  /** Gives the demo's Europe assignment these `roleScopeTagIds` (or none) while `run` runs; the collection is replaced, not edited, as the simulator serves it. */
  async function withEuropeTags(tags: unknown, run: () => Promise<void>): Promise<void> {
    const { collections } = harness.sim.tenant;
    const kept = collections.roleAssignments;
    collections.roleAssignments = kept.map((assignment) => {
      if (assignment.displayName !== 'Europe IT') return assignment;
      const changed = { ...assignment };
      if (tags === undefined) delete changed.roleScopeTagIds;
      else changed.roleScopeTagIds = tags;
      return changed;
    });
    try {
      await run();
    } finally {
      collections.roleAssignments = kept;
    }
  }

  for (const [label, tags] of [
    ['[1]', [1]],
    ['[null]', [null]],
    ['"0"', '0'],
    ['["1", 2]', ['1', 2]],
    ['missing', undefined],
  ] as const)
    it(`an assignment whose roleScopeTagIds is ${label} gives the regional administrator nothing, and says so; never the whole tenant`, async () => {
      await withEuropeTags(tags, async () => {
        const records = await loadRbacRecords(harness.client());
        expect(records.assignments.find((assignment) => assignment.displayName === 'Europe IT')?.scopeTagIds).toBeNull();
        const scope = viewerScopeOf(records, { objectId: harness.sim.tenant.demoAdministrators!.regional });
        expect(scope.kind).toBe('none');
        expect(scope.kind === 'none' && scope.explanation).toMatch(
          /Graph did not say which scope tags your role assignment \(Europe IT\) carries \(the field was missing or not a list of tag ids\)/,
        );
      });
    });
});
