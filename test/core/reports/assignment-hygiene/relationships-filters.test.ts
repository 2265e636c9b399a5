import { describe, expect, it } from 'vitest';
import { V1_COVERAGE_NOTICE, V1_FILTERS_REASON, classifyAssignments, deriveAssignmentHygiene } from '../../../../src/core/reports/assignment-hygiene/derive.js';
import { readRelationship, readTarget } from '../../../../src/core/reports/assignment-hygiene/load.js';
import type { OptionalRead } from '../../../../src/core/reports/optional-read.js';
import type { AppRelationship, AssignableObject, AssignmentFilterInfo, AssignmentRecords } from '../../../../src/core/reports/assignment-hygiene/records.js';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

/**
 * Report 2's rules of Intune's own meaning (docs/finding-rules.md, report 2): Win32 dependencies and supersedence,
 * and assignment filters on All users + All devices. Records are shaped as the Graph beta pages
 * document them (intune-apps-mobileappdependency, intune-apps-mobileappsupersedence,
 * intune-policyset-deviceandappmanagementassignmentfilter, intune-shared-groupassignmenttarget).
 */

const context: DeriveContext = { now: new Date('2026-11-22T09:00:00Z'), thresholds: DEFAULT_THRESHOLDS };

const LIVE = 'a1a1a1a1-0000-4000-8000-000000000001';
const DELETED = 'a1a1a1a1-0000-4000-8000-000000000002';
const UNREADABLE = 'a1a1a1a1-0000-4000-8000-000000000003';
const groups = new Map<string, GroupLookup>([
  [LIVE, { state: 'found', id: LIVE, displayName: 'Finance Devices', isEmpty: false }],
  [DELETED, { state: 'deleted', id: DELETED }],
  [UNREADABLE, { state: 'unknown', id: UNREADABLE, error: { message: 'throttled past retries' } }],
]);

const CORPORATE = 'f0000000-0000-4000-8000-00000000000a';
const WINDOWS11 = 'f0000000-0000-4000-8000-00000000000b';
const MAM = 'f0000000-0000-4000-8000-00000000000c';
const filterList = new Map<string, AssignmentFilterInfo>([
  [CORPORATE, { id: CORPORATE, displayName: 'Corporate Windows', managementType: 'devices', platform: 'windows10AndLater' }],
  [WINDOWS11, { id: WINDOWS11, displayName: 'Windows 11 only', managementType: 'devices', platform: 'windows10AndLater' }],
  [MAM, { id: MAM, displayName: 'Windows MAM', managementType: 'apps', platform: 'windowsMobileApplicationManagement' }],
]);

/** An assignment as `$expand=assignments` returns it on beta (filter fields present) or on /v1.0 (absent). */
function assignment(odataType: string, options: { groupId?: string; intent?: string; filter?: [string, 'include' | 'exclude'] | 'none' | 'v1' } = {}) {
  const target: Record<string, unknown> = { '@odata.type': `#microsoft.graph.${odataType}` };
  if (options.groupId) target.groupId = options.groupId;
  if (options.filter !== 'v1') {
    const [id, mode] = Array.isArray(options.filter) ? options.filter : [null, 'none'];
    target.deviceAndAppManagementAssignmentFilterId = id;
    target.deviceAndAppManagementAssignmentFilterType = mode;
  }
  return readTarget({ ...(options.intent ? { intent: options.intent } : {}), target });
}

const allUsers = (options: Parameters<typeof assignment>[1] = {}) => assignment('allLicensedUsersAssignmentTarget', options);
const allDevices = (options: Parameters<typeof assignment>[1] = {}) => assignment('allDevicesAssignmentTarget', options);
const group = (groupId: string, intent: string) => assignment('groupAssignmentTarget', { groupId, intent });

function app(id: string, name: string, targets: AssignableObject['targets'], odataType = 'win32LobApp'): AssignableObject {
  return { kind: 'mobileApp', id, name, targets, odataType, link: `https://intune.example/${id}`, readOnV1: true };
}

