/**
 * The setting conflicts report's records are mostly other reports': report 3's (the settings
 * catalog, endpoint security and baseline policies with every setting they set) and report 2's (each
 * policy's and profile's assignment targets and the groups they name), taken from the application's
 * report cache where their loads are shared (docs/architecture.md, "Loading once for everyone"), else
 * loaded side by side through those reports' own loads, with no read of its own for them
 * (docs/finding-rules.md, "Setting conflicts"); the settings' display names come with report 3's
 * settings reads. Its reads of its own (reads.ts), all optional, are what devices already reported,
 * the device restrictions profiles' fields, and the enrolled devices of the users through whom a
 * policy's group meets a policy to All devices.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { LoadContext } from '../report-model.js';
import type { AuditLogSource } from '../../audit-story/audit-story.js';
import { loadSideBySide } from '../side-by-side.js';
import { readCollection } from '../read-collection.js';
import { asString } from '../graph-values.js';
import { optionalReadFailure } from '../optional-read.js';
import { intuneLinks } from '../intune-links.js';
import { assignmentHygieneReport } from '../assignment-hygiene/definition.js';
import { securityPostureReport } from '../security-posture/definition.js';
import { noFilterInTenant } from '../assignment-hygiene/load.js';
import type { AssignableObject, AssignmentRecords } from '../assignment-hygiene/load.js';
import { isAuditOnly } from '../security-posture/load.js';
import type { SecurityPolicy, SecurityPostureRecords } from '../security-posture/load.js';
import type { ConflictPolicy, ReportedConflict, ReportedConflicts, SettingConflictRecords } from './conflict-records.js';
import { targetedPolicies } from './derive.js';
import { CONFLICT_SUMMARY_READ } from './reads.js';
import { readMemberDevices, usersToRead } from './member-devices.js';
import { classicSettingNames, readClassicProfiles } from './classic-profiles.js';

function policyLink(policy: SecurityPolicy): string {
  return intuneLinks.configurationPolicy({
    id: policy.id,
    isAssigned: policy.isAssigned ?? true,
    technologies: policy.technologies,
    templateId: policy.templateId,
    platforms: policy.platforms,
  });
}

/**
 * Report 3's policies as the conflict rules read them. An audit-only baseline (STIG) enforces nothing,
 * so it sets nothing that can conflict; a policy whose settings were not read whole is not judged.
 */
export function conflictPolicies(posture: Pick<SecurityPostureRecords, 'policies'>): ConflictPolicy[] {
  return posture.policies
    .filter((policy) => !isAuditOnly(policy))
    .map((policy) => {
      const whole = policy.settingsPaged && readWhole(policy, policy.settingCount);
      return {
        id: policy.id,
        name: policy.name,
        templateFamily: policy.templateFamily,
        platforms: policy.platforms,
        values: whole ? (policy.values ?? []) : null,
        settingsError: whole ? null : (policy.settingsError ?? 'its settings were not read in full'),
        link: policyLink(policy),
      };
    });
}

/**
 * Whether a read of a policy's settings holds all of them: it did not fail, and where Graph counts
 * settings (`settingCount`) and counts some, it read some. "What applies" judges the policies it
 * reads alone by the same rule (src/core/applies/settings-read.ts).
 */
export function readWhole(read: { settingsError: string | null; settingsRead: number }, settingCount: number | null | undefined): boolean {
  return read.settingsError === null && (settingCount === null || settingCount === undefined || settingCount === 0 || read.settingsRead > 0);
}

/**
 * The settings' display names, from the definitions report 3 read with each policy's settings
 * (security-posture/load.ts, `settingNames`): the first a policy gave for an id. A setting none gave
 * a name for is named by its id (derive.ts).
 */
export function definitionNames(posture: Pick<SecurityPostureRecords, 'policies'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const policy of posture.policies) {
    for (const [id, name] of Object.entries(policy.settingNames ?? {})) if (!names.has(id)) names.set(id, name);
  }
  return names;
}

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
 * Reports 3 and 2 tell their findings' stories from Intune's audit log (docs/finding-rules.md, "A
 * finding's last change"); this report tells none, so the loads it makes of them itself read no
 * audit log, which on a tenant with a year of events is most of their requests.
 */
const NO_AUDIT_LOG: AuditLogSource = {
  read: async () => ({ ok: false, reason: 'not read: the setting conflicts report tells no stories' }),
};

/** A report's records from the cache that shares them, or from a load of its own where none can be shared. */
async function shared<Records>(context: LoadContext, report: { id: string; load: (context: LoadContext) => Promise<Records> }): Promise<Records> {
  return (await context.recordsOf?.(report)) ?? report.load({ ...context, auditLog: NO_AUDIT_LOG });
}

export async function loadSettingConflicts(context: LoadContext): Promise<SettingConflictRecords> {
  const [posture, assignments, reported] = await loadSideBySide<[SecurityPostureRecords, AssignmentRecords, ReportedConflicts]>([
    () => shared(context, securityPostureReport),
    () => shared(context, assignmentHygieneReport),
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
