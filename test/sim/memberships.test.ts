import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { requestAppToken, useRawGraph } from '../support/simulated-tenant.js';

/**
 * The membership reads "what applies" makes, as Microsoft documents them (src/sim/memberships.ts):
 * pages of 100 and `$top` to 999, advanced queries refused without `ConsistencyLevel: eventual`,
 * hidden-membership groups left out, and the device reads refused without Device.Read.All.
 */
// Without Device.Read.All (`--deny Device.Read.All`; the demo grants it), so the device reads are refused.
const tenant = withDenied(buildDemoTenant(), ['Device.Read.All']);
const graph = useRawGraph(tenant);
const groupNamed = (name: string) => [...tenant.groups.values()].find((group) => group.displayName === name)!;
const user40 = () => groupNamed('Executives').members[0]!.id;

describe("the simulator's membership reads", () => {
  it("refuses a user's direct groups to an app holding Group.Read.All, as user-list-memberof lists only Directory.Read.All and Directory.ReadWrite.All for an application", async () => {
    const refused = await graph.get(`/v1.0/users/${user40()}/memberOf?$select=id,displayName`);
    expect(refused.status).toBe(403);
    const app = graph.sim.addApplication({ roles: ['Group.Read.All', 'User.Read.All', 'GroupMember.Read.All'] });
    const bearer = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    expect((await graph.get(`/v1.0/users/${user40()}/memberOf?$select=id`, { bearer })).status).toBe(403);
    expect((await graph.get(`/v1.0/users/${user40()}/transitiveMemberOf?$select=id`, { bearer })).status).toBe(200);
  });

  it("lists a user's groups, transitive ones included, without the hidden-membership group", async () => {
    const app = graph.sim.addApplication({ roles: ['Directory.Read.All'] });
    const bearer = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    const direct = await graph.get(`/v1.0/users/${user40()}/memberOf?$select=id,displayName`, { bearer });
    const all = await graph.get(`/v1.0/users/${user40()}/transitiveMemberOf?$select=id,displayName`);
    expect(direct.status).toBe(200);
    const names = (body: typeof direct.body) => (body.value as Array<{ displayName: string }>).map((group) => group.displayName);
    expect(names(direct.body)).toContain('Sales EMEA');
    expect(names(direct.body)).not.toContain('Sales');
    expect(names(all.body)).toEqual(expect.arrayContaining(['Sales EMEA', 'Sales', 'Regional Offices', 'Executives', 'VPN Exclusions']));
    // Member.Read.Hidden is not granted: the hidden group is not listed, though user40 is in it.
    expect(names(all.body)).not.toContain(APPLIES_DEMO.hidden.group);
  });

  it('refuses a $filter, a $search or a cast without ConsistencyLevel eventual and $count, and a $top past 999', async () => {
    const path = `/v1.0/users/${user40()}/transitiveMemberOf`;
    for (const query of ["?$filter=displayName eq 'Sales'", '?$search="displayName:Sales"', '/microsoft.graph.group']) {
      const answer = await graph.get(`${path}${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.body as { error?: { code?: string } }).error?.code, query).toBe('Request_UnsupportedQuery');
    }
    expect((await graph.get(`${path}?$top=1000`)).status).toBe(400);
    const page = await graph.get(`${path}?$top=2&$select=id`);
    expect((page.body.value as unknown[]).length).toBe(2);
    expect(page.body['@odata.nextLink']).toBeDefined();
  });

  it("answers 404 for a user the directory does not have, and 403 for a device's groups without Device.Read.All", async () => {
    expect((await graph.get('/v1.0/users/0f8fad5b-d9cb-469f-a165-70867728950e/transitiveMemberOf')).status).toBe(404);
    const entra = [...(tenant.entraDevices?.values() ?? [])][0]!;
    expect((await graph.get(`/v1.0/devices(deviceId='${entra.deviceId}')/transitiveMemberOf`)).status).toBe(403);
    const app = graph.sim.addApplication({ roles: ['Device.Read.All'] });
    const bearer = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    const groups = await graph.get(`/v1.0/devices(deviceId='${entra.deviceId}')/transitiveMemberOf?$select=displayName`, { bearer });
    expect((groups.body.value as Array<{ displayName: string }>).map((group) => group.displayName).sort()).toEqual([...APPLIES_DEMO.deviceGroups.chain].sort());
    expect((await graph.get("/v1.0/devices(deviceId='0f8fad5b-d9cb-469f-a165-70867728950e')", { bearer })).status).toBe(404);
  });

  it('finds groups by display name, whatever its case, and refuses other filters', async () => {
    const found = await graph.get("/v1.0/groups?$filter=displayName eq 'Sales EMEA'&$select=id,displayName");
    expect((found.body.value as Array<{ id: string }>).map((group) => group.id)).toEqual([groupNamed('Sales EMEA').id]);
    // Compared without case, as Graph compares a directory object's name (src/sim/odata-query.ts, `sameFilterString`).
    expect(((await graph.get("/v1.0/groups?$filter=displayName eq 'sales emea'")).body.value as Array<{ id: string }>).map((group) => group.id)).toEqual([
      groupNamed('Sales EMEA').id,
    ]);
    expect(((await graph.get("/v1.0/groups?$filter=displayName eq 'Sales EMEA North'")).body.value as unknown[]).length).toBe(0);
    expect((await graph.get("/v1.0/groups?$filter=startswith(displayName,'Sales')")).status).toBe(400);
  });
});

describe("the simulator's list of a user's managed devices", () => {
  it("lists the devices whose primary user is that user, selected and paged as the tenant's list, and refuses it without a managed devices permission", async () => {
    const user = user40();
    const theirs = tenant.collections.managedDevices.filter((device) => String(device.userId).toLowerCase() === user.toLowerCase());
    expect(theirs.length).toBeGreaterThan(1);
    const answer = await graph.get(`/v1.0/users/${user}/managedDevices?$select=id,deviceName,operatingSystem`);
    expect(answer.status).toBe(200);
    const listed = answer.body.value as Array<Record<string, unknown>>;
    expect(listed.map((device) => device.id).sort()).toEqual(theirs.map((device) => device.id).sort());
    expect(Object.keys(listed[0]!).sort()).toEqual(['deviceName', 'id', 'operatingSystem']);
    // Beta-only properties are unknown to /v1.0, as on the tenant's list; a page of one has a next link.
    expect((await graph.get(`/v1.0/users/${user}/managedDevices?$select=id,joinType`)).status).toBe(400);
    expect((await graph.get(`/v1.0/users/${user}/managedDevices?$top=1`)).body['@odata.nextLink']).toBeDefined();
    // A user the directory does not hold: 404. Without DeviceManagementManagedDevices.Read.All: 403.
    expect((await graph.get('/v1.0/users/0f8fad5b-d9cb-469f-a165-70867728950e/managedDevices')).status).toBe(404);
    const app = graph.sim.addApplication({ roles: ['User.Read.All', 'Group.Read.All'] });
    const bearer = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    expect((await graph.get(`/v1.0/users/${user}/managedDevices`, { bearer })).status).toBe(403);
  });
});
