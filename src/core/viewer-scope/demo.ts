/**
 * What the demo tenant plants so the viewer scope shows its rules (docs/finding-rules.md, "Viewer
 * scope"): the scope tags Default, Europe and Americas; a central administrator whose role assignment
 * has no scope tag (every tagged object, and the tenant-wide reports its role reads) and a regional
 * one whose assignment has the Europe tag and a scope group; two people of no Intune role assignment
 * (`DEMO_PERSONAS`: one of no role at all, one of the Entra Intune Administrator role); report 3's policies, some of report 2's objects and some of report 4's devices tagged
 * by region, every other managed device Default; and the role definitions behind the assignments:
 * the central one is the built-in Read Only Operator, the regional one a custom role that grants
 * Endpoint Analytics read (so report 6 opens to them) and no other tenant-wide area's. Planted after
 * every report's records, from a sequence of its own, so no other record's id moves.
 */

import type { DemoRecord } from '../reports/report-demo.js';
import { AREA_READS } from './areas.js';
import { ENTRA_ROLE_IDS } from './entra-roles.js';
import type { DemoAdministrator } from './demo-personas.js';
import { DEFAULT_SCOPE_TAG_ID } from './scope.js';

export interface ViewerScopeDemoBuilder {
  guid(): string;
  /** Adds a group whose direct members are these users, and returns its id. */
  addGroup(group: { displayName: string; userIds: readonly string[] }): string;
  add(collection: string, ...records: DemoRecord[]): void;
  records(collection: string): readonly DemoRecord[];
}

/** The demo's names and ids, for the demo sign-in, the tests and the docs. */
export const VIEWER_SCOPE_DEMO = {
  tags: { europe: '1', americas: '2' },
  /** Report 3's settings catalog policies tagged Europe, Americas or both; every other object keeps Default. */
  europePolicies: ['ASR - Standard protection', 'Security baseline for Windows (23H2)'],
  americasPolicies: ['Firewall - Corporate'],
  bothPolicies: ['Firewall - Lab'],
  /**
   * Report 2's objects tagged by region, by name: a platform script and a remediation (read on beta
   * whatever the coverage), a configuration profile and an app (read on `/v1.0` unless complete
   * coverage is asked for, and there without scope tags).
   */
  europeObjects: ['Clean up temp folders', 'Clear Teams cache', 'Windows - Kiosk lockdown', 'Contoso Expenses'],
  americasObjects: ['Collect Defender logs', 'Windows - Office ADMX (draft)'],
  /** Report 4's Windows devices tagged by region, by the number in their name (`CONTOSO-0001`): the first Europe, the next Americas. */
  europeDevices: 80,
  americasDevices: 80,
  /**
   * Managed devices for "what applies" (docs/finding-rules.md, "What applies", "For a viewer limited
   * to scope tags"): one the regional administrator sees (among the Europe devices above), one they
   * do not (among the Americas ones).
   */
  europeDevice: 'CONTOSO-0040',
  americasDevice: 'CONTOSO-0120',
  /**
   * The custom role behind the regional administrator's assignment: it reads what reports 2, 3 and 4
   * show and grants Endpoint Analytics read (report 6), no other tenant-wide area's.
   */
  europeRole: 'Europe policy and analytics',
} as const;

/** The collections of report 2's objects that the demo tags by name, and the field that names each (`name` for the settings catalog's). */
const ASSIGNABLE_COLLECTIONS: ReadonlyArray<readonly [collection: string, nameField: string]> = [
  ['deviceConfigurations', 'displayName'],
  ['deviceCompliancePolicies', 'displayName'],
  ['mobileApps', 'displayName'],
  ['deviceManagementScripts', 'displayName'],
  ['deviceHealthScripts', 'displayName'],
  ['groupPolicyConfigurations', 'displayName'],
  ['deviceShellScripts', 'displayName'],
  ['windowsFeatureUpdateProfiles', 'displayName'],
  ['compliancePolicies', 'name'],
];

export { DEMO_PERSONAS, isDemoPersona } from './demo-personas.js';
export type { DemoAdministrator } from './demo-personas.js';

/** The Entra roles (template ids) each demo person's token carries in its `wids` claim. */
export const DEMO_PERSONA_ENTRA_ROLES: Readonly<Record<DemoAdministrator, readonly string[]>> = {
  central: [],
  regional: [],
  'no-role': [],
  'intune-administrator': [ENTRA_ROLE_IDS.intuneAdministrator],
};

export interface ViewerScopeDemo {
  /** Each demo person's Entra object id. */
  administrators: Record<DemoAdministrator, string>;
  /** The Entra object id of the holder of the Europe service desk's assignment, whose role only reboots (`REBOOT_ONLY_ROLE`). */
  rebootOperator: string;
}

