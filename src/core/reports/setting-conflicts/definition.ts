/** The setting conflicts report as the registry holds it: what it says of itself, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import type { GraphApplicationPermission } from '../../graph/graph-permissions.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import { ASSIGNMENT_PERMISSIONS, ASSIGNMENT_READS } from '../assignment-hygiene/reads.js';
import { SECURITY_POLICIES_READ, SECURITY_POSTURE_PERMISSIONS, SECURITY_POSTURE_READS } from '../security-posture/reads.js';
import { deriveSettingConflicts } from './derive.js';
import type { SettingConflictRecords } from './conflict-records.js';
import { CONFLICT_FINDING_KINDS } from './finding-kinds.js';
import type { ConflictFindingKind } from './finding-kinds.js';
import { loadSettingConflicts } from './load.js';
import { settingConflictsDemo } from './demo.js';
import { CONFLICT_SUMMARY_READ, SETTING_CONFLICT_READS } from './reads.js';

/** Report 3's reads and report 2's, each once: the records it judges are theirs (`builtOn`, load.ts); then its own, what devices reported. */
const READS: readonly UpstreamRead[] = [...new Set([...SECURITY_POSTURE_READS, ...ASSIGNMENT_READS, ...SETTING_CONFLICT_READS])];
const PERMISSIONS: readonly GraphApplicationPermission[] = [...new Set([...SECURITY_POSTURE_PERMISSIONS, ...ASSIGNMENT_PERMISSIONS])];

export const settingConflictsReport: ReportDefinition<SettingConflictRecords, ConflictFindingKind> = {
  id: 'setting-conflicts',
  title: 'Setting Conflicts',
  summary:
    'Settings that two settings catalog, endpoint security, baseline or device restrictions policies set differently for the same devices or users, before devices report the conflict: Intune applies neither value. Also settings set twice to the same value, and the conflicts between device configuration profiles that devices already reported. Other configuration profiles, Administrative Templates, and security baselines and endpoint security policies of the older templates are not compared: their settings are not read.',
  permissions: PERMISSIONS,
  prerequisites: [
    'An Intune licence for the tenant.',
    "Compares settings catalog policies, endpoint security policies and security baselines in the settings catalog's format, and device restrictions profiles (with each other, and with a settings catalog policy where Microsoft names the CSP behind the field); other configuration profiles, Administrative Templates, and security baselines and endpoint security policies of the older templates are not compared, and only the conflicts devices report among them are shown.",
  ],
  beta: false,
  navigationLabel: 'Setting conflicts',
  botNames: ['setting conflicts', 'conflicts', 'policy conflicts', 'conflicting settings'],
  botTopics: ['conflict', 'conflicts', 'conflicting', 'policy conflict', 'setting conflict', 'duplicate setting', 'duplicate settings', 'set twice'],
  botDescription: 'Settings two policies set differently for the same devices',
  tables: { '': 'Settings set by more than one policy' },
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: CONFLICT_FINDING_KINDS,
  // The conflict summary is read with a permission the report cannot do without anyway; its column
  // n/a (a failed read) leaves its kind unchecked rather than resolved.
  optionalSources: [
    {
      column: 'conflictSummary',
      findingKinds: ['reported-setting-conflict'],
      source: 'the conflicts devices reported',
      permission: CONFLICT_SUMMARY_READ.permissions[0],
    },
  ],
  /**
   * Tenant-wide, and no Intune read permission opens it: a row joins policies of different scope tags.
   */
  seenBy: { kind: 'tenantWide', area: null },
  builtOn: ['security-posture', 'assignment-hygiene'],
  demo: settingConflictsDemo,
  reads: READS,
  faultSource: SECURITY_POLICIES_READ.path,
  load: loadSettingConflicts,
  derive: (records) => deriveSettingConflicts(records),
};
