/**
 * The large tenant's viewer scope (docs/finding-rules.md, "Viewer scope"): its scope tags, its
 * regions, its Intune administrators and their role assignments, planted beside the devices and
 * policies large-tenant.ts draws.
 */

import { DEFAULT_SCOPE_TAG_ID } from '../../core/viewer-scope/scope.js';
import { AREA_READS } from '../../core/viewer-scope/areas.js';
import { BUILT_IN_ROLES, roleDefinition } from '../../core/viewer-scope/demo.js';
import { seededGuid, seededRandom } from './seeded-random.js';
import type { GraphRecord, SimGroup, SimTenant } from './sim-tenant.js';

/** The large tenant's scope tags (src/core/viewer-scope/scope.ts): the built-in Default and three regions. */
export const LARGE_TENANT_SCOPE_TAGS = { default: DEFAULT_SCOPE_TAG_ID, europe: '1', americas: '2', asiaPacific: '3' } as const;

const REGIONS = [
  { tag: LARGE_TENANT_SCOPE_TAGS.europe, name: 'Europe' },
  { tag: LARGE_TENANT_SCOPE_TAGS.americas, name: 'Americas' },
  { tag: LARGE_TENANT_SCOPE_TAGS.asiaPacific, name: 'Asia Pacific' },
] as const;

/** One of the large tenant's Intune administrators: their Entra object id and the scope tags their role assignments give (none: the whole tenant). */
export interface LargeTenantAdministrator {
  objectId: string;
  tagIds: readonly string[];
}

/** How many Intune administrators the large tenant holds: as many as the viewers bench's viewers. */
export const LARGE_TENANT_ADMINISTRATORS = 50;

/**
 * The large tenant's Intune administrators, from a sequence of their own (the same for the tenant
 * and for whoever signs in as them): one in five holds the central assignment, which has no scope
 * tag (the whole tenant); the others are regional, three in five in one region's admin group (one
 * scope tag) and one in five in two regions' groups, whose tags add up ("Multiple role
 * assignments", learn.microsoft.com/intune/fundamentals/role-based-access-control/role-based-access-control).
 */
export function largeTenantAdministrators(seed = 7): LargeTenantAdministrator[] {
  const random = seededRandom(seed + 2);
  return Array.from({ length: LARGE_TENANT_ADMINISTRATORS }, (_, index) => {
    const objectId = seededGuid(random);
    if (index % 5 === 0) return { objectId, tagIds: [] };
    const first = REGIONS[index % REGIONS.length]!.tag;
    if (index % 5 !== 4) return { objectId, tagIds: [first] };
    return { objectId, tagIds: [first, REGIONS[(index + 1) % REGIONS.length]!.tag] };
  });
}

/**
 * Intune's role-based access control in the large tenant, for the viewer scope (docs/finding-rules.md,
 * "Viewer scope"), modelled on the demo's (src/core/viewer-scope/demo.ts) and planted after every
 * other record from a sequence of its own, so no other record's id moves:
 * - the scope tags Default (built in, id "0"), Europe, Americas and Asia Pacific
 *   (roleScopeTag, learn.microsoft.com/graph/api/resources/intune-rbac-rolescopetag?view=graph-rest-beta);
 * - a central role assignment with no scope tag, whose admins "essentially have all scope tags",
 *   and one per region whose `roleScopeTagIds` is that region's tag and whose scope group is that
 *   region's devices ("Use role-based access control (RBAC) and scope tags for distributed IT",
 *   learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags), each naming one
 *   admin group (`members`) of direct user members
 *   (deviceAndAppManagementRoleAssignment, learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroleassignment?view=graph-rest-beta);
 * - report 3's settings catalog policies and intents spread across the tags: about 30 % Default
 *   (Intune's "0" on an object not tagged otherwise), 25 % Europe, 20 % Americas, 15 % Asia Pacific
 *   and 10 % both Europe and Americas; the managed devices carry tags in the same shares, from
 *   their index (`deviceScopeTags`);
 * - the role definitions behind the assignments, drawn last (src/core/viewer-scope/demo.ts,
 *   `BUILT_IN_ROLES`): only Asia Pacific's and the central one's grant Endpoint Analytics read.
 */
