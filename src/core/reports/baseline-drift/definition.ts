/** Report 8 as the registry holds it: what it says of itself, the source --fault breaks, its demo, and its load and derive. */

import { LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import type { GraphApplicationPermission } from '../../graph/graph-permissions.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import { ASSIGNMENT_PERMISSIONS, ASSIGNMENT_READS } from '../assignment-hygiene/reads.js';
import { SECURITY_POLICIES_READ, SECURITY_POSTURE_PERMISSIONS, SECURITY_POSTURE_READS } from '../security-posture/reads.js';
import { withStories } from '../../audit-story/audit-story.js';
import { deriveBaselineDrift } from './derive.js';
import { DRIFT_FINDING_KINDS } from './finding-kinds.js';
import type { DriftFindingKind } from './finding-kinds.js';
import { loadBaselineDrift } from './load.js';
import type { BaselineDriftRecords } from './records.js';
import { baselineDriftDemo } from './demo.js';

/** Report 3's reads and report 2's, each once: the records it compares are theirs (`builtOn`, load.ts). */
const READS: readonly UpstreamRead[] = [...new Set([...SECURITY_POSTURE_READS, ...ASSIGNMENT_READS])];
const PERMISSIONS: readonly GraphApplicationPermission[] = [...new Set([...SECURITY_POSTURE_PERMISSIONS, ...ASSIGNMENT_PERMISSIONS])];

export const baselineDriftReport: ReportDefinition<BaselineDriftRecords, DriftFindingKind> = {
  id: 'baseline-drift',
  title: 'Drift from the Approved Baseline',
  summary:
    'Each setting of an approved settings catalog, endpoint security or baseline policy that now differs from its approved value, and each approved policy deleted, no longer assigned or assigned differently, with who changed it and when. A person with the Triager role approves a policy as it is; the approval is kept in this app, never in the tenant.',
  permissions: PERMISSIONS,
  prerequisites: [
    'An Intune licence for the tenant.',
    "Policies approved in the tab by a person with the Triager role: the app keeps the approved baseline in its own state, so the command line, which keeps none, shows drift only from the demo tenant's own baseline.",
  ],
  beta: false,
  navigationLabel: 'Drift from baseline',
  botNames: ['baseline drift', 'drift', 'drift from baseline', 'approved baseline', 'drift from the approved baseline'],
  botTopics: ['drift', 'drifted', 'approved baseline', 'approved settings', 'no longer match', 'not as approved'],
  botDescription: 'Approved policies whose settings or assignments changed',
  tables: { '': 'Approved policies and what drifted' },
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: DRIFT_FINDING_KINDS,
  optionalSources: [],
  /**
   * Scope-tagged: each row carries its policy's scope tags (derive.ts); settings catalog policies are
   * governed by "Device configurations" and endpoint security policies and baselines by "Security
   * baselines" (learn.microsoft.com/intune/intune-service/fundamentals/create-custom-role), and a row
   * may be either, so a viewer limited to tags needs both reads.
   */
  seenBy: { kind: 'scopeTagged', reads: ['deviceConfigurations', 'securityBaselines'] },
  builtOn: ['security-posture', 'assignment-hygiene'],
  demo: baselineDriftDemo,
  reads: READS,
  faultSource: SECURITY_POLICIES_READ.path,
  load: loadBaselineDrift,
  // Who changed a drifted policy, and when (docs/finding-rules.md, "A finding's last change").
  derive: (records) => withStories(deriveBaselineDrift(records), records.auditLog),
};