export function plantViewerScopeDemo(tenant: ViewerScopeDemoBuilder): ViewerScopeDemo {
  const central = tenant.guid();
  const regional = tenant.guid();
  tenant.add(
    'roleScopeTags',
    { id: DEFAULT_SCOPE_TAG_ID, displayName: 'Default', description: 'Default scope tag', isBuiltIn: true },
    { id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe', description: 'Offices in Europe', isBuiltIn: false },
    { id: VIEWER_SCOPE_DEMO.tags.americas, displayName: 'Americas', description: 'Offices in the Americas', isBuiltIn: false },
  );
  const centralAdmins = tenant.addGroup({ displayName: 'Intune Central Admins', userIds: [central] });
  const europeAdmins = tenant.addGroup({ displayName: 'Intune Europe Admins', userIds: [regional] });
  const europeDevices = tenant.addGroup({ displayName: 'Europe Devices', userIds: [] });
  // No scope tag: "Admins that have no scope tags essentially have all scope tags"
  // (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
  const centralAssignment: DemoRecord = {
    id: tenant.guid(),
    displayName: 'Central IT (read only)',
    description: 'Read Only Operator for the whole tenant',
    members: [centralAdmins],
    scopeMembers: [],
    resourceScopes: [],
    scopeType: 'allDevicesAndLicensedUsers',
    roleScopeTagIds: [],
  };
  // The Europe tag and a scope group: the scope group decides whom they may act on, the tag what they see.
  const europeAssignment: DemoRecord = {
    id: tenant.guid(),
    displayName: 'Europe IT',
    description: 'Europe policy and analytics, for the European offices',
    members: [europeAdmins],
    scopeMembers: [europeDevices],
    resourceScopes: [europeDevices],
    scopeType: 'resourceScope',
    roleScopeTagIds: [VIEWER_SCOPE_DEMO.tags.europe],
  };
  tenant.add('roleAssignments', centralAssignment, europeAssignment);
  const tag = (names: readonly string[], tagIds: string[]) => {
    for (const policy of tenant.records('configurationPolicies')) if (names.includes(String(policy.name))) policy.roleScopeTagIds = tagIds;
  };
  tag(VIEWER_SCOPE_DEMO.europePolicies, [VIEWER_SCOPE_DEMO.tags.europe]);
  tag(VIEWER_SCOPE_DEMO.americasPolicies, [VIEWER_SCOPE_DEMO.tags.americas]);
  tag(VIEWER_SCOPE_DEMO.bothPolicies, [VIEWER_SCOPE_DEMO.tags.americas, VIEWER_SCOPE_DEMO.tags.europe]);
  const tagObjects = (names: readonly string[], tagIds: string[]) => {
    for (const [collection, field] of ASSIGNABLE_COLLECTIONS)
      for (const record of tenant.records(collection)) if (names.includes(String(record[field]))) record.roleScopeTagIds = tagIds;
  };
  tagObjects(VIEWER_SCOPE_DEMO.europeObjects, [VIEWER_SCOPE_DEMO.tags.europe]);
  tagObjects(VIEWER_SCOPE_DEMO.americasObjects, [VIEWER_SCOPE_DEMO.tags.americas]);
  // Every managed device carries a scope tag, Default until tagged otherwise ("The default scope tag
  // is automatically added to all untagged objects that support scope tags", the scope tags page);
  // beta's managedDevice declares `roleScopeTagIds`, v1.0's does not (src/sim/v1-schema.ts).
  for (const device of tenant.records('managedDevices')) {
    const number = Number(/^CONTOSO-(\d+)$/.exec(String(device.deviceName))?.[1] ?? 0);
    const { europeDevices, americasDevices } = VIEWER_SCOPE_DEMO;
    device.roleScopeTagIds =
      number >= 1 && number <= europeDevices
        ? [VIEWER_SCOPE_DEMO.tags.europe]
        : number > europeDevices && number <= europeDevices + americasDevices
          ? [VIEWER_SCOPE_DEMO.tags.americas]
          : [DEFAULT_SCOPE_TAG_ID];
  }
  // The role definitions, after every other id of this sequence so none of them moves.
  tenant.add(
    'roleDefinitions',
    roleDefinition({ id: tenant.guid(), ...BUILT_IN_ROLES.readOnlyOperator, roleAssignments: [centralAssignment] }),
    roleDefinition({ id: tenant.guid(), ...BUILT_IN_ROLES.policyAndProfileManager, roleAssignments: [] }),
    roleDefinition({
      id: tenant.guid(),
      displayName: VIEWER_SCOPE_DEMO.europeRole,
      description: "Policy and Profile Manager's permissions, and the reads of apps, devices and endpoint analytics, for the European offices",
      isBuiltIn: false,
      allowed: [...BUILT_IN_ROLES.policyAndProfileManager.allowed, AREA_READS.mobileApps.action, AREA_READS.managedDevices.action, AREA_READS.endpointAnalytics.action],
      roleAssignments: [europeAssignment],
    }),
  );
  // The two people of no Intune role assignment, after every other id so none of them moves.
  const noRole = tenant.guid();
  const intuneAdministrator = tenant.guid();
  // A service desk's assignment of the Europe tag whose role grants one remote task and no read, after
  // every other id so none of them moves: its holder, not one of the demo sign-in's people, sees none
  // of reports 2, 3 and 4 ("Roles determine what access admins have to which objects", the scope tags page).
  const rebootOperator = tenant.guid();
  const serviceDesk = tenant.addGroup({ displayName: 'Intune Europe Service Desk', userIds: [rebootOperator] });
  const rebootAssignment: DemoRecord = {
    id: tenant.guid(),
    displayName: 'Europe service desk',
    description: 'Remote restarts for the European offices',
    members: [serviceDesk],
    scopeMembers: [europeDevices],
    resourceScopes: [europeDevices],
    scopeType: 'resourceScope',
    roleScopeTagIds: [VIEWER_SCOPE_DEMO.tags.europe],
  };
  tenant.add('roleAssignments', rebootAssignment);
  tenant.add('roleDefinitions', roleDefinition({ id: tenant.guid(), ...REBOOT_ONLY_ROLE, roleAssignments: [rebootAssignment] }));
  return { administrators: { central, regional, 'no-role': noRole, 'intune-administrator': intuneAdministrator }, rebootOperator };
}

/**
 * Intune's built-in roles as role definitions (`isBuiltIn: true`), each with an excerpt of the
 * permissions Microsoft lists for it (learn.microsoft.com/intune/intune-service/fundamentals/role-based-access-control-reference),
 * as resource actions: Read Only Operator reads what reports 2, 3, 4 and 6 show (Device
 * configurations, Device compliance policies, Mobile apps, Security baselines, Managed devices and
 * Endpoint Analytics, each /Read; its description: "view user, device, enrollment, configuration,
 * application information"). Policy and Profile Manager manages "compliance policy, configuration
 * profiles ... and security baselines" and holds no Endpoint Analytics read; the excerpt lists only
 * what its description names, so it opens report 3 and not 2 (no Mobile apps/Read listed) nor 4.
 */
export const BUILT_IN_ROLES = {
  readOnlyOperator: {
    displayName: 'Read Only Operator',
    description: "Read Only Operators view user, device, enrollment, configuration, application information, and can't make changes to Intune.",
    isBuiltIn: true,
    allowed: [
      'Microsoft.Intune_Audit_Read',
      'Microsoft.Intune_DeviceCompliancePolices_Read',
      'Microsoft.Intune_DeviceConfigurations_Read',
      'Microsoft.Intune_EndpointAnalytics_Read',
      'Microsoft.Intune_EndpointProtection_Read',
      'Microsoft.Intune_ManagedApps_Read',
      'Microsoft.Intune_ManagedDevices_Read',
      'Microsoft.Intune_MobileApps_Read',
      'Microsoft.Intune_Organization_Read',
      'Microsoft.Intune_Roles_Read',
      'Microsoft.Intune_SecurityBaselines_Read',
    ],
  },
  policyAndProfileManager: {
    displayName: 'Policy and Profile Manager',
    description: 'Policy and Profile Managers manage compliance policy, configuration profiles, Apple enrollment, corporate device identifiers, and security baselines.',
    isBuiltIn: true,
    allowed: [
      'Microsoft.Intune_Audit_Read',
      'Microsoft.Intune_DeviceCompliancePolices_Assign',
      'Microsoft.Intune_DeviceCompliancePolices_Read',
      'Microsoft.Intune_DeviceCompliancePolices_Update',
      'Microsoft.Intune_DeviceConfigurations_Assign',
      'Microsoft.Intune_DeviceConfigurations_Read',
      'Microsoft.Intune_DeviceConfigurations_Update',
      'Microsoft.Intune_Organization_Read',
      'Microsoft.Intune_SecurityBaselines_Assign',
      'Microsoft.Intune_SecurityBaselines_Read',
      'Microsoft.Intune_SecurityBaselines_Update',
    ],
  },
} as const;

/**
 * A custom role of one remote task and no read, as an administrator may make one for a service desk
 * ("Remote tasks/Reboot now", create-custom-role, "Custom role permissions"): its assignment shows
 * that scope tags without a role that reads open none of reports 2, 3 and 4.
 */
export const REBOOT_ONLY_ROLE = {
  displayName: 'Reboot only',
  description: 'Restart devices remotely, for the service desk',
  isBuiltIn: false,
  allowed: ['Microsoft.Intune_RemoteTasks_RebootNow'],
} as const;

/**
 * A role definition as Graph serves it (deviceAndAppManagementRoleDefinition,
 * learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroledefinition): its
 * permissions as one resource action's `allowedResourceActions`, and its assignments, the records
 * of the tenant's role assignments themselves, as its `roleAssignments` navigation.
 */
export function roleDefinition(role: {
  id: string;
  displayName: string;
  description: string;
  isBuiltIn: boolean;
  allowed: readonly string[];
  roleAssignments: DemoRecord[];
}): DemoRecord {
  return {
    '@odata.type': '#microsoft.graph.deviceAndAppManagementRoleDefinition',
    id: role.id,
    displayName: role.displayName,
    description: role.description,
    isBuiltIn: role.isBuiltIn,
    rolePermissions: [{ resourceActions: [{ allowedResourceActions: [...role.allowed], notAllowedResourceActions: [] }] }],
    roleScopeTagIds: [DEFAULT_SCOPE_TAG_ID],
    roleAssignments: role.roleAssignments,
  };
}