/** `GET /beta/deviceAppManagement/mobileAppRelationships` records, child-typed unless said. */
function dependency(parent: string, child: string, dependencyType: string, targetType: 'child' | 'parent' = 'child') {
  const [source, target] = targetType === 'child' ? [parent, child] : [child, parent];
  return {
    '@odata.type': '#microsoft.graph.mobileAppDependency',
    id: `${source}_${target}`,
    targetDisplayName: `App ${target}`,
    targetDisplayVersion: '1.0',
    targetPublisher: 'Contoso',
    targetPublisherDisplayName: 'Contoso',
    sourceId: source,
    sourceDisplayName: `App ${source}`,
    sourceDisplayVersion: '1.0',
    sourcePublisherDisplayName: 'Contoso',
    targetId: target,
    targetType,
    dependencyType,
    dependentAppCount: 1,
    dependsOnAppCount: 1,
  };
}

function supersedence(superseding: string, superseded: string, supersedenceType: string) {
  return {
    '@odata.type': '#microsoft.graph.mobileAppSupersedence',
    id: `${superseding}_${superseded}`,
    targetDisplayName: `App ${superseded}`,
    sourceId: superseding,
    sourceDisplayName: `App ${superseding}`,
    targetId: superseded,
    targetType: 'child',
    supersedenceType,
    supersededAppCount: 1,
    supersedingAppCount: 1,
  };
}

function edges(...records: Array<Record<string, unknown>>): OptionalRead<AppRelationship[]> {
  const read = records.map((record) => readRelationship(record));
  expect(read.every((edge) => edge !== null)).toBe(true);
  return { ok: true, value: read as AppRelationship[] };
}

function derive(objects: AssignableObject[], extra: Partial<Pick<AssignmentRecords, 'relationships' | 'filters' | 'betaCoverage'>> = {}) {
  return deriveAssignmentHygiene(
    {
      objects,
      groups,
      leftOut: { catalogueApps: 0, builtInScripts: 0 },
      betaCoverage: true,
      relationships: { ok: true, value: [] },
      filters: { ok: true, value: filterList },
      ...extra,
    },
    context,
  );
}

const rowOf = (report: ReturnType<typeof derive>, id: string) => report.rows.find((row) => row.id === id);

describe('readRelationship', () => {
  it('makes one (parent, child) edge of a child-typed record and of its parent-typed reverse', () => {
    const edge = { kind: 'dependency', parentId: 'p', childId: 'c', type: 'autoInstall', parentName: 'App P', childName: 'App C' };
    expect(readRelationship(dependency('P', 'C', 'autoInstall'))).toEqual(edge);
    expect(readRelationship(dependency('P', 'C', 'autoInstall', 'parent'))).toEqual(edge);
  });

  it('reads a supersedence with the superseding app as the parent', () => {
    expect(readRelationship(supersedence('NEW', 'OLD', 'replace'))).toMatchObject({ kind: 'supersedence', parentId: 'new', childId: 'old', type: 'replace' });
  });

  it('keeps an unknownFutureValue or missing type as "not stated", never as detect', () => {
    expect(readRelationship(dependency('P', 'C', 'unknownFutureValue'))?.type).toBeNull();
    const { dependencyType: _dropped, ...untyped } = dependency('P', 'C', 'autoInstall');
    expect(readRelationship(untyped)?.type).toBeNull();
  });

  it('cannot read a record it cannot orient or type', () => {
    expect(readRelationship({ ...dependency('P', 'C', 'autoInstall'), targetType: 'unknownFutureValue' })).toBeNull();
    expect(readRelationship({ ...dependency('P', 'C', 'autoInstall'), '@odata.type': '#microsoft.graph.mobileAppRelationship' })).toBeNull();
    expect(readRelationship({ ...dependency('P', 'C', 'autoInstall'), sourceId: null })).toBeNull();
  });
});

