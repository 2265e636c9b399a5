import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { buildLargeTenant } from '../../src/sim/tenants/large-tenant.js';
import { seededRandom } from '../../src/sim/tenants/seeded-random.js';
import { COLLECTION_NAMES, recordsOf } from '../../src/sim/tenants/sim-tenant.js';
import type { GraphRecord, RecordList } from '../../src/sim/tenants/sim-tenant.js';
import { useRawGraph } from '../support/simulated-tenant.js';

/**
 * The large tenant's devices and the lists hanging off them are generated (each record made again
 * from the seed when asked for), not held: the simulator must serve them exactly as it serves a
 * stored list, paged, filtered, selected and by id.
 */
const tenant = buildLargeTenant({ devices: 3_000, now: new Date('2026-11-20T10:00:00Z') });
const graph = useRawGraph(tenant);

const all = (list: RecordList): GraphRecord[] => Array.from({ length: list.length }, (_, index) => list.at(index)!);

/** Every record of a list, following `@odata.nextLink` (bounded: a list of 3,000 devices is a few pages). */
async function readAll(path: string): Promise<{ records: Array<Record<string, unknown>>; pages: number }> {
  const records: Array<Record<string, unknown>> = [];
  let next: string | undefined = path;
  let pages = 0;
  while (next !== undefined && pages < 100) {
    const page = await graph.get(next);
    expect(page.status).toBe(200);
    records.push(...(page.body.value as Array<Record<string, unknown>>));
    next = page.body['@odata.nextLink'];
    pages += 1;
  }
  expect(next).toBeUndefined();
  return { records, pages };
}

