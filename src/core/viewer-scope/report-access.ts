/**
 * Which role reads open which report, as each report's definition declares it (`seenBy`,
 * src/core/reports/report-model.ts, `ReportViewers`; docs/finding-rules.md, "Viewer scope"). A
 * report that no registry holds opens to no Intune role: refused, not shown.
 *
 * A tenant-wide report's objects carry no scope tags, and the Intune admin center shows them to
 * whoever's role can read their area: a role combines "an Intune resource such as a Mobile App and
 * associated role permissions such as Create or Read for the resource"
 * (deviceAndAppManagementRoleDefinition,
 * learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroledefinition). Its
 * definition names the area only where Microsoft documents one read permission for all it shows.
 *
 * A report no read permission opens is shown only to a viewer whose Microsoft Entra role reads all
 * Intune data (entra-roles.ts): an Intune role assignment without scope tags opens it no more than
 * one with tags, since what it shows is "based on the IT admins permissions".
 *
 * A scope-tagged report needs every read it lists (docs/finding-rules.md, "Viewer scope", "Which role
 * permissions open reports 2, 3 and 4"). Scope tags decide which objects an admin sees, roles "what access admins have to which objects"
 * (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags): a role assignment of
 * the right tags whose role reads none of a report's objects (one granting only "Remote tasks/Reboot
 * now") sees none of them in the Intune admin center, so it sees no rows here either. A report showing
 * several kinds of objects opens only to roles that read every kind, rather than showing the rows of
 * the kinds the role reads: a report with whole kinds of its objects silently missing would read as
 * complete (its totals, its "no findings") when it is not, and fail-closed is the safer error.
 */

import { REPORTS } from '../reports/registry.js';
import type { ReportId, ReportViewers } from '../reports/report-model.js';
import type { ReadArea, TenantWideArea } from './areas.js';

function seenBy(report: ReportId): ReportViewers | null {
  return REPORTS.has(report) ? REPORTS.definition(report).seenBy : null;
}

/**
 * The reports whose objects carry scope tags (`seenBy.kind` 'scopeTagged'). A viewer whose Intune
 * role assignment has no scope tags sees them whole, as far as their roles read them
 * (`readsOfTaggedReport`). Every other report is tenant-wide, opened to such a viewer only by its
 * area's read permission, as to a viewer of tags: "If a role assignment has no scope tag, that IT
 * admin can see all objects based on the IT admins permissions"
 * (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
 */
export const SCOPE_TAGGED_REPORTS: ReadonlySet<ReportId> = new Set(REPORTS.scopeTagged);

/** The areas the scope-tagged reports need between them: what a role's reads come to in a channel kept to one scope tag (`scopeOfTagSeenBy`). */
export const TAGGED_REPORT_AREAS: ReadonlySet<ReadArea> = new Set(REPORTS.scopeTagged.flatMap((report) => readsOfTaggedReport(report) ?? []));

/** The area whose read permission opens this tenant-wide report, or null when none does (only an Entra role that reads all Intune data opens it). */
export function areaOfReport(report: ReportId): TenantWideArea | null {
  const viewers = seenBy(report);
  return viewers?.kind === 'tenantWide' ? viewers.area : null;
}

/** The read permissions a scope-tagged report needs, all of them; null for a report that is not scope-tagged. */
export function readsOfTaggedReport(report: ReportId): readonly ReadArea[] | null {
  const viewers = seenBy(report);
  return viewers?.kind === 'scopeTagged' ? viewers.reads : null;
}

/** Whether reads granted (`granted`) open a scope-tagged report: every one it needs; a report not scope-tagged, never. */
export function taggedReportReadBy(report: ReportId, granted: (area: ReadArea) => boolean): boolean {
  return readsOfTaggedReport(report)?.every(granted) === true;
}