describe('Win32 dependencies (apps-win32-add: "You do not have to assign dependent apps")', () => {
  const parent = app('P', 'Contoso VPN Client', [group(LIVE, 'required')]);
  const child = app('C', 'Visual C++ Redistributable', []);

  it('an unassigned automatic-install dependency of a required app that reaches someone is not a finding', () => {
    const report = derive([parent, child], { relationships: edges(dependency('P', 'C', 'autoInstall'), dependency('P', 'C', 'autoInstall', 'parent')) });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'C')).toMatchObject({ status: 'Installed automatically as a dependency of "Contoso VPN Client"', statusTone: 'ok' });
  });

  it('an available parent installs its dependencies too', () => {
    const report = derive([app('P', 'Contoso VPN Client', [group(LIVE, 'available')]), child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(report.findings).toEqual([]);
  });

  it('a dependency type Graph does not state is taken as automatic install, and the row says so', () => {
    const report = derive([parent, child], { relationships: edges(dependency('P', 'C', 'unknownFutureValue')) });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'C')?.status).toBe('Installed automatically as a dependency of "Contoso VPN Client" (dependency type not stated by Graph; taken as automatic install)');
  });

  it('a two-level chain P -> C1 -> C2 with only P assigned makes no finding', () => {
    const report = derive([app('P', 'Data Studio', [allUsers({ intent: 'required' })]), app('C1', 'Data Runtime', []), app('C2', 'Data Drivers', [])], {
      relationships: edges(dependency('P', 'C1', 'autoInstall'), dependency('C1', 'C2', 'autoInstall')),
    });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'C2')?.status).toBe('Installed automatically as a dependency of "Data Runtime"');
  });

  it('a detection-only dependency is not a finding: Intune checks for it and never installs it', () => {
    const report = derive([parent, child], { relationships: edges(dependency('P', 'C', 'detect')) });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'C')?.status).toBe('Detection-only dependency of "Contoso VPN Client": Intune checks for it but never installs it');
  });

  it('a dependency whose only parent is assigned to uninstall stays unassigned, naming the parent', () => {
    const report = derive([app('P', 'Legacy Scanner Utility', [group(LIVE, 'uninstall')]), child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(report.findings).toEqual([
      {
        kind: 'unassigned',
        subjectId: 'C',
        subjectName: 'App: Visual C++ Redistributable',
        detail: 'App has no assignment, so it applies to nobody. It is a dependency of "Legacy Scanner Utility", which reaches nobody or is assigned only to uninstall.',
      },
    ]);
  });

  it('a dependency whose parent reaches only a deleted group stays unassigned (and the parent is its own finding)', () => {
    const report = derive([app('P', 'Old VPN', [group(DELETED, 'required')]), child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['assigned-to-missing-or-empty-groups', 'P'],
      ['unassigned', 'C'],
    ]);
  });

  it('a detection-only dependency of a parent that reaches nobody serves nothing: it stays unassigned', () => {
    const report = derive([app('P', 'Legacy Scanner Utility', [group(DELETED, 'required')]), child], { relationships: edges(dependency('P', 'C', 'detect')) });
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['assigned-to-missing-or-empty-groups', 'P'],
      ['unassigned', 'C'],
    ]);
  });

  it("a parent's include whose intent Graph did not state may install: the child is 'could not check', not unassigned", () => {
    const unstated = readTarget({ target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: LIVE } });
    const report = derive([app('P', 'VPN', [unstated]), child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'C')?.status).toMatch(/^Could not check/);
  });

  it('an automatic dependency assigned only to a deleted group is installed all the same; one assigned only through exclusions is not checked', () => {
    const deletedOnly = derive([parent, app('C', 'Visual C++ Redistributable', [group(DELETED, 'required')])], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(deletedOnly.findings).toEqual([]);
    expect(rowOf(deletedOnly, 'C')?.status).toBe('Installed automatically as a dependency of "Contoso VPN Client"; its own assignments reach no one');
    const excluded = readTarget({ target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: LIVE } });
    const exclusionsOnly = derive([parent, app('C', 'Visual C++ Redistributable', [excluded])], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(exclusionsOnly.findings).toEqual([]);
    expect(rowOf(exclusionsOnly, 'C')?.status).toBe('Could not check: assigned only through exclusions, and a dependency of "Contoso VPN Client" that Intune may install');
  });

  it('a wide graph of shared dependencies is walked once per app: forty layers of diamonds, every app installed', () => {
    const layers = 40;
    const apps = [app('L0', 'Root', [group(LIVE, 'required')])];
    const links = [];
    for (let layer = 1; layer <= layers; layer += 1) {
      for (const side of ['a', 'b']) {
        apps.push(app(`L${layer}${side}`, `Layer ${layer}${side}`, []));
        for (const parentSide of layer === 1 ? [''] : ['a', 'b']) links.push(dependency(`L${layer - 1}${parentSide}`, `L${layer}${side}`, 'autoInstall'));
      }
    }
    const report = derive(apps, { relationships: edges(...links) });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, `L${layers}b`)?.status).toBe(`Installed automatically as a dependency of "Layer ${layers - 1}a", "Layer ${layers - 1}b"`);
  });

  it("a parent whose reach is unknown (a group that could not be read, or the parent not among the apps read) makes the child 'could not check'", () => {
    const unreadable = derive([app('P', 'VPN', [group(UNREADABLE, 'required')]), child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(unreadable.findings).toEqual([]);
    expect(rowOf(unreadable, 'C')).toMatchObject({
      status: 'Could not check: it may be installed or replaced through an app whose assignments could not be checked',
      statusTone: 'neutral',
    });
    const absent = derive([child], { relationships: edges(dependency('P', 'C', 'autoInstall')) });
    expect(absent.findings).toEqual([]);
    expect(rowOf(absent, 'C')?.status).toMatch(/^Could not check/);
  });

  it('a dependency cycle of unassigned apps ends, and both stay unassigned', () => {
    const report = derive([app('A', 'A', []), app('B', 'B', [])], { relationships: edges(dependency('A', 'B', 'autoInstall'), dependency('B', 'A', 'autoInstall')) });
    expect(report.findings.map((finding) => finding.subjectId).sort()).toEqual(['A', 'B']);
  });
});

