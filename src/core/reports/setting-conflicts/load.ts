/**
 * The setting conflicts report reads nothing of its own: its records are report 3's (the settings
 * catalog, endpoint security and baseline policies with every setting they set) and report 2's (each
 * policy's assignment targets and the groups they name): taken from the application's report cache
 * where their loads are shared (docs/architecture.md, "Loading once for everyone"), else loaded side
 * by side through those reports' own loads. Either way it makes no read of its own for them
 * (docs/finding-rules.md, "Setting conflicts"); the settings' display names come with report 3's
 * settings reads.
 */

import type { LoadContext } from '../report-model.js';
import { loadSideBySide } from '../side-by-side.js';
import { intuneLinks } from '../intune-links.js';
import { assignmentHygieneReport } from '../assignment-hygiene/definition.js';
import { securityPostureReport } from '../security-posture/definition.js';
import type { AssignmentRecords } from '../assignment-hygiene/load.js';
import { isAuditOnly } from '../security-posture/load.js';
import type { SecurityPolicy, SecurityPostureRecords } from '../security-posture/load.js';
import type { ConflictPolicy, SettingConflictRecords } from './derive.js';

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
      const whole = policy.settingsError === null && policy.settingsPaged && (policy.settingCount === null || policy.settingCount === 0 || policy.settingsRead > 0);
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

/** The two reports' records made into this report's. */
export function conflictRecords(posture: Pick<SecurityPostureRecords, 'policies'>, assignments: Pick<AssignmentRecords, 'objects' | 'groups'>): SettingConflictRecords {
  return {
    policies: conflictPolicies(posture),
    assignments: { objects: assignments.objects, groups: assignments.groups },
    definitionNames: definitionNames(posture),
  };
}

/** A report's records from the cache that shares them, or from a load of its own where none can be shared. */
async function shared<Records>(context: LoadContext, report: { id: string; load: (context: LoadContext) => Promise<Records> }): Promise<Records> {
  return (await context.recordsOf?.(report)) ?? report.load(context);
}

export async function loadSettingConflicts(context: LoadContext): Promise<SettingConflictRecords> {
  const [posture, assignments] = await loadSideBySide<[SecurityPostureRecords, AssignmentRecords]>([
    () => shared(context, securityPostureReport),
    () => shared(context, assignmentHygieneReport),
  ]);
  return conflictRecords(posture, assignments);
}
