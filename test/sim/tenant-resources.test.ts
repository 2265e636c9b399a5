import { describe, expect, it } from 'vitest';
import { REPORTS, ReportRegistry } from '../../src/core/reports/registry.js';
import type { ReportDefinition } from '../../src/core/reports/report-model.js';
import { MANAGED_DEVICES_PERMISSIONS } from '../../src/sim/resources/resource-model.js';
import type { SimResource } from '../../src/sim/resources/resource-model.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { emptyCollections } from '../../src/sim/tenants/sim-tenant.js';
import { staleDevicesReport } from '../fixtures/stale-devices/definition.js';
import { blankTenant, requestAppToken, startTestSimulator, useRawGraph } from '../support/simulated-tenant.js';

/**
 * A resource the simulator does not serve of its own, brought by its tenant (`SimTenant.resources`):
 * how a report that exists only in a test reads a Graph path no shipped report reads
 * (CONTRIBUTING.md, "Adding a simulator behaviour"). Device categories, on both segments
 * (intune-shared-devicecategory-list: DeviceManagementManagedDevices.Read.All among others); a
 * small page so that paging shows.
 */
const DEVICE_CATEGORIES = {
  kind: 'collection',
  path: '/deviceManagement/deviceCategories',
  source: 'deviceCategories',
  versions: ['v1.0', 'beta'],
  permissions: MANAGED_DEVICES_PERMISSIONS,
  workload: 'intune-devices',
  entitySet: 'deviceManagement/deviceCategories',
  navigation: [],
  defaultPageSize: 2,
  properties: { type: 'deviceCategory', 'v1.0': ['id', 'displayName', 'description'], beta: ['id', 'displayName', 'description', 'roleScopeTagIds'] },
} as const satisfies SimResource;

const categories = ['Kiosks', 'Shared tablets', 'Lab machines'].map((displayName, index) => ({
  id: `0000000${index}-0000-4000-8000-000000000000`,
  displayName,
  description: `${displayName} of the test tenant`,
}));

describe("a resource its tenant brings, served as the simulator's own", () => {
  const graph = useRawGraph(blankTenant({ resources: [DEVICE_CATEGORIES], collections: { ...emptyCollections(), deviceCategories: categories } }));

  it('pages it at its own page size, reads a record by id, and checks $select against its properties', async () => {
    const first = await graph.get('/v1.0/deviceManagement/deviceCategories');
    expect(first.status).toBe(200);
    expect(first.body.value?.map((category) => category.displayName)).toEqual(['Kiosks', 'Shared tablets']);
    const second = await graph.get(first.body['@odata.nextLink']!);
    expect(second.body.value?.map((category) => category.displayName)).toEqual(['Lab machines']);
    expect(second.body['@odata.nextLink']).toBeUndefined();

    const one = await graph.get(`/beta/deviceManagement/deviceCategories/${categories[2]!.id}?$select=displayName`);
    expect(one.body).toMatchObject({ displayName: 'Lab machines' });
    expect(one.body).not.toHaveProperty('description');
    expect((await graph.get('/v1.0/deviceManagement/deviceCategories?$select=roleScopeTagIds')).status).toBe(400);
  });

  it('is 403 to an app without one of its permissions', async () => {
    const app = graph.sim.addApplication({ roles: ['DeviceManagementConfiguration.Read.All'] });
    const token = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    expect((await graph.get('/v1.0/deviceManagement/deviceCategories', { bearer: token })).status).toBe(403);
  });
});

describe('a tenant that brings a resource the simulator serves already', () => {
  it('is refused when the simulator starts: one path, one resource', async () => {
    const managedDevices = { ...DEVICE_CATEGORIES, path: '/deviceManagement/managedDevices', source: 'managedDevices' };
    await expect(startTestSimulator({ tenant: blankTenant({ resources: [managedDevices] }) })).rejects.toThrow('the simulator serves /deviceManagement/managedDevices twice');
  });
});

describe('the demo tenant, given a resource of a report that exists only in a test', () => {
  // The seventh report of test/fixtures/stale-devices/, planting a category as well as its kiosks.
  const withCategory: ReportDefinition<unknown> = {
    ...(staleDevicesReport as ReportDefinition<unknown>),
    demo: [{ step: 16, plant: (tenant) => tenant.add('deviceCategories', { id: tenant.guid(), displayName: 'Lobby kiosks' }) }],
  };
  const registry = new ReportRegistry([...REPORTS.definitions, withCategory]);

  it("lets the report's steps plant into its collection, and carries the resource to the simulator", () => {
    const tenant = buildDemoTenant({ registry, resources: [DEVICE_CATEGORIES] });
    expect(tenant.collections.deviceCategories?.map((category) => category.displayName)).toEqual(['Lobby kiosks']);
    expect(tenant.resources).toEqual([DEVICE_CATEGORIES]);
  });

  it('refuses a step that plants into a collection no resource serves', () => {
    expect(() => buildDemoTenant({ registry })).toThrow('the simulator serves no collection "deviceCategories"');
  });
});
