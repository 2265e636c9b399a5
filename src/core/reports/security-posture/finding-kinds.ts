import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const POSTURE_FINDING_KINDS = {
  'firewall-profile-off': {
    label: 'Policies switching a firewall profile off',
    one: 'Policy switching a firewall profile off',
    severity: 'high',
    remediation: {
      why: "The policy turns Microsoft Defender Firewall off for a network profile (domain, private or public) on every device it reaches. Whenever that profile is active, for the public profile on any hotel or café Wi-Fi, the device's listening services are open to everyone on the network.",
      steps: [
        "Open the policy from the finding's link (Endpoint security > Firewall, or Devices > Configuration for a settings catalog profile); the finding's detail names the profile that is off.",
        'Set Enable Domain Network Firewall, Enable Private Network Firewall or Enable Public Network Firewall, whichever the detail names, to True, and save.',
        'If an application needed the firewall off, give it a specific inbound rule instead, in a Windows Firewall Rules profile under Endpoint security > Firewall.',
        "Check the policy's device status afterwards: if another policy sets the same setting to a different value, the setting reports a conflict and doesn't apply, so remove it from one of them.",
      ],
      sources: [
        { title: 'Firewall policy for endpoint security in Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-firewall-policy' },
        { title: 'Firewall CSP (MdmStore profile EnableFirewall)', url: 'https://learn.microsoft.com/en-us/windows/client-management/mdm/firewall-csp' },
        {
          title: 'Manage device security with endpoint security policies in Microsoft Intune',
          url: 'https://learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-policy',
        },
      ],
    },
  },
  'asr-rule-audit': {
    label: 'Policies with ASR rules in audit',
    one: 'Policy with ASR rules in audit',
    severity: 'medium',
    remediation: {
      why: 'In audit mode an attack surface reduction rule only logs what it would have stopped: Office launching child processes, credential theft from LSASS, obfuscated scripts and the rest still run. Audit is the test phase before Block or Warn, not a protection.',
      steps: [
        'Review what each rule named in the finding would have blocked, over at least a few weeks: the attack surface reduction rules report in the Microsoft Defender portal, or advanced hunting on DeviceEvents for ActionType values ending in Audited.',
        'For legitimate line-of-business software that a rule would block, add an exclusion for that file or folder rather than leave the rule in audit.',
        'In Endpoint security > Attack surface reduction, open the policy and set each rule to Block, or to Warn where the rule supports it and users need a way past it. The rules run only where Microsoft Defender Antivirus is the primary antivirus.',
        'Roll the change out in rings: assign it to a pilot group first, watch block events and helpdesk calls, then widen the assignment.',
      ],
      sources: [
        {
          title: 'Attack surface reduction rules reference (rule modes, GUIDs, advanced hunting action types)',
          url: 'https://learn.microsoft.com/en-us/microsoft-365/security/defender-endpoint/attack-surface-reduction-rules-reference?view=o365-worldwide',
        },
      ],
    },
  },
  'baseline-outdated': {
    label: 'Outdated security baselines',
    one: 'Outdated security baseline',
    severity: 'medium',
    remediation: {
      why: 'Microsoft revises security baselines as Windows, Defender and Edge change. A profile on an older version keeps the older recommendations, misses the settings added since, and stops being supported once its template is retired.',
      steps: [
        "In Endpoint security > Security baselines, open the baseline type and the profile the finding names; the finding's detail gives its version and the latest one.",
        "Create a profile from the latest version (or change the existing profile's version where the admin center offers it), compare the settings that changed, and carry your own customizations over.",
        'Assign the new profile to a pilot group, check its device status and per-setting conflicts, then move the production assignments to it.',
        'Unassign and delete the old profile: two baseline versions on one device configure the same settings, and conflicting values apply on neither.',
      ],
      sources: [
        { title: 'Manage endpoint security in Microsoft Intune (security baselines)', url: 'https://learn.microsoft.com/en-us/mem/intune/protect/endpoint-security' },
        {
          title: 'Manage device security with endpoint security policies in Microsoft Intune (conflicts between baselines and policies)',
          url: 'https://learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-policy',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type PostureFindingKind = keyof typeof POSTURE_FINDING_KINDS;