export function plantViewerScope(collections: SimTenant['collections'], groups: Map<string, SimGroup>, seed: number): void {
  const random = seededRandom(seed + 3);
  const guid = () => seededGuid(random);
  const administrators = largeTenantAdministrators(seed);
  collections.roleScopeTags.push(
    { id: DEFAULT_SCOPE_TAG_ID, displayName: 'Default', description: 'Default scope tag', isBuiltIn: true },
    ...REGIONS.map(({ tag, name }) => ({ id: tag, displayName: name, description: `Offices in ${name}`, isBuiltIn: false })),
  );
  const adminGroup = (displayName: string, userIds: readonly string[]) => {
    const id = guid();
    groups.set(id, { id, displayName, members: userIds.map((userId) => ({ id: userId, type: 'user' as const })) });
    return id;
  };
  const central = adminGroup(
    'Intune Central Admins',
    administrators.filter((administrator) => administrator.tagIds.length === 0).map((administrator) => administrator.objectId),
  );
  const centralAssignment: GraphRecord = {
    id: guid(),
    displayName: 'Central IT (read only)',
    description: 'Read Only Operator for the whole tenant',
    members: [central],
    scopeMembers: [],
    resourceScopes: [],
    scopeType: 'allDevicesAndLicensedUsers',
    roleScopeTagIds: [],
  };
  collections.roleAssignments.push(centralAssignment);
  const regional = new Map<string, GraphRecord>();
  for (const { tag, name } of REGIONS) {
    const admins = adminGroup(
      `Intune ${name} Admins`,
      administrators.filter((administrator) => administrator.tagIds.includes(tag)).map((administrator) => administrator.objectId),
    );
    const devices = adminGroup(`${name} Devices`, []);
    const assignment: GraphRecord = {
      id: guid(),
      displayName: `${name} IT`,
      description: `Policy and Profile Manager for the offices in ${name}`,
      members: [admins],
      scopeMembers: [devices],
      resourceScopes: [devices],
      scopeType: 'resourceScope',
      roleScopeTagIds: [tag],
    };
    collections.roleAssignments.push(assignment);
    regional.set(tag, assignment);
  }
  const { europe, americas, asiaPacific } = LARGE_TENANT_SCOPE_TAGS;
  for (const record of [...collections.configurationPolicies, ...collections.intents]) {
    const roll = random();
    record.roleScopeTagIds = roll < 0.3 ? [DEFAULT_SCOPE_TAG_ID] : roll < 0.55 ? [europe] : roll < 0.75 ? [americas] : roll < 0.9 ? [asiaPacific] : [europe, americas];
  }
  // The role definitions, after every other draw of this sequence so no id above moves: the central
  // assignment's built-in Read Only Operator (the reads of reports 2, 3, 4 and 6), Europe's and the
  // Americas' a custom role of Policy and Profile Manager's permissions and the reads of apps and
  // devices (reports 2, 3 and 4, no Endpoint Analytics), Asia Pacific's the same with Endpoint
  // Analytics read; and the built-in Policy and Profile Manager, assigned to no one.
  const regionalReads = [...BUILT_IN_ROLES.policyAndProfileManager.allowed, AREA_READS.mobileApps.action, AREA_READS.managedDevices.action];
  collections.roleDefinitions.push(
    roleDefinition({ id: guid(), ...BUILT_IN_ROLES.readOnlyOperator, roleAssignments: [centralAssignment] }),
    roleDefinition({
      id: guid(),
      displayName: 'Regional policy and devices',
      description: "Policy and Profile Manager's permissions and the reads of apps and devices, for a region's offices",
      isBuiltIn: false,
      allowed: regionalReads,
      roleAssignments: [regional.get(europe)!, regional.get(americas)!],
    }),
    roleDefinition({
      id: guid(),
      displayName: 'Asia Pacific policy and analytics',
      description: "Policy and Profile Manager's permissions, the reads of apps and devices and Endpoint Analytics read, for the offices in Asia Pacific",
      isBuiltIn: false,
      allowed: [...regionalReads, AREA_READS.endpointAnalytics.action],
      roleAssignments: [regional.get(asiaPacific)!],
    }),
    roleDefinition({ id: guid(), ...BUILT_IN_ROLES.policyAndProfileManager, roleAssignments: [] }),
  );
}
