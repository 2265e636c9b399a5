import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';
import type { ReportResult } from '../../../src/core/reports/report-model.js';
import { READ_AREAS } from '../../../src/core/viewer-scope/areas.js';
import { SCOPE_TAGGED_REPORTS, TAGGED_REPORT_AREAS, areaOfReport, readsOfTaggedReport, taggedReportReadBy } from '../../../src/core/viewer-scope/report-access.js';
import type { ReadArea } from '../../../src/core/viewer-scope/areas.js';
import { reportOpensTo, scopeReport } from '../../../src/core/viewer-scope/scope-report.js';
import { ROW_SCOPE_TAGS_KEY, rowScopeTags, scopeTagsCell } from '../../../src/core/viewer-scope/scope-tag-ids.js';
import { viewerScopeOf } from '../../../src/core/viewer-scope/scope.js';
import type { RoleDefinitions, ViewerScope } from '../../../src/core/viewer-scope/scope.js';

const EUROPE: ViewerScope = { kind: 'tags', tagIds: new Set(['1']), tagNames: ['Europe'], assignments: ['Europe IT'], key: '1' };
const TENANT: ViewerScope = { kind: 'tenant', assignments: ['Central IT'] };
const NONE: ViewerScope = { kind: 'none', explanation: 'You hold no Intune role assignment.' };

function result(rows: ReportResult['rows'], overrides: Partial<ReportResult> = {}): ReportResult {
  return {
    report: 'security-posture',
    title: 'Endpoint security policy posture',
    state: 'loaded',
    error: null,
    notice: null,
    columns: [{ key: 'policy', label: 'Policy', available: true, format: 'text' }],
    rows,
    findings: rows.map((row) => ({ kind: 'baseline-outdated', subjectId: String(row.id), subjectName: String(row.policy), detail: 'old', fingerprint: `f-${String(row.id)}` })),
    findingKinds: {},
    unchecked: [],
    uncheckedSubjects: rows.map((row) => ({ kind: 'baseline-outdated', subjectId: String(row.id).toUpperCase(), fingerprint: null })),
    notChecked: [],
    generatedAt: '2026-11-23T09:00:00.000Z',
    ...overrides,
  };
}

const rows = [
  { id: 'p-europe', policy: 'Europe baseline', [ROW_SCOPE_TAGS_KEY]: '1' },
  { id: 'p-both', policy: 'Shared baseline', [ROW_SCOPE_TAGS_KEY]: '2,1' },
  { id: 'p-americas', policy: 'Americas baseline', [ROW_SCOPE_TAGS_KEY]: '2' },
  { id: 'p-default', policy: 'Untagged baseline', [ROW_SCOPE_TAGS_KEY]: '' },
  { id: 'p-unknown', policy: 'Tags not read', [ROW_SCOPE_TAGS_KEY]: null },
];

