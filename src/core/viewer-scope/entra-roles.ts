/**
 * The Microsoft Entra roles that carry Intune access (docs/finding-rules.md, "Viewer scope", "Entra
 * roles"), as Microsoft's table lists them: "Microsoft Entra roles with Intune access",
 * learn.microsoft.com/intune/intune-service/fundamentals/role-based-access-control (columns "All
 * Intune data" and "Intune audit data"). An Entra role is assigned tenant-wide and carries no Intune
 * scope tag, so a role whose "All Intune data" is Read/write or Read only sees the whole tenant; a
 * role whose "All Intune data" is None (Conditional Access Administrator; Compliance Administrator,
 * Compliance Data Administrator and Reports Reader, which read Intune's audit data only) opens no
 * report: every report shows Intune objects, and none is audit data alone.
 *
 * The ids are the roles' template ids, as the token's `wids` claim carries them ("Access token
 * claims reference", learn.microsoft.com/entra/identity-platform/access-token-claims-reference:
 * "Array of RoleTemplateID GUIDs") and as "Microsoft Entra built-in roles" lists them
 * (learn.microsoft.com/entra/identity/role-based-access-control/permissions-reference, "All roles").
 */

/** What an Entra role may do with Intune's data, as Microsoft's table says ("All Intune data"). */
export type EntraIntuneAccess = 'read-write' | 'read' | 'none';

export interface EntraIntuneRole {
  /** The role as "Microsoft Entra built-in roles" names it. */
  displayName: string;
  /** "All Intune data" in Microsoft's table. */
  intuneData: EntraIntuneAccess;
  /** "Intune audit data" in Microsoft's table: none of this app's reports is audit data alone, so it opens nothing on its own. */
  auditData: EntraIntuneAccess;
}

/** The template ids of the roles the demo and the tests name. */
export const ENTRA_ROLE_IDS = {
  globalAdministrator: '62e90394-69f5-4237-9190-012177145e10',
  intuneAdministrator: '3a2c62db-5318-420d-8d74-23affee5d9d5',
  globalReader: 'f2ef992c-3afb-46b9-b7cf-a126ee74c451',
  reportsReader: '4a5d8f65-41da-4de4-8968-e035b65339cf',
} as const;

/** Microsoft's table, by role template id (lower case). */
export const ENTRA_INTUNE_ROLES: Readonly<Record<string, EntraIntuneRole>> = {
  [ENTRA_ROLE_IDS.globalAdministrator]: { displayName: 'Global Administrator', intuneData: 'read-write', auditData: 'read-write' },
  // "Intune Service Administrator" in Microsoft's table and in Graph: the Entra admin center's Intune Administrator.
  [ENTRA_ROLE_IDS.intuneAdministrator]: { displayName: 'Intune Administrator', intuneData: 'read-write', auditData: 'read-write' },
  'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9': { displayName: 'Conditional Access Administrator', intuneData: 'none', auditData: 'none' },
  // "Read only (full administrative permissions for Endpoint Security node)".
  '194ae4cb-b126-40b2-bd5b-6091b380977d': { displayName: 'Security Administrator', intuneData: 'read', auditData: 'read' },
  '5f2222b1-57c3-48ba-8ad5-d4759f1fde6f': { displayName: 'Security Operator', intuneData: 'read', auditData: 'read' },
  '5d6b6bb7-de71-4623-b4af-96380a352509': { displayName: 'Security Reader', intuneData: 'read', auditData: 'read' },
  '17315797-102d-40b4-93e0-432062caca18': { displayName: 'Compliance Administrator', intuneData: 'none', auditData: 'read' },
  'e6d1a23a-da11-4be4-9570-befc86d067a7': { displayName: 'Compliance Data Administrator', intuneData: 'none', auditData: 'read' },
  [ENTRA_ROLE_IDS.globalReader]: { displayName: 'Global Reader', intuneData: 'read', auditData: 'read' },
  // "This role is equivalent to the Intune Help Desk Operator role" (Microsoft's table).
  '729827e3-9c14-49f7-bb1b-9608f156bbb8': { displayName: 'Helpdesk Administrator', intuneData: 'read', auditData: 'read' },
  [ENTRA_ROLE_IDS.reportsReader]: { displayName: 'Reports Reader', intuneData: 'none', auditData: 'read' },
};

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The role template ids of a token's `wids` claim, lower case: only GUID strings. Anything else (a
 * claim that is not an array, a value that is not a GUID string) is left out: what cannot be read
 * grants nothing.
 */
export function entraRoleIdsOf(wids: unknown): string[] {
  if (!Array.isArray(wids)) return [];
  return [...new Set(wids.filter((id): id is string => typeof id === 'string' && GUID.test(id)).map((id) => id.toLowerCase()))].sort();
}

/** The names of the viewer's Entra roles that read all Intune data (Read/write or Read only in Microsoft's table), sorted. */
export function entraRolesReadingIntune(roleIds: readonly string[]): string[] {
  const names = new Set<string>();
  for (const id of roleIds) {
    const key = id.toLowerCase();
    const role = Object.hasOwn(ENTRA_INTUNE_ROLES, key) ? ENTRA_INTUNE_ROLES[key] : undefined;
    if (role && role.intuneData !== 'none') names.add(role.displayName);
  }
  return [...names].sort();
}
