import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../../src/core/applies/demo.js';
import { loadAppliesReads } from '../../../src/core/applies/load.js';
import { APPLIES_DEVICES_READ, APPLIES_GROUP_MEMBERS_READ } from '../../../src/core/applies/reads.js';
import { loadAssignments } from '../../../src/core/reports/assignment-hygiene/load.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** A declared path as a pattern: `{id}` stands for one Graph id. */
const pattern = (path: string) => new RegExp(`^${path.replace('{id}', '[0-9a-f-]{36}')}$`);

describe("what applies' own reads", () => {
  it('reads through its declarations only: their paths and $select, beside the group look-ups and the assignments handed in', async () => {
    const graph = harness.client();
    const assignments = await loadAssignments({ graph });
    harness.sim.graph.clearLog();
    const reads = await loadAppliesReads(graph, Promise.resolve(assignments));
    expect(reads.assignments).toBe(assignments);
    expect(reads.devices.length).toBeGreaterThan(0);
    expect([...reads.members.values()].some((group) => group.state === 'read' && group.groupIds.length > 0)).toBe(true);

    const sent = harness.sim.graph.requests.filter((request) => request.path !== '/v1.0/$batch');
    const devices = sent.filter((request) => request.path === APPLIES_DEVICES_READ.path);
    expect(devices.length).toBeGreaterThan(0);
    for (const request of devices) expect(new URLSearchParams(request.query).get('$select')).toBe(APPLIES_DEVICES_READ.select.join(','));
    const members = sent.filter((request) => pattern(APPLIES_GROUP_MEMBERS_READ.path).test(request.path));
    expect(members.length).toBeGreaterThan(0);
    for (const request of members) expect(new URLSearchParams(request.query).get('$select')).toBe(APPLIES_GROUP_MEMBERS_READ.select.join(','));
    // Everything else is a nested group's name, looked up as report 2 looks groups up.
    const others = sent.filter((request) => !devices.includes(request) && !members.includes(request));
    for (const request of others) expect(request.path).toMatch(pattern('/v1.0/groups/{id}'));
  });

  it("reads each device's operating system, which decides which platform's objects reach it", async () => {
    const reads = await loadAppliesReads(harness.client(), loadAssignments({ graph: harness.client() }));
    const systems = new Set(reads.devices.map((device) => device.operatingSystem));
    expect(systems).toContain('Windows');
    expect(systems).toContain('iOS');
  });

  it("a hidden-membership group lists no members to this app, and is read as unknown with report 2's reason, never as empty", async () => {
    const graph = harness.client();
    const reads = await loadAppliesReads(graph, loadAssignments({ graph }));
    // The simulator lists no member of a hidden group to an app without Member.Read.Hidden, as Graph does.
    const hidden = [...reads.members.values()].filter((group) => group.state === 'unknown' && group.reason.includes('Member.Read.Hidden'));
    expect(hidden).toHaveLength(1);
    expect(hidden[0]).toMatchObject({ reason: expect.stringContaining('does not prove it has none') });
    const board = harness.sim.tenant.groups.get(hidden[0]!.id);
    expect(board?.displayName).toBe(APPLIES_DEMO.hidden.group);
  });

  it('fails when the managed devices cannot be read, as the question then cannot be answered', async () => {
    const graph = harness.client();
    const removeFault = harness.sim.faults.add({ path: APPLIES_DEVICES_READ.path, status: 403, times: 1 });
    try {
      await expect(loadAppliesReads(graph, loadAssignments({ graph }))).rejects.toThrow(/403/);
    } finally {
      removeFault();
    }
  });
});
