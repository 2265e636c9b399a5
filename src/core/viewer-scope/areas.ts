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

/** An area of Intune whose objects carry no scope tags, and which a role's read permission opens. */
export type TenantWideArea = 'endpointAnalytics';

export interface AreaRead {
  /** The permission as the Intune admin center names it (Category/permission). */
  permission: string;
  /** The resource action a role definition's `rolePermissions[].resourceActions[].allowedResourceActions` lists for it. */
  action: string;
}

export const AREA_READS: Readonly<Record<TenantWideArea, AreaRead>> = {
  endpointAnalytics: { permission: 'Endpoint Analytics/Read', action: 'Microsoft.Intune_EndpointAnalytics_Read' },
};

/** The tenant-wide reports a read permission opens, by report id. */
const AREA_OF_REPORT: Readonly<Record<ReportId, TenantWideArea>> = {
  'startup-reliability': 'endpointAnalytics',
};

/**
 * The reports whose objects carry scope tags (`scopeTagged` in their definitions; a test holds the
 * two equal): a viewer whose Intune role assignment has no scope tags sees them whole. Every other
 * report is tenant-wide, opened to such a viewer only by its area's read permission, as to a viewer
 * of tags: "If a role assignment has no scope tag, that IT admin can see all objects based on the IT
 * admins permissions" (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
 * A report missing here is tenant-wide, so one added without being listed is refused, not shown.
 */
export const SCOPE_TAGGED_REPORTS: ReadonlySet<ReportId> = new Set(['assignment-hygiene', 'security-posture', 'escrow-gaps']);

/** The area whose read permission opens this tenant-wide report, or null when none does (only an Entra role that reads all Intune data opens it). */
export function areaOfReport(report: ReportId): TenantWideArea | null {
  return Object.hasOwn(AREA_OF_REPORT, report) ? AREA_OF_REPORT[report]! : null;
}

/** Every area, in a fixed order. */
export const TENANT_WIDE_AREAS = Object.keys(AREA_READS) as TenantWideArea[];
