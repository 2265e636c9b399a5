import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { entry, found } from '../support/applies-answer.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

describe('what applies, on the demo tenant', () => {
  it('answers for a device: nested chain, exclusion through a nested group, unreadable group, filters, app intents; then answers again from what it read', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies(APPLIES_DEMO.device);
    expect(found(result).subject).toMatchObject({ kind: 'device', name: APPLIES_DEMO.device });
    expect(entry(result, 'Regional Wi-Fi')).toMatchObject({ verdict: 'applies', typeLabel: 'Configuration profiles' });
    expect(entry(result, 'Regional Wi-Fi')!.path.map((step) => step.words)).toEqual([...APPLIES_DEMO.chain, 'its primary user user40@contoso-demo.example', APPLIES_DEMO.device]);
    expect(entry(result, 'Regional VPN')).toMatchObject({ verdict: 'excluded', exclusion: { kind: 'group' } });
    expect(entry(result, 'Regional VPN')!.words).toContain('VPN Exclusions → Executives');
    // Its members answer 500, but the question reads the primary user's groups, which list it.
    expect(entry(result, 'Contractor compliance')).toMatchObject({ verdict: 'applies', typeLabel: 'Compliance policies' });
    // A device group, read through the Entra device with Device.Read.All, which the demo grants (without it: applies-device-groups.test.ts).
    expect(entry(result, APPLIES_DEMO.deviceGroups.object)).toMatchObject({ verdict: 'applies' });
    expect(entry(result, APPLIES_DEMO.deviceGroups.object)!.path.map((step) => step.words)).toEqual([...APPLIES_DEMO.deviceGroups.chain, APPLIES_DEMO.device]);
    expect(entry(result, 'Windows 10 clean-up')).toMatchObject({ verdict: 'excluded', exclusion: { kind: 'filter', filter: { verdict: 'out', name: 'Windows 11 devices' } } });
    expect(entry(result, 'Windows 11 start menu repair')).toMatchObject({ verdict: 'applies', filter: { verdict: 'in' } });
    expect(['Sales CRM', 'Sales Toolkit', 'Legacy Sales Dialer'].map((name) => entry(result, name)?.intent)).toEqual(['required', 'available', 'uninstall']);
    expect(entry(result, 'Regional Wi-Fi')!.link).toMatch(/^https:\/\/intune\.microsoft\.com\//);
    expect(result.requests).toBeGreaterThan(0);

    // The same question again within the reports' freshness reads nothing; another reads only about its own subject.
    expect((await service.applies(APPLIES_DEMO.device)).requests).toBe(0);
    const other = await service.applies(APPLIES_DEMO.user);
    expect(other.requests).toBeGreaterThan(0);
    expect(other.requests).toBeLessThan(result.requests);
    expect(found(other).subject).toMatchObject({ kind: 'user' });
    expect(entry(other, 'Regional VPN')?.verdict).toBe('applies');
    expect((await service.applies(APPLIES_DEMO.user)).requests).toBe(0);
  });

  it("counts its requests: report 2's assignments once, then a few reads about the device, never the device list or a group's members", async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    harness.sim.graph.clearLog();
    const result = await service.applies(APPLIES_DEMO.device);
    const sent = harness.sim.graph.requests.filter((request) => !request.inBatch);
    expect(result.requests).toBe(sent.length);
    expect(harness.sim.graph.requests.filter((request) => /\/members$/.test(request.path))).toEqual([]);
    const deviceReads = sent.filter((request) => request.path === '/v1.0/deviceManagement/managedDevices');
    expect(deviceReads.map((request) => new URLSearchParams(request.query).get('$filter'))).toEqual([`deviceName eq '${APPLIES_DEMO.device}'`]);
    // Once report 2's assignments are kept, a question about another device is its own reads only: the device by
    // name, a group by that name, the primary user's groups (all: their direct ones are not listed to this app),
    // the Entra device and its groups (all, and direct: the demo grants Device.Read.All), and the groups above
    // each of the user's, in one $batch call: 7.
    harness.sim.graph.clearLog();
    const next = await service.applies('CONTOSO-0041');
    expect(found(next).subject).toMatchObject({ kind: 'device', name: 'CONTOSO-0041' });
    expect(next.requests).toBe(harness.sim.graph.requests.filter((request) => !request.inBatch).length);
    expect(next.requests).toBe(7);
  });

  it('answers for a group nested in assigned groups', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies('Sales EMEA');
    expect(entry(result, 'Regional Wi-Fi')!.path.map((step) => step.words)).toEqual(APPLIES_DEMO.chain);
    expect(entry(result, 'Legacy Sales Dialer')?.intent).toBe('uninstall');
  });

  it('finds a device, a user and a group whatever the case asked, each case its own look-up', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    for (const [asked, kind, name] of [
      ['contoso-0026', 'device', 'CONTOSO-0026'],
      ['sales emea', 'group', 'Sales EMEA'],
      ['USER41@CONTOSO-DEMO.EXAMPLE', 'user', APPLIES_DEMO.user],
    ] as const) {
      expect(found(await service.applies(asked)).subject).toMatchObject({ kind, name });
    }
  });

  it.each([
    ['contoso-0027', 'CONTOSO-0027'],
    ['CONTOSO-0027', 'contoso-0027'],
  ])('asked %s first and then %s, answers the device both times: no answer kept for one case stands for the other', async (first, second) => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    expect(found(await service.applies(first)).subject).toMatchObject({ kind: 'device', name: 'CONTOSO-0027' });
    const again = await service.applies(second);
    expect(found(again).subject).toMatchObject({ kind: 'device', name: 'CONTOSO-0027' });
    // The other case is looked up for itself (Graph asked with its own words), then kept like the first.
    expect(again.requests).toBeGreaterThan(0);
    expect((await service.applies(`  ${second} `)).requests).toBe(0);
  });

  it('says when nothing is found', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies('NO-SUCH-DEVICE');
    expect(result).toMatchObject({ kind: 'notFound' });
  });

  it('never says nothing is called an id whose group or user could not be read, and asks again at the next question', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const id = '6b0f3c2e-9d4a-4c1b-8e7f-2a5d9c0b1e3f';
    // Report 2's assignments first, whose own group look-ups the fault below would fail.
    expect(await service.applies('NO-SUCH-DEVICE')).toMatchObject({ kind: 'notFound' });
    const removeFault = harness.sim.faults.add({ path: /^\/v1\.0\/groups\/[0-9a-f-]{36}$/, status: 403 });
    try {
      const failed = await service.applies(id);
      expect(failed.kind === 'failed' && failed.words).toContain(`"${id}" could not be looked up: a group with that id could not be read`);
    } finally {
      removeFault();
    }
    // Nothing failed this time: the directory has no such group or user.
    expect(await service.applies(id)).toMatchObject({ kind: 'notFound' });
  });

  it('says the tenant could not be read when a read fails, keeps no half a load, and reads again at the next question', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const removeFault = harness.sim.faults.add({ path: '/v1.0/deviceManagement/managedDevices', status: 403, times: 1 });
    try {
      const failed = await service.applies(APPLIES_DEMO.device);
      expect(failed).toMatchObject({ kind: 'failed', query: APPLIES_DEMO.device });
      expect(failed.kind === 'failed' && failed.words).toMatch(/^The tenant could not be read: .*403/);
      expect(failed.requests).toBeGreaterThan(0);
    } finally {
      removeFault();
    }
    const answered = await service.applies(APPLIES_DEMO.device);
    expect(found(answered).subject).toMatchObject({ kind: 'device', name: APPLIES_DEMO.device });
    expect(answered.requests).toBeGreaterThan(0);
  });
});

describe('a bug while reading a question', () => {
  it('fails the question, never an "unknown" verdict that reads as a group that could not be read', async () => {
    const client = harness.client();
    // The real client, but for the device's group lists, which fail as a programming error would.
    const groupLists = /\/(?:transitiveMemberOf|memberOf)$/;
    const buggy: typeof client = Object.assign(Object.create(client) as typeof client, {
      getAll: (path: string, ...rest: unknown[]) =>
        groupLists.test(path) ? Promise.reject(new TypeError('Cannot read properties of undefined')) : (client.getAll as (...args: unknown[]) => Promise<unknown[]>)(path, ...rest),
      pages: (path: string, ...rest: unknown[]) =>
        groupLists.test(path)
          ? (async function* () {
              yield* [];
              throw new TypeError('Cannot read properties of undefined');
            })()
          : (client.pages as (...args: unknown[]) => AsyncGenerator<unknown>)(path, ...rest),
    });
    const result = await new AppliesService({ graph: buggy, maxAgeMs: 60_000, log: () => undefined }).applies(APPLIES_DEMO.device);
    expect(result).toMatchObject({ kind: 'failed', words: expect.stringContaining('Cannot read properties of undefined') });
  });
});