describe("a report as one viewer's scope shows it", () => {
  it('the tags cell: ids joined, empty for none (Default), null when Graph sent none', () => {
    expect(scopeTagsCell(['0', '3'])).toBe('0,3');
    expect(scopeTagsCell([])).toBe('');
    expect(scopeTagsCell(null)).toBeNull();
    expect(scopeTagsCell(undefined)).toBeNull();
    expect(rowScopeTags({ [ROW_SCOPE_TAGS_KEY]: '0,3' })).toEqual(['0', '3']);
    expect(rowScopeTags({ [ROW_SCOPE_TAGS_KEY]: '' })).toEqual([]);
    expect(rowScopeTags({})).toBeNull();
  });

  it('a whole-tenant viewer gets the shared result itself, not a copy', () => {
    const shared = result(rows);
    const scoped = scopeReport(shared, TENANT);
    expect(scoped.ok && scoped.result).toBe(shared);
  });

  it("a regional viewer gets the rows of their tags only, with those rows' findings, unchecked subjects and stories, and a notice saying so", () => {
    const shared = result(rows, {
      notice: 'Two baselines could not be checked.',
      auditLog: { state: 'read', since: '2026-11-01T00:00:00Z', changes: { 'p-europe': [], 'p-americas': [], 'P-BOTH': [] } },
    });
    const scoped = scopeReport(shared, EUROPE);
    expect(scoped.ok).toBe(true);
    if (!scoped.ok) return;
    expect(scoped.result.rows.map((row) => row.id)).toEqual(['p-europe', 'p-both']);
    expect(scoped.result.findings.map((finding) => finding.subjectId)).toEqual(['p-europe', 'p-both']);
    expect(scoped.result.uncheckedSubjects.map((subject) => subject.subjectId)).toEqual(['P-EUROPE', 'P-BOTH']);
    expect(scoped.result.auditLog).toEqual({ state: 'read', since: '2026-11-01T00:00:00Z', changes: { 'p-europe': [], 'P-BOTH': [] } });
    expect(scoped.result.notice).toBe('Showing what your Intune role assignments let you see: scope tag Europe (2 of 5 rows). Two baselines could not be checked.');
    // The shared result is left as it was, for every other viewer.
    expect(shared.rows).toHaveLength(5);
    expect(shared.findings).toHaveLength(5);
  });

  it('a report whose rows carry no scope tags covers the whole tenant: refused to a regional viewer, with why', () => {
    const connectors = result(
      [
        { id: 'apns', policy: 'Apple push certificate' },
        { id: 'vpp', policy: 'VPP token' },
      ],
      { title: 'Connector & integration health' },
    );
    const scoped = scopeReport(connectors, EUROPE);
    expect(scoped).toEqual({
      ok: false,
      explanation:
        'Connector & integration health covers the whole tenant: its objects carry no scope tags, and no Intune role permission is documented to read all it shows, so it is shown only to viewers whose Microsoft Entra role reads all Intune data (such as Intune Administrator or Global Reader). Your Intune role assignments show scope tag Europe.',
    });
    expect(scopeReport(connectors, TENANT)).toEqual({ ok: true, result: connectors });
  });

  it('an Intune role assignment without scope tags: every tagged report whole, a tenant-wide one only as its roles read the area, fail-closed', () => {
    const noRead: ViewerScope = { kind: 'tenant', assignments: ['Central IT'], areas: { granted: new Map(), unknown: new Map(), roles: [] } };
    const analytics: ViewerScope = {
      kind: 'tenant',
      assignments: ['Central IT'],
      areas: { granted: new Map([['endpointAnalytics', ['Read Only Operator']]]), unknown: new Map(), roles: ['Read Only Operator'] },
    };
    const tagged = result(rows);
    // A tagged report opens by its roles' reads too (the next describe): a role that reads it sees it whole.
    expect(scopeReport(tagged, noRead).ok).toBe(false);
    const reader: ViewerScope = {
      ...noRead,
      areas: { granted: new Map(READ_AREAS.map((area) => [area, ['Read Only Operator']])), unknown: new Map(), roles: ['Read Only Operator'] },
    };
    expect(scopeReport(tagged, reader)).toEqual({ ok: true, result: tagged });
    for (const report of ['connector-health', 'admin-approval', 'setting-conflicts', 'startup-reliability'] as const)
      expect(scopeReport(result([{ id: 'x', policy: 'x' }], { report, title: report }), noRead), report).toMatchObject({
        ok: false,
        explanation: expect.stringMatching(new RegExp(`^${report} covers the whole tenant`)),
      });
    // Empty or not, a tenant-wide report is decided by its id, not by its rows.
    expect(scopeReport(result([], { report: 'connector-health', state: 'empty' }), noRead).ok).toBe(false);
    // A report the scope does not know to carry scope tags is tenant-wide: refused, not shown.
    expect(scopeReport(result([{ id: 'x', policy: 'x', [ROW_SCOPE_TAGS_KEY]: '' }], { report: 'stale-devices' as ReportResult['report'] }), noRead).ok).toBe(false);
    const shown = scopeReport(result([{ id: 'x', policy: 'x' }], { report: 'startup-reliability', title: 'Startup' }), analytics);
    expect(shown.ok && shown.result.notice).toBe(
      'Startup covers the whole tenant: its objects carry no scope tags, and your Intune role Read Only Operator grants Endpoint Analytics/Read, so it is shown whole.',
    );
    expect(scopeReport(result([{ id: 'x', policy: 'x' }], { report: 'connector-health' }), analytics).ok).toBe(false);
    // The scope off, and an Entra role that reads all Intune data: every report.
    expect(scopeReport(result([{ id: 'x', policy: 'x' }], { report: 'connector-health' }), { kind: 'tenant', assignments: [], entraRoles: ['Global Reader'] }).ok).toBe(true);
  });

  it('a tenant-wide report with no rows is still tenant-wide: refused to a viewer of tags, not shown empty with the whole tenant’s notice', () => {
    const noConnectors = result([], { report: 'connector-health', title: 'Connector & integration health', state: 'empty', notice: 'The tenant has no Apple push certificate.' });
    expect(scopeReport(noConnectors, EUROPE)).toMatchObject({ ok: false, explanation: expect.stringMatching(/^Connector & integration health covers the whole tenant/) });
    // A report whose objects carry tags, with no rows, is shown empty as before: nothing of anyone's is in it.
    const empty = scopeReport(result([], { state: 'empty' }), EUROPE);
    expect(empty.ok && empty.result.rows).toEqual([]);
  });

  it('a viewer with no scope is refused every report, even an empty one or a load error', () => {
    expect(scopeReport(result(rows), NONE)).toEqual({ ok: false, explanation: NONE.kind === 'none' ? NONE.explanation : '' });
    expect(scopeReport(result([]), NONE).ok).toBe(false);
    expect(scopeReport(result([], { state: 'load-error', error: { status: 403, code: null, message: 'denied' } }), NONE).ok).toBe(false);
  });

  it('a load error and an empty report hold no tenant data: passed on to a regional viewer', () => {
    const failed = result([], { state: 'load-error', error: { status: 403, code: null, message: 'denied' } });
    expect(scopeReport(failed, EUROPE)).toEqual({ ok: true, result: failed });
    const empty = scopeReport(result([], { state: 'empty' }), EUROPE);
    expect(empty.ok && empty.result.rows).toEqual([]);
  });
});