describe('generated collections of the large tenant', () => {
  it("finds a device by name and a user's devices by UPN as a scan of every record would, filtered on the wire", async () => {
    const devices = all(recordsOf(tenant, 'managedDevices'));
    for (const [property, value] of [
      ['deviceName', String(devices[42]!.deviceName)],
      ['deviceName', String(devices[2_999]!.deviceName)],
      ['userPrincipalName', String(devices[7]!.userPrincipalName)],
      ['deviceName', 'NW-0000042'],
      ['deviceName', 'NO-SUCH-DEVICE'],
      // Names compared without case, as a scan without case would (src/sim/odata-query.ts, `sameFilterString`).
      ['deviceName', String(devices[42]!.deviceName).toLowerCase()],
      ['deviceName', String(devices[2_999]!.deviceName).toUpperCase()],
      ['userPrincipalName', String(devices[7]!.userPrincipalName).toUpperCase()],
    ] as const) {
      const scanned = devices.filter((device) => String(device[property]).toLowerCase() === value.toLowerCase()).map((device) => device.id);
      const { records } = await readAll(`/v1.0/deviceManagement/managedDevices?$filter=${property} eq '${value}'&$select=id`);
      expect(records.map((record) => record.id)).toEqual(scanned);
    }
  });

  it('holds none of the records, and makes each one again the same', () => {
    const devices = recordsOf(tenant, 'managedDevices');
    expect(tenant.collections.managedDevices).toEqual([]);
    expect(devices.length).toBe(3_000);
    const again = JSON.stringify(devices.at(1_234));
    devices.at(7);
    expect(JSON.stringify(devices.at(1_234))).toBe(again);

    // Every key, backup and performance row belongs to a Windows device of the list, by its Entra device id or its name.
    const windows = all(devices).filter((device) => device.operatingSystem === 'Windows');
    const entraIds = new Set(windows.map((device) => device.azureADDeviceId));
    const names = new Set(windows.map((device) => device.deviceName));
    const keys = all(recordsOf(tenant, 'bitlockerRecoveryKeys'));
    expect(keys.length).toBeGreaterThan(windows.length * 0.8);
    expect(keys.every((key) => entraIds.has(key.deviceId))).toBe(true);
    expect(keys.some((key) => key.volumeType === 'fixedDataVolume')).toBe(true);
    const backups = all(recordsOf(tenant, 'deviceLocalCredentials'));
    expect(backups.every((backup) => entraIds.has(backup.id))).toBe(true);
    const performance = all(recordsOf(tenant, 'userExperienceAnalyticsDevicePerformance'));
    // The tenant stops adding performance rows at 50,000 per 100,000 devices: 1,500 here.
    expect(performance.length).toBe(1_500);
    expect(performance.every((row) => names.has(row.deviceName))).toBe(true);
  });

  it('moves its seeded sequence on by a count of draws at once, as the draws themselves would', () => {
    const drawn = seededRandom(42);
    const skipped = seededRandom(42);
    for (const count of [1, 33, 0, 35, 100_000]) {
      for (let draw = 0; draw < count; draw += 1) drawn();
      skipped.skip(count);
      expect(skipped.position()).toBe(drawn.position());
      expect(skipped()).toBe(drawn());
    }
  });

  it('is the tenant its seed made before: a page of keys makes only the keys, yet every record is as it was', () => {
    // A SHA-256 over every record of every collection, its groups and singletons. Each list makes
    // only its own part of a device, skipping the draws of the rest: one draw too many or too few
    // would change a record here, and with it every benchmark figure measured on this tenant. The
    // viewer scope's tags, role assignments and admin groups, and report 3's objects' tags, come
    // from a sequence of their own after every other draw: without them the digest was
    // c5dad07bc06c3e79eaa2e74169e204b2f9139b09a788dd034f97eaf218f786de, as before they were added
    // (that digest is the one after profiles, compliance policies and apps came to carry Default).
    // The role definitions are drawn last of that sequence: without their collection the digest is
    // c728db8cc0d6b9fa179abbde1069845fdff3a78351039317c85df4b78b9bd95c, as before they were added.
    // The managed devices' scope tags come from each device's index, not a draw: without them the
    // digest is 5d04a051d3cc8f3f9779bdb5e1ac1474d456c917829cd431ea45283d94bb91f6, as before they were added.
    const hash = createHash('sha256');
    for (const name of COLLECTION_NAMES) {
      const list = recordsOf(tenant, name);
      hash.update(`${name}:${list.length}\n`);
      for (let index = 0; index < list.length; index += 1) hash.update(`${JSON.stringify(list.at(index))}\n`);
    }
    hash.update(JSON.stringify([...tenant.groups.values()]));
    hash.update(JSON.stringify(tenant.singletons));
    // The demo's setting definitions now name each choice's options (demo-setting-definitions.ts) and the
    // role definitions carry their read permissions (viewer-scope/demo.ts), so the digest moved with them.
    // Report 7's profiles then came to set the password's length and expiry (large-tenant.ts, from no
    // draw): without those fields the digest is 4d840285b2c9cb8b0b3d0b96ebc3b5b5caff1e558cfaae16e0a3cf45f6bd53b4.
    expect(hash.digest('hex')).toBe('d8110843e705b2f79dc36279a5e0614cafd9ef391d3f35c70a9edf6a189030ac');
  });

  it('serves a generated list page by page, the filter and $select applied, as a stored list is served', async () => {
    const select = 'id,deviceName,operatingSystem,azureADDeviceId';
    const { records, pages } = await readAll(`/v1.0/deviceManagement/managedDevices?$filter=operatingSystem eq 'Windows'&$select=${select}`);
    const expected = all(recordsOf(tenant, 'managedDevices'))
      .filter((device) => device.operatingSystem === 'Windows')
      .map((device) => Object.fromEntries(select.split(',').map((field) => [field, device[field]])));
    expect(records).toEqual(expected);
    expect(pages).toBeGreaterThan(1);
    // Asked again, the same pages: which devices pass the filter was found once and kept.
    expect((await readAll(`/v1.0/deviceManagement/managedDevices?$filter=operatingSystem eq 'Windows'&$select=${select}`)).records).toEqual(records);
  });

  it('serves one generated record by id, and 404 for an id it does not hold', async () => {
    const last = recordsOf(tenant, 'managedDevices').at(2_999)!;
    const one = await graph.get(`/v1.0/deviceManagement/managedDevices/${last.id}?$select=id,deviceName`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: last.id, deviceName: last.deviceName });
    const missing = await graph.get('/v1.0/deviceManagement/managedDevices/0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(missing.status).toBe(404);
  });
});
