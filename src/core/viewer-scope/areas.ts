import type { ReportId } from '../reports/report-model.js';

/**
 * The tenant-wide reports a viewer limited to scope tags may still see, and the Intune permission
 * that lets them (docs/finding-rules.md, "Viewer scope"). Objects that carry no scope tags are shown
 * in the Intune admin center to whoever's role can read their area: a role combines "an Intune
 * resource such as a Mobile App and associated role permissions such as Create or Read for the
 * resource" (deviceAndAppManagementRoleDefinition,
 * learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroledefinition). A
 * report is listed here only where Microsoft documents one read permission for everything it shows:
 *
 * - Report 6 (startup performance and app reliability) reads only endpoint analytics, and
 *   "Endpoint Analytics/Read" is to "View endpoint analytics scores and performance reports"
 *   (learn.microsoft.com/intune/intune-service/fundamentals/create-custom-role, "Custom role
 *   permissions"); Read Only Operator, Help Desk Operator and School Administrator hold it among the
 *   built-in roles (learn.microsoft.com/intune/intune-service/fundamentals/role-based-access-control-reference).
 *   In a role definition it is the resource action `Microsoft.Intune_EndpointAnalytics_Read`, the
 *   `Microsoft.Intune_<category>_<permission>` form of Microsoft's Graph samples that create an
 *   Intune role (`POST /beta/deviceManagement/roleDefinitions`) and of Microsoft365DSC's
 *   IntuneRoleDefinition (`allowedResourceActions`).
 * - Report 1 (connectors) is not: its rows span areas with different permissions (Certificate
 *   Connector, Mobile Threat Defense, Partner Device Management, Managed Google Play, Enrollment
 *   programs, Mobile apps for VPP tokens), and Microsoft names no read permission for the Apple MDM
 *   push certificate, the Intune Connector for Active Directory or Windows Autopilot's sync settings.
 * - Report 5 (multi admin approval) is not: "Multi Admin Approval/Read access policy" reads the
 *   access policies, but the report also shows the approval requests, which Microsoft documents as
 *   seen by their requestor ("My requests") and the policy's approver group ("Received requests"),
 *   not through a read permission (learn.microsoft.com/intune/intune-service/fundamentals/multi-admin-approval).
 * - Report 7 joins policies of different scope tags in one row, so no Intune role opens it.
 *
 * A report no read permission opens is shown only to a viewer whose Microsoft Entra role reads all
 * Intune data (entra-roles.ts): an Intune role assignment without scope tags opens it no more than
 * one with tags, since what it shows is "based on the IT admins permissions".
 */

/**
 * An Intune permission area whose read this app checks in a viewer's roles: endpoint analytics, which
 * opens tenant-wide report 6, and the areas of the objects the scope-tagged reports 2, 3 and 4 show.
 */
export type ReadArea = 'endpointAnalytics' | 'deviceConfigurations' | 'deviceCompliancePolicies' | 'mobileApps' | 'securityBaselines' | 'managedDevices';

/** An area of Intune whose objects carry no scope tags, and which a role's read permission opens. */
export type TenantWideArea = Extract<ReadArea, 'endpointAnalytics'>;

export interface AreaRead {
  /** The permission as the Intune admin center names it (Category/permission). */
  permission: string;
  /** The resource action a role definition's `rolePermissions[].resourceActions[].allowedResourceActions` lists for it. */
  action: string;
}

/**
 * Each area's read permission and its resource action, spelled as Microsoft spells it in role
 * definitions (Microsoft's Graph samples that create an Intune role, microsoftgraph/powershell-intune-samples,
 * and Microsoft365DSC's IntuneRoleDefinition `allowedResourceActions`), "DeviceCompliancePolices"
 * with its missing "i" included. The permissions are those of "Custom role permissions"
 * (learn.microsoft.com/intune/intune-service/fundamentals/create-custom-role).
 */
export const AREA_READS: Readonly<Record<ReadArea, AreaRead>> = {
  endpointAnalytics: { permission: 'Endpoint Analytics/Read', action: 'Microsoft.Intune_EndpointAnalytics_Read' },
  deviceConfigurations: { permission: 'Device configurations/Read', action: 'Microsoft.Intune_DeviceConfigurations_Read' },
  deviceCompliancePolicies: { permission: 'Device compliance policies/Read', action: 'Microsoft.Intune_DeviceCompliancePolices_Read' },
  mobileApps: { permission: 'Mobile apps/Read', action: 'Microsoft.Intune_MobileApps_Read' },
  securityBaselines: { permission: 'Security baselines/Read', action: 'Microsoft.Intune_SecurityBaselines_Read' },
  managedDevices: { permission: 'Managed devices/Read', action: 'Microsoft.Intune_ManagedDevices_Read' },
};