describe('who may see each report, as its definition declares it (`seenBy`)', () => {
  it('reports 2, 3, 4 and 8 carry scope tags, each opened by the reads of every kind it shows; report 6 by Endpoint Analytics/Read; 1, 5 and 7 by no Intune read', () => {
    expect([...SCOPE_TAGGED_REPORTS]).toEqual(['assignment-hygiene', 'security-posture', 'escrow-gaps', 'baseline-drift']);
    expect(REPORTS.ids.map((id) => [id, readsOfTaggedReport(id), areaOfReport(id)])).toEqual([
      ['connector-health', null, null],
      ['assignment-hygiene', ['deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps'], null],
      ['security-posture', ['securityBaselines'], null],
      ['escrow-gaps', ['managedDevices'], null],
      ['admin-approval', null, null],
      ['startup-reliability', null, 'endpointAnalytics'],
      ['setting-conflicts', null, null],
      ['baseline-drift', ['deviceConfigurations', 'securityBaselines'], null],
    ]);
    expect([...TAGGED_REPORT_AREAS].sort()).toEqual(['deviceCompliancePolicies', 'deviceConfigurations', 'managedDevices', 'mobileApps', 'securityBaselines']);
  });

  it('a report no registry holds opens to no role, whatever it reads', () => {
    expect([readsOfTaggedReport('stale-devices'), areaOfReport('stale-devices'), taggedReportReadBy('stale-devices', () => true)]).toEqual([null, null, false]);
  });
});

