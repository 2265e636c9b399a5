import { describe, expect, it } from 'vitest';
import { AUDIT_EVENTS_PATH } from '../../../../src/core/audit-story/read-audit-log.js';
import { findingFingerprint } from '../../../../src/core/findings/fingerprint.js';
import { REPORTS } from '../../../../src/core/reports/registry.js';
import type { LoadMemory, ReportResult } from '../../../../src/core/reports/report-model.js';
import { settingConflictsReport } from '../../../../src/core/reports/setting-conflicts/definition.js';
import {
  CLOUD_PROTECTION,
  FIREWALL_RULES,
  INACTIVITY_LOCK,
  INSTALL_DAY,
  INSTALL_TIME,
  SECRET_TOKENS,
  SETUP_CLASSES_BLOCKED,
} from '../../../../src/core/reports/setting-conflicts/demo.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { emptyLedger } from '../../../../src/core/ledger/channel-ledger.js';
import { digestNewFindings } from '../../../../src/core/ledger/new-findings.js';
import { emptyHistory, recordLoad } from '../../../../src/core/history/report-history.js';
import { declaredFindingsFor } from '../../../../src/sim/tenants/sim-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const registry = REPORTS;
const tenant = buildDemoTenant({ now, registry });
const harness = useTestSimulator({ tenant });

async function load(id: string, memory?: LoadMemory): Promise<{ result: ReportResult; requests: number }> {
  harness.sim.graph.clearLog();
  const result = await registry.load(id, harness.client(), { now: () => now, ...(memory ? { memory } : {}) });
  expect(result.error).toBeNull();
  return { result, requests: harness.sim.graph.requests.length };
}

function memoryOfItsOwn(): LoadMemory {
  const texts = new Map<string, string>();
  return { read: async (name) => texts.get(name) ?? null, write: async (name, text) => void texts.set(name, text) };
}

const SUMMARY_PATH = '/beta/deviceManagement/deviceConfigurationConflictSummary';
const settingsReads = () => harness.sim.graph.requests.filter((request) => request.path.endsWith('/settings'));

const policyId = (name: string) => {
  const record = tenant.collections.configurationPolicies.find((item) => item.name === name);
  if (!record) throw new Error(`the demo plants no "${name}"`);
  return record.id;
};

