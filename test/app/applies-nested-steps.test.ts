import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { loadAppliesReads } from '../../src/core/applies/load.js';
import { loadAssignments } from '../../src/core/reports/assignment-hygiene/load.js';
import * as records from '../../src/core/reports/assignment-hygiene/demo-records.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';
import { blankTenant, managedDevice, useTestSimulator } from '../support/simulated-tenant.js';
import { found } from '../support/applies-answer.js';

const USER = '22222222-0000-4000-8000-0000000000a1';
const ENTRA_OBJECT = '33333333-0000-4000-8000-0000000000a1';
const USER_GROUP = '44444444-0000-4000-8000-0000000000a1';
const DEVICE_GROUP = '44444444-0000-4000-8000-0000000000a2';
const OUTER = '44444444-0000-4000-8000-0000000000a3';
const now = new Date('2026-11-25T09:00:00Z');
const STEP = 'nested groups not read (a member through them, as Graph lists it; the chain is not known)';

/**
 * A device and its primary user, each only transitively in one group (Outer, through a group of its
 * own), Outer excluded from a profile assigned to All users. The groups above each one's own group
 * cannot be read (403), so Outer is known from the transitive lists alone, for the user and for the device.
 */
function tenant(): SimTenant {
  const base = managedDevice(1);
  const device = { ...base, userId: USER, userPrincipalName: 'pat@fabrikam.example' };
  const entraDeviceId = String(base['azureADDeviceId']);
  const built = blankTenant();
  built.grantedRoles = [...built.grantedRoles, 'Device.Read.All'];
  built.entraDevices = new Map([[entraDeviceId.toLowerCase(), { id: ENTRA_OBJECT, deviceId: entraDeviceId, displayName: 'DESKTOP-00001' }]]);
  built.groups.set(USER_GROUP, { id: USER_GROUP, displayName: 'Pat and friends', members: [{ id: USER, type: 'user' }] });
  built.groups.set(DEVICE_GROUP, { id: DEVICE_GROUP, displayName: 'Desktops', members: [{ id: ENTRA_OBJECT, type: 'device' }] });
  built.groups.set(OUTER, {
    id: OUTER,
    displayName: 'Outer',
    members: [
      { id: USER_GROUP, type: 'group' },
      { id: DEVICE_GROUP, type: 'group' },
    ],
  });
  built.collections.managedDevices = [device];
  built.collections.deviceConfigurations = [
    records.deviceConfiguration({
      id: '77777777-7777-4777-8777-7777777777a1',
      displayName: 'Kiosk lockdown',
      targets: [{ kind: 'allUsers' }, { kind: 'exclude', groupId: OUTER }],
      now,
    }),
  ];
  return built;
}

const harness = useTestSimulator({ tenant: tenant() });

describe('a group both the device and its primary user are in only through groups not read', () => {
  it('holds both in one step, so a user exclusion through it still excludes', async () => {
    for (const id of [USER_GROUP, DEVICE_GROUP]) harness.sim.faults.add({ path: `/v1.0/groups/${id}/memberOf`, status: 403 });
    const graph = harness.client();
    const reads = await loadAppliesReads(graph, 'DESKTOP-00001', await loadAssignments({ graph }));
    // Outer lists one step, which holds the user and the device, each known only from its transitive list.
    const outer = reads.members.get(OUTER);
    expect(outer?.state === 'read' && outer.groupIds).toEqual([`${OUTER}/nested`]);
    const step = reads.members.get(`${OUTER}/nested`);
    expect(step?.state === 'read' && [[...step.userIds], [...step.deviceIds]]).toEqual([[USER], [ENTRA_OBJECT]]);

    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies('DESKTOP-00001');
    const lockdown = found(result)
      .groups.flatMap((group) => group.entries)
      .find((entry) => entry.name === 'Kiosk lockdown');
    // All users reaches the device through its primary user, whom Outer holds: excluded through the user.
    expect(lockdown?.exclusion?.words).toBe(`excluded through Outer → ${STEP} → its primary user pat@fabrikam.example → DESKTOP-00001`);
  });
});
