/**
 * The large simulated tenant in a process of its own, for the viewers bench: its heap (100,000
 * devices) must weigh on neither the server measured nor the clients measuring. Prints one JSON
 * line, the settings a server needs to read it as a configured tenant, a viewer's token (the
 * IT staff role, as the tab's sign-in gives) and `people` tokens more, each another user (the
 * server's per-person limits count each user on their own), then serves until SIGTERM. The first
 * people are the tenant's Intune administrators (`largeTenantAdministrators`), one each, their
 * tokens carrying the administrator's object id (`oid`, which the viewer scope matches against the
 * role assignments' admin groups), and `scopes` says which scope tags each holds (none: the whole
 * tenant); people past them are users of their own holding no role assignment.
 *
 * Options: --devices N (100000), --people N (0).
 */
import { parseArgs } from 'node:util';
import { IT_STAFF_ROLE } from '../src/server/tab-access.js';
import { simulatorEnvironment, startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant, largeTenantAdministrators } from '../src/sim/tenants/large-tenant.js';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' }, people: { type: 'string', default: '0' } }, strict: true });
const sim = await startSimulator({ tenant: buildLargeTenant({ devices: Number(values.devices) }) });
const issue = (objectId?: string) =>
  sim.entra.issueUserToken({ audience: sim.clientId, roles: [IT_STAFF_ROLE], lifetimeSeconds: 3600, ...(objectId ? { claims: { oid: objectId } } : {}) });
const token = await issue();
const administrators = largeTenantAdministrators();
const people = await Promise.all(Array.from({ length: Number(values.people) }, (_, index) => issue(administrators[index]?.objectId)));
console.log(
  JSON.stringify({
    env: simulatorEnvironment(sim),
    token,
    people,
    scopes: people.map((_, index) => administrators[index]?.tagIds ?? null),
  }),
);
await new Promise((resolve) => process.once('SIGTERM', resolve));
await sim.close();
