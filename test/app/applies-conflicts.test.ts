import { describe, expect, it } from 'vitest';
import type { AppliesConflicts, AppliesResult, AppliesSettingConflict } from '../../src/core/applies/applies-result.js';
import { AppliesService } from '../../src/app/applies-service.js';
import { createServices } from '../../src/app/create-services.js';
import type { AppServices } from '../../src/app/create-services.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { SECRET_TOKENS } from '../../src/core/reports/setting-conflicts/demo.js';
import { withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import {
  ACTIVE_HOURS_END,
  ACTIVE_HOURS_START,
  CAMERA,
  CLOUD_PROTECTION,
  CORTANA,
  EXCLUDED_PATHS,
  FIREWALL_RULES,
  ONBOARDING,
  PASSWORD_DELAY,
  TELEMETRY,
} from '../../src/core/reports/setting-conflicts/demo.js';
import { found } from '../support/applies-answer.js';

// Without Device.Read.All (`--deny Device.Read.All`), so that one of the device's policies cannot be decided: a possible conflict.
const tenant = buildDemoTenant();
const harness = useTestSimulator({ tenant: withDenied(tenant, ['Device.Read.All']) });

/** A Windows device whose primary user (user2) is in "Engineering devices", where the setting conflicts demo plants its cases, and not in "Engineering leads". */
const ENGINEERING_DEVICE = 'CONTOSO-0002';

const PRIVATE_FIREWALL = 'vendor_msft_firewall_mdmstore_privateprofile_enablefirewall';

/** Report 3's list of policies, and each policy's settings: what its upstream load reads. */
const SETTINGS_READS = /^\/beta\/deviceManagement\/configurationPolicies(\/[^/]+\/settings)?$/;

function services(lines: string[] = []): AppServices {
  return createServices({
    connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
    cacheMaxAgeMs: 60_000,
    log: (line) => lines.push(line),
  });
}

/**
 * One app for the tests that only judge answers, so that they share its reads: every test of this
 * file reads the same simulated tenant within one of Intune's 20-second throttling windows.
 */
let judging: AppServices | undefined;
const judge = () => (judging ??= services()).applies!;

function conflictsOf(result: AppliesResult): AppliesConflicts {
  return found(result).conflicts;
}

function checkedNotes(result: AppliesResult): string[] {
  const conflicts = conflictsOf(result);
  return conflicts.state === 'checked' ? conflicts.notes : [];
}

function checked(result: AppliesResult): AppliesSettingConflict[] {
  const conflicts = conflictsOf(result);
  if (conflicts.state !== 'checked') throw new Error(`expected the conflicts checked, got ${conflicts.state}: ${conflicts.words}`);
  return conflicts.settings;
}

const ids = (settings: readonly AppliesSettingConflict[], kind: AppliesSettingConflict['kind']) =>
  settings
    .filter((setting) => setting.kind === kind)
    .map((setting) => setting.settingDefinitionId)
    .sort();

const values = (setting: AppliesSettingConflict | undefined) => setting?.policies.map((policy) => [policy.name, policy.verdict, policy.value]);

describe("what applies lists a device's setting conflicts, judged as the setting conflicts report judges them", () => {
  it('lists exactly the conflicts the demo plants for a device in the Engineering group, with the value Intune applies', async () => {
    const result = await judge().applies(ENGINEERING_DEVICE);
    const settings = checked(result);

    // Cloud protection on and off to its group (and on in report 3's two Defender policies), the camera
    // allowed and blocked to All devices, active hours until 17 (All devices but a user group, which
    // Intune does not take out of a device assignment) and until 20, and report 3's firewall private
    // profile on (All devices) and off (its policy set): every one a conflict, neither value applied.
    expect(ids(settings, 'conflict')).toEqual([ACTIVE_HOURS_END, CAMERA, CLOUD_PROTECTION, PRIVATE_FIREWALL].sort());
    for (const setting of settings.filter((candidate) => candidate.kind === 'conflict')) {
      expect(setting.applied).toMatch(/^Neither value/);
      expect(setting.policies.every((policy) => policy.verdict === 'applies')).toBe(true);
    }
    const cloud = settings.find((setting) => setting.settingDefinitionId === CLOUD_PROTECTION)!;
    expect(cloud.security).toBe(true);
    // Named as the admin center names the setting and its options, from the definitions read with the settings.
    expect(cloud.setting).toBe('Allow Cloud Protection');
    expect(values(cloud)).toEqual([
      ['Defender - cloud protection off for builds (Engineering)', 'applies', 'Not allowed. Turns off Cloud Protection.'],
      ['Defender - cloud protection on (Engineering)', 'applies', 'Allowed. Turns on Cloud Protection.'],
      ['Defender - Full configuration', 'applies', 'Allowed. Turns on Cloud Protection.'],
      ['Defender - Servers', 'applies', 'Allowed. Turns on Cloud Protection.'],
    ]);
    const camera = settings.find((setting) => setting.settingDefinitionId === CAMERA)!;
    expect(camera.security).toBe(false);
    expect(camera.setting).toBe('Allow Camera');
    expect(values(camera)).toEqual([
      ['Devices - camera allowed', 'applies', 'Allowed.'],
      ['Devices - camera blocked (meeting rooms)', 'applies', 'Not allowed.'],
    ]);
    // Conflicts come first, the security ones before the others.
    expect(settings.slice(0, 4).map((setting) => setting.security)).toEqual([true, true, false, false]);

    // The onboarding blob twice: secret values, never kept, so only possible.
    expect(ids(settings, 'possibleConflict')).toEqual([ONBOARDING]);
    const onboarding = settings.find((setting) => setting.settingDefinitionId === ONBOARDING)!;
    expect(onboarding.policies.map((policy) => policy.value)).toEqual(['(secret, set)', '(secret, set)']);
    expect(onboarding.words).toContain('secret');
    expect(JSON.stringify(result)).not.toContain(SECRET_TOKENS[0]);
    expect(JSON.stringify(result)).not.toContain(SECRET_TOKENS[1]);

    // Cortana off twice is a duplicate (so are the settings report 3's two Defender policies both set to one value).
    const cortana = settings.find((setting) => setting.settingDefinitionId === CORTANA)!;
    expect(cortana.kind).toBe('duplicate');
    expect(cortana.applied).toBe('Block, the value each policy that applies sets.');
    for (const duplicate of settings.filter((setting) => setting.kind === 'duplicate'))
      expect(new Set(duplicate.policies.map((policy) => policy.value)).size, duplicate.settingDefinitionId).toBe(1);

    // Defender's excluded paths merge, and so do the firewall rules of two rule policies (one different
    // rule each): listed as merged, both values applied, never a conflict.
    expect(ids(settings, 'merged')).toEqual([EXCLUDED_PATHS, FIREWALL_RULES]);
    expect(settings.find((setting) => setting.settingDefinitionId === EXCLUDED_PATHS)!.applied).toBe('All of them, merged into one list: C:\\Build; C:\\LOB.');

    // Active hours from 9 goes to Engineering leads, which this device's user is not in; diagnostics
    // basic to an empty group: one policy each reaches the device, so no conflict.
    expect(settings.map((setting) => setting.settingDefinitionId)).not.toContain(ACTIVE_HOURS_START);
    expect(settings.map((setting) => setting.settingDefinitionId)).not.toContain(TELEMETRY);
  });

  it('says a conflict is possible where one of the policies may or may not apply', async () => {
    const settings = checked(await judge().applies(APPLIES_DEMO.device));
    expect(ids(settings, 'conflict')).toEqual([CAMERA]);
    expect(ids(settings, 'possibleConflict')).toEqual([PRIVATE_FIREWALL]);
    expect(ids(settings, 'duplicate')).toEqual([]);
    expect(ids(settings, 'merged')).toEqual([EXCLUDED_PATHS, FIREWALL_RULES]);
    const firewall = settings.find((setting) => setting.settingDefinitionId === PRIVATE_FIREWALL)!;
    expect(values(firewall)).toEqual([
      ['Firewall - Corporate', 'applies', 'True'],
      ['Firewall - Branch offices (policy set)', 'unknown', 'False'],
    ]);
    expect(firewall.words).toContain('whether "Firewall - Branch offices (policy set)" applies could not be decided');
    expect(firewall.applied).toMatch(/^Cannot tell\./);
  });

  it('checks no conflicts for a user, and reads no settings for one', async () => {
    const app = services();
    const result = await app.applies!.applies(APPLIES_DEMO.user);
    expect(conflictsOf(result)).toMatchObject({ state: 'deviceOnly' });
    expect(harness.sim.graph.requests.filter((request) => SETTINGS_READS.test(request.path) && request.path.endsWith('/settings'))).toEqual([]);
  });

  it("takes report 3's records where a load of them is at hand: no question reads a policy's settings", async () => {
    const lines: string[] = [];
    const app = services(lines);
    const reports = await Promise.all([app.reports.get('assignment-hygiene'), app.reports.get('security-posture')]);
    expect(reports.map((report) => report.state)).toEqual(['loaded', 'loaded']);
    harness.sim.graph.clearLog();
    for (const device of [ENGINEERING_DEVICE, APPLIES_DEMO.device]) {
      const answer = await app.applies!.applies(device);
      expect(conflictsOf(answer).state).toBe('checked');
      // Its own reads about the device only: a handful, whatever the tenant's number of policies.
      expect(answer.requests).toBeLessThanOrEqual(12);
    }
    expect(harness.sim.graph.requests.filter((request) => SETTINGS_READS.test(request.path))).toEqual([]);
    expect(lines.filter((line) => line === 'report security-posture: loading from Microsoft Graph')).toHaveLength(1);
  });

  it('reads, for a question asked first, the settings of only the policies that may reach the device, and for the next device only those not read yet', async () => {
    const lines: string[] = [];
    const app = services(lines);
    const settingsRead = () =>
      harness.sim.graph.requests
        .filter((request) => request.inBatch && /^\/beta\/deviceManagement\/configurationPolicies\/[^/]+\/settings$/.test(request.path))
        .map((request) => request.path.split('/')[4]!.toLowerCase());
    const first = await app.applies!.applies(ENGINEERING_DEVICE);
    const reaching = found(first)
      .groups.flatMap((group) => group.entries)
      .filter((entry) => entry.kind === 'settingsCatalogPolicy' && entry.verdict !== 'excluded' && entry.verdict !== 'notForPlatform')
      .map((entry) => entry.objectId.toLowerCase());
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(0);
    // Each policy that may reach the device at most once, and none that cannot: the tenant has more.
    expect(new Set(read).size).toBe(read.length);
    for (const id of read) expect(reaching).toContain(id);
    const policies = tenant.collections.configurationPolicies.length;
    expect(read.length).toBeLessThan(policies);
    // Every policy that may reach it and sets anything is compared: nothing left out for not being read.
    const unreadNotes = checkedNotes(first).filter((note) => note.includes('were not among the policies whose settings were read'));
    expect(unreadNotes).toEqual([]);
    // Neither report 3 nor the list of every policy was loaded for it.
    expect(lines.filter((line) => line === 'report security-posture: loading from Microsoft Graph')).toHaveLength(0);
    expect(
      harness.sim.graph.requests.filter(
        (request) => request.path === '/beta/deviceManagement/configurationPolicies' && request.query.includes('settingCount') && request.query.includes('lastModifiedDateTime'),
      ),
    ).toEqual([]);

    // Another device: only what it adds is read; the same device again reads nothing.
    harness.sim.graph.clearLog();
    await app.applies!.applies(APPLIES_DEMO.device);
    for (const id of settingsRead()) expect(read).not.toContain(id);
    harness.sim.graph.clearLog();
    expect((await app.applies!.applies(ENGINEERING_DEVICE)).requests).toBe(0);
  });

  it("says the conflicts could not be checked, and why, when no policy's settings can be read, and answers the rest", async () => {
    const app = services();
    // Report 2's records first, so that only the settings' read through beta's $batch fails.
    expect((await app.reports.get('assignment-hygiene')).state).toBe('loaded');
    const removeFault = harness.sim.faults.add({ path: '/beta/$batch', status: 403 });
    let result: AppliesResult;
    try {
      result = await app.applies!.applies(ENGINEERING_DEVICE);
    } finally {
      removeFault();
    }
    const conflicts = conflictsOf(result);
    expect(conflicts.state).toBe('unread');
    expect(conflicts.state !== 'checked' && conflicts.words).toMatch(/^Setting conflicts could not be checked: .*Graph answered 403.*That is not "no conflicts"\.$/);
    expect(found(result).groups.length).toBeGreaterThan(0);

    // Nothing failed is kept: the next question reads them and lists the conflicts.
    expect(ids(checked(await app.applies!.applies(ENGINEERING_DEVICE)), 'conflict')).toContain(CAMERA);
  });

  it('names a policy whose settings could not be read, never calling its settings unconflicted, and compares the others', async () => {
    const policies = found(await judge().applies(ENGINEERING_DEVICE))
      .groups.flatMap((group) => group.entries)
      .filter((entry) => entry.kind === 'settingsCatalogPolicy' && entry.verdict === 'applies');
    const camera = checked(await judge().applies(ENGINEERING_DEVICE)).find((setting) => setting.settingDefinitionId === CAMERA)!;
    // A policy that applies and is not one of the camera's pair: its read fails, the pair is still compared.
    const failing = policies.find((entry) => !camera.policies.some((policy) => policy.objectId === entry.objectId))!;
    const removeFault = harness.sim.faults.add({ path: new RegExp(`/configurationPolicies/${failing.objectId}/settings$`, 'i'), status: 403 });
    let result: AppliesResult;
    try {
      result = await services().applies!.applies(ENGINEERING_DEVICE);
    } finally {
      removeFault();
    }
    const conflicts = conflictsOf(result);
    if (conflicts.state !== 'checked') throw new Error(`expected the conflicts checked, got ${conflicts.state}`);
    expect(conflicts.notes).toContain(
      `The settings of "${failing.name}" could not be read whole (reading its settings failed: Graph answered 403), so its settings are not compared.`,
    );
    expect(conflicts.notCompared).toBeGreaterThanOrEqual(1);
    expect(ids(conflicts.settings, 'conflict')).toContain(CAMERA);
  });

  it("reads the device's policies' settings itself when report 3's load fails", async () => {
    const app = services();
    expect((await app.reports.get('assignment-hygiene')).state).toBe('loaded');
    // Report 3's list fails: its load under way fails, and the question reads what it needs by id.
    const removeFault = harness.sim.faults.add({ path: '/beta/deviceManagement/configurationPolicies', status: 403 });
    try {
      const [report, answer] = await Promise.all([app.reports.get('security-posture'), app.applies!.applies(ENGINEERING_DEVICE)]);
      expect(report.state).toBe('load-error');
      expect(ids(checked(answer), 'conflict')).toContain(CAMERA);
    } finally {
      removeFault();
    }
  });

  it("agrees with the setting conflicts report on a Mac that a policy to All devices and one to its user's group both reach", async () => {
    const design = [...tenant.groups.values()].find((group) => group.displayName === 'Design team')!;
    const members = new Set(design.members.map((member) => member.id.toLowerCase()));
    const macs = tenant.collections.managedDevices.filter((device) => device.operatingSystem === 'macOS' && members.has(String(device.userId).toLowerCase()));
    expect(macs.length).toBeGreaterThan(0);
    const app = services();
    for (const mac of macs) {
      const delay = checked(await app.applies!.applies(String(mac.deviceName))).find((setting) => setting.settingDefinitionId === PASSWORD_DELAY);
      expect(delay?.kind, String(mac.deviceName)).toBe('conflict');
    }
    // Report 7 proves the same pair meets, through the group's users' enrolled devices, and names each Mac.
    const report = await app.reports.get('setting-conflicts');
    const finding = report.findings.find((candidate) => candidate.subjectId === PASSWORD_DELAY);
    expect(finding?.kind).toBe('setting-conflict');
    const count = macs.length === 1 ? '1 device' : `${macs.length} devices`;
    expect(finding?.detail).toContain(`Both reach the enrolled devices of the users in group "Design team", which All devices includes: ${count}`);
    for (const mac of macs.slice(0, 3)) expect(finding?.detail).toContain(`device ${String(mac.deviceName)}`);
  });

  it('reads the settings itself where nothing shares the loads, with the same answer', async () => {
    const alone = await new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined }).applies(ENGINEERING_DEVICE);
    const shared = await services().applies!.applies(ENGINEERING_DEVICE);
    expect(conflictsOf(alone)).toEqual(conflictsOf(shared));
  });
});
