/**
 * The approved baseline: for each policy a person with the Triager role approved, its settings and
 * assignments as they were then, who approved it and when; and every approval and withdrawal in
 * order (docs/finding-rules.md, "Drift from the approved baseline"). Kept in the app's own state,
 * never in the tenant (src/app/baseline-records.ts). Pure: what a request does to the book.
 */

import type { SettingValue } from '../../policy-settings/setting-values.js';

/** One setting as approved: its value as report 3 normalises it (a secret only as set), and its name and value in words. */
export interface ApprovedSetting {
  settingDefinitionId: string;
  /** The setting's display name when it was approved. */
  name: string;
  /** The normalised value compared; null for a secret, compared only as set. */
  value: string | null;
  /** The value as a person reads it. */
  display: string;
  secret: boolean;
}

/** One assignment as approved: a key it is compared by, and how the admin center would say it. */
export interface ApprovedAssignment {
  key: string;
  words: string;
}

export interface ApprovedPolicy {
  policyId: string;
  policyName: string;
  approvedAt: string;
  approvedBy: string;
  settings: ApprovedSetting[];
  /** null where the assignments could not be read when it was approved: they are then not compared. */
  assignments: ApprovedAssignment[] | null;
}

export interface BaselineAuditEntry {
  at: string;
  by: string;
  action: 'approve' | 'withdraw';
  policyId: string;
  policyName: string;
}

export interface BaselineBook {
  version: 1;
  /** By policy id in lower case. */
  policies: Record<string, ApprovedPolicy>;
  audit: BaselineAuditEntry[];
}

/** The audit entries kept, newest last: years of approvals by hand. */
export const MAX_BASELINE_AUDIT = 5_000;

export function emptyBaselineBook(): BaselineBook {
  return { version: 1, policies: {}, audit: [] };
}

/** What a policy is now, as the approval takes it: from reports 3's and 2's records (load.ts, `policySnapshot`). */
export interface PolicySnapshot {
  policyId: string;
  policyName: string;
  settings: ApprovedSetting[];
  assignments: ApprovedAssignment[] | null;
}

export type BaselineRequest = { action: 'approve'; policy: PolicySnapshot } | { action: 'withdraw'; policyId: string };

export type BaselineOutcome = { ok: true; book: BaselineBook; entry: BaselineAuditEntry } | { ok: false; status: 404; message: string };

/** The book after a request by `by` at `now`: an approval replaces the policy's earlier one; a withdrawal of a policy not approved is 404. */
export function applyBaselineRequest(book: BaselineBook, request: BaselineRequest, context: { by: string; now: Date }): BaselineOutcome {
  const at = context.now.toISOString();
  if (request.action === 'approve') {
    const { policy } = request;
    const entry: BaselineAuditEntry = { at, by: context.by, action: 'approve', policyId: policy.policyId, policyName: policy.policyName };
    const approved: ApprovedPolicy = { ...policy, approvedAt: at, approvedBy: context.by };
    return {
      ok: true,
      entry,
      book: { version: 1, policies: { ...book.policies, [policy.policyId.toLowerCase()]: approved }, audit: [...book.audit, entry].slice(-MAX_BASELINE_AUDIT) },
    };
  }
  const key = request.policyId.toLowerCase();
  const known = book.policies[key];
  if (!known) return { ok: false, status: 404, message: 'That policy is not in the approved baseline.' };
  const { [key]: _withdrawn, ...rest } = book.policies;
  const entry: BaselineAuditEntry = { at, by: context.by, action: 'withdraw', policyId: known.policyId, policyName: known.policyName };
  return { ok: true, entry, book: { version: 1, policies: rest, audit: [...book.audit, entry].slice(-MAX_BASELINE_AUDIT) } };
}

/** A setting value as the book keeps it. */
export function approvedSetting(value: SettingValue, name: string): ApprovedSetting {
  return { settingDefinitionId: value.settingDefinitionId, name, value: value.secret ? null : value.value, display: value.display, secret: value.secret };
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** A book as written by this module, or false for anything else (a torn file, another shape): never read as empty. */
export function isBaselineBook(value: unknown): value is BaselineBook {
  if (typeof value !== 'object' || value === null) return false;
  const book = value as Partial<BaselineBook>;
  if (book.version !== 1 || typeof book.policies !== 'object' || book.policies === null || !Array.isArray(book.audit)) return false;
  const policiesOk = Object.values(book.policies).every((policy: unknown) => {
    const p = policy as Partial<ApprovedPolicy> | null;
    return (
      typeof p === 'object' &&
      p !== null &&
      isString(p.policyId) &&
      isString(p.policyName) &&
      isString(p.approvedAt) &&
      isString(p.approvedBy) &&
      Array.isArray(p.settings) &&
      p.settings.every(
        (setting) => isString(setting?.settingDefinitionId) && isString(setting.name) && isString(setting.display) && (setting.value === null || isString(setting.value)),
      ) &&
      (p.assignments === null || (Array.isArray(p.assignments) && p.assignments.every((assignment) => isString(assignment?.key) && isString(assignment.words))))
    );
  });
  const auditOk = book.audit.every(
    (entry: unknown) =>
      typeof entry === 'object' &&
      entry !== null &&
      isString((entry as BaselineAuditEntry).at) &&
      isString((entry as BaselineAuditEntry).by) &&
      ['approve', 'withdraw'].includes((entry as BaselineAuditEntry).action) &&
      isString((entry as BaselineAuditEntry).policyId),
  );
  return policiesOk && auditOk;
}
