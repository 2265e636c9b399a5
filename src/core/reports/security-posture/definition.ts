/** Report 3 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { INTENTS_READ, SECURITY_POSTURE_PERMISSIONS, SECURITY_POSTURE_READS } from './reads.js';
import { deriveSecurityPosture } from './derive.js';
import { POSTURE_FINDING_KINDS } from './finding-kinds.js';
import type { PostureFindingKind } from './finding-kinds.js';
import { loadSecurityPosture } from './load.js';
import type { SecurityPostureRecords } from './records.js';
import { securityPostureDemo } from './demo.js';
import { withStories } from '../../audit-story/audit-story.js';
import { optionNamesOf } from './load.js';

export const securityPostureReport: ReportDefinition<SecurityPostureRecords, PostureFindingKind> = {
  id: 'security-posture',
  title: 'Endpoint Security Policy Posture',
  summary: 'What security policies enforce: attack surface reduction rules left in audit mode, firewall profiles switched off by policy, and outdated security baselines.',
  permissions: SECURITY_POSTURE_PERMISSIONS,
  prerequisites: [
    'An Intune licence for the tenant.',
    'Attack surface reduction rules give full value only where Microsoft Defender for Endpoint and Windows Enterprise E3 or higher are licensed.',
  ],
  beta: false,
  // Each row carries its policy's scope tags (derive.ts), so a post for one scope tag holds this report.
  navigationLabel: 'Security policy posture',
  botNames: ['security posture', 'endpoint security', 'security', 'posture', 'security policy posture', 'endpoint security policy posture'],
  botTopics: [
    'firewall',
    'asr',
    'attack surface',
    'attack surface reduction',
    'baseline',
    'baselines',
    'antivirus',
    'audit mode',
    'security policy',
    'security policies',
    'endpoint protection',
    'defender antivirus',
  ],
  botDescription: 'ASR rules in audit, firewall profiles off, outdated baselines',
  tables: { '': 'Security settings' },
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: POSTURE_FINDING_KINDS,
  optionalSources: [],
  /**
   * Scope-tagged: endpoint security policies and security baselines are
   * governed by the "Security baselines" permissions (create-custom-role; the built-in Endpoint Security
   * Manager and Read Only Operator hold its Read, role-based-access-control-reference).
   */
  seenBy: { kind: 'scopeTagged', reads: ['securityBaselines'] },
  demo: securityPostureDemo,
  reads: SECURITY_POSTURE_READS,
  faultSource: INTENTS_READ.path,
  load: loadSecurityPosture,
  // Findings about policies and baselines carry their object's story (docs/finding-rules.md, "A finding's last change").
  // A changed ASR or firewall value in a story is named by its option, as the rows name it.
  derive: (records, context) => withStories(deriveSecurityPosture(records, context), records.auditLog, optionNamesOf(records)),
};
