/**
 * Report 8 reads nothing of its own: the approved baseline comes from the app's state
 * (`LoadContext.approvedBaseline`), and what each policy is now from the records of reports 3 (its
 * settings, read with their names) and 2 (its assignments, and the groups and filters they name),
 * shared through the report cache where it runs (`builtOn`, definition.ts; docs/architecture.md,
 * "Loading once for everyone"). The same records make the snapshot an approval keeps (`policySnapshot`).
 */

import type { LoadContext } from '../report-model.js';
import { loadSideBySide } from '../side-by-side.js';
import type { AssignableObject, AssignmentRecords, AssignmentTarget } from '../assignment-hygiene/records.js';
import type { SecurityPolicy, SecurityPostureRecords } from '../security-posture/records.js';
import { approvedSetting, isBaselineBook } from './baseline-book.js';
import type { ApprovedAssignment, BaselineBook, PolicySnapshot } from './baseline-book.js';
import type { BaselineDriftRecords, CurrentPolicy } from './records.js';

async function builtOn<Records>(context: LoadContext, id: 'security-posture' | 'assignment-hygiene'): Promise<Records> {
  if (!context.recordsOfReport) throw new Error('report 8 is loaded through the registry, which hands it the records of reports 3 and 2');
  return (await context.recordsOfReport(id)) as Records;
}

export async function loadBaselineDrift(context: LoadContext): Promise<BaselineDriftRecords> {
  const [posture, assignments] = await loadSideBySide<[SecurityPostureRecords, AssignmentRecords]>([
    () => builtOn<SecurityPostureRecords>(context, 'security-posture'),
    () => builtOn<AssignmentRecords>(context, 'assignment-hygiene'),
  ]);
  const current = currentPolicies(posture, assignments);
  return { book: await readBook(context, current), current, ...(posture.auditLog ? { auditLog: posture.auditLog } : {}) };
}

async function readBook(context: LoadContext, current: ReadonlyMap<string, CurrentPolicy>): Promise<BaselineBook | null> {
  if (!context.approvedBaseline) return null;
  const book = await context.approvedBaseline.read(current);
  // A bug, not a state: the app's records hand over only a book they checked.
  if (!isBaselineBook(book)) throw new Error('the approved baseline handed to report 8 is not a baseline book');
  return book;
}

/** Every settings catalog policy as it is now, by lower-case id: report 3's settings, report 2's assignments. */
export function currentPolicies(
  posture: Pick<SecurityPostureRecords, 'policies'>,
  assignments: Pick<AssignmentRecords, 'objects' | 'groups' | 'filters'>,
): Map<string, CurrentPolicy> {
  const objects = new Map<string, AssignableObject>();
  for (const object of assignments.objects) if (object.kind === 'settingsCatalogPolicy') objects.set(object.id.toLowerCase(), object);
  const current = new Map<string, CurrentPolicy>();
  for (const policy of posture.policies) {
    const object = objects.get(policy.id.toLowerCase());
    current.set(policy.id.toLowerCase(), {
      policyId: policy.id,
      policyName: policy.name,
      settings: settingsOf(policy),
      settingsError: policy.settingsError ?? (policy.values === undefined ? 'its settings were not read' : null),
      assignments: object?.targets ? object.targets.map((target) => assignmentOf(target, assignments)) : null,
      link: object?.link ?? '',
      roleScopeTagIds: policy.roleScopeTagIds ?? null,
    });
  }
  return current;
}

function settingsOf(policy: SecurityPolicy): CurrentPolicy['settings'] {
  if (policy.values === undefined || policy.settingsError) return null;
  const names = policy.settingNames ?? {};
  return policy.values.map((value) => approvedSetting(value, names[value.settingDefinitionId] ?? value.settingDefinitionId));
}

/** An assignment as compared (`key`: what it targets, its filter and intent) and as the admin center says it (`words`). */
export function assignmentOf(target: AssignmentTarget, records: Pick<AssignmentRecords, 'groups' | 'filters'>): ApprovedAssignment {
  const groupName = (id: string) => {
    const group = records.groups.get(id.toLowerCase());
    return group?.state === 'found' ? group.displayName : group?.state === 'unknown' && group.displayName ? group.displayName : id;
  };
  const [key, words] =
    target.type === 'include'
      ? [`include:${target.groupId.toLowerCase()}`, `Included group ${groupName(target.groupId)}`]
      : target.type === 'exclude'
        ? [`exclude:${target.groupId.toLowerCase()}`, `Excluded group ${groupName(target.groupId)}`]
        : target.type === 'allUsers'
          ? ['allUsers', 'All users']
          : target.type === 'allDevices'
            ? ['allDevices', 'All devices']
            : target.type === 'configMgrCollection'
              ? [`collection:${target.collectionId.toLowerCase()}`, `Configuration Manager collection ${target.collectionId}`]
              : [`other:${target.odataType}`, target.odataType];
  const filter = target.filter;
  if (!filter || filter.mode === 'none' || filter.mode === 'unrecognised') return { key: `${key}|${filter?.mode ?? 'unknown'}`, words };
  const filterName = filter.id && records.filters.ok ? (records.filters.value.get(filter.id.toLowerCase())?.displayName ?? filter.id) : (filter.id ?? 'a filter');
  return {
    key: `${key}|${filter.mode}:${(filter.id ?? '').toLowerCase()}`,
    words: `${words}, ${filter.mode === 'include' ? 'filter (include)' : 'filter (exclude)'} ${filterName}`,
  };
}

/** What an approval keeps of a policy now; null where it is not among the policies or its settings were not read in full. */
export function policySnapshot(current: ReadonlyMap<string, CurrentPolicy>, policyId: string): PolicySnapshot | { unreadable: string } | null {
  const policy = current.get(policyId.toLowerCase());
  if (!policy) return null;
  if (!policy.settings) return { unreadable: policy.settingsError ?? 'its settings were not read' };
  return { policyId: policy.policyId, policyName: policy.policyName, settings: policy.settings, assignments: policy.assignments };
}
