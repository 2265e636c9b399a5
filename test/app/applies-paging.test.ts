import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import * as records from '../../src/core/reports/assignment-hygiene/demo-records.js';
import { blankTenant, managedDevice, useTestSimulator } from '../support/simulated-tenant.js';

const BIG = '44444444-4444-4444-8444-444444444444';
const KIOSKS = '55555555-5555-4555-8555-555555555555';
const userId = (index: number) => `22222222-0000-4000-8000-${String(index).padStart(12, '0')}`;
const now = new Date('2026-11-25T09:00:00Z');

const tenant = blankTenant();
// A group longer than one page of members (999), the user last; a group of devices.
tenant.groups.set(BIG, { id: BIG, displayName: 'Everyone in the field', members: Array.from({ length: 1200 }, (_, index) => ({ id: userId(index), type: 'user' })) });
tenant.groups.set(KIOSKS, { id: KIOSKS, displayName: 'Kiosks', members: [{ id: '33333333-0000-4000-8000-000000000001', type: 'device' }] });
tenant.collections.managedDevices = [
  { ...managedDevice(1), userId: userId(1199), userPrincipalName: 'field@fabrikam.example', osVersion: '10.0.19045.1', model: 'Surface Go 3' },
  { ...managedDevice(2), userId: userId(1199), userPrincipalName: 'field@fabrikam.example', osVersion: '10.0.22631.1', model: 'Surface Go 3' },
];
tenant.collections.deviceConfigurations = [
  records.deviceConfiguration({ id: '66666666-6666-4666-8666-666666666661', displayName: 'Field Wi-Fi', targets: [{ kind: 'include', groupId: BIG }], now }),
  records.deviceConfiguration({ id: '66666666-6666-4666-8666-666666666662', displayName: 'Kiosk mode', targets: [{ kind: 'include', groupId: KIOSKS }], now }),
];
const harness = useTestSimulator({ tenant });

describe('what applies, with a group longer than a page and a group of devices', () => {
  it('reads a long member list to its end, and leaves a device group unknown for a device', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies('DESKTOP-00001');
    if (result.kind !== 'found') throw new Error(result.kind);
    const entries = result.answer.groups.flatMap((group) => group.entries);
    expect(entries.map((entry) => [entry.name, entry.verdict])).toEqual([
      ['Field Wi-Fi', 'applies'],
      ['Kiosk mode', 'unknown'],
    ]);
    // The batch's first page, then the long list again as two pages.
    const memberPages = harness.sim.graph.requests.filter((request) => request.path === `/v1.0/groups/${BIG}/members`);
    expect(memberPages.map((request) => request.inBatch)).toEqual([true, false, false]);
  });

  it('answers for a user with several devices once, and lists two devices of one name as candidates', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const user = await service.applies('field@fabrikam.example');
    expect(user.kind === 'found' && user.answer.subject).toMatchObject({ kind: 'user', id: userId(1199) });
    harness.sim.tenant.collections.managedDevices.push({ ...managedDevice(3), deviceName: 'DESKTOP-00001' });
    const ambiguous = await new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined }).applies('DESKTOP-00001');
    expect(ambiguous).toMatchObject({ kind: 'ambiguous', candidates: [{ kind: 'device' }, { kind: 'device' }], more: 0 });
  });
});
