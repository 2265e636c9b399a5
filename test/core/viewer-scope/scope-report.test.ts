import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';
import type { ReportResult } from '../../../src/core/reports/report-model.js';
import { SCOPE_TAGGED_REPORTS } from '../../../src/core/viewer-scope/areas.js';
import { ROW_SCOPE_TAGS_KEY, rowScopeTags, scopeReport, scopeTagsCell } from '../../../src/core/viewer-scope/scope-report.js';
import type { ViewerScope } from '../../../src/core/viewer-scope/scope.js';

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
    const noRead: ViewerScope = { kind: 'tenant', assignments: ['Central IT'], areas: { granted: new Map(), unknown: new Map() } };
    const analytics: ViewerScope = {
      kind: 'tenant',
      assignments: ['Central IT'],
      areas: { granted: new Map([['endpointAnalytics', ['Read Only Operator']]]), unknown: new Map() },
    };
    const tagged = result(rows);
    expect(scopeReport(tagged, noRead)).toEqual({ ok: true, result: tagged });
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

describe('the reports whose objects carry scope tags', () => {
  it('are exactly those whose definitions say so (`scopeTagged`): a report listed as tagged by mistake would open whole to a role that does not read it', () => {
    expect([...SCOPE_TAGGED_REPORTS].sort()).toEqual(
      REPORTS.definitions
        .filter((report) => report.scopeTagged)
        .map((report) => report.id)
        .sort(),
    );
  });
});
