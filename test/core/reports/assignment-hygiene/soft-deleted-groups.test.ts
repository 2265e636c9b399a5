import { describe, expect, it } from 'vitest';
import { classifyAssignments, deriveAssignmentHygiene } from '../../../../src/core/reports/assignment-hygiene/derive.js';
import type { AssignableObject, AssignmentTarget } from '../../../../src/core/reports/assignment-hygiene/records.js';
import { describeGroup } from '../../../../src/core/directory/group-lookup.js';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

/**
 * Report 2 and deleted groups (docs/finding-rules.md, report 2, "Soft-deleted groups"): a group
 * `/groups/{id}` does not find is looked up in the directory's deleted items. Still there, it is
 * restorable for 30 days, a finding of its own; not there, it is gone for good; that read failed,
 * it is deleted all the same but whether it can come back is unknown, never "permanently".
 */
const context: DeriveContext = { now: new Date('2026-11-22T09:00:00Z'), thresholds: DEFAULT_THRESHOLDS };

const LIVE = '11111111-1111-4111-8111-111111111111';
const EMPTY = '22222222-2222-4222-8222-222222222222';
const SOFT = '33333333-3333-4333-8333-333333333333';
const GONE = '44444444-4444-4444-8444-444444444444';
const UNSURE = '55555555-5555-4555-8555-555555555555';

const groups = new Map<string, GroupLookup>([
  [LIVE, { state: 'found', id: LIVE, displayName: 'Sales laptops', isEmpty: false }],
  [EMPTY, { state: 'found', id: EMPTY, displayName: 'Pilot ring', isEmpty: true }],
  [
    SOFT,
    {
      state: 'deleted',
      id: SOFT,
      recovery: { kind: 'restorable', displayName: 'Sales iPads', deletedDateTime: '2026-11-17T09:00:00.000Z', restorableUntil: '2026-12-17T09:00:00.000Z' },
    },
  ],
  [GONE, { state: 'deleted', id: GONE, recovery: { kind: 'permanent' } }],
  [UNSURE, { state: 'deleted', id: UNSURE, recovery: { kind: 'unknown', reason: 'Graph answered 403' } }],
]);

const include = (groupId: string): AssignmentTarget => ({ type: 'include', groupId, intent: null });
const object = (id: string, targets: AssignmentTarget[]): AssignableObject => ({
  kind: 'compliancePolicy',
  id,
  name: `Policy ${id}`,
  targets,
  link: `https://intune.example/${id}`,
});
const derive = (objects: AssignableObject[]) =>
  deriveAssignmentHygiene(
    {
      objects,
      groups,
      leftOut: { catalogueApps: 0, builtInScripts: 0 },
      betaCoverage: true,
      relationships: { ok: true, value: [] },
      filters: { ok: true, value: new Map() },
    },
    context,
  );

describe('describeGroup for a deleted group', () => {
  it('names a soft-deleted group with its deletion date and the day it goes for good', () => {
    expect(describeGroup(groups.get(SOFT)!)).toBe('Sales iPads (deleted on 2026-11-17, restorable until 2026-12-17)');
  });
  it('says a group not among deleted items is gone for good', () => {
    expect(describeGroup(groups.get(GONE)!)).toBe(`deleted group ${GONE} (permanently: not among deleted items)`);
  });
  it('never calls a group permanently deleted when deleted items could not be read', () => {
    expect(describeGroup(groups.get(UNSURE)!)).toBe(`deleted group ${UNSURE} (whether it can still be restored could not be checked: Graph answered 403)`);
  });
  it('keeps the plain words where deleted items were not asked (report 5)', () => {
    expect(describeGroup({ state: 'deleted', id: GONE })).toBe(`deleted group ${GONE}`);
  });
});

describe('classifyAssignments with deleted groups', () => {
  it.each([
    ['only a soft-deleted group', [SOFT], 'assigned-to-restorable-deleted-groups'],
    ['a soft-deleted group and an empty one', [SOFT, EMPTY], 'assigned-to-restorable-deleted-groups'],
    ['a soft-deleted group and one gone for good', [SOFT, GONE], 'assigned-to-restorable-deleted-groups'],
    ['only a group gone for good', [GONE], 'assigned-to-missing-or-empty-groups'],
    ['a deleted group whose recovery is unknown', [UNSURE], 'assigned-to-missing-or-empty-groups'],
    ['only an empty group', [EMPTY], 'assigned-to-missing-or-empty-groups'],
    ['a soft-deleted group beside a live one', [SOFT, LIVE], 'ok'],
  ] as const)('%s: %s', (_label, ids, kind) => {
    expect(classifyAssignments(ids.map(include), groups).kind).toBe(kind);
  });
});

describe('deriveAssignmentHygiene with deleted groups', () => {
  it('makes a finding of its own for a restorable group, with the dates, and says restoring brings the assignment back', () => {
    const report = derive([object('soft', [include(SOFT), include(EMPTY)])]);
    expect(report.rows[0]).toMatchObject({
      status: 'Only deleted or empty groups, one still restorable',
      statusTone: 'warning',
      assignments: 'Include: Sales iPads (deleted on 2026-11-17, restorable until 2026-12-17); Pilot ring (empty)',
    });
    expect(report.findings).toEqual([
      {
        kind: 'assigned-to-restorable-deleted-groups',
        subjectId: 'soft',
        subjectName: 'Compliance policy: Policy soft',
        detail:
          'Every included group is deleted or empty, and a deleted one can still be restored in Microsoft Entra, after which the assignment targets it again: Sales iPads (deleted on 2026-11-17, restorable until 2026-12-17), Pilot ring (empty).',
      },
    ]);
  });

  it('keeps the existing finding for a group gone for good, and for one whose recovery could not be checked, saying so', () => {
    const report = derive([object('gone', [include(GONE)]), object('unsure', [include(UNSURE)])]);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId, finding.detail])).toEqual([
      ['assigned-to-missing-or-empty-groups', 'gone', `Every included group is deleted or empty: deleted group ${GONE} (permanently: not among deleted items).`],
      [
        'assigned-to-missing-or-empty-groups',
        'unsure',
        `Every included group is deleted or empty: deleted group ${UNSURE} (whether it can still be restored could not be checked: Graph answered 403).`,
      ],
    ]);
  });

  it('keeps both kinds open for an object whose groups could not be read', () => {
    const unread = new Map<string, GroupLookup>([[LIVE, { state: 'unknown', id: LIVE, error: { message: 'throttled past retries' } }]]);
    const report = deriveAssignmentHygiene(
      {
        objects: [object('x', [include(LIVE)])],
        groups: unread,
        leftOut: { catalogueApps: 0, builtInScripts: 0 },
        betaCoverage: true,
        relationships: { ok: true, value: [] },
        filters: { ok: true, value: new Map() },
      },
      context,
    );
    expect(report.uncheckedSubjects).toEqual([
      { kind: 'assigned-to-missing-or-empty-groups', subjectId: 'x', ruleKey: '' },
      { kind: 'assigned-to-restorable-deleted-groups', subjectId: 'x', ruleKey: '' },
    ]);
  });
});
