import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { loadRbacRecords } from '../../../src/core/viewer-scope/load.js';
import { scopeReport } from '../../../src/core/viewer-scope/scope-report.js';
import { ROW_SCOPE_TAGS_KEY, rowScopeTags } from '../../../src/core/viewer-scope/scope-tag-ids.js';
import { viewerScopeOf } from '../../../src/core/viewer-scope/scope.js';
import { LARGE_TENANT_ADMINISTRATORS, LARGE_TENANT_SCOPE_TAGS, buildLargeTenant, largeTenantAdministrators } from '../../../src/sim/tenants/large-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 10_000 }) });

describe('the large tenant through each Intune administrator’s scope', () => {
  it('holds a mix of whole-tenant and regional administrators, each seeing the tags of their role assignments', async () => {
    const rbac = await loadRbacRecords(harness.client());
    const administrators = largeTenantAdministrators();
    expect(administrators).toHaveLength(LARGE_TENANT_ADMINISTRATORS);
    const byTags = (count: number) => administrators.filter((administrator) => administrator.tagIds.length === count).length;
    expect([byTags(0), byTags(1), byTags(2)]).toEqual([10, 30, 10]);
    for (const { objectId, tagIds } of administrators) {
      const scope = viewerScopeOf(rbac, { objectId });
      if (tagIds.length === 0) expect(scope.kind).toBe('tenant');
      else expect(scope.kind === 'tags' && [...scope.tagIds].sort()).toEqual([...tagIds].sort());
      // Asia Pacific's role grants Endpoint Analytics read; Europe's and the Americas' (Regional policy and devices) do not.
      if (tagIds.length > 0) expect(scope.kind === 'tags' && scope.areas!.granted.has('endpointAnalytics')).toBe(tagIds.includes(LARGE_TENANT_SCOPE_TAGS.asiaPacific));
    }
    expect(administrators.some(({ tagIds }) => tagIds.includes(LARGE_TENANT_SCOPE_TAGS.asiaPacific))).toBe(true);
    expect(administrators.some(({ tagIds }) => tagIds.length > 0 && !tagIds.includes(LARGE_TENANT_SCOPE_TAGS.asiaPacific))).toBe(true);
    // Someone holding no role assignment sees nothing.
    expect(viewerScopeOf(rbac, { objectId: '00000000-0000-4000-8000-000000000001' }).kind).toBe('none');
  });

  it("spreads report 3's objects across the scope tags, so each region sees its own share of the rows", async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('security-posture', graph), loadRbacRecords(graph)]);
    expect(result.state).toBe('loaded');
    expect(result.rows.every((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string')).toBe(true);
    const tagsSeen = new Set(result.rows.flatMap((row) => rowScopeTags(row) ?? []));
    expect([...tagsSeen].sort()).toEqual(Object.values(LARGE_TENANT_SCOPE_TAGS).sort());

    const sizes = new Map<string, number>();
    for (const { objectId, tagIds } of largeTenantAdministrators()) {
      const view = scopeReport(result, viewerScopeOf(rbac, { objectId }));
      expect(view.ok).toBe(true);
      if (!view.ok) continue;
      sizes.set(tagIds.join('+') || 'whole tenant', view.result.rows.length);
      // Every row a regional administrator sees carries one of their tags.
      for (const row of view.result.rows) if (tagIds.length > 0) expect(rowScopeTags(row)!.some((tag) => tagIds.includes(tag))).toBe(true);
    }
    expect(sizes.get('whole tenant')).toBe(result.rows.length);
    for (const [tags, rows] of sizes) {
      if (tags === 'whole tenant') continue;
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(result.rows.length);
    }
  });

  it("tags the managed devices in the same shares, so each region sees its own share of report 4's rows on /beta", async () => {
    const graph = harness.client({ scopeTags: true });
    const [result, rbac] = await Promise.all([REPORTS.load('escrow-gaps', graph), loadRbacRecords(graph)]);
    expect(result.state).toBe('loaded');
    const devices = result.rows.filter((row) => row[ROW_SCOPE_TAGS_KEY] !== undefined);
    expect(devices.length).toBeGreaterThan(5_000);
    const share = (tag: string) => devices.filter((row) => rowScopeTags(row)!.includes(tag)).length / devices.length;
    expect(share(LARGE_TENANT_SCOPE_TAGS.default)).toBeCloseTo(0.3, 1);
    expect(share(LARGE_TENANT_SCOPE_TAGS.europe)).toBeCloseTo(0.35, 1);
    expect(share(LARGE_TENANT_SCOPE_TAGS.asiaPacific)).toBeCloseTo(0.15, 1);

    const europeOnly = largeTenantAdministrators().find(({ tagIds }) => tagIds.length === 1 && tagIds[0] === LARGE_TENANT_SCOPE_TAGS.europe)!;
    const view = scopeReport(result, viewerScopeOf(rbac, { objectId: europeOnly.objectId }));
    expect(view.ok).toBe(true);
    if (!view.ok) return;
    expect(view.result.rows.length).toBeGreaterThan(0);
    for (const row of view.result.rows) expect(rowScopeTags(row)).toContain(LARGE_TENANT_SCOPE_TAGS.europe);
    // Its findings are those of its rows' devices alone.
    const seen = new Set(view.result.rows.map((row) => String(row.id)));
    expect(view.result.findings.length).toBeGreaterThan(0);
    for (const finding of view.result.findings) expect(seen.has(finding.subjectId)).toBe(true);
  });
});