describe('setting conflicts on the strict simulator', () => {
  it('finds exactly what the demo declares: a conflict on one group, one on All devices, a duplicate, and possible ones that say why', async () => {
    const { result } = await load(settingConflictsReport.id);
    const declared = declaredFindingsFor(tenant).filter((finding) => finding.report === settingConflictsReport.id);
    const found = result.findings.map((finding) => `${finding.kind} ${finding.subjectId}`).sort();
    expect(found).toEqual(declared.map((finding) => `${finding.kind} ${finding.subjectId}`).sort());
    expect(new Set(result.findings.map((finding) => finding.kind))).toEqual(
      new Set(['security-setting-conflict', 'setting-conflict', 'duplicate-setting', 'possible-setting-conflict', 'reported-setting-conflict']),
    );

    const byId = (id: string) => result.findings.find((finding) => finding.subjectId === id)!;
    expect(byId('device_vendor_msft_policy_config_defender_allowcloudprotection').detail).toContain('Both reach group "Engineering devices"');
    expect(byId('device_vendor_msft_policy_config_update_activehoursstart').detail).toContain(
      'Both reach the members group "Engineering leads" and group "Engineering devices" share: 2 users',
    );
    expect(byId('device_vendor_msft_policy_config_update_activehoursend').detail).toContain('excludes group "Engineering devices"');
    expect(byId('device_vendor_msft_windowsadvancedthreatprotection_onboarding').detail).toContain('(secret, set)');
    // What Graph gives in place of a secret is never kept nor shown.
    for (const token of SECRET_TOKENS) expect(JSON.stringify(result)).not.toContain(token);
  });

  it("decides overlap from the member lists report 2's group look-ups already hold: through a nested group, apart for small groups, open for a group not seen whole", async () => {
    const { result } = await load(settingConflictsReport.id);
    const groupNamed = (name: string) => [...tenant.groups.values()].find((group) => group.displayName === name)!;
    const finding = (id: string) => result.findings.find((candidate) => candidate.subjectId === id);
    const row = (id: string) => result.rows.find((candidate) => candidate.id === id);

    // "Build agents" is nested in "Platform engineering": both policies reach its two users, counted and named by id.
    const nested = finding(INSTALL_DAY)!;
    expect(nested.kind).toBe('setting-conflict');
    const agents = groupNamed('Build agents')
      .members.map((member) => `user ${member.id.toLowerCase()}`)
      .sort();
    expect(nested.detail).toContain(`Both reach group "Build agents", nested in group "Platform engineering": 2 users (${agents.join(', ')})`);
    expect(row(INSTALL_DAY)).toMatchObject({ verdict: 'Conflict', overlap: 'Both reach 2 users' });

    // Two groups of two users each, seen whole, no one in both: no finding and no row.
    expect(finding(INACTIVITY_LOCK)).toBeUndefined();
    expect(row(INACTIVITY_LOCK)).toBeUndefined();

    // A group of 25: Graph's expanded list gave 20, so whether the other group's users are in it is open, and the finding says which group.
    const open = finding(INSTALL_TIME)!;
    expect(open.kind).toBe('possible-setting-conflict');
    expect(open.detail).toContain('group "Head office (25 users)" has 20 members or more, and Graph lists only the first 20 of them');
    expect(row(INSTALL_TIME)).toMatchObject({ verdict: 'Possible conflict', overlap: 'Cannot tell: not all members seen' });

    // Nothing read for it: groups only through the look-ups' $batch, their members only through its $expand.
    const reads = harness.sim.graph.requests.map((request) => request.path);
    expect(reads.some((path) => /\/(transitiveMembers|members|memberOf|transitiveMemberOf)$/.test(path))).toBe(false);
  });

  it('finds nothing for merged Defender exclusions or device control lists, nor for a policy that reaches no one', async () => {
    const { result } = await load(settingConflictsReport.id);
    const subjects = result.findings.map((finding) => finding.subjectId);
    expect(subjects).not.toContain('device_vendor_msft_policy_config_defender_excludedpaths');
    expect(subjects).not.toContain('device_vendor_msft_policy_config_system_allowtelemetry');
    // The policies exist and were read: their absence is the rule, not a missed read.
    expect(policyId('Defender - line-of-business exclusions')).toBeTruthy();
    expect(result.rows.some((row) => row.verdict === 'Could not check')).toBe(false);
    // Device control's setup-class lists, which Intune merges, though two policies to one group block different classes.
    expect(policyId('Device control - block printers (Build agents)')).toBeTruthy();
    expect(policyId('Device control - block Bluetooth (Build agents)')).toBeTruthy();
    // Neither the list, nor the setting both enable, nor its flag both leave off: the whole setting merges.
    expect(result.findings.filter((finding) => finding.subjectId.startsWith(SETUP_CLASSES_BLOCKED))).toEqual([]);
    expect(result.rows.filter((row) => String(row.id).startsWith(SETUP_CLASSES_BLOCKED))).toEqual([]);
  });

  it("makes no more Graph requests than reports 2 and 3 make between them, one page of the conflict summary, and its own reads in $batch: device restrictions profiles, and users' enrolled devices where they decide", async () => {
    const conflicts = await load(settingConflictsReport.id);
    const requests = harness.sim.graph.requests;
    // The users' devices: only those of the groups whose policy or profile meets a policy to All devices on a setting (the Mac's Design team, the front desk's camera profile).
    const userDevices = requests.filter((request) => /^\/v1\.0\/users\/[^/]+\/managedDevices$/.test(request.path));
    const membersOf = (name: string) => [...tenant.groups.values()].find((group) => group.displayName === name)!.members.map((member) => member.id.toLowerCase());
    expect(new Set(userDevices.map((request) => request.path.split('/')[3]!.toLowerCase()))).toEqual(new Set([...membersOf('Design team'), ...membersOf('Front desk devices')]));
    expect(userDevices.every((request) => request.inBatch && new URLSearchParams(request.query).get('$select') === 'id,deviceName,operatingSystem')).toBe(true);
    // Each device restrictions profile assigned to someone, read whole once, in batches.
    const profileReads = requests.filter((request) => /^\/v1\.0\/deviceManagement\/deviceConfigurations\/[^/]+$/.test(request.path));
    const assigned = tenant.collections.deviceConfigurations.filter(
      (profile) =>
        String(profile['@odata.type']) === '#microsoft.graph.windows10GeneralConfiguration' &&
        ((profile.assignments as Array<{ target: { '@odata.type': string } }> | undefined) ?? []).some((assignment) => !assignment.target['@odata.type'].includes('exclusion')),
    );
    expect(profileReads.map((request) => request.path.split('/').pop()).sort()).toEqual(assigned.map((profile) => profile.id).sort());
    expect(profileReads.every((request) => request.inBatch)).toBe(true);
    const posture = await load('security-posture');
    const assignments = await load('assignment-hygiene');
    expect(conflicts.requests).toBeGreaterThan(0);
    const batches = Math.ceil(userDevices.length / 20) + Math.ceil(profileReads.length / 20);
    expect(conflicts.requests - userDevices.length - profileReads.length).toBeLessThanOrEqual(posture.requests + assignments.requests + 1 + batches);
  });

  it("names each setting by its definition's display name, read with the settings, and keeps its id as the finding's identity", async () => {
    const { result } = await load(settingConflictsReport.id);
    // The names come with the settings reads report 3 makes: no read of its own, no read per definition.
    expect(settingsReads().length).toBeGreaterThan(0);
    expect(settingsReads().every((request) => new URLSearchParams(request.query).get('$expand') === 'settingDefinitions')).toBe(true);
    expect(harness.sim.graph.requests.some((request) => request.path.includes('configurationSettings'))).toBe(false);

    const finding = result.findings.find((candidate) => candidate.subjectId === CLOUD_PROTECTION)!;
    expect(finding.subjectName).toBe('Allow Cloud Protection');
    const row = result.rows.find((candidate) => candidate.id === CLOUD_PROTECTION)!;
    expect(row).toMatchObject({ setting: 'Allow Cloud Protection' });
    expect(finding.detail).toContain(`Setting id ${CLOUD_PROTECTION}.`);
    // The fingerprint is the id's and the pair's, as before names were read.
    const pair = [policyId('Defender - cloud protection on (Engineering)'), policyId('Defender - cloud protection off for builds (Engineering)')]
      .map((id) => id.toLowerCase())
      .sort()
      .join(',');
    expect(finding.fingerprint).toBe(findingFingerprint(settingConflictsReport.id, 'security-setting-conflict', CLOUD_PROTECTION, pair));
    // Each choice by its option's display name, the option id staying the value compared: Monday against Saturday.
    expect(result.findings.find((candidate) => candidate.subjectId === INSTALL_DAY)).toMatchObject({ subjectName: 'Scheduled Install Day' });
    expect(result.rows.find((candidate) => candidate.id === INSTALL_DAY)?.policies).toBe(
      '"Updates - install on Mondays (Platform engineering)": Monday; "Updates - install on Saturdays (Build agents)": Saturday',
    );
    // The demo carries a definition for every setting it sets, so nothing is said about settings shown by id.
    expect(result.notice).toBeNull();
  });

  it('says once, in the notice, that settings Graph sent no definition for are shown by id', async () => {
    // The demo's definitions of two conflicting settings taken away for this load, and given back after it.
    type Setting = { settingDefinitions?: Array<{ id?: string }> };
    const settings = (tenant.collections.configurationPolicies as unknown as Array<{ settings?: Setting[] }>).flatMap((policy) => policy.settings ?? []);
    const kept = settings.map((item) => item.settingDefinitions);
    for (const item of settings)
      item.settingDefinitions = (item.settingDefinitions ?? []).filter((definition) => definition.id !== CLOUD_PROTECTION && definition.id !== INSTALL_DAY);
    let result: ReportResult;
    try {
      ({ result } = await load(settingConflictsReport.id));
    } finally {
      settings.forEach((item, index) => (item.settingDefinitions = kept[index]));
    }
    expect(result.findings.find((candidate) => candidate.subjectId === CLOUD_PROTECTION)?.subjectName).toBe(CLOUD_PROTECTION);
    expect(result.rows.find((candidate) => candidate.id === INSTALL_DAY)?.policies).toBe(
      '"Updates - install on Mondays (Platform engineering)": 2; "Updates - install on Saturdays (Build agents)": 7',
    );
    expect(result.notice).toBe("2 settings are shown by their settings catalog id, and their choices by option id: Graph sent no definition for them with the policies' settings.");
  });

  it('keeps the names with the settings, so a warm load names the settings without reading them again', async () => {
    const memory = memoryOfItsOwn();
    const cold = await load(settingConflictsReport.id, memory);
    expect(settingsReads().length).toBeGreaterThan(0);
    const warm = await load(settingConflictsReport.id, memory);
    expect(settingsReads()).toEqual([]);
    expect(warm.requests).toBeLessThan(cold.requests);
    const names = (result: ReportResult) => result.findings.map((finding) => `${finding.subjectId} ${finding.subjectName} ${finding.fingerprint}`).sort();
    expect(names(warm.result)).toEqual(names(cold.result));
    expect(warm.result.findings.find((finding) => finding.subjectId === CLOUD_PROTECTION)?.subjectName).toBe('Allow Cloud Protection');
  });

  it("shows each conflict devices reported as a finding of its own, named by its settings, its id the profiles' ids", async () => {
    const { result } = await load(settingConflictsReport.id);
    expect(harness.sim.graph.requests.filter((request) => request.path === SUMMARY_PATH).map((request) => request.status)).toEqual([200]);
    const reported = result.findings.filter((finding) => finding.kind === 'reported-setting-conflict');
    // Named as Microsoft's device restrictions page names the fields, the properties kept in the detail.
    expect(reported.map((finding) => finding.subjectName).sort()).toEqual(['Camera', 'Minimum password length']);
    const camera = reported.find((finding) => finding.subjectName === 'Camera')!;
    expect(camera.detail).toContain('in conflict on Camera (cameraBlocked)');
    const profiles = ['Front desk - device restrictions', 'Front desk - camera blocked'].map(
      (name) => tenant.collections.deviceConfigurations.find((item) => item.displayName === name)!.id,
    );
    expect(camera.subjectId).toBe([...profiles].sort().join('_'));
    expect(camera.detail).toContain('7 device check-ins impacted');
    const row = result.rows.find((candidate) => candidate.id === camera.subjectId)!;
    expect(row).toMatchObject({ verdict: 'Reported', verdictTone: 'warning', overlap: '7 check-ins' });
    expect(String(row.link)).toContain('configurationId/');
    expect(result.columns.some((column) => column.key === 'conflictSummary')).toBe(false);
    expect(result.unchecked).toEqual([]);
  });

  it('reads no audit log when it loads reports 3 and 2 itself: it tells no stories, and they would', async () => {
    const auditRequests = () => harness.sim.graph.requests.filter((request) => request.path.endsWith(AUDIT_EVENTS_PATH)).length;
    await load('assignment-hygiene');
    expect(auditRequests()).toBeGreaterThan(0);
    await load(settingConflictsReport.id);
    expect(auditRequests()).toBe(0);
  });

  it('finds no conflict between two firewall rule policies with one different rule each: the rules are a list, and devices merge them', async () => {
    const { result } = await load(settingConflictsReport.id);
    // Both policies were read and reach All devices; neither the rules' list nor a rule's name, action or ports is a finding.
    expect(policyId('Firewall - allow remote desktop')).toBeTruthy();
    expect(policyId('Firewall - block SMB inbound')).toBeTruthy();
    expect(result.findings.filter((finding) => finding.subjectId.startsWith(FIREWALL_RULES))).toEqual([]);
    expect(result.rows.filter((row) => String(row.id).startsWith(FIREWALL_RULES))).toEqual([]);
  });

  it("keeps a finding open, neither resolved in the channel's post nor in the history, when one of its policies' settings cannot be read", async () => {
    const before = (await load(settingConflictsReport.id)).result;
    const finding = before.findings.find((item) => item.subjectId === CLOUD_PROTECTION)!;
    expect(finding.kind).toBe('security-setting-conflict');
    const first = digestNewFindings(emptyLedger('channel'), [before], now);
    const history = recordLoad(emptyHistory(settingConflictsReport.id), null, before)!;

    const unread = 'Defender - cloud protection off for builds (Engineering)';
    const stop = harness.sim.faults.add({ path: `/beta/deviceManagement/configurationPolicies/${policyId(unread)}/settings`, status: 500 });
    try {
      const later = new Date(now.getTime() + 3_600_000);
      harness.sim.graph.clearLog();
      const after = await registry.load(settingConflictsReport.id, harness.client(), { now: () => later });
      expect(after.error).toBeNull();
      // The finding could not be checked: it is not in this load, and the table says why.
      expect(after.findings.some((item) => item.subjectId === CLOUD_PROTECTION)).toBe(false);
      expect(after.rows.find((row) => row.id === policyId(unread))).toMatchObject({
        setting: `Settings of "${unread}"`,
        verdict: 'Could not check',
        policies: expect.stringContaining('reading its settings failed'),
      });
      expect(after.uncheckedSubjects).toContainEqual({ kind: 'security-setting-conflict', subjectId: CLOUD_PROTECTION, fingerprint: null });

      const post = digestNewFindings(first.nextLedger, [after], later);
      expect(post.resolvedCount).toBe(0);
      expect(post.nextLedger.entries.find((entry) => entry.fingerprint === finding.fingerprint)?.status).toBe('open');
      const next = recordLoad(history.history, history.last, after)!;
      expect(next.history.points.at(-1)?.resolved).toBe(0);
      expect(next.last.byKind['security-setting-conflict']).toContain(finding.fingerprint);
    } finally {
      stop();
    }
  });

  it('makes a summary that cannot be read "could not check" for that part, never a load error', async () => {
    // A 400 is not retried; any failure of the read is the same "could not check".
    const stop = harness.sim.faults.add({ path: SUMMARY_PATH, status: 400 });
    try {
      const { result } = await load(settingConflictsReport.id);
      expect(result.findings.some((finding) => finding.kind === 'reported-setting-conflict')).toBe(false);
      // The settings' own findings are found as before.
      expect(result.findings.some((finding) => finding.kind === 'security-setting-conflict')).toBe(true);
      expect(result.rows.find((row) => row.id === 'deviceConfigurationConflictSummary')).toMatchObject({ verdict: 'Could not check', verdictTone: 'neutral' });
      expect(result.columns.find((column) => column.key === 'conflictSummary')?.available).toBe(false);
      expect(result.unchecked).toEqual(['reported-setting-conflict']);
    } finally {
      stop();
    }
  });
});

describe('the conflicts devices reported, paged as Graph pages them', () => {
  const many = buildDemoTenant({ now, registry });
  for (let index = 0; index < 130; index += 1) {
    const ids = [`00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, `ffffffff-0000-4000-8000-${String(index).padStart(12, '0')}`];
    many.collections.deviceConfigurationConflictSummary.push({
      '@odata.type': '#microsoft.graph.deviceConfigurationConflictSummary',
      id: ids.join('_'),
      conflictingDeviceConfigurations: ids.map((id) => ({ id, displayName: `Profile ${id}`, sourceType: 'deviceConfiguration' })),
      contributingSettings: ['wiFiBlocked'],
      deviceCheckinsImpacted: 1,
    });
  }
  const paged = useTestSimulator({ tenant: many });

  it('follows the nextLink to the last page', async () => {
    paged.sim.graph.clearLog();
    const result = await registry.load(settingConflictsReport.id, paged.client(), { now: () => now });
    expect(result.error).toBeNull();
    const pages = paged.sim.graph.requests.filter((request) => request.path === SUMMARY_PATH);
    expect(pages.length).toBe(2);
    expect(result.findings.filter((finding) => finding.kind === 'reported-setting-conflict')).toHaveLength(132);
  });
});
