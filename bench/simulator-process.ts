/**
 * The large simulated tenant in a process of its own, for the viewers bench: its heap (100,000
 * devices) must weigh on neither the server measured nor the clients measuring. Prints one JSON
 * line, the settings a server needs to read it as a configured tenant and a viewer's token (the
 * IT staff role, as the tab's sign-in gives), then serves until SIGTERM.
 *
 * Options: --devices N (100000).
 */
import { parseArgs } from 'node:util';
import { IT_STAFF_ROLE } from '../src/server/tab-access.js';
import { simulatorEnvironment, startSimulator } from '../src/sim/simulator.js';
import { buildLargeTenant } from '../src/sim/tenants/large-tenant.js';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' } }, strict: true });
const sim = await startSimulator({ tenant: buildLargeTenant({ devices: Number(values.devices) }) });
const token = await sim.entra.issueUserToken({ audience: sim.clientId, roles: [IT_STAFF_ROLE], lifetimeSeconds: 3600 });
console.log(
  JSON.stringify({
    env: simulatorEnvironment(sim),
    token,
  }),
);
await new Promise((resolve) => process.once('SIGTERM', resolve));
await sim.close();
