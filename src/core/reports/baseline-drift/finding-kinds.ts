import type { FindingKindTable } from '../../findings/finding-kinds.js';

const SETTINGS_CATALOG = {
  title: 'Use the settings catalog to configure settings on Windows, iOS/iPadOS and macOS devices',
  url: 'https://learn.microsoft.com/intune/intune-service/configuration/settings-catalog',
};
const AUDIT_LOGS = {
  title: 'Use audit logs to track and monitor events in Microsoft Intune',
  url: 'https://learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs',
};
const ASSIGN = { title: 'Assign device profiles in Microsoft Intune', url: 'https://learn.microsoft.com/intune/intune-service/configuration/device-profile-assign' };

/** Report 8's finding kinds (docs/finding-rules.md, "Drift from the approved baseline"). */
export const DRIFT_FINDING_KINDS = {
  'approved-policy-deleted': {
    label: 'Approved policies deleted',
    one: 'Approved policy deleted',
    severity: 'high',
    remediation: {
      why: 'A policy in the approved baseline is no longer in the tenant, so none of the settings that were approved reach the devices it was assigned to.',
      steps: [
        "See who deleted it and when: the finding's last change, or Tenant administration > Audit logs filtered by the policy's name.",
        'If the deletion was not intended, create the policy again with the approved settings and assignments (the approved values are in the row), then approve it again here.',
        'If it was intended, withdraw it from the approved baseline so the report stops counting it.',
      ],
      sources: [AUDIT_LOGS, SETTINGS_CATALOG],
    },
  },
  'approved-policy-unassigned': {
    label: 'Approved policies no longer assigned',
    one: 'Approved policy no longer assigned',
    severity: 'high',
    remediation: {
      why: 'A policy in the approved baseline was assigned when it was approved and is assigned to no one now, so its settings reach no device.',
      steps: [
        'Open the policy in Intune (the link in the row) and look at Assignments.',
        'Assign it again to the groups the row lists as approved, or, if removing it was intended, approve the policy as it is now.',
      ],
      sources: [ASSIGN, AUDIT_LOGS],
    },
  },
  'approved-policy-reassigned': {
    label: 'Approved policies assigned differently',
    one: 'Approved policy assigned differently',
    severity: 'medium',
    remediation: {
      why: 'The groups, filters or exclusions of a policy in the approved baseline differ from what was approved, so it reaches other devices or users than were agreed.',
      steps: [
        "Compare the approved assignments in the row with those now, in the policy's Assignments in Intune.",
        'Put the approved assignments back, or, if the change was intended, approve the policy as it is now.',
      ],
      sources: [ASSIGN, AUDIT_LOGS],
    },
  },
  'setting-drifted': {
    label: 'Settings that differ from the approved baseline',
    one: 'Setting that differs from the approved baseline',
    severity: 'medium',
    remediation: {
      why: 'A setting of an approved policy was changed, added or removed since it was approved, so devices get a value nobody approved.',
      steps: [
        "See who changed it and when: the finding's last change, or the change feed (dmhealth changes --object <policy>).",
        'Set the setting back to the approved value in the policy (Devices > Configuration, or Endpoint security), or, if the change was intended, approve the policy as it is now.',
      ],
      sources: [SETTINGS_CATALOG, AUDIT_LOGS],
    },
  },
} as const satisfies FindingKindTable<string>;

export type DriftFindingKind = keyof typeof DRIFT_FINDING_KINDS;
