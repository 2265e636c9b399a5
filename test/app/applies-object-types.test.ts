import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { OBJECT_TYPES_READ } from '../../src/core/applies/object-types.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { entry, found } from '../support/applies-answer.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

/**
 * "What applies" for every assignable object type (docs/finding-rules.md, "What applies", "Object
 * types" and "Filters on /v1.0 objects"), on the strict simulator: the types only beta serves, each
 * for its platform, and a /v1.0 profile whose exclude filter only its beta assignments show.
 */
const harness = useTestSimulator({ tenant: buildDemoTenant() });
const { types } = APPLIES_DEMO;

const service = () => new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });

/** The demo's first Mac, by name: the demo tenant plants its devices' platforms from its seed. */
function macName(): string {
  const mac = harness.sim.tenant.collections.managedDevices.find((device) => device.operatingSystem === 'macOS');
  if (!mac) throw new Error('the demo tenant has no Mac');
  return String(mac.deviceName);
}

describe('what applies, for the object types only beta has', () => {
  it('names on a Windows PC the Administrative Template, the feature update and the intent that apply, each for Windows, and the macOS and Linux ones as another platform', async () => {
    const result = await service().applies(APPLIES_DEMO.device);
    expect(entry(result, types.administrativeTemplate)).toMatchObject({ verdict: 'applies', typeLabel: 'Administrative templates', platform: { platforms: ['windows'] } });
    expect(entry(result, types.administrativeTemplate)!.path.map((step) => step.words)).toEqual([
      ...APPLIES_DEMO.chain,
      'its primary user user40@contoso-demo.example',
      APPLIES_DEMO.device,
    ]);
    expect(entry(result, types.featureUpdate)).toMatchObject({ verdict: 'applies', typeLabel: 'Windows updates' });
    expect(entry(result, types.intent)).toMatchObject({ verdict: 'applies', typeLabel: 'Endpoint security policies', platform: { platforms: ['windows'] } });
    expect(entry(result, types.macOSShellScript)).toMatchObject({ verdict: 'notForPlatform', typeLabel: 'macOS shell scripts', platform: { platforms: ['macOS'] } });
    expect(entry(result, types.linuxCompliance)).toMatchObject({ verdict: 'notForPlatform', typeLabel: 'Compliance policies', platform: { platforms: ['linux'] } });
    // Read on beta, where their targets carry the filter fields: no "/v1.0 does not show filters" caveat.
    for (const name of Object.values(types)) expect(entry(result, name)!.caveats, name).toEqual([]);
    expect(found(result).notes).toContain(OBJECT_TYPES_READ);
    expect(OBJECT_TYPES_READ).toMatch(/administrative templates.*macOS shell scripts/);
  });

  it('names on a Mac the macOS shell script assigned to All devices, and no Windows-only object as applying', async () => {
    const result = await service().applies(macName());
    expect(found(result).subject).toMatchObject({ kind: 'device', operatingSystem: 'macOS' });
    expect(entry(result, types.macOSShellScript)).toMatchObject({ verdict: 'applies', typeLabel: 'macOS shell scripts' });
    expect(entry(result, types.macOSShellScript)!.path.map((step) => step.words)).toEqual(['All devices', macName()]);
    const applying = found(result)
      .groups.flatMap((group) => group.entries)
      .filter((item) => item.verdict === 'applies');
    for (const item of applying) expect(item.platform.kind === 'any' || item.platform.platforms.includes('macOS'), item.name).toBe(true);
  });

  it('decides a /v1.0 profile by the exclude filter its beta assignments show: the device matches it, so it is excluded', async () => {
    const result = await service().applies(APPLIES_DEMO.device);
    expect(entry(result, APPLIES_DEMO.v1ExcludeFilter)).toMatchObject({
      verdict: 'excluded',
      typeLabel: 'Configuration profiles',
      exclusion: { kind: 'filter', filter: { mode: 'exclude', verdict: 'out', name: 'Windows 11 devices' } },
      caveats: [],
    });
    // Other /v1.0 profiles are read again on beta too, so none carries the caveat any more.
    expect(entry(result, 'Regional Wi-Fi')).toMatchObject({ verdict: 'applies', caveats: [] });
  });

  it('says a filter may keep it out, never "no filter", when its assignments cannot be read again on beta', async () => {
    const profile = harness.sim.tenant.collections.deviceConfigurations.find((record) => record.displayName === APPLIES_DEMO.v1ExcludeFilter)!;
    const removeFault = harness.sim.faults.add({ path: `/beta/deviceManagement/deviceConfigurations/${String(profile.id)}/assignments`, status: 500 });
    try {
      const result = await service().applies(APPLIES_DEMO.device);
      expect(entry(result, APPLIES_DEMO.v1ExcludeFilter)).toMatchObject({ verdict: 'dependsOnFilter', filter: { verdict: 'depends' } });
      expect(entry(result, APPLIES_DEMO.v1ExcludeFilter)!.words).toContain('its assignments could not be read on /beta to see their filters (Graph answered 500)');
      expect(entry(result, 'Regional Wi-Fi')).toMatchObject({ verdict: 'applies', caveats: [] });
    } finally {
      removeFault();
    }
  });

  it('reads the beta assignments twenty to a $batch call, one list request per new type, so the count stays bounded', async () => {
    harness.sim.graph.clearLog();
    // A user's question reads no policy's settings (a device's conflicts do): every list counted here is report 2's.
    const result = await service().applies(APPLIES_DEMO.user);
    const requests = harness.sim.graph.requests;
    const sent = requests.filter((request) => !request.inBatch);
    expect(result.requests).toBe(sent.length);
    const reread = requests.filter((request) => /^\/beta\/.*\/[0-9a-f-]{36}\/assignments$/.test(request.path));
    expect(reread.length).toBeGreaterThan(20);
    expect(reread.every((request) => request.inBatch)).toBe(true);
    expect(sent.filter((request) => request.path === '/beta/$batch')).toHaveLength(Math.ceil(reread.length / 20));
    for (const path of [
      '/beta/deviceManagement/groupPolicyConfigurations',
      '/beta/deviceManagement/deviceShellScripts',
      '/beta/deviceManagement/windowsFeatureUpdateProfiles',
      '/beta/deviceManagement/windowsQualityUpdateProfiles',
      '/beta/deviceManagement/windowsQualityUpdatePolicies',
      '/beta/deviceManagement/windowsDriverUpdateProfiles',
      '/beta/deviceManagement/compliancePolicies',
      '/beta/deviceManagement/intents',
      '/beta/deviceManagement/templates',
    ])
      expect(
        sent.filter((request) => request.path === path),
        path,
      ).toHaveLength(1);
  });
});
