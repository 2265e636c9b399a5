/**
 * Report 7's records: the policies and profiles whose settings are compared, report 2's assignment
 * records, what devices reported, and the enrolled devices read beside All devices (load.ts makes
 * them, derive.ts judges them).
 */

import type { GroupLookup } from '../../directory/group-lookup.js';
import type { OptionalRead } from '../optional-read.js';
import type { ConflictPolicy } from '../../policy-settings/conflict-policy.js';
import type { AssignableObject } from '../assignment-hygiene/records.js';
import type { MemberDevices } from '../../policy-settings/overlap.js';

export interface SettingConflictRecords {
  policies: ConflictPolicy[];
  /** Report 2's assignment records: each configuration policy's targets, and the groups they name by lower-case id. */
  assignments: { objects: readonly AssignableObject[]; groups: ReadonlyMap<string, GroupLookup> };
  /** Display names of setting definitions by id, where they were read; a setting without one is named by its id. */
  definitionNames?: ReadonlyMap<string, string>;
  /** What devices already reported (the conflict summary), or why it could not be read. */
  reported: ReportedConflicts;
  /** The enrolled devices of the users whose devices decide an overlap with All devices (load.ts), where they were read. */
  memberDevices?: MemberDevices;
}

/**
 * One entry of Intune's conflict summary for device configuration profiles
 * (deviceConfigurationConflictSummary, Graph beta): the profiles in conflict, the settings, and how
 * many check-ins it affected. Its `id` is the profiles' ids in lexicographical order joined by
 * underscores, so it names the same conflict from one load to the next.
 */
export interface ReportedConflict {
  id: string;
  profiles: Array<{ id: string | null; name: string | null; sourceType: string | null }>;
  settings: string[];
  deviceCheckinsImpacted: number | null;
}

export type ReportedConflicts = OptionalRead<ReportedConflict[]>;
