import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { requestAppToken, useRawGraph } from '../support/simulated-tenant.js';
import type { WireBody } from '../support/simulated-tenant.js';

/**
 * What the simulator serves for report 2's relationship and filter reads, as Microsoft documents it: Win32 app
 * relationships (typed on beta; /v1.0 declares no subtype, so its list is empty), assignment filters
 * (beta only, with a `platform` member after `unknownFutureValue`), and assignment targets whose
 * filter fields exist in the beta schema only.
 */
const graph = useRawGraph(buildDemoTenant({ now: new Date('2026-11-21T12:00:00Z') }));

type Body = WireBody;
const raw = (path: string, headers: Record<string, string> = {}, bearer?: string) => graph.get(path, { headers, ...(bearer ? { bearer } : {}) });

describe('Win32 app relationships', () => {
  it('are served on beta as typed dependency and supersedence records, one of them listed from both ends', async () => {
    const { status, body } = await raw('/beta/deviceAppManagement/mobileAppRelationships');
    expect(status).toBe(200);
    const types = new Set(body.value!.map((record) => record['@odata.type']));
    expect(types).toEqual(new Set(['#microsoft.graph.mobileAppDependency', '#microsoft.graph.mobileAppSupersedence']));
    expect(body.value!.some((record) => record.targetType === 'parent')).toBe(true);
    expect(body.value!.some((record) => record.dependencyType === 'unknownFutureValue')).toBe(true);
    for (const record of body.value!) expect(record.id).toBe(`${String(record.sourceId)}_${String(record.targetId)}`);
  });

  it('are an empty list on /v1.0, which declares no subtype of the abstract mobileAppRelationship', async () => {
    const { status, body } = await raw('/v1.0/deviceAppManagement/mobileAppRelationships');
    expect(status).toBe(200);
    expect(body.value).toEqual([]);
  });
});

describe('assignment filters', () => {
  it('are beta only', async () => {
    expect((await raw('/beta/deviceManagement/assignmentFilters')).status).toBe(200);
    expect((await raw('/v1.0/deviceManagement/assignmentFilters')).status).toBe(400);
  });

  it('send the platform member after unknownFutureValue only to a caller that asks for it', async () => {
    const masked = await raw('/beta/deviceManagement/assignmentFilters');
    expect(masked.body.value!.map((filter) => filter.platform)).toContain('unknownFutureValue');
    expect(masked.body.value!.map((filter) => filter.platform)).not.toContain('windowsMobileApplicationManagement');
    const asked = await raw('/beta/deviceManagement/assignmentFilters', { prefer: 'include-unknown-enum-members' });
    expect(asked.body.value!.map((filter) => filter.platform)).toContain('windowsMobileApplicationManagement');
  });

  it('need DeviceManagementConfiguration.*, while the relationships are read with DeviceManagementApps.*', async () => {
    const app = graph.sim.addApplication({ roles: ['DeviceManagementApps.Read.All'] });
    const appsOnly = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    expect((await raw('/beta/deviceAppManagement/mobileAppRelationships', {}, appsOnly)).status).toBe(200);
    expect((await raw('/beta/deviceManagement/assignmentFilters', {}, appsOnly)).status).toBe(403);
  });
});

describe("assignment targets' filter fields", () => {
  const targetsOf = (body: Body) => body.value!.flatMap((item) => (item.assignments as Array<{ target: Record<string, unknown> }>).map((assignment) => assignment.target));

  it('are on every target read on beta, and on none read on /v1.0; the stored record keeps them', async () => {
    for (const path of ['/deviceAppManagement/mobileApps', '/deviceManagement/deviceConfigurations', '/deviceManagement/deviceCompliancePolicies']) {
      const beta = targetsOf((await raw(`/beta${path}?$expand=assignments`)).body);
      expect(beta.length).toBeGreaterThan(0);
      expect(beta.every((target) => 'deviceAndAppManagementAssignmentFilterType' in target && 'deviceAndAppManagementAssignmentFilterId' in target)).toBe(true);
      const v1 = targetsOf((await raw(`/v1.0${path}?$expand=assignments`)).body);
      expect(v1.length).toBeGreaterThan(0);
      expect(v1.some((target) => 'deviceAndAppManagementAssignmentFilterType' in target || 'deviceAndAppManagementAssignmentFilterId' in target)).toBe(false);
      expect(v1.every((target) => typeof target['@odata.type'] === 'string')).toBe(true);
    }
    const stored = graph.sim.tenant.collections.mobileApps.flatMap((item) =>
      (item.assignments as Array<{ target: Record<string, unknown> }>).map((assignment) => assignment.target),
    );
    expect(stored.some((target) => target.deviceAndAppManagementAssignmentFilterType === 'include')).toBe(true);
  });
});
