import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { requestAppToken, useRawGraph } from '../support/simulated-tenant.js';

/**
 * One object's assignments on beta (report 2): a profile's, a compliance policy's and an
 * app's `/{id}/assignments`, with the filter fields beta declares on their targets, paged, 404 for
 * an unknown id, under the list's permission and throttling workload.
 */
const tenant = buildDemoTenant({ now: new Date('2026-11-22T09:00:00Z') });
const graph = useRawGraph(tenant);

const raw = (pathOrUrl: string, bearer?: string) => graph.get(pathOrUrl, bearer ? { bearer } : {});

const named = (collection: 'deviceConfigurations' | 'deviceCompliancePolicies' | 'mobileApps', name: string) =>
  tenant.collections[collection].find((record) => record.displayName === name)!;

const CASES = [
  ['/deviceManagement/deviceConfigurations', named('deviceConfigurations', 'Windows - BitLocker (legacy)')],
  ['/deviceManagement/deviceCompliancePolicies', named('deviceCompliancePolicies', 'Windows - Compliance (corporate split)')],
  ['/deviceAppManagement/mobileApps', named('mobileApps', 'Contoso Travel')],
] as const;

describe("an object's assignments on beta", () => {
  it.each(CASES)('%s/{id}/assignments serves the stored assignments with their filter fields, paged', async (collection, record) => {
    const stored = record.assignments as Array<{ id: string; target: Record<string, unknown> }>;
    expect(stored.length).toBe(2);
    const first = await raw(`/beta${collection}/${record.id}/assignments?$top=1`);
    expect(first.status).toBe(200);
    expect(first.body['@odata.context']).toContain(`${collection.slice(1)}('${record.id}')/assignments`);
    expect(first.body.value).toHaveLength(1);
    const link = first.body['@odata.nextLink']!;
    expect(new URL(link).pathname).toBe(`/beta${collection}/${record.id}/assignments`);
    const second = await raw(link);
    expect(second.body['@odata.nextLink']).toBeUndefined();
    const served = [...first.body.value!, ...second.body.value!];
    expect(served.map((assignment) => assignment.id)).toEqual(stored.map((assignment) => assignment.id));
    for (const assignment of served) {
      const target = assignment.target as Record<string, unknown>;
      expect(['include', 'exclude']).toContain(target.deviceAndAppManagementAssignmentFilterType);
      expect(typeof target.deviceAndAppManagementAssignmentFilterId).toBe('string');
    }
  });

  it('answers 404 in Graph error shape for an id the tenant does not hold, and is not served on /v1.0', async () => {
    const unknown = await raw('/beta/deviceManagement/deviceConfigurations/0f8fad5b-d9cb-469f-a165-70867728950e/assignments');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('ResourceNotFound');
    const [, record] = CASES[0];
    expect((await raw(`/v1.0/deviceManagement/deviceConfigurations/${record.id}/assignments`)).status).toBe(400);
  });

  it("needs the list's permission: DeviceManagementApps.* for an app, DeviceManagementConfiguration.* for a profile", async () => {
    const app = graph.sim.addApplication({ roles: ['DeviceManagementApps.Read.All'] });
    const appsOnly = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    const [, profile] = CASES[0];
    const [, , [, travel]] = CASES;
    expect((await raw(`/beta/deviceAppManagement/mobileApps/${travel.id}/assignments`, appsOnly)).status).toBe(200);
    expect((await raw(`/beta/deviceManagement/deviceConfigurations/${profile.id}/assignments`, appsOnly)).status).toBe(403);
  });
});
