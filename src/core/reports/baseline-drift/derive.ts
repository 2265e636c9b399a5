/**
 * Report 8's rules (RULES.md): each approved policy compared with what it is now, setting by
 * setting and assignment by assignment. Pure: records in, rows and findings out.
 */

import { changeTime } from '../../audit-story/audit-story.js';
import { severityTone } from '../report-model.js';
import type { CellTone, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import { ROW_SCOPE_TAGS_KEY, scopeTagsCell } from '../../viewer-scope/scope-tag-ids.js';
import { intuneLinks } from '../intune-links.js';
import { countOf } from '../../text/words.js';
import type { ApprovedAssignment, ApprovedPolicy, ApprovedSetting } from './baseline-book.js';
import { DRIFT_FINDING_KINDS } from './finding-kinds.js';
import type { DriftFindingKind } from './finding-kinds.js';
import type { BaselineDriftRecords, CurrentPolicy } from './records.js';

export const NO_BASELINE_KEPT =
  'No approved baseline is kept here: the command line keeps no state. In the tab, a person with the Triager role approves a policy as it is now, and this report then lists what drifts from it.';
export const NOTHING_APPROVED =
  'No policy is approved yet. In the tab, a person with the Triager role approves a settings catalog, endpoint security or baseline policy as it is now (Approve, on its row in this report or in report 3); this report then lists each setting and assignment that drifts from it.';

const NOT_CONFIGURED = 'Not configured';
const NEUTRAL: CellTone = 'neutral';

interface Drift {
  kind: DriftFindingKind;
  ruleKey?: string;
  item: string;
  approved: string;
  now: string;
  status: string;
}

export function deriveBaselineDrift(records: BaselineDriftRecords): DerivedReport<DriftFindingKind> {
  const columns = [
    { key: 'policy', label: 'Policy', available: true, format: 'text' as const, role: 'name' as const },
    { key: 'item', label: 'Setting or assignment', available: true, format: 'text' as const, role: 'wide' as const },
    { key: 'approved', label: 'Approved', available: true, format: 'text' as const },
    { key: 'now', label: 'Now', available: true, format: 'text' as const },
    { key: 'status', label: 'Status', available: true, format: 'status' as const, toneKey: 'statusTone' },
  ];
  if (!records.book) return { state: 'empty', notice: NO_BASELINE_KEPT, columns, rows: [], findings: [] };
  const approved = Object.values(records.book.policies).sort((a, b) => a.policyName.localeCompare(b.policyName) || a.policyId.localeCompare(b.policyId));
  if (approved.length === 0) return { state: 'empty', notice: NOTHING_APPROVED, columns, rows: [], findings: [] };

  const rows: ReportRow[] = [];
  const findings: FindingDraft<DriftFindingKind>[] = [];
  const uncheckedSubjects: UncheckedSubject<DriftFindingKind>[] = [];
  for (const policy of approved) {
    const now = records.current.get(policy.policyId.toLowerCase());
    const approval = `approved by ${policy.approvedBy} on ${changeTime(policy.approvedAt)}`;
    const base = {
      id: policy.policyId,
      [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(now?.roleScopeTagIds ?? null),
      policy: now?.policyName ?? policy.policyName,
      link: now?.link || intuneLinks.configurationList(),
    };
    const drifts: Drift[] = [];
    if (!now) {
      drifts.push({
        kind: 'approved-policy-deleted',
        item: 'The policy',
        approved: countOf(policy.settings.length, 'setting'),
        now: 'Deleted',
        status: 'Deleted: no longer in the tenant',
      });
    } else {
      drifts.push(...assignmentDrifts(policy, now));
      if (now.settings) drifts.push(...settingDrifts(policy.settings, now.settings));
      else {
        // Never a clean pass: the settings not read may hold a drift.
        uncheckedSubjects.push({ kind: 'setting-drifted', subjectId: policy.policyId });
        rows.push({
          ...base,
          item: 'Settings',
          approved: countOf(policy.settings.length, 'setting'),
          now: 'Not read',
          status: `Could not check: ${now.settingsError ?? 'its settings were not read'}`,
          statusTone: NEUTRAL,
        });
      }
    }
    const name = now?.policyName ?? policy.policyName;
    for (const drift of drifts) {
      const severity = DRIFT_FINDING_KINDS[drift.kind].severity;
      rows.push({ ...base, item: drift.item, approved: drift.approved, now: drift.now, status: drift.status, statusTone: severityTone(severity) });
      findings.push({
        kind: drift.kind,
        subjectId: policy.policyId,
        subjectName: name,
        detail: drift.kind === 'approved-policy-deleted' ? `Deleted since it was ${approval}.` : `${drift.item}: approved ${drift.approved}, now ${drift.now} (${approval}).`,
        ...(drift.ruleKey !== undefined ? { ruleKey: drift.ruleKey } : {}),
      });
    }
    if (drifts.length === 0 && now?.settings)
      rows.push({
        ...base,
        item: `${countOf(policy.settings.length, 'setting')}, ${policy.assignments ? countOf(policy.assignments.length, 'assignment') : 'assignments not read'}`,
        approved: 'As approved',
        now: 'As approved',
        // Who approved it is in each drift's finding; a row without one says it here.
        status: `Matches the approved baseline (${approval})`,
        statusTone: 'ok',
      });
  }
  const policies = approved.length;
  return {
    state: 'loaded',
    notice: null,
    headline: `${policies} approved ${policies === 1 ? 'policy' : 'policies'}; ${findings.length === 0 ? 'none drifts' : `${findings.length} ${findings.length === 1 ? 'difference' : 'differences'} from what was approved`}.`,
    columns,
    rows,
    findings,
    uncheckedSubjects,
  };
}

/** Each setting's values by its definition id, several instances of one id as one sorted list. */
function byDefinition(settings: readonly ApprovedSetting[]): Map<string, { name: string; values: string[]; display: string; secret: boolean }> {
  const out = new Map<string, { name: string; values: string[]; display: string[]; secret: boolean }>();
  for (const setting of settings) {
    const entry = out.get(setting.settingDefinitionId) ?? { name: setting.name, values: [], display: [], secret: false };
    // A secret is compared only as set: its value is never kept.
    entry.values.push(setting.secret ? '\u0000secret' : (setting.value ?? ''));
    entry.display.push(setting.display);
    entry.secret ||= setting.secret;
    out.set(setting.settingDefinitionId, entry);
  }
  return new Map([...out].map(([id, entry]) => [id, { name: entry.name, values: [...entry.values].sort(), display: entry.display.join(', '), secret: entry.secret }]));
}

/** A setting changed, added or removed since it was approved, by the setting's name. */
export function settingDrifts(approved: readonly ApprovedSetting[], now: readonly ApprovedSetting[]): Drift[] {
  const before = byDefinition(approved);
  const after = byDefinition(now);
  const drifts: Drift[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])]) {
    const was = before.get(id);
    const is = after.get(id);
    if (was && is && was.values.join('\u0001') === is.values.join('\u0001')) continue;
    const name = is?.name ?? was?.name ?? id;
    drifts.push({
      kind: 'setting-drifted',
      ruleKey: id,
      item: name,
      approved: was?.display ?? NOT_CONFIGURED,
      now: is?.display ?? NOT_CONFIGURED,
      status: !was
        ? 'Added since it was approved'
        : !is
          ? 'Removed since it was approved'
          : was.secret && is.secret
            ? 'Changed (a secret: set differently)'
            : 'Changed since it was approved',
    });
  }
  return drifts.sort((a, b) => a.item.localeCompare(b.item));
}

