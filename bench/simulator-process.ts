/**
 * The large simulated tenant in a process of its own, for the viewers bench: its heap (100,000
 * devices) must weigh on neither the server measured nor the clients measuring. Prints one JSON
 * line, the settings a server needs to read it as a configured tenant, a viewer's token (the
 * IT staff role, as the tab's sign-in gives) and `people` tokens more, each another user (the
 * server's per-person limits count each user on their own), then serves until SIGTERM.
 *
 * Options: --devices N (100000), --people N (0).
 */
import { parseArgs } from 'node:util';
import { IT_STAFF_ROLE } from '../src/server/tab-access.js';
import { simulatorEnvironment, startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant } from '../src/sim/tenants/large-tenant.js';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' }, people: { type: 'string', default: '0' } }, strict: true });
const sim = await startSimulator({ tenant: buildLargeTenant({ devices: Number(values.devices) }) });
const issue = () => sim.entra.issueUserToken({ audience: sim.clientId, roles: [IT_STAFF_ROLE], lifetimeSeconds: 3600 });
const token = await issue();
const people = await Promise.all(Array.from({ length: Number(values.people) }, issue));
console.log(
  JSON.stringify({
    env: simulatorEnvironment(sim),
    token,
    people,
  }),
);
await new Promise((resolve) => process.once('SIGTERM', resolve));
await sim.close();
