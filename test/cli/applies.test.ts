import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useDemoTenantForProcesses } from '../support/simulated-tenant.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';

/** The environment minus anything that would point the CLI at a tenant: the demo tenant answers. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS)/.test(name)) delete env[name];
  return env;
}

/** The demo tenant, read as a configured tenant; the first test reads the demo the command line starts itself. */
const demoEnvironment = useDemoTenantForProcesses();

async function dmhealth(args: string[], options: { ownDemo?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = options.ownDemo ? cleanEnv() : { ...cleanEnv(), ...demoEnvironment() };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, timeout: 25_000, maxBuffer: 8 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('dmhealth applies', () => {
  it('prints what applies to a device, grouped by type, with the path, the verdict and the link', async () => {
    const { code, stdout, stderr } = await dmhealth(['applies', APPLIES_DEMO.device], { ownDemo: true });
    expect(code).toBe(0);
    expect(stderr).toContain('Demo tenant: reading the simulated tenant');
    expect(stdout).toContain(`What applies to device ${APPLIES_DEMO.device} (primary user user40@contoso-demo.example)`);
    expect(stdout).toMatch(
      /\n {2}applies {2}Regional Wi-Fi\n {11}Applies through Regional Offices → Sales → Sales EMEA → its primary user user40@contoso-demo\.example → CONTOSO-0040\.\n {11}https:\/\/intune\.microsoft\.com\//,
    );
    expect(stdout).toContain('  excluded Regional VPN');
    expect(stdout).toContain('  applies  Contractor compliance');
    // Decided through the device's own groups: the demo grants Device.Read.All.
    expect(stdout).toContain(
      `  applies  ${APPLIES_DEMO.deviceGroups.object}\n           Applies through ${[...APPLIES_DEMO.deviceGroups.chain, APPLIES_DEMO.device].join(' → ')}.`,
    );
    expect(stdout).toContain('  applies  Sales CRM (required)');
    expect(stdout.indexOf('Configuration profiles')).toBeLessThan(stdout.indexOf('\nApps\n'));
  });

  it('lists no object of another platform as applying to a Windows PC: each is "not for this platform"', async () => {
    const { code, stdout } = await dmhealth(['applies', 'CONTOSO-0026', '--format', 'json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      answer: { groups: Array<{ entries: Array<{ name: string; verdict: string; platform: { kind: string; platforms: string[] } }> }> };
    };
    const entries = result.answer.groups.flatMap((group) => group.entries);
    const applying = entries.filter((entry) => entry.verdict === 'applies' || entry.verdict === 'dependsOnFilter');
    expect(applying.length).toBeGreaterThan(0);
    for (const entry of applying) expect(entry.platform.kind === 'any' || entry.platform.platforms.includes('windows'), entry.name).toBe(true);
    expect(entries.find((entry) => entry.name === 'iOS - Compliance')?.verdict).toBe('notForPlatform');
    // The README's example device: the whole answer on the default demo, nothing whose verdict is unknown.
    expect(entries.filter((entry) => entry.verdict === 'unknown').map((entry) => entry.name)).toEqual([]);
    const text = await dmhealth(['applies', 'CONTOSO-0026']);
    expect(text.stdout).toContain('  other OS iOS - Compliance\n           Not for this platform: it is for iOS/iPadOS devices, and CONTOSO-0026 runs Windows.');
  });

  it('shows on the demo device the precedence rules Intune applies: filter modes, intents, mixed groups, hidden membership', async () => {
    const { stdout } = await dmhealth(['applies', APPLIES_DEMO.device]);
    for (const name of APPLIES_DEMO.otherPlatforms) expect(stdout).toContain(`  other OS ${name}`);
    expect(stdout).toContain(`  excluded ${APPLIES_DEMO.filterModes.excluded}`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.filterModes.ored}`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.intents.requiredOverUninstall} (required)`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.intents.requiredAndAvailable} (required and available)`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.mixedGroups.userExclusionOnAllDevices}`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.mixedGroups.deviceExclusionOnUserGroup}`);
    expect(stdout).toMatch(new RegExp(`  unknown  ${APPLIES_DEMO.hidden.object}\\n.*Member\\.Read\\.Hidden`));
    expect(stdout).not.toMatch(/filter filter|depends on filter [0-9a-f]{8}-/);
  });

  it('names the Administrative Template and the Windows update that apply to a Windows PC, and the macOS script as another platform', async () => {
    const { code, stdout } = await dmhealth(['applies', APPLIES_DEMO.device]);
    expect(code).toBe(0);
    expect(stdout).toContain(`\nAdministrative templates\n  applies  ${APPLIES_DEMO.types.administrativeTemplate}\n`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.types.featureUpdate}`);
    expect(stdout).toContain(`  applies  ${APPLIES_DEMO.types.intent}`);
    expect(stdout).toContain(`\nmacOS shell scripts\n  other OS ${APPLIES_DEMO.types.macOSShellScript}\n`);
    // The /v1.0 profile's exclude filter, read again on /beta, keeps the Windows 11 device out.
    expect(stdout).toContain(`  excluded ${APPLIES_DEMO.v1ExcludeFilter}\n           Targets it through`);
    expect(stdout).toContain('but the exclude filter "Windows 11 devices" keeps it out.');
  });

  it('names the macOS shell script that applies to a Mac through All devices, and no Administrative Template as applying', async () => {
    const mac = String(buildDemoTenant().collections.managedDevices.find((device) => device.operatingSystem === 'macOS')!.deviceName);
    const { code, stdout } = await dmhealth(['applies', mac]);
    expect(code).toBe(0);
    expect(stdout).toContain(`\nmacOS shell scripts\n  applies  ${APPLIES_DEMO.types.macOSShellScript}\n           Applies through All devices → ${mac}.`);
    expect(stdout).not.toContain(`  applies  ${APPLIES_DEMO.types.administrativeTemplate}`);
  });

  it("lists the device's setting conflicts, each with the value Intune applies, in text and in JSON", async () => {
    const { code, stdout } = await dmhealth(['applies', APPLIES_DEMO.device]);
    expect(code).toBe(0);
    const section = stdout.slice(stdout.indexOf('\nSetting conflicts\n'));
    // With Device.Read.All granted every policy is decided, so none is a possible conflict (without it: test/app/applies-conflicts.test.ts).
    expect(section).toContain('\nSetting conflicts\n1 setting in conflict, 0 possible conflicts, 0 duplicates and 2 merged settings.\n');
    expect(section).toContain(
      [
        '  Conflict: Allow Camera',
        '    Applied: Neither value. Intune reports a conflict and applies neither setting until only one policy sets it.',
        '    - Devices - camera allowed (applies): Allowed.',
        '    - Devices - camera blocked (meeting rooms) (applies): Not allowed.',
      ].join('\n'),
    );
    expect(section).toContain('  Merged: Excluded Paths\n    Applied: All of them, merged into one list: C:\\Build; C:\\LOB.');

    const json = await dmhealth(['applies', APPLIES_DEMO.device, '--format', 'json']);
    const result = JSON.parse(json.stdout) as { answer: { conflicts: { state: string; settings: Array<{ kind: string; settingDefinitionId: string }> } } };
    expect(result.answer.conflicts.state).toBe('checked');
    expect(result.answer.conflicts.settings.map((setting) => [setting.kind, setting.settingDefinitionId])).toEqual([
      ['conflict', 'device_vendor_msft_policy_config_camera_allowcamera'],
      ['merged', 'device_vendor_msft_policy_config_defender_excludedpaths'],
      // Two firewall rule policies' rules, which Intune merges (docs/finding-rules.md, "Setting conflicts").
      ['merged', 'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}'],
    ]);
  });

  it('prints the answer as JSON for a group with spaces in its name', async () => {
    const { code, stdout } = await dmhealth(['applies', 'Sales', 'EMEA', '--format', 'json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      kind: string;
      answer: { subject: { kind: string }; groups: Array<{ typeLabel: string; entries: Array<{ name: string; path: Array<{ kind: string }> }> }> };
    };
    expect(result.kind).toBe('found');
    expect(result.answer.subject.kind).toBe('group');
    expect(result.answer.groups.map((group) => group.typeLabel)).toContain('Apps');
  });

  it('answers a device name asked in lower case as it answers the name as Intune spells it', async () => {
    const [lower, upper] = await Promise.all([dmhealth(['applies', 'contoso-0026', '--format', 'json']), dmhealth(['applies', 'CONTOSO-0026', '--format', 'json'])]);
    expect(lower.code).toBe(0);
    const answer = (out: string) => (JSON.parse(out) as { answer: { subject: unknown; groups: unknown } }).answer;
    expect(answer(lower.stdout).subject).toMatchObject({ kind: 'device', name: 'CONTOSO-0026' });
    expect(answer(lower.stdout).groups).toEqual(answer(upper.stdout).groups);
  });

  it('says when nothing has that name, with exit status 4', async () => {
    const { code, stdout, stderr } = await dmhealth(['applies', 'NO-SUCH-DEVICE']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toContain('Nothing is called "NO-SUCH-DEVICE"');
  });

  it('refuses a missing name or an unknown format as usage errors', async () => {
    expect((await dmhealth(['applies'])).code).toBe(2);
    expect((await dmhealth(['applies', 'x', '--format', 'csv'])).code).toBe(2);
  });
});