/** An assignment's key without its filter where either side's filter is not known (a target read on `/v1.0` carries none). */
function comparable(assignments: readonly ApprovedAssignment[], other: readonly ApprovedAssignment[]): Set<string> {
  const unknownFilter = [...assignments, ...other].some((assignment) => assignment.key.endsWith('|unknown'));
  return new Set(assignments.map((assignment) => (unknownFilter ? assignment.key.split('|')[0]! : assignment.key)));
}

function assignmentDrifts(policy: ApprovedPolicy, now: CurrentPolicy): Drift[] {
  // Not read on one side: not compared (the row of settings still is).
  if (!policy.assignments || !now.assignments) return [];
  const was = comparable(policy.assignments, now.assignments);
  const is = comparable(now.assignments, policy.assignments);
  if (was.size === is.size && [...was].every((key) => is.has(key))) return [];
  const words = (list: readonly ApprovedAssignment[]) => (list.length === 0 ? 'Not assigned' : list.map((assignment) => assignment.words).join('; '));
  if (now.assignments.length === 0 && policy.assignments.length > 0)
    return [{ kind: 'approved-policy-unassigned', item: 'Assignments', approved: words(policy.assignments), now: 'Not assigned', status: 'No longer assigned' }];
  return [{ kind: 'approved-policy-reassigned', item: 'Assignments', approved: words(policy.assignments), now: words(now.assignments), status: 'Assigned differently' }];
}