describe('reports 2, 3 and 4 open by the read permissions of the viewer’s roles, not by their tags alone', () => {
  const TAGGED = [
    ['assignment-hygiene', 'Assignment hygiene'],
    ['security-posture', 'Endpoint security policy posture'],
    ['escrow-gaps', 'BitLocker and LAPS escrow gaps'],
  ] as const;
  const ALL_READS = READ_AREAS.filter((area) => area !== 'endpointAnalytics');
  /** The Europe viewer of the demo, with roles of these reads, as viewerScopeOf makes them from a role definition. */
  const europeWith = (role: string, areas: readonly ReadArea[], definitions?: RoleDefinitions): ViewerScope =>
    viewerScopeOf(
      {
        assignments: [{ id: 'ra-1', displayName: 'Europe IT', memberGroupIds: ['g-1'], scopeTagIds: ['1'] }],
        tags: [{ id: '1', displayName: 'Europe' }],
        members: new Map([['g-1', { state: 'read', userIds: new Set(['u-1']) }]]),
        definitions: definitions ?? { state: 'read', roles: [{ id: 'rd-1', displayName: role, isBuiltIn: false, areas, assignments: { state: 'read', ids: new Set(['ra-1']) } }] },
      },
      { objectId: 'u-1' },
    );
  const report = (id: (typeof TAGGED)[number][0], title: string) => result(rows, { report: id, title });

  it('reportOpensTo decides before a load what scopeReport decides after it, for every report', () => {
    const withoutApps = ALL_READS.filter((area) => area !== 'mobileApps');
    for (const scope of [europeWith('Reboot only', []), europeWith('Europe IT', ALL_READS), europeWith('Europe IT', withoutApps), europeWith('Europe IT', READ_AREAS)]) {
      for (const definition of REPORTS.definitions) {
        const opens = scopeReport(result(rows, { report: definition.id, title: definition.title }), scope).ok;
        expect(reportOpensTo(scope, definition.id), definition.id).toBe(opens);
      }
    }
    expect(reportOpensTo(europeWith('Reboot only', []), 'escrow-gaps')).toBe(false);
    expect(reportOpensTo(europeWith('Europe IT', withoutApps), 'assignment-hygiene')).toBe(false);
    expect(reportOpensTo(europeWith('Europe IT', withoutApps), 'escrow-gaps')).toBe(true);
  });

  it('a role that grants only a remote task (Reboot now) sees none of them, and is told which read its role lacks', () => {
    const scope = europeWith('Reboot only', []);
    for (const [id, title] of TAGGED) {
      const scoped = scopeReport(report(id, title), scope);
      expect(scoped.ok, id).toBe(false);
      expect(!scoped.ok && scoped.explanation, id).toMatch(
        new RegExp(
          `^${title} shows objects Intune shows only to administrators whose role grants .*None of your Intune role Reboot only grants .*so it is not shown to you \\(your scope: scope tag Europe\\)\\.$`,
        ),
      );
    }
    const refusal = (id: (typeof TAGGED)[number][0]) => {
      const scoped = scopeReport(report(id, id), scope);
      return scoped.ok ? '' : scoped.explanation;
    };
    expect(refusal('assignment-hygiene')).toContain('grants Device configurations/Read, Device compliance policies/Read and Mobile apps/Read.');
    expect(refusal('security-posture')).toContain('grants Security baselines/Read.');
    expect(refusal('escrow-gaps')).toContain('grants Managed devices/Read.');
    // Refused before a load error too: whether the report is theirs does not depend on whether it loaded.
    expect(scopeReport(result([], { report: 'escrow-gaps', state: 'load-error', error: { status: 503, code: null, message: 'down' } }), scope).ok).toBe(false);
  });

  it('Read Only Operator, which reads every kind they show, sees each, its rows filtered by its tags', () => {
    const scope = europeWith('Read Only Operator', ALL_READS);
    for (const [id, title] of TAGGED) {
      const scoped = scopeReport(report(id, title), scope);
      expect(scoped.ok && scoped.result.rows.map((row) => row.id), id).toEqual(['p-europe', 'p-both']);
    }
  });

  it('a report of several kinds opens only to roles that read all of them: report 2 without Mobile apps/Read is refused, naming it', () => {
    const scope = europeWith('Policy reader', ['deviceConfigurations', 'deviceCompliancePolicies', 'securityBaselines']);
    const hygiene = scopeReport(report('assignment-hygiene', 'Assignment hygiene'), scope);
    expect(!hygiene.ok && hygiene.explanation).toMatch(/None of your Intune role Policy reader grants Mobile apps\/Read, so/);
    expect(scopeReport(report('security-posture', 'Posture'), scope).ok).toBe(true);
    expect(scopeReport(report('escrow-gaps', 'Escrow'), scope).ok).toBe(false);
  });

  it('a role whose definitions could not be read, or whose assignments could not be read, sees none of them, and is told why', () => {
    const unread = europeWith('', [], { state: 'unknown', reason: "Intune's role definitions could not be read (503)" });
    const roleUnread = europeWith('', [], {
      state: 'read',
      roles: [{ id: 'rd-1', displayName: 'Read Only Operator', isBuiltIn: true, areas: ALL_READS, assignments: { state: 'unknown', reason: '500' } }],
    });
    for (const [id, title] of TAGGED) {
      const a = scopeReport(report(id, title), unread);
      expect(!a.ok && a.explanation, id).toMatch(
        /Whether yours do is not known just now: Intune's role definitions could not be read \(503\)\. It is not shown until that is read/,
      );
      const b = scopeReport(report(id, title), roleUnread);
      expect(!b.ok && b.explanation, id).toMatch(/Whether yours do is not known just now: the assignments of the role Read Only Operator, which grants .*, could not be read/);
    }
  });

  it('the same for an assignment without scope tags: every tagged object, but only of the kinds its role reads', () => {
    const records = (areas: readonly ReadArea[]) =>
      viewerScopeOf(
        {
          assignments: [{ id: 'ra-1', displayName: 'Central desk', memberGroupIds: ['g-1'], scopeTagIds: [] }],
          tags: [],
          members: new Map([['g-1', { state: 'read', userIds: new Set(['u-1']) }]]),
          definitions: { state: 'read', roles: [{ id: 'rd-1', displayName: 'Desk', isBuiltIn: false, areas, assignments: { state: 'read', ids: new Set(['ra-1']) } }] },
        },
        { objectId: 'u-1' },
      );
    expect(scopeReport(report('escrow-gaps', 'Escrow'), records([])).ok).toBe(false);
    const whole = scopeReport(report('escrow-gaps', 'Escrow'), records(['managedDevices']));
    expect(whole.ok && whole.result.rows).toHaveLength(rows.length);
  });

  it('with the scope off, an Entra role that reads all Intune data, or a channel’s scope tag, nothing changes: no role is asked', () => {
    for (const [id, title] of TAGGED) {
      const shared = report(id, title);
      expect(scopeReport(shared, TENANT)).toEqual({ ok: true, result: shared });
      expect(scopeReport(shared, { kind: 'tenant', assignments: [], entraRoles: ['Intune Administrator'] })).toEqual({ ok: true, result: shared });
      expect(scopeReport(shared, EUROPE).ok).toBe(true);
    }
  });
});
