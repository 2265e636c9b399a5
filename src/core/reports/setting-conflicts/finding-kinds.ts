import type { FindingKindTable } from '../../findings/finding-kinds.js';

const AVOID_CONFLICTS = {
  title: 'Avoiding policy conflicts (Intune: "Intune generates an error and doesn\'t apply either setting")',
  url: 'https://learn.microsoft.com/intune/solutions/education/tutorial-school-deployment/policy-conflicts',
};
const PROFILE_TROUBLESHOOT = {
  title: 'Common questions and answers with device policies and profiles in Microsoft Intune',
  url: 'https://learn.microsoft.com/en-us/mem/intune/configuration/device-profile-troubleshoot',
};
const SETTINGS_CATALOG = {
  title: 'Use the settings catalog to configure settings on Windows, iOS/iPadOS and macOS devices',
  url: 'https://learn.microsoft.com/en-us/mem/intune/configuration/settings-catalog',
};
const ASSIGN = {
  title: 'Assign user and device profiles in Microsoft Intune (include and exclude groups)',
  url: 'https://learn.microsoft.com/en-us/mem/intune/configuration/device-profile-assign',
};

const FIX_STEPS = [
  "Open both policies from the finding's detail (Devices > Configuration, or Endpoint security for an endpoint security policy or baseline) and find the setting it names.",
  'Decide which value the devices should have, and keep the setting in one policy only: set it to Not configured (or remove it) in the other.',
  'If both values are wanted for different devices, split the assignments so no device or user is in both: exclude the one group from the other policy, or use an assignment filter.',
  "After devices check in, Devices > Monitor > Configuration policy assignment failures (or the policy's per-setting status) should show no conflict for the setting.",
] as const;

/** The finding kinds this report states (docs/contract.md, "Finding kinds"; docs/finding-rules.md, "Setting conflicts"). */
export const CONFLICT_FINDING_KINDS = {
  'security-setting-conflict': {
    label: 'Security settings set differently by policies reaching the same devices',
    one: 'Security setting set differently by policies reaching the same devices',
    severity: 'high',
    remediation: {
      why: 'Two policies that reach the same device set this firewall, Defender, attack surface reduction, BitLocker, LAPS or baseline setting to different values. Intune applies neither value, so the protection the setting gives is not configured on those devices until one value is removed.',
      steps: FIX_STEPS,
      sources: [
        AVOID_CONFLICTS,
        PROFILE_TROUBLESHOOT,
        { title: 'Manage endpoint security in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/protect/endpoint-security' },
      ],
    },
  },
  'setting-conflict': {
    label: 'Settings set differently by policies reaching the same devices',
    one: 'Setting set differently by policies reaching the same devices',
    severity: 'medium',
    remediation: {
      why: 'Two policies that reach the same device or user set this setting to different values. Intune applies neither value and reports the setting as a conflict once devices check in, so the devices keep whatever they had.',
      steps: FIX_STEPS,
      sources: [AVOID_CONFLICTS, PROFILE_TROUBLESHOOT, SETTINGS_CATALOG],
    },
  },
  'reported-setting-conflict': {
    label: 'Profile conflicts devices reported',
    one: 'Profile conflict devices reported',
    severity: 'medium',
    remediation: {
      why: 'Intune itself reports that devices checking in received these device configuration profiles with settings in conflict: Intune applies neither value on those devices, and the count says how many check-ins it affected.',
      steps: ['Open each profile the finding names (Devices > Configuration) and find the settings it lists.', ...FIX_STEPS.slice(1)],
      sources: [
        PROFILE_TROUBLESHOOT,
        { title: 'Monitor device configuration profiles in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/configuration/device-profile-monitor' },
        {
          title: 'deviceConfigurationConflictSummary resource type (Microsoft Graph beta)',
          url: 'https://learn.microsoft.com/graph/api/resources/intune-deviceconfig-deviceconfigurationconflictsummary?view=graph-rest-beta',
        },
      ],
    },
  },
  'possible-setting-conflict': {
    label: 'Settings set differently by policies that may reach the same devices',
    one: 'Setting set differently by policies that may reach the same devices',
    severity: 'medium',
    remediation: {
      why: "Two policies set this setting to different values (or to secret values that can't be compared), and whether a device or user is reached by both could not be told from what was read: the finding says why (different groups whose members were not read, a filter, an exclusion). Where one is, Intune applies neither value.",
      steps: [
        "Check whether any device or user is in the targets of both policies the finding names: the groups' members (nested groups included), and each assignment filter's rule.",
        ...FIX_STEPS.slice(1),
      ],
      sources: [
        AVOID_CONFLICTS,
        ASSIGN,
        { title: 'Use filters when assigning apps, policies and profiles in Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/fundamentals/filters' },
      ],
    },
  },
  'duplicate-setting': {
    label: 'Settings set to the same value by policies reaching the same devices',
    one: 'Setting set to the same value by policies reaching the same devices',
    severity: 'low',
    remediation: {
      why: 'Two policies that reach the same devices set this setting to the same value. Nothing breaks today, but the day one of them is changed the setting becomes a conflict and Intune applies neither value.',
      steps: [
        'Decide which policy owns the setting (a security baseline or an endpoint security policy, or one settings catalog profile).',
        'Set the setting to Not configured (or remove it) in the other policy, so one change later cannot make a conflict.',
      ],
      sources: [AVOID_CONFLICTS, SETTINGS_CATALOG],
    },
  },
} as const satisfies FindingKindTable;

export type ConflictFindingKind = keyof typeof CONFLICT_FINDING_KINDS;
