/**
 * The setting conflicts report's records are mostly other reports': report 3's (the settings
 * catalog, endpoint security and baseline policies with every setting they set) and report 2's (each
 * policy's and profile's assignment targets and the groups they name), taken from the application's
 * report cache where their loads are shared (docs/architecture.md, "Loading once for everyone"), else
 * loaded side by side through those reports' own loads, both through the registry (`builtOn`,
 * definition.ts), with no read of its own for them
 * (docs/finding-rules.md, "Setting conflicts"); the settings' display names come with report 3's
 * settings reads. Its reads of its own (reads.ts), all optional, are what devices already reported,
 * the device restrictions profiles' fields, and the enrolled devices of the users through whom a
 * policy's group meets a policy to All devices.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { LoadContext } from '../report-model.js';
import { loadSideBySide } from '../side-by-side.js';
import { readCollection } from '../read-collection.js';
import { asString } from '../graph-values.js';
import { optionalReadFailure } from '../optional-read.js';
import { noFilterInTenant } from '../assignment-hygiene/records.js';
import type { AssignableObject, AssignmentRecords } from '../assignment-hygiene/records.js';
import type { SecurityPostureRecords } from '../security-posture/records.js';
import type { ReportedConflict, ReportedConflicts, SettingConflictRecords } from './conflict-records.js';
import { targetedPolicies } from './derive.js';
import { CONFLICT_SUMMARY_READ } from './reads.js';
import { readMemberDevices, usersToRead } from './member-devices.js';
import { classicSettingNames, readClassicProfiles } from './classic-profiles.js';
import { conflictPolicies, definitionNames } from '../../policy-settings/conflict-policy.js';

/**
 * Report 2's objects with "no filter" where the tenant's filter list was read and is empty: a filter
 * in use cannot be deleted, so no assignment has one, though an object read on `/v1.0` carries no
 * filter fields (docs/finding-rules.md, report 2, "filter fields absent"; "what applies" decides
 * the same). Elsewhere a target without the fields keeps its filter unknown.
 */
function withNoFilterWhereNoneExist(assignments: Pick<AssignmentRecords, 'objects' | 'filters'>): readonly AssignableObject[] {
  if (!noFilterInTenant(assignments.filters)) return assignments.objects;
  return assignments.objects.map((object) =>
    object.targets?.some((target) => target.filter === undefined)
      ? { ...object, targets: object.targets.map((target) => (target.filter === undefined ? { ...target, filter: { mode: 'none' } } : target)) }
      : object,
  );
}

/** The two reports' records made into this report's, with what devices reported. */
function conflictRecords(
  posture: Pick<SecurityPostureRecords, 'policies'>,
  assignments: Pick<AssignmentRecords, 'objects' | 'groups' | 'filters'>,
  reported: ReportedConflicts = { ok: true, value: [] },
): SettingConflictRecords {
  return {
    policies: conflictPolicies(posture),
    assignments: { objects: withNoFilterWhereNoneExist(assignments), groups: assignments.groups },
    definitionNames: definitionNames(posture),
    reported,
  };
}

/** One entry of the conflict summary, kept to what a row shows; a profile without an id is left out of the link, not the row. */
function projectReported(entry: Beta.DeviceConfigurationConflictSummary): ReportedConflict {
  return {
    id: String(entry.id),
    profiles: (entry.conflictingDeviceConfigurations ?? []).flatMap((source) =>
      source ? [{ id: asString(source.id), name: asString(source.displayName), sourceType: asString(source.sourceType) }] : [],
    ),
    settings: (entry.contributingSettings ?? []).filter((setting): setting is string => typeof setting === 'string' && setting.length > 0),
    deviceCheckinsImpacted: typeof entry.deviceCheckinsImpacted === 'number' ? entry.deviceCheckinsImpacted : null,
  };
}

/** The conflict summary, every page, or why it could not be read: "could not check" for that part, never a load error. */
async function loadReported(context: LoadContext, signal: AbortSignal): Promise<ReportedConflicts> {
  try {
    return { ok: true, value: await readCollection(context, 'deviceConfigurationConflictSummary', CONFLICT_SUMMARY_READ.path, { signal }, projectReported) };
  } catch (error) {
    return { ok: false, reason: `the conflicts devices reported could not be read: ${optionalReadFailure(error, signal)}` };
  }
}

/**
 * The records of a report this one is built on (definition.ts, `builtOn`), as its load gives them:
 * the registry shares them through the report cache where it can, else loads them for this load.
 */
async function builtOn<Records>(context: LoadContext, id: 'security-posture' | 'assignment-hygiene'): Promise<Records> {
  if (!context.recordsOfReport) throw new Error('the setting conflicts report is loaded through the registry, which hands it the records of reports 3 and 2');
  return (await context.recordsOfReport(id)) as Records;
}

export async function loadSettingConflicts(context: LoadContext): Promise<SettingConflictRecords> {
  const [posture, assignments, reported] = await loadSideBySide<[SecurityPostureRecords, AssignmentRecords, ReportedConflicts]>([
    () => builtOn<SecurityPostureRecords>(context, 'security-posture'),
    () => builtOn<AssignmentRecords>(context, 'assignment-hygiene'),
    (signal) => loadReported(context, signal),
  ]);
  const signal = new AbortController().signal;
  // Then the device restrictions profiles' fields (classic-profiles.ts), compared with the policies' settings.
  const profiles = await readClassicProfiles(context.graph, assignments.objects, signal);
  const read = conflictRecords(posture, assignments, reported);
  const names = new Map(read.definitionNames);
  for (const [id, name] of classicSettingNames(profiles.flatMap((profile) => profile.values ?? []))) names.set(id, name);
  const records: SettingConflictRecords = { ...read, policies: [...read.policies, ...profiles], definitionNames: names };
  // Then the enrolled devices of the few users through whom a policy's group meets a policy to All devices (member-devices.ts).
  const users = usersToRead(records.policies, targetedPolicies(records.assignments.objects), assignments.groups);
  if (users.length === 0) return records;
  return { ...records, memberDevices: await readMemberDevices(context.graph, users, signal) };
}
