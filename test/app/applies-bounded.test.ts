import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import * as records from '../../src/core/reports/assignment-hygiene/demo-records.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';
import { blankTenant, managedDevice, useTestSimulator } from '../support/simulated-tenant.js';
import { found } from '../support/applies-answer.js';

const USER = '22222222-0000-4000-8000-000000000001';
const BUSY = '22222222-0000-4000-8000-000000000002';
const TOP = '44444444-4444-4444-8444-444444444444';
const MIDDLE = '44444444-4444-4444-8444-444444444445';
const KIOSKS = '55555555-5555-4555-8555-555555555555';
const groupId = (index: number) => `66666666-0000-4000-8000-${String(index).padStart(12, '0')}`;
const now = new Date('2026-11-25T09:00:00Z');

/**
 * The same directory and policies beside `devices` managed devices: the user of the first is in a
 * group nested two levels under an assigned group; the user of the second is in 1,200 groups (more
 * than one page of memberships, 999), one of them assigned; a group of devices is assigned too.
 */
function tenantWith(devices: number): SimTenant {
  const tenant = blankTenant();
  for (let index = 0; index < 1200; index += 1) tenant.groups.set(groupId(index), { id: groupId(index), displayName: `Field ${index}`, members: [{ id: BUSY, type: 'user' }] });
  tenant.groups.set(groupId(5000), { id: groupId(5000), displayName: 'Field crew', members: [{ id: USER, type: 'user' }] });
  tenant.groups.set(MIDDLE, { id: MIDDLE, displayName: 'Field teams', members: [{ id: groupId(5000), type: 'group' }] });
  tenant.groups.set(TOP, { id: TOP, displayName: 'Everyone in the field', members: [{ id: MIDDLE, type: 'group' }] });
  tenant.groups.set(KIOSKS, { id: KIOSKS, displayName: 'Kiosks', members: [{ id: '33333333-0000-4000-8000-000000000001', type: 'device' }] });
  tenant.collections.managedDevices = Array.from({ length: devices }, (_, index) => ({ ...managedDevice(index + 1), userPrincipalName: `user${index + 1}@fabrikam.example` }));
  tenant.collections.managedDevices[0] = { ...tenant.collections.managedDevices[0]!, userId: USER, userPrincipalName: 'field@fabrikam.example' };
  tenant.collections.managedDevices[1] = { ...tenant.collections.managedDevices[1]!, userId: BUSY, userPrincipalName: 'busy@fabrikam.example' };
  tenant.collections.deviceConfigurations = [
    records.deviceConfiguration({ id: '77777777-7777-4777-8777-777777777771', displayName: 'Field Wi-Fi', targets: [{ kind: 'include', groupId: TOP }], now }),
    records.deviceConfiguration({ id: '77777777-7777-4777-8777-777777777772', displayName: 'Kiosk mode', targets: [{ kind: 'include', groupId: KIOSKS }], now }),
    records.deviceConfiguration({ id: '77777777-7777-4777-8777-777777777773', displayName: 'Field 1199 printers', targets: [{ kind: 'include', groupId: groupId(1199) }], now }),
  ];
  return tenant;
}

const small = useTestSimulator({ tenant: tenantWith(1_000) });
const large = useTestSimulator({ tenant: tenantWith(20_000) });

function entries(result: AppliesResult) {
  return found(result).groups.flatMap((group) => group.entries);
}

describe('what applies costs the same requests whatever the number of devices', () => {
  it('makes the same requests for one device at 1,000 and at 20,000 devices, none of them a read of the device list', async () => {
    const counts: number[] = [];
    for (const harness of [small, large]) {
      const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
      // Report 2's lists and the settings of the device's policies (its conflicts), read once and kept.
      await service.applies('DESKTOP-00003');
      harness.sim.graph.clearLog();
      const result = await service.applies('DESKTOP-00001');
      expect(entries(result).map((entry) => [entry.name, entry.verdict])).toEqual([
        ['Field Wi-Fi', 'applies'],
        ['Kiosk mode', 'unknown'],
      ]);
      expect(entries(result)[1]!.words).toContain('Device.Read.All');
      expect(result.requests).toBe(harness.sim.graph.requests.filter((request) => !request.inBatch).length);
      for (const request of harness.sim.graph.requests.filter((sent) => sent.path === '/v1.0/deviceManagement/managedDevices'))
        expect(new URLSearchParams(request.query).get('$filter')).not.toBeNull();
      counts.push(result.requests);
      // Asked again while fresh: nothing is read.
      expect((await service.applies('DESKTOP-00001 ')).requests).toBe(0);
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeLessThanOrEqual(12);
  });

  it('explains the path through nested groups for a user', async () => {
    const service = new AppliesService({ graph: small.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies('field@fabrikam.example');
    expect(result.kind === 'found' && result.answer.subject).toMatchObject({ kind: 'user', id: USER });
    const wifi = entries(result).find((entry) => entry.name === 'Field Wi-Fi')!;
    expect(wifi.path.map((step) => step.words)).toEqual(['Everyone in the field', 'Field teams', 'Field crew', 'field@fabrikam.example']);
  });

  it("reads a user's memberships past one page to their end, and, with more groups than it may read upwards, says the chain to an assigned one is not known", async () => {
    const service = new AppliesService({ graph: small.client(), maxAgeMs: 60_000, log: () => undefined });
    await service.applies('no such thing');
    small.sim.graph.clearLog();
    const result = await service.applies('busy@fabrikam.example');
    // Graph lists no user's direct groups to this app (user-list-memberof: Directory.Read.All), and the
    // groups above 1,200 groups are more than a question reads: the path says its chain is not known.
    expect(entries(result).map((entry) => [entry.name, entry.verdict, entry.path.map((step) => step.words).join(' → ')])).toEqual([
      ['Field 1199 printers', 'applies', 'Field 1199 → nested groups not read (a member through them, as Graph lists it; the chain is not known) → busy@fabrikam.example'],
    ]);
    expect(small.sim.graph.requests.filter((request) => request.path === `/v1.0/users/${BUSY}/transitiveMemberOf`)).toHaveLength(2);
    expect(small.sim.graph.requests.filter((request) => request.path === `/v1.0/users/${BUSY}/memberOf`)).toEqual([]);
    expect(small.sim.graph.requests.filter((request) => request.path === '/v1.0/$batch')).toEqual([]);
  });

  it('lists two devices of one name as candidates', async () => {
    small.sim.tenant.collections.managedDevices.push({ ...managedDevice(5_000), deviceName: 'DESKTOP-00001' });
    const ambiguous = await new AppliesService({ graph: small.client(), maxAgeMs: 60_000, log: () => undefined }).applies('DESKTOP-00001');
    expect(ambiguous).toMatchObject({ kind: 'ambiguous', candidates: [{ kind: 'device' }, { kind: 'device' }], more: 0 });
  });
});