describe('supersedence (apps-win32-supersedence)', () => {
  it('an unassigned superseded app whose superseder reaches someone is not a finding', () => {
    const report = derive([app('NEW', 'Notepad++ 8.6', [group(LIVE, 'required')]), app('OLD', 'Notepad++ 7.9', [])], {
      relationships: edges(supersedence('NEW', 'OLD', 'update')),
    });
    expect(report.findings).toEqual([]);
    expect(rowOf(report, 'OLD')?.status).toBe('Superseded by "Notepad++ 8.6" (update)');
  });

  it('an unassigned superseding app is a finding: Intune ignores a superseding app that is not targeted', () => {
    const report = derive([app('NEW', 'Reader 2024', []), app('OLD', 'Reader 2020', [group(LIVE, 'required')])], { relationships: edges(supersedence('NEW', 'OLD', 'replace')) });
    expect(report.findings).toEqual([
      {
        kind: 'unassigned',
        subjectId: 'NEW',
        subjectName: 'App: Reader 2024',
        detail:
          'App has no assignment, so it applies to nobody. It supersedes "Reader 2020", but Intune ignores a superseding app that isn\'t targeted, so that app is not updated or replaced.',
      },
    ]);
  });

  it('a superseding app with exclusions only keeps its kind and gains the same detail', () => {
    const report = derive([app('NEW', 'Reader 2024', [assignment('exclusionGroupAssignmentTarget', { groupId: LIVE, intent: 'required' })]), app('OLD', 'Reader 2020', [])], {
      relationships: edges(supersedence('NEW', 'OLD', 'replace')),
    });
    expect(report.findings.find((finding) => finding.subjectId === 'NEW')).toMatchObject({
      kind: 'exclusions-only',
      detail: expect.stringContaining('It supersedes "Reader 2020"'),
    });
    // The superseded app reaches nobody either: its superseder is assigned to nobody.
    expect(report.findings.find((finding) => finding.subjectId === 'OLD')).toMatchObject({ kind: 'unassigned', detail: expect.stringContaining('superseded by "Reader 2024"') });
  });
});

