import { describe, expect, it } from 'vitest';
import { lookUpGroups } from '../../../src/core/directory/group-lookup.js';
import { directoryBudgetFor, GRAPH_BUDGETS } from '../../../src/graph/request-budget.js';
import type { SimGroup } from '../../../src/sim/tenants/sim-tenant.js';
import { pacedBudget } from '../../support/paced-budget.js';
import { blankTenant, useTestSimulator } from '../../support/simulated-tenant.js';

/**
 * Graph's directory limits grow with the tenant's users ("Identity and access service limits",
 * learn.microsoft.com/graph/throttling-limits: 3,500 resource units per 10 s under 50 users, 5,000 up
 * to 500, 8,000 above). The client starts at the smallest and paces faster only once its group
 * look-ups have named more users than a smaller tenant holds; the simulator throttles at the limit of
 * the tenant's own size. The windows and the pacing share a clock that moves only when the pacing
 * waits: the test proves what waited, not how fast this machine is.
 */
const GROUPS = 3_600;

/** `GROUPS` groups of one member each, a user or a device: ids of their own, for each group. */
function groupsOf(memberType: 'user' | 'device'): Map<string, SimGroup> {
  const groups = new Map<string, SimGroup>();
  for (let index = 0; index < GROUPS; index += 1) {
    const id = `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
    groups.set(id, { id, displayName: `Group ${index}`, members: [{ id: `20000000-0000-4000-8000-${String(index).padStart(12, '0')}`, type: memberType }] });
  }
  return groups;
}

function pacedClient(harness: ReturnType<typeof useTestSimulator>, clock: { now: number }) {
  const { budget, slept } = pacedBudget(clock);
  return { graph: harness.client({ budget }), budget, slept };
}

describe('a tenant its look-ups prove to hold more than 500 users', () => {
  const clock = { now: 0 };
  const groups = groupsOf('user');
  const harness = useTestSimulator({ tenant: blankTenant({ groups }), throttleClock: () => clock.now });

  it('is read at the largest tenants’ directory limit: more than the smallest allow in one window, with no wait and no 429', async () => {
    const { graph, budget, slept } = pacedClient(harness, clock);
    const lookups = await lookUpGroups(graph, groups.keys());

    expect([...lookups.values()].filter((lookup) => lookup.state === 'found')).toHaveLength(GROUPS);
    expect(budget.limitOf('directory')).toEqual(directoryBudgetFor(501));
    const lookupsSent = harness.sim.graph.requests.filter((request) => request.inBatch);
    expect(lookupsSent).toHaveLength(GROUPS);
    expect(harness.sim.graph.requests.filter((request) => request.status === 429)).toEqual([]);
    // More than the smallest tenants' 3,500 in one window, so only the larger limit let them all go now.
    expect(GROUPS).toBeGreaterThan(3_500);
    expect(slept).toEqual([]);
    expect(clock.now).toBe(0);
  });
});

describe('a tenant whose look-ups name no user', () => {
  const clock = { now: 0 };
  const groups = groupsOf('device');
  const harness = useTestSimulator({ tenant: blankTenant({ groups }), throttleClock: () => clock.now });

  it('is paced at the smallest tenants’ limit, and the simulator holds it to that limit', async () => {
    const { graph, budget, slept } = pacedClient(harness, clock);
    const lookups = await lookUpGroups(graph, groups.keys());

    expect([...lookups.values()].filter((lookup) => lookup.state === 'found')).toHaveLength(GROUPS);
    expect(budget.limitOf('directory')).toEqual(GRAPH_BUDGETS.directory);
    expect(harness.sim.graph.requests.filter((request) => request.status === 429)).toEqual([]);
    // 3,600 look-ups at 3,150 an 11 s window: one wait for the window, no more.
    expect(slept.length).toBeGreaterThan(0);
    expect(clock.now).toBeGreaterThanOrEqual(GRAPH_BUDGETS.directory.windowMs);
    expect(clock.now).toBeLessThan(2 * GRAPH_BUDGETS.directory.windowMs);
  });
});
