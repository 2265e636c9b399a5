import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { readDemoSwitches, withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

// The demo app as `npm start -- --deny Device.Read.All` runs it (the product does not ask for the
// permission), and as the demo runs by default, its administrator having granted it.
const denied = readDemoSwitches(['Device.Read.All'], [], REPORTS);
if (!denied.ok) throw new Error(denied.message);
const withoutPermission = useTestSimulator({ tenant: withDenied(buildDemoTenant(), denied.switches.deny) });
const withPermission = useTestSimulator({ tenant: buildDemoTenant() });

const entry = (result: AppliesResult, name: string) => {
  if (result.kind !== 'found') throw new Error(`expected an answer, got ${result.kind}`);
  return result.answer.groups.flatMap((group) => group.entries).find((item) => item.name === name);
};

describe('device groups, through the Entra device the managed device names', () => {
  it('are unknown without Device.Read.All (--deny Device.Read.All), the permission named, and the device read refused', async () => {
    const service = new AppliesService({ graph: withoutPermission.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies(APPLIES_DEMO.device);
    expect(entry(result, APPLIES_DEMO.deviceGroups.object)).toMatchObject({ verdict: 'unknown' });
    expect(entry(result, APPLIES_DEMO.deviceGroups.object)!.words).toContain('Device.Read.All');
    expect(entry(result, APPLIES_DEMO.deviceGroups.app)).toMatchObject({ verdict: 'unknown' });
    // Groups of users only, seen whole in report 2's look-up, still decide: the primary user's groups apply.
    expect(entry(result, 'Regional Wi-Fi')).toMatchObject({ verdict: 'applies' });
    const refused = withoutPermission.sim.graph.requests.filter((request) => request.path.startsWith('/v1.0/devices('));
    expect(refused.map((request) => request.status)).toEqual([403]);
  });

  it('are decided with Device.Read.All, which the demo grants by default, the path through nested device groups explained', async () => {
    const service = new AppliesService({ graph: withPermission.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies(APPLIES_DEMO.device);
    expect(result.kind === 'found' && result.answer.subject).toMatchObject({ kind: 'device', entraObjectId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const screenSaver = entry(result, APPLIES_DEMO.deviceGroups.object)!;
    expect(screenSaver).toMatchObject({ verdict: 'applies' });
    expect(screenSaver.path.map((step) => step.words)).toEqual([...APPLIES_DEMO.deviceGroups.chain, APPLIES_DEMO.device]);
    expect(entry(result, APPLIES_DEMO.deviceGroups.app)).toMatchObject({ verdict: 'applies', intent: 'required' });
    // A device group the device is not in no longer makes anything unknown: no answer names Device.Read.All.
    expect(result.kind === 'found' && result.answer.groups.flatMap((group) => group.entries).filter((item) => item.words.includes('Device.Read.All'))).toEqual([]);
    // The device-group exclusion beside a user-group inclusion (mixed groups) stays as Microsoft's matrix says.
    expect(entry(result, APPLIES_DEMO.mixedGroups.deviceExclusionOnUserGroup)).toMatchObject({ verdict: 'applies' });
  });

  it('a user question reads no device', async () => {
    const service = new AppliesService({ graph: withPermission.client(), maxAgeMs: 60_000, log: () => undefined });
    withPermission.sim.graph.clearLog();
    const result = await service.applies(APPLIES_DEMO.user);
    expect(result.kind === 'found' && result.answer.subject.kind).toBe('user');
    expect(withPermission.sim.graph.requests.filter((request) => request.path.startsWith('/v1.0/devices('))).toEqual([]);
  });
});