describe('when the relationships could not be read', () => {
  const failed: OptionalRead<AppRelationship[]> = { ok: false, reason: 'Graph answered 503' };

  it("makes every unassigned Win32 app 'could not check' and keeps other apps' verdicts, and says why in the notice", () => {
    const report = derive([app('W', 'Win32 tool', []), app('K', 'Catalog app', [], 'win32CatalogApp'), app('S', 'iOS store app', [], 'iosStoreApp')], { relationships: failed });
    expect(report.findings.map((finding) => finding.subjectId)).toEqual(['S']);
    expect(rowOf(report, 'W')?.status).toBe("Could not check: the app relationships could not be read; it may be installed as another app's dependency");
    expect(rowOf(report, 'K')?.status).toMatch(/^Could not check/);
    expect(report.notice).toContain('Win32 app dependencies and supersedence could not be read (Graph answered 503)');
    // What an earlier load found for the apps not checked stays open in the ledger, not resolved.
    expect(new Set(report.uncheckedSubjects?.map(({ subjectId }) => subjectId))).toEqual(new Set(['W', 'K']));
    expect(report.uncheckedSubjects?.filter(({ subjectId }) => subjectId === 'W').map(({ kind }) => kind)).toContain('unassigned');
  });
});

describe('assignment filters on All users + All devices (filters-reports-troubleshoot; apps-deploy)', () => {
  const policy = (targets: AssignableObject['targets'], readOnV1 = false): AssignableObject => ({
    kind: 'settingsCatalogPolicy',
    id: 'pol',
    name: 'Defender',
    targets,
    link: 'https://intune.example/pol',
    readOnV1,
  });
  const fc = { filters: { ok: true as const, value: filterList }, readOnV1: false };

  it('the same filter, include on one and exclude on the other, keeps the two apart: no finding', () => {
    const report = derive([policy([allUsers({ filter: [CORPORATE, 'include'] }), allDevices({ filter: [CORPORATE, 'exclude'] })])]);
    expect(report.findings).toEqual([]);
    expect(report.rows[0]).toMatchObject({
      status: 'All users and All devices are kept apart by filter "Corporate Windows" (include on one, exclude on the other)',
      statusTone: 'ok',
      assignments: 'Include: All users (include filter "Corporate Windows"); All devices (exclude filter "Corporate Windows")',
    });
  });

  it('the same filter in the same mode, or no filter on one side, overlaps: a finding', () => {
    expect(classifyAssignments([allUsers({ filter: [CORPORATE, 'include'] }), allDevices({ filter: [CORPORATE, 'include'] })], groups, fc).kind).toBe('all-users-and-all-devices');
    expect(classifyAssignments([allUsers({ filter: [CORPORATE, 'exclude'] }), allDevices({ filter: [CORPORATE, 'exclude'] })], groups, fc).kind).toBe('all-users-and-all-devices');
    expect(classifyAssignments([allUsers(), allDevices({ filter: [CORPORATE, 'include'] })], groups, fc).kind).toBe('all-users-and-all-devices');
    expect(classifyAssignments([allUsers(), allDevices()], groups, fc).kind).toBe('all-users-and-all-devices');
  });

  it('different filters cannot be compared: could not check', () => {
    expect(classifyAssignments([allUsers({ filter: [CORPORATE, 'include'] }), allDevices({ filter: [WINDOWS11, 'include'] })], groups, fc)).toEqual({
      kind: 'could-not-check',
      reason: 'All users and All devices may overlap, but they use different filters ("Corporate Windows", "Windows 11 only"), whose overlap depends on the devices',
      unchecked: 'all-users-and-all-devices',
    });
  });

  it('a filter id the list lacks is unknown, never deleted; so is every filter when the list could not be read', () => {
    const missing = 'f0000000-0000-4000-8000-0000000000ff';
    const report = derive([policy([allUsers({ filter: [missing, 'include'] }), allDevices({ filter: [missing, 'exclude'] })])]);
    expect(report.findings).toEqual([]);
    expect(report.rows[0]).toMatchObject({
      status: "Could not check: All users and All devices may overlap, but a filter could not be read (it is not in the tenant's filter list as Graph gave it)",
      statusTone: 'neutral',
      assignments: `Include: All users (include filter ${missing}, could not be read); All devices (exclude filter ${missing}, could not be read)`,
    });
    expect(JSON.stringify(report.rows[0])).not.toContain('deleted');
    const unreadable = derive([policy([allUsers({ filter: [CORPORATE, 'include'] }), allDevices()])], { filters: { ok: false, reason: 'Graph answered 500' } });
    expect(unreadable.findings).toEqual([]);
    expect(unreadable.rows[0]?.status).toBe('Could not check: All users and All devices may overlap, but a filter could not be read (Graph answered 500)');
    expect(unreadable.notice).toContain('Assignment filters could not be read (Graph answered 500)');
  });

  it('filter type none means no filter, whatever id Graph leaves beside it', () => {
    const target = readTarget({
      target: {
        '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget',
        deviceAndAppManagementAssignmentFilterId: WINDOWS11,
        deviceAndAppManagementAssignmentFilterType: 'none',
      },
    });
    expect(target).toEqual({ type: 'allDevices', intent: null, filter: { mode: 'none' } });
    expect(classifyAssignments([allUsers(), target], groups, fc).kind).toBe('all-users-and-all-devices');
  });

  it('a managed-app filter does not apply to these objects: could not check', () => {
    expect(classifyAssignments([allUsers({ filter: [MAM, 'include'] }), allDevices({ filter: [MAM, 'exclude'] })], groups, fc).kind).toBe('could-not-check');
  });

  it('different app intents on the two targets are a finding whatever the filters, even unreadable ones or none shown', () => {
    const targets = [allUsers({ intent: 'required', filter: [CORPORATE, 'include'] }), allDevices({ intent: 'uninstall', filter: [CORPORATE, 'exclude'] })];
    const report = derive([app('A', 'Contoso Travel', targets)], { filters: { ok: false, reason: 'Graph answered 403' } });
    expect(report.findings.map((finding) => finding.kind)).toEqual(['all-users-and-all-devices']);
    expect(report.findings[0]?.detail).toContain('different intents (All users: required; All devices: uninstall)');
    const onV1 = derive([app('A', 'Contoso Travel', [allUsers({ intent: 'required', filter: 'v1' }), allDevices({ intent: 'uninstall', filter: 'v1' })])]);
    expect(onV1.findings.map((finding) => finding.kind)).toEqual(['all-users-and-all-devices']);
    expect(onV1.rows[0]?.assignments).toBe('Include: All users [required]; All devices [uninstall]');
  });

  it('the detail names the intents of the pair that overlaps, not of the first targets listed', () => {
    const targets = [
      allUsers({ intent: 'available', filter: [CORPORATE, 'include'] }),
      allDevices({ intent: 'available', filter: [CORPORATE, 'exclude'] }),
      allUsers({ intent: 'required' }),
      allDevices({ intent: 'uninstall' }),
    ];
    const report = derive([app('A', 'Contoso Travel', targets)]);
    expect(report.findings[0]?.detail).toContain('different intents (All users: available; All devices: uninstall)');
  });

  it('read on /v1.0 (no filter fields), the pair is could not check while the tenant has filters, and judged as unfiltered when it has none', () => {
    const targets = [allUsers({ filter: 'v1' }), allDevices({ filter: 'v1' })];
    expect(targets[0]).toEqual({ type: 'allUsers', intent: null });
    const withFilters = derive([policy(targets, true)], { betaCoverage: false });
    expect(withFilters.findings).toEqual([]);
    expect(withFilters.rows[0]?.status).toBe(`Could not check: All users and All devices may overlap, but ${V1_FILTERS_REASON}`);
    expect(V1_FILTERS_REASON).toBe('/v1.0 does not show their assignment filters');
    expect(withFilters.notice).toContain(V1_COVERAGE_NOTICE);
    const noFilters = derive([policy(targets, true)], { betaCoverage: false, filters: { ok: true, value: new Map() } });
    expect(noFilters.findings.map((finding) => finding.kind)).toEqual(['all-users-and-all-devices']);
  });

  it('shows the filter beside an app target with its intent', () => {
    const report = derive([app('A', 'Portal', [allUsers({ intent: 'required', filter: [CORPORATE, 'include'] })])]);
    expect(report.rows[0]?.assignments).toBe('Include: All users [required] (include filter "Corporate Windows")');
  });

  it('filters change none of the other rules: exclusions only stays exclusions only', () => {
    const report = derive([policy([assignment('exclusionGroupAssignmentTarget', { groupId: LIVE, filter: [CORPORATE, 'include'] })])]);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['exclusions-only']);
  });
});
