import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../../src/core/applies/demo.js';
import { loadAppliesReads } from '../../../src/core/applies/load.js';
import { APPLIES_DEVICES_READ, APPLIES_READS } from '../../../src/core/applies/reads.js';
import { GROUP_READ } from '../../../src/core/directory/reads.js';
import { loadAssignments } from '../../../src/core/reports/assignment-hygiene/load.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** A declared path as a pattern: `{id}` stands for one Graph id. */
const pattern = (path: string) => new RegExp(`^${path.replace(/[()]/g, '\\$&').replace('{id}', '[0-9a-f-]{36}')}$`);
const DECLARED = [...APPLIES_READS, GROUP_READ];

describe("what applies' own reads", () => {
  it('reads only about the subject, through its declarations: their paths and $select, the managed devices always filtered', async () => {
    const graph = harness.client();
    const assignments = await loadAssignments({ graph });
    harness.sim.graph.clearLog();
    const reads = await loadAppliesReads(graph, APPLIES_DEMO.device, assignments);
    expect(reads.assignments).toBe(assignments);
    expect(reads.resolution).toMatchObject({ kind: 'found', subject: { kind: 'device', name: APPLIES_DEMO.device } });

    const sent = harness.sim.graph.requests.filter((request) => request.path !== '/v1.0/$batch');
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      const read = DECLARED.find((candidate) => pattern(candidate.path).test(request.path));
      expect(read, request.path).toBeDefined();
      const select = new URLSearchParams(request.query).get('$select');
      if (read !== GROUP_READ) expect(select, request.path).toBe(read!.select!.join(','));
    }
    // Never the tenant's whole device list: each read of it names one device or one user.
    const devices = sent.filter((request) => request.path === APPLIES_DEVICES_READ.path);
    expect(devices.length).toBeGreaterThan(0);
    for (const request of devices) expect(new URLSearchParams(request.query).get('$filter')).toMatch(/^(deviceName|userPrincipalName) eq '/);
    // No assigned group's member list is read.
    expect(harness.sim.graph.requests.filter((request) => /\/members$/.test(request.path))).toEqual([]);
  });

  it("reads the device's operating system, which decides which platform's objects reach it", async () => {
    const graph = harness.client();
    const reads = await loadAppliesReads(graph, APPLIES_DEMO.device, await loadAssignments({ graph }));
    expect(reads.resolution.kind === 'found' && reads.resolution.subject.kind === 'device' && reads.resolution.subject.operatingSystem).toBe('Windows');
  });

  it("a hidden-membership exclusion group is unknown with report 2's reason, never read as not holding the subject", async () => {
    const graph = harness.client();
    const reads = await loadAppliesReads(graph, APPLIES_DEMO.device, await loadAssignments({ graph }));
    // The simulator leaves a hidden group out of a user's memberships to an app without Member.Read.Hidden, as Graph does.
    const hidden = [...reads.members.values()].filter((group) => group.state === 'unknown' && group.reason.includes('Member.Read.Hidden'));
    expect(hidden).toHaveLength(1);
    expect(harness.sim.tenant.groups.get(hidden[0]!.id)?.displayName).toBe(APPLIES_DEMO.hidden.group);
  });

  it('says a step is known only as transitive when the chain above a group cannot be read', async () => {
    const graph = harness.client();
    const assignments = await loadAssignments({ graph });
    const salesEmea = [...harness.sim.tenant.groups.values()].find((group) => group.displayName === 'Sales EMEA')!;
    const removeFault = harness.sim.faults.add({ path: `/v1.0/groups/${salesEmea.id}/memberOf`, status: 500, times: 10 });
    try {
      const reads = await loadAppliesReads(graph, APPLIES_DEMO.device, assignments);
      const regional = [...harness.sim.tenant.groups.values()].find((group) => group.displayName === 'Regional Offices')!;
      const step = reads.members.get(regional.id);
      expect(step?.state).toBe('read');
      // Regional Offices holds the primary user (Graph's transitive list says so), through a step that says its chain is not known.
      const nested = step?.state === 'read' ? reads.members.get(step.groupIds.find((id) => id.endsWith('/nested'))!) : undefined;
      expect(nested).toMatchObject({ state: 'read', displayName: expect.stringContaining('the chain is not known') });
    } finally {
      removeFault();
    }
  });

  it('reads the managed devices whole and keeps the one named when Graph refuses the $filter (400), as report 4 does', async () => {
    const graph = harness.client();
    const assignments = await loadAssignments({ graph });
    harness.sim.graph.clearLog();
    const removeFault = harness.sim.faults.add({ path: APPLIES_DEVICES_READ.path, status: 400, times: 1 });
    try {
      const reads = await loadAppliesReads(graph, APPLIES_DEMO.device.toLowerCase(), assignments);
      expect(reads.resolution).toMatchObject({ kind: 'found', subject: { kind: 'device', name: APPLIES_DEMO.device } });
    } finally {
      removeFault();
    }
    const devices = harness.sim.graph.requests.filter((request) => request.path === APPLIES_DEVICES_READ.path);
    expect(devices.map((request) => [request.status, new URLSearchParams(request.query).get('$filter')])).toEqual([
      [400, `deviceName eq '${APPLIES_DEMO.device.toLowerCase()}'`],
      [200, null],
    ]);
    for (const request of devices) expect(new URLSearchParams(request.query).get('$select')).toBe(APPLIES_DEVICES_READ.select.join(','));

    // A user's devices by UPN: both filtered reads refused, both read whole, the user's devices kept.
    harness.sim.graph.clearLog();
    const removeBoth = harness.sim.faults.add({ path: APPLIES_DEVICES_READ.path, status: 400, times: 2 });
    try {
      const reads = await loadAppliesReads(graph, APPLIES_DEMO.user, assignments);
      expect(reads.resolution).toMatchObject({ kind: 'found', subject: { kind: 'user', name: APPLIES_DEMO.user } });
    } finally {
      removeBoth();
    }
    expect(harness.sim.graph.requests.filter((request) => request.path === APPLIES_DEVICES_READ.path).map((request) => request.status)).toEqual([400, 400, 200, 200]);
  });

  it('fails when the managed devices cannot be read, as the question then cannot be answered', async () => {
    const graph = harness.client();
    const assignments = await loadAssignments({ graph });
    const removeFault = harness.sim.faults.add({ path: APPLIES_DEVICES_READ.path, status: 403, times: 1 });
    try {
      await expect(loadAppliesReads(graph, APPLIES_DEMO.device, assignments)).rejects.toThrow(/403/);
    } finally {
      removeFault();
    }
  });
});
