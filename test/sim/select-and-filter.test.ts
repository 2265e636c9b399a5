import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useRawGraph } from '../support/simulated-tenant.js';

/**
 * `$select` as strict as Graph's: a property the entity type does not have is a 400 with Graph's own
 * words (microsoftgraph/microsoft-graph-docs#9988), a property of a derived type named on its base
 * type's list too (msgraph-beta-sdk-dotnet#563), and so is a beta-only property read on `/v1.0`.
 * And `$filter` on a managed device's `operatingSystem`, which Graph answers on both versions
 * (microsoft-graph-explorer-v4#3125).
 */
const graph = useRawGraph(buildDemoTenant({ now: new Date('2026-11-21T12:00:00Z') }));

const notFound = (property: string, type: string) => `Parsing OData Select and Expand failed: Could not find a property named '${property}' on type 'microsoft.graph.${type}'.`;

describe('$select', () => {
  it('keeps only the properties it names (and the id it names)', async () => {
    const { status, body } = await graph.get('/v1.0/deviceManagement/managedDevices?$select=id,deviceName,operatingSystem');
    expect(status).toBe(200);
    expect(body.value!.length).toBeGreaterThan(0);
    for (const device of body.value!) expect(Object.keys(device).sort()).toEqual(['deviceName', 'id', 'operatingSystem']);
  });

  it('is a 400 in Graph words for a property the entity type does not have', async () => {
    const { status, body } = await graph.get('/v1.0/deviceManagement/managedDevices?$select=id,deviceNme');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'BadRequest', message: notFound('deviceNme', 'managedDevice') });
  });

  it('is a 400 for a property of a derived type named on the list of its base type', async () => {
    const { status, body } = await graph.get('/beta/deviceAppManagement/mobileApps?$select=id,appAvailability');
    expect(status).toBe(400);
    expect(body.error?.message).toBe(notFound('appAvailability', 'mobileApp'));
  });

  it('is a 400 on /v1.0 for a property only the beta schema has, which beta serves', async () => {
    const v1 = await graph.get('/v1.0/deviceManagement/managedDevices?$select=id,joinType');
    expect(v1.status).toBe(400);
    expect(v1.body.error?.message).toBe(notFound('joinType', 'managedDevice'));
    const beta = await graph.get('/beta/deviceManagement/managedDevices?$select=id,joinType');
    expect(beta.status).toBe(200);
    expect(beta.body.value!.some((device) => device.joinType === 'hybridAzureADJoined')).toBe(true);
    for (const device of beta.body.value!) expect(Object.keys(device).sort()).toEqual(['id', 'joinType']);
  });

  it('accepts a documented property the stored records do not carry', async () => {
    // The demo's devices have no `notes`; the managedDevice type declares it.
    const { status, body } = await graph.get('/v1.0/deviceManagement/managedDevices?$select=id,notes');
    expect(status).toBe(200);
    expect(body.value!.every((device) => !('notes' in device))).toBe(true);
  });

  it('leaves an expanded navigation property in, whatever it selects', async () => {
    const { status, body } = await graph.get('/v1.0/deviceManagement/deviceConfigurations?$select=id,displayName&$expand=assignments');
    expect(status).toBe(200);
    for (const policy of body.value!) {
      expect(Array.isArray(policy.assignments)).toBe(true);
      expect(
        Object.keys(policy)
          .filter((key) => !key.startsWith('@'))
          .sort(),
      ).toEqual(['assignments', 'displayName', 'id']);
    }
  });

  it('checks the escrow lists too, and never returns a secret it was not asked for', async () => {
    const { status, body } = await graph.get('/v1.0/directory/deviceLocalCredentials?$select=id,lastBackupDateTime');
    expect(status).toBe(200);
    for (const info of body.value!) expect(Object.keys(info).sort()).toEqual(['id', 'lastBackupDateTime']);
    expect((await graph.get('/v1.0/directory/deviceLocalCredentials?$select=id,password')).status).toBe(400);
  });
});

describe("$filter=operatingSystem eq '…' on managed devices", () => {
  it('keeps the devices whose operating system is that value, on /v1.0 and beta, matching exactly', async () => {
    for (const version of ['v1.0', 'beta']) {
      const all = await graph.get(`/${version}/deviceManagement/managedDevices?$select=id,operatingSystem`);
      const windows = await graph.get(`/${version}/deviceManagement/managedDevices?$select=id,operatingSystem&$filter=operatingSystem eq 'Windows'`);
      expect(windows.status).toBe(200);
      const expected = all.body.value!.filter((device) => device.operatingSystem === 'Windows').map((device) => device.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(windows.body.value!.map((device) => device.id)).toEqual(expected);
      // The demo's one device spelt 'windows' is not matched: Graph documents no case-insensitive `eq` here.
      expect(all.body.value!.some((device) => device.operatingSystem === 'windows')).toBe(true);
      expect(windows.body.value!.some((device) => device.operatingSystem === 'windows')).toBe(false);
    }
  });

  it('keeps the filter and the selection on every page its nextLinks lead to', async () => {
    let next: string | undefined = "/v1.0/deviceManagement/managedDevices?$select=id,operatingSystem&$filter=operatingSystem eq 'Windows'&$top=50";
    let pages = 0;
    const ids: unknown[] = [];
    while (next) {
      const { status, body } = await graph.get(next);
      expect(status).toBe(200);
      for (const device of body.value!) {
        expect(Object.keys(device).sort()).toEqual(['id', 'operatingSystem']);
        expect(device.operatingSystem).toBe('Windows');
        ids.push(device.id);
      }
      pages += 1;
      next = body['@odata.nextLink'];
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is a 400 on a property the list does not filter on', async () => {
    expect((await graph.get("/v1.0/deviceManagement/managedDevices?$filter=model eq 'Surface Laptop 5'")).status).toBe(400);
  });
});