/** The tenant-wide reports a read permission opens, by report id. */
const AREA_OF_REPORT: Readonly<Record<ReportId, TenantWideArea>> = {
  'startup-reliability': 'endpointAnalytics',
};

/**
 * The read permissions a scope-tagged report needs, ALL of them (docs/finding-rules.md, "Viewer
 * scope", "Which role permissions open reports 2, 3 and 4"). Scope tags decide which objects an admin
 * sees, roles "what access admins have to which objects"
 * (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags): a role assignment of
 * the right tags whose role reads none of a report's objects (one granting only "Remote tasks/Reboot
 * now") sees none of them in the Intune admin center, so it sees no rows here either. A report showing
 * several kinds of objects opens only to roles that read every kind, rather than showing the rows of
 * the kinds the role reads: a report with whole kinds of its objects silently missing would read as
 * complete (its totals, its "no findings") when it is not, and fail-closed is the safer error.
 *
 * - Report 2 (assignment hygiene): configuration profiles, settings catalog and administrative
 *   template policies, platform scripts, remediations, shell scripts and feature update profiles are
 *   "Device configurations" objects; compliance policies "Device compliance policies"; apps "Mobile
 *   apps" ("Custom role permissions", create-custom-role).
 * - Report 3 (endpoint security policy posture): endpoint security policies and security baselines are
 *   governed by the "Security baselines" permissions (create-custom-role; the built-in Endpoint Security
 *   Manager and Read Only Operator hold its Read, role-based-access-control-reference).
 * - Report 4 (BitLocker and LAPS escrow gaps): managed devices, read with "Managed devices/Read".
 *   The report shows only whether a key or password is escrowed, never one; Microsoft
 *   documents reading a recovery key or a LAPS password through Microsoft Entra permissions
 *   (bitlockerKeys/key/read, deviceLocalCredentials/password/read), and Intune's "Remote tasks/Rotate
 *   BitLocker keys" is an action, not a read: no Intune permission is documented for the escrow's
 *   metadata, so Managed devices/Read alone is asked.
 */
const READS_OF_TAGGED_REPORT: Readonly<Record<ReportId, readonly ReadArea[]>> = {
  'assignment-hygiene': ['deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps'],
  'security-posture': ['securityBaselines'],
  'escrow-gaps': ['managedDevices'],
};

/**
 * The reports whose objects carry scope tags: those the table above names (`scopeTagged` in their
 * definitions; a test holds the two equal). A viewer whose Intune role assignment has no scope tags
 * sees them whole, as far as their roles read them (`readsOfTaggedReport`). Every other
 * report is tenant-wide, opened to such a viewer only by its area's read permission, as to a viewer
 * of tags: "If a role assignment has no scope tag, that IT admin can see all objects based on the IT
 * admins permissions" (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
 * A report missing here is tenant-wide, so one added without being listed is refused, not shown.
 */
export const SCOPE_TAGGED_REPORTS: ReadonlySet<ReportId> = new Set(Object.keys(READS_OF_TAGGED_REPORT));

/** The areas the scope-tagged reports need between them: what a role's reads come to in a channel kept to one scope tag (`scopeOfTagSeenBy`). */
export const TAGGED_REPORT_AREAS: ReadonlySet<ReadArea> = new Set(Object.values(READS_OF_TAGGED_REPORT).flat());

/** The area whose read permission opens this tenant-wide report, or null when none does (only an Entra role that reads all Intune data opens it). */
export function areaOfReport(report: ReportId): TenantWideArea | null {
  return Object.hasOwn(AREA_OF_REPORT, report) ? AREA_OF_REPORT[report]! : null;
}

/**
 * The read permissions a scope-tagged report needs, all of them. A tagged report missing from the
 * table needs a permission no role is known to grant, so it opens to no Intune role: refused, not shown.
 */
export function readsOfTaggedReport(report: ReportId): readonly ReadArea[] | null {
  return Object.hasOwn(READS_OF_TAGGED_REPORT, report) ? READS_OF_TAGGED_REPORT[report]! : null;
}

/** Whether reads granted (`granted`) open a scope-tagged report: every one it needs; a report missing from the table, never. */
export function taggedReportReadBy(report: ReportId, granted: (area: ReadArea) => boolean): boolean {
  return readsOfTaggedReport(report)?.every(granted) === true;
}

/** Every area, in a fixed order. */
export const READ_AREAS = Object.keys(AREA_READS) as ReadArea[];
