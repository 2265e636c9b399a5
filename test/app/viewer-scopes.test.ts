import { describe, expect, it } from 'vitest';
import { ReportCache } from '../../src/app/report-cache.js';
import { ViewerScopes } from '../../src/app/viewer-scopes.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { ENTRA_ROLE_IDS } from '../../src/core/viewer-scope/entra-roles.js';
import { buildLargeTenant, largeTenantAdministrators } from '../../src/sim/tenants/large-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000 }) });

const rbacReads = () =>
  harness.sim.graph.requests.filter((request) => /\/(roleAssignments|roleScopeTags|roleDefinitions)(\?|$)|\/groups\/[^/]+\/members/.test(request.path)).length;

/**
 * What lets many viewers be served with the scope on about as fast as with it off
 * (docs/performance.md, "Many viewers with the viewer scope on"): the reads made once per
 * freshness window, each viewer's scope worked out once per read, and one filtered result per
 * shared result and set of tags.
 */
describe('the viewer scopes of many viewers', () => {
  it('reads the role assignments once per freshness window, and works out each viewer’s scope once per read', async () => {
    let clock = 0;
    const graph = harness.client();
    const cache = new ReportCache(
      (id) => REPORTS.load(id, graph),
      60_000,
      () => clock,
    );
    const scopes = new ViewerScopes({ graph, cache, log: () => {} });
    const administrators = largeTenantAdministrators();
    harness.sim.graph.clearLog();

    const first = await Promise.all(administrators.map(({ objectId }) => scopes.scopeOf({ objectId })));
    const readsOnce = rbacReads();
    // The assignments, the tags, each of the four admin groups' members, the role definitions, and
    // the assignments of the two roles that grant Endpoint Analytics read: one read each.
    expect(readsOnce).toBe(9);
    const again = await Promise.all(administrators.map(({ objectId }) => scopes.scopeOf({ objectId: objectId.toUpperCase() })));
    expect(rbacReads()).toBe(readsOnce);
    again.forEach((scope, index) => expect(scope).toBe(first[index]));

    clock = 61_000; // the reads have aged: read again, and the scopes worked out again from them
    const later = await scopes.scopeOf({ objectId: administrators[1]!.objectId });
    expect(rbacReads()).toBe(2 * readsOnce);
    expect(later).not.toBe(first[1]);
    expect(later).toEqual(first[1]);
  });

  it('an Entra role that reads all Intune data is the whole tenant without reading Intune’s role assignments', async () => {
    const graph = harness.client();
    const scopes = new ViewerScopes({ graph, cache: new ReportCache((id) => REPORTS.load(id, graph), 60_000), log: () => {} });
    harness.sim.graph.clearLog();
    const [regional] = largeTenantAdministrators().filter(({ tagIds }) => tagIds.length > 0);
    expect(await scopes.scopeOf({ objectId: regional!.objectId, entraRoleIds: [ENTRA_ROLE_IDS.intuneAdministrator] })).toEqual({
      kind: 'tenant',
      assignments: [],
      entraRoles: ['Intune Administrator'],
    });
    expect(rbacReads()).toBe(0);
    // The same person without the role: their Intune role assignment's tags, as before.
    expect((await scopes.scopeOf({ objectId: regional!.objectId })).kind).toBe('tags');
    expect((await scopes.scopeOf({ objectId: regional!.objectId, entraRoleIds: [ENTRA_ROLE_IDS.reportsReader] })).kind).toBe('tags');
  });

  it('filters a shared result once per set of scope tags, whoever of that set asks', async () => {
    const graph = harness.client();
    const cache = new ReportCache((id) => REPORTS.load(id, graph), 60_000);
    const scopes = new ViewerScopes({ graph, cache, log: () => {} });
    const result = await cache.get('security-posture');
    const administrators = largeTenantAdministrators();
    const views = await Promise.all(administrators.map(async ({ objectId }) => scopes.view(result, await scopes.scopeOf({ objectId }))));

    const byTags = new Map<string, Set<unknown>>();
    administrators.forEach(({ tagIds }, index) => {
      const key = [...tagIds].sort().join(',');
      const view = views[index]!;
      byTags.set(key, (byTags.get(key) ?? new Set()).add(view.ok ? view.result : view));
    });
    // The whole tenant and six sets of region tags: every viewer of a set is given the same result (the shared one for the whole tenant).
    expect(byTags.size).toBe(7);
    for (const same of byTags.values()) expect(same.size).toBe(1);
    const whole = views[0]!;
    expect(whole.ok && whole.result).toBe(result);

    // A newer shared result is filtered anew.
    const newer = await cache.get('security-posture', { refresh: true });
    const regional = await scopes.scopeOf({ objectId: administrators[1]!.objectId });
    expect(scopes.view(newer, regional)).not.toBe(views[1]);
    expect(scopes.view(newer, regional)).toBe(scopes.view(newer, regional));
  });
});
