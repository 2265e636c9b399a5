import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const ASSIGNMENT_FINDING_KINDS = {
  'assigned-to-missing-or-empty-groups': {
    label: 'Assigned only to deleted or empty groups',
    severity: 'medium',
    remediation: {
      why: 'Every group the object is assigned to is deleted or has no members, so the profile, policy, app or script reaches no one. Whoever believes it protects or serves those users or devices is wrong.',
      steps: [
        "Open the object from the finding's link and go to Properties > Assignments; the finding's detail names each group and whether it was deleted or is empty.",
        'Deleted group: a group still restorable is a finding of its own (assigned to deleted groups that can still be restored); one deleted for good cannot come back, so assign the group that should now get the object, or remove the assignment. Where the detail says restoring could not be checked, look for the group under Groups > Deleted groups in the Microsoft Entra admin center.',
        "Empty group: check its Members. For a dynamic group, check the rule under Dynamic membership rules > Validate rules and the membership processing status; an empty dynamic group may fill later, an empty assigned group won't.",
        'If nobody should get the object any more, remove the assignment and delete the object rather than leave it pointed at nothing.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  'assigned-to-restorable-deleted-groups': {
    label: 'Assigned to deleted groups that can still be restored',
    severity: 'medium',
    remediation: {
      why: "Every group the object is assigned to is deleted or empty, and at least one deleted group is still in Entra's deleted groups: the object reaches no one now, but restoring the group within 30 days of its deletion brings it back with its members, and the assignment, which names the group by its id, targets it again. After 30 days the group is gone for good.",
      steps: [
        "Open the object from the finding's link and go to Properties > Assignments; the finding's detail names each deleted group with the date it was deleted and the day it can no longer be restored.",
        'If the deletion was a mistake: in the Microsoft Entra admin center, open Groups > Deleted groups, select the group and Restore group, before that day.',
        'If the group was deleted on purpose: assign the group that should now get the object, or remove the assignment and delete the object if nobody should get it.',
        'For an empty group beside it, check its Members (or, for a dynamic group, its rule) as for any empty group.',
      ],
      sources: [
        { title: 'Restore a deleted Microsoft 365 or security group in Microsoft Entra ID', url: 'https://learn.microsoft.com/entra/identity/users/groups-restore-deleted' },
        { title: 'directory resource type: deleted items are kept for 30 days', url: 'https://learn.microsoft.com/graph/api/resources/directory' },
        { title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' },
      ],
    },
  },
  'all-users-and-all-devices': {
    label: 'Assigned to All users and All devices',
    severity: 'medium',
    remediation: {
      why: "Every device gets the object twice: as a device, and through its signed-in user. Intune doesn't evaluate how users relate to devices, so different intents on the two targets (an app Required for one and Uninstall for the other) give results nobody can predict.",
      steps: [
        'Decide whether the object belongs to the device (most configuration and compliance policies, scripts, apps installed for the system) or to the user (settings and apps that follow the person), and keep only that target.',
        "Open the object from the finding's link, go to Properties > Assignments > Edit, remove All users or All devices, and select Review + save.",
        "For an app, settle on one intent: the finding's detail shows the intent of each target, and Required on one with Uninstall or Available on the other must not stay.",
        'If some users or devices must not get it, exclude a group of the same kind as the remaining target: device groups with All devices, user groups with All users.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  unassigned: {
    label: 'Not assigned to anyone',
    severity: 'low',
    remediation: {
      why: 'An object with no assignment applies to nobody. It is unfinished work, a leftover from a migration, or a policy someone believes is in force; it clutters the admin center and can be assigned by mistake later.',
      steps: [
        "Open the object from the finding's link and check when it was created and last modified, and whether a newer object replaced it.",
        'If it should apply, go to Properties > Assignments > Edit, add the intended group (or All users or All devices), and select Review + save; pilot it on a small group first if it has never been deployed.',
        'If it is obsolete, note or export its settings and delete it.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  'exclusions-only': {
    label: 'Assigned with exclusions only',
    severity: 'low',
    remediation: {
      why: 'An exclusion only removes users or devices from what is included. With exclusions and no included group the object reaches no one, usually because an include was removed or a group landed in the wrong list.',
      steps: [
        "Open the object from the finding's link and go to Properties > Assignments; every group it lists is under Excluded groups.",
        'Check Tenant administration > Audit logs for the object to see whether an included group was removed, and by whom.',
        'Under Included groups, add the group that should get the object (or All users or All devices); keep an exclusion only if it is the same kind of group, users or devices, as the include.',
        'If nobody should get the object, remove the exclusions and delete it.',
      ],
      sources: [
        { title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' },
        {
          title: 'exclusionGroupAssignmentTarget resource type',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-deviceconfig-exclusiongroupassignmenttarget?view=graph-rest-beta',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type AssignmentFindingKind = keyof typeof ASSIGNMENT_FINDING_KINDS;
