/** Report 2 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { ASSIGNMENT_PERMISSIONS, ASSIGNMENT_READS, DEVICE_CONFIGURATIONS_READ } from './reads.js';
import { deriveAssignmentHygiene } from './derive.js';
import { ASSIGNMENT_FINDING_KINDS } from './finding-kinds.js';
import type { AssignmentFindingKind } from './finding-kinds.js';
import { loadAssignments } from './load.js';
import type { AssignmentRecords } from './records.js';
import { assignmentHygieneDemo } from './demo.js';
import { withStories } from '../../audit-story/audit-story.js';

export const assignmentHygieneReport: ReportDefinition<AssignmentRecords, AssignmentFindingKind> = {
  id: 'assignment-hygiene',
  title: 'Assignment Hygiene',
  summary:
    'Configuration profiles, compliance policies, settings catalog policies, apps and scripts that apply to nobody (never assigned, exclusions only, only deleted or empty groups), and objects assigned to both All users and All devices.',
  // The current Graph pages require DeviceManagementScripts.Read.All for both script lists (docs/finding-rules.md, report 2).
  permissions: ASSIGNMENT_PERMISSIONS,
  prerequisites: ['An Intune licence for the tenant.'],
  beta: false,
  // Each row carries its object's scope tags where Graph gave them (derive.ts; on /v1.0 the profiles,
  // compliance policies and apps have none, so only whole-tenant viewers see those rows).
  navigationLabel: 'Assignment hygiene',
  botNames: ['assignment hygiene', 'assignments', 'hygiene', 'unassigned'],
  botTopics: [
    'assignment',
    'assigned',
    'not assigned',
    'unassigned',
    'exclusion',
    'exclusions',
    'excluded',
    'empty group',
    'empty groups',
    'deleted group',
    'deleted groups',
    'all users',
    'all devices',
    'orphaned',
    'orphan',
    'targeted',
  ],
  botDescription: 'Policies, apps and scripts that apply to nobody',
  tables: { '': 'Policies, apps and scripts' },
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: ASSIGNMENT_FINDING_KINDS,
  optionalSources: [],
  /**
   * Scope-tagged, read with every permission of the kinds it shows: configuration profiles, settings catalog and administrative
   * template policies, platform scripts, remediations, shell scripts and feature update profiles are
   * "Device configurations" objects; compliance policies "Device compliance policies"; apps "Mobile
   * apps" ("Custom role permissions", create-custom-role).
   */
  seenBy: { kind: 'scopeTagged', reads: ['deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps'] },
  demo: assignmentHygieneDemo,
  reads: ASSIGNMENT_READS,
  faultSource: DEVICE_CONFIGURATIONS_READ.path,
  load: (context) => loadAssignments(context),
  // Findings about policies, profiles, apps and scripts carry their object's story (docs/finding-rules.md, "A finding's last change").
  derive: (records, context) => withStories(deriveAssignmentHygiene(records, context), records.auditLog),
};
