import { describe, expect, it } from 'vitest';
import { applyBaselineRequest, emptyBaselineBook, isBaselineBook } from '../../../../src/core/reports/baseline-drift/baseline-book.js';
import type { ApprovedPolicy, ApprovedSetting, BaselineBook } from '../../../../src/core/reports/baseline-drift/baseline-book.js';
import { NOTHING_APPROVED, NO_BASELINE_KEPT, deriveBaselineDrift, settingDrifts } from '../../../../src/core/reports/baseline-drift/derive.js';
import { assignmentOf } from '../../../../src/core/reports/baseline-drift/load.js';
import type { CurrentPolicy } from '../../../../src/core/reports/baseline-drift/records.js';

const POLICY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const GROUP = '9a3c2d1e-5b4f-4a6e-8d7c-1f2e3d4c5b6a';
const setting = (id: string, value: string | null, display = value ?? '(secret, set)', secret = value === null): ApprovedSetting => ({
  settingDefinitionId: id,
  name: `Setting ${id}`,
  value,
  display,
  secret,
});
const ALL_DEVICES = { key: 'allDevices|none', words: 'All devices' };
const SALES = { key: `include:${GROUP}|none`, words: 'Included group Sales' };

function approved(overrides: Partial<ApprovedPolicy> = {}): ApprovedPolicy {
  return {
    policyId: POLICY,
    policyName: 'Firewall - Datacenter',
    approvedAt: '2026-11-27T09:00:00.000Z',
    approvedBy: 'dana@contoso.com',
    settings: [setting('a', 'on')],
    assignments: [SALES],
    ...overrides,
  };
}

function current(overrides: Partial<CurrentPolicy> = {}): CurrentPolicy {
  return {
    policyId: POLICY,
    policyName: 'Firewall - Datacenter',
    settings: [setting('a', 'on')],
    settingsError: null,
    assignments: [SALES],
    link: 'https://intune.microsoft.com/#view/x',
    roleScopeTagIds: ['0'],
    ...overrides,
  };
}

function derive(policy: ApprovedPolicy, now: CurrentPolicy | null) {
  const book: BaselineBook = { version: 1, policies: { [policy.policyId.toLowerCase()]: policy }, audit: [] };
  return deriveBaselineDrift({ book, current: new Map(now ? [[now.policyId.toLowerCase(), now]] : []) });
}

