import { describe, expect, it } from 'vitest';
import { ReportCache } from '../../src/app/report-cache.js';
import { ViewerScopes } from '../../src/app/viewer-scopes.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { ENTRA_ROLE_IDS } from '../../src/core/viewer-scope/entra-roles.js';
import { viewerScopeOf } from '../../src/core/viewer-scope/scope.js';
import type { GrantingRole, RbacRecords } from '../../src/core/viewer-scope/scope.js';
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
    // the assignments of each of the four roles, whatever they grant: one read each.
    expect(readsOnce).toBe(11);
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

describe('a scoped view shows each viewer only what is theirs', () => {
  const A = 'd0000000-0000-4000-8000-00000000000a';
  const B = 'd0000000-0000-4000-8000-00000000000b';
  const GROUP_A = 'e0000000-0000-4000-8000-00000000000a';
  const GROUP_B = 'e0000000-0000-4000-8000-00000000000b';
  /** Two Europe assignments, one per viewer, and the roles behind them as `granting` says. */
  const rbac = (granting: RbacRecords['definitions']): RbacRecords => ({
    assignments: [
      { id: 'ra-a', displayName: 'Europe IT (A)', memberGroupIds: [GROUP_A], scopeTagIds: ['1'] },
      { id: 'ra-b', displayName: 'Europe IT (B)', memberGroupIds: [GROUP_B], scopeTagIds: ['1'] },
    ],
    tags: [{ id: '1', displayName: 'Europe' }],
    members: new Map([
      [GROUP_A, { state: 'read', userIds: new Set([A]) }],
      [GROUP_B, { state: 'read', userIds: new Set([B]) }],
    ]),
    definitions: granting,
  });
  const analytics = (displayName: string, assignments: GrantingRole['assignments']): GrantingRole => ({
    id: displayName,
    displayName,
    isBuiltIn: false,
    areas: ['endpointAnalytics'],
    assignments,
  });
  const report6: ReportResult = {
    report: 'startup-reliability',
    title: 'Startup',
    state: 'loaded',
    error: null,
    notice: null,
    columns: [],
    rows: [{ id: 'model-1', model: 'Surface' }],
    findings: [],
    findingKinds: {},
    unchecked: [],
    uncheckedSubjects: [],
    notChecked: [],
    generatedAt: '2026-11-23T09:00:00.000Z',
  };
  const scopes = () => new ViewerScopes({ graph: harness.client(), cache: new ReportCache(() => Promise.reject(new Error('not read')), 60_000), log: () => {} });

  it('report 6’s notice names the viewer’s own role, not that of the viewer of the same tags who asked first', () => {
    const records = rbac({
      state: 'read',
      roles: [analytics('Analytics role A', { state: 'read', ids: new Set(['ra-a']) }), analytics('Analytics role B', { state: 'read', ids: new Set(['ra-b']) })],
    });
    const views = scopes();
    const first = views.view(report6, viewerScopeOf(records, { objectId: A }));
    const second = views.view(report6, viewerScopeOf(records, { objectId: B }));
    expect(first.ok && first.result.notice).toContain('Analytics role A');
    expect(second.ok && second.result.notice).toContain('Analytics role B');
    expect(second.ok && second.result.notice).not.toContain('Analytics role A');
  });

  it('a refusal says the viewer’s own reason: one “not known just now” is not served to a viewer whose answer is known, nor the other way round', () => {
    // A's role grants nothing; B's granting role's assignments could not be read.
    const records = rbac({ state: 'read', roles: [analytics('Analytics role B', { state: 'unknown', reason: '503' })] });
    const views = scopes();
    const first = views.view(report6, viewerScopeOf(records, { objectId: A }));
    const second = views.view(report6, viewerScopeOf(records, { objectId: B }));
    expect(first.ok === false && first.explanation).toMatch(/could not be read/);
    // Both "not known" is right: while a granting role's assignments are unread, no one can be told it is not theirs.
    expect(second.ok === false && second.explanation).toMatch(/could not be read/);
    // And the other way round: a viewer whose answer is known is told so, after one whose answer is not.
    const known = rbac({ state: 'read', roles: [analytics('Analytics role A', { state: 'read', ids: new Set(['ra-a']) })] });
    const unknown = rbac({ state: 'read', roles: [analytics('Analytics role A', { state: 'unknown', reason: '503' })] });
    const shared = scopes();
    const refused = shared.view(report6, viewerScopeOf(unknown, { objectId: B }));
    const none = shared.view(report6, viewerScopeOf(known, { objectId: B }));
    expect(refused.ok === false && refused.explanation).toMatch(/not known just now/);
    expect(none.ok === false && none.explanation).toMatch(/None of your Intune role assignments' roles grants it/);
  });
});
