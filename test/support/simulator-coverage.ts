import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betaTwinOf, pathFor } from '../../src/core/graph/upstream-read.js';
import type { UpstreamRead } from '../../src/core/graph/upstream-read.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { requestAppToken, useTestSimulator } from './simulated-tenant.js';

/**
 * The simulator's coverage of declared reads (docs/architecture.md, "Declared reads"): each read
 * answers as an app holding only the permission the read asks for, and is refused (403) to an app
 * holding every other permission asked for but none of the read's. test/sim/declared-reads.test.ts
 * runs it over the product's reads, test/core/reports/registry.test.ts over a seventh report's.
 */

/** An id of a record the path's `{id}` can stand for: the segment before it names its collection. */
function anIdFor(tenant: SimTenant, path: string): string {
  const collection = /\/([A-Za-z]+)\/\{id\}/.exec(path)?.[1];
  const first = (ids: Iterable<string>) => {
    for (const id of ids) return id;
    throw new Error(`the tenant holds no record for ${path}`);
  };
  if (collection === 'groups') return first(tenant.groups.keys());
  if (collection === 'users') return first([...tenant.groups.values()].flatMap((group) => group.members.filter((member) => member.type === 'user').map((member) => member.id)));
  if (path.includes("/devices(deviceId='{id}')")) return first([...(tenant.entraDevices?.values() ?? [])].map((device) => device.deviceId));
  if (collection === 'deletedItems') return first(tenant.deletedGroups?.keys() ?? []);
  const records = (tenant.collections as Record<string, Array<{ id: string; '@odata.type'?: unknown }> | undefined>)[collection ?? ''] ?? [];
  // A profile report 7 reads by id is a device restrictions one; a type only beta declares is not on /v1.0 (404 there).
  if (collection === 'deviceConfigurations')
    return first(records.filter((record) => record['@odata.type'] === '#microsoft.graph.windows10GeneralConfiguration').map((record) => record.id));
  return first(records.map((record) => record.id));
}

/** Checks each of `reads` against a simulator over `tenant`: a plain GET with the read's own `$select`, as an app holding one permission or all `asked` but the read's. */
export function describeSimulatorCoverage(title: string, tenant: () => SimTenant, reads: () => readonly UpstreamRead[], asked: () => readonly string[]): void {
  describe(title, () => {
    const harness = useTestSimulator({ tenant: tenant() });
    let dispatcher: Agent;
    beforeAll(() => void (dispatcher = new Agent({ connect: { ca: harness.sim.caPem } })));
    afterAll(() => dispatcher?.close());

    const tokenFor = async (sim: Simulator, roles: readonly string[]) => {
      const app = sim.addApplication({ roles });
      return requestAppToken(sim, { clientId: app.clientId, secret: app.secrets[0]! });
    };
    const status = async (path: string, read: UpstreamRead, token: string, beta = false, select = beta && read.betaSelect ? read.betaSelect : read.select) => {
      const query = select ? `?$select=${select.join(',')}` : '';
      const target = path.includes('{id}') ? pathFor({ path }, anIdFor(harness.sim.tenant, path)) : path;
      const response = await request(`${harness.sim.graphUrl}${target}${query}`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'coverage-test' }, dispatcher });
      await response.body.dump();
      return response.statusCode;
    };

    it.each(reads().map((read) => [read.path, read] as const))('serves %s with its permission, and refuses it without', async (_path, read) => {
      const granted = await tokenFor(harness.sim, [read.permissions[0]]);
      const refused = await tokenFor(
        harness.sim,
        asked().filter((permission) => !(read.permissions as readonly string[]).includes(permission)),
      );
      expect(await status(read.path, read, granted)).toBe(200);
      if (read.betaTwin) expect(await status(betaTwinOf(read.path), read, granted, true)).toBe(200);
      // With the viewer scope on, the twin read for the objects' scope tags, with its own `$select`.
      if (read.scopeTagsSelect) {
        expect(await status(betaTwinOf(read.path), read, granted, true, read.scopeTagsSelect)).toBe(200);
        expect(await status(betaTwinOf(read.path), read, refused, true, read.scopeTagsSelect)).toBe(403);
        // `/v1.0` has no scope tags: a `$select` naming them is refused there.
        expect(await status(read.path, read, granted, false, read.scopeTagsSelect)).toBe(400);
      }
      expect(await status(read.path, read, refused)).toBe(403);
    });
  });
}