describe('drift from the approved baseline', () => {
  it('is empty, and says how to approve, with no baseline kept or nothing approved', () => {
    expect(deriveBaselineDrift({ book: null, current: new Map() })).toMatchObject({ state: 'empty', notice: NO_BASELINE_KEPT, findings: [] });
    expect(deriveBaselineDrift({ book: emptyBaselineBook(), current: new Map() })).toMatchObject({ state: 'empty', notice: NOTHING_APPROVED });
  });

  it('finds nothing where the policy is as approved, and shows it matches', () => {
    const result = derive(approved(), current());
    expect(result.findings).toEqual([]);
    expect(result.rows).toEqual([
      expect.objectContaining({
        policy: 'Firewall - Datacenter',
        status: 'Matches the approved baseline (approved by dana@contoso.com on 2026-11-27 09:00 UTC)',
        statusTone: 'ok',
      }),
    ]);
    expect(result.headline).toBe('1 approved policy; none drifts.');
  });

  it('finds each setting changed, added or removed, one finding per setting, by name', () => {
    const drifts = settingDrifts([setting('a', 'on'), setting('b', '5'), setting('c', 'x')], [setting('a', 'off'), setting('c', 'x'), setting('d', 'new')]);
    expect(drifts.map((drift) => [drift.ruleKey, drift.approved, drift.now, drift.status])).toEqual([
      ['a', 'on', 'off', 'Changed since it was approved'],
      ['b', '5', 'Not configured', 'Removed since it was approved'],
      ['d', 'Not configured', 'new', 'Added since it was approved'],
    ]);
    const result = derive(approved({ settings: [setting('a', 'on')] }), current({ settings: [setting('a', 'off')] }));
    expect(result.findings).toEqual([
      expect.objectContaining({
        kind: 'setting-drifted',
        subjectId: POLICY,
        ruleKey: 'a',
        detail: 'Setting a: approved on, now off (approved by dana@contoso.com on 2026-11-27 09:00 UTC).',
      }),
    ]);
  });

  it('compares a secret only as set, and several values of one setting whatever their order', () => {
    expect(settingDrifts([setting('pw', null)], [setting('pw', null)])).toEqual([]);
    expect(settingDrifts([setting('pw', null)], [setting('pw', 'plain')]).map((drift) => drift.status)).toEqual(['Changed since it was approved']);
    expect(settingDrifts([setting('x', '1'), setting('x', '2')], [setting('x', '2'), setting('x', '1')])).toEqual([]);
  });

  it('finds an approved policy deleted, unassigned or assigned differently', () => {
    expect(derive(approved(), null).findings.map((finding) => [finding.kind, finding.detail])).toEqual([
      ['approved-policy-deleted', 'Deleted since it was approved by dana@contoso.com on 2026-11-27 09:00 UTC.'],
    ]);
    expect(derive(approved(), current({ assignments: [] })).findings.map((finding) => finding.kind)).toEqual(['approved-policy-unassigned']);
    const reassigned = derive(approved(), current({ assignments: [ALL_DEVICES] }));
    expect(reassigned.findings.map((finding) => finding.kind)).toEqual(['approved-policy-reassigned']);
    expect(reassigned.rows[0]).toMatchObject({ item: 'Assignments', approved: 'Included group Sales', now: 'All devices', statusTone: 'warning' });
  });

  it('compares no assignments where either side could not read them, and no filter where either side does not know it', () => {
    expect(derive(approved({ assignments: null }), current({ assignments: [] })).findings).toEqual([]);
    expect(derive(approved(), current({ assignments: null })).findings).toEqual([]);
    expect(derive(approved(), current({ assignments: [{ key: `include:${GROUP}|unknown`, words: 'Included group Sales' }] })).findings).toEqual([]);
  });

  it('never calls a policy whose settings could not be read clean: its row says why and the kind stays open', () => {
    const result = derive(approved(), current({ settings: null, settingsError: 'reading its settings failed: Graph answered 403' }));
    expect(result.findings).toEqual([]);
    expect(result.uncheckedSubjects).toEqual([{ kind: 'setting-drifted', subjectId: POLICY }]);
    expect(result.rows[0]).toMatchObject({ status: 'Could not check: reading its settings failed: Graph answered 403', statusTone: 'neutral' });
  });

  it("says an assignment in the assignment pane's words", () => {
    const groups = new Map([[GROUP, { state: 'found' as const, id: GROUP, displayName: 'Sales', isEmpty: false }]]);
    const filters = { ok: true as const, value: new Map([['f1', { id: 'f1', displayName: 'Corporate Windows', managementType: 'devices', platform: null }]]) };
    expect(assignmentOf({ type: 'include', groupId: GROUP.toUpperCase(), intent: null, filter: { mode: 'include', id: 'F1' } }, { groups, filters })).toEqual({
      key: `include:${GROUP}|include:f1`,
      words: 'Included group Sales, filter (include) Corporate Windows',
    });
    expect(assignmentOf({ type: 'exclude', groupId: 'gone', intent: null }, { groups, filters })).toEqual({ key: 'exclude:gone|unknown', words: 'Excluded group gone' });
  });
});

describe('the approved baseline book', () => {
  const snapshot = { policyId: POLICY, policyName: 'Firewall - Datacenter', settings: [setting('a', 'on')], assignments: [SALES] };
  const now = new Date('2026-12-07T10:00:00Z');

  it('approves a policy as it is, again over an earlier approval, and withdraws it; each audited', () => {
    const first = applyBaselineRequest(emptyBaselineBook(), { action: 'approve', policy: snapshot }, { by: 'dana@contoso.com', now });
    if (!first.ok) throw new Error(first.message);
    const again = applyBaselineRequest(first.book, { action: 'approve', policy: { ...snapshot, settings: [setting('a', 'off')] } }, { by: 'lee@contoso.com', now });
    if (!again.ok) throw new Error(again.message);
    expect(Object.values(again.book.policies)).toEqual([expect.objectContaining({ approvedBy: 'lee@contoso.com', settings: [setting('a', 'off')] })]);
    const withdrawn = applyBaselineRequest(again.book, { action: 'withdraw', policyId: POLICY.toUpperCase() }, { by: 'dana@contoso.com', now });
    if (!withdrawn.ok) throw new Error(withdrawn.message);
    expect(withdrawn.book.policies).toEqual({});
    expect(withdrawn.book.audit.map((entry) => [entry.action, entry.by])).toEqual([
      ['approve', 'dana@contoso.com'],
      ['approve', 'lee@contoso.com'],
      ['withdraw', 'dana@contoso.com'],
    ]);
    expect(isBaselineBook(JSON.parse(JSON.stringify(withdrawn.book)))).toBe(true);
    expect(applyBaselineRequest(withdrawn.book, { action: 'withdraw', policyId: POLICY }, { by: 'x', now })).toMatchObject({ ok: false, status: 404 });
  });

  it('reads no torn or foreign book as a book', () => {
    for (const value of [
      null,
      {},
      { version: 2, policies: {}, audit: [] },
      { version: 1, policies: { a: { policyId: 1 } }, audit: [] },
      { version: 1, policies: {}, audit: [{ action: 'erase' }] },
    ])
      expect(isBaselineBook(value), JSON.stringify(value)).toBe(false);
  });
});
