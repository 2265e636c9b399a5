import { joinAnd } from '../reports/graph-values.js';
import type { ReportId, ReportResult, ReportRow } from '../reports/report-model.js';
import { AREA_READS } from './areas.js';
import { SCOPE_TAGGED_REPORTS, areaOfReport, readsOfTaggedReport, taggedReportReadBy } from './report-access.js';
import { describeScope, visibleTo } from './scope.js';
import { ROW_SCOPE_TAGS_KEY, rowScopeTags } from './scope-tag-ids.js';
import type { AreaAccess, ViewerScope } from './scope.js';
import { subjectsInView } from './scope-triage.js';

/**
 * A report as one viewer may see it (docs/finding-rules.md, "Viewer scope"): the shared result,
 * filtered. Each row of a report whose objects carry scope tags holds them in its
 * `roleScopeTagIds` cell (no column shows it); a row's findings and audit stories follow its `id`.
 */

export type ScopedReport = { ok: true; result: ReportResult } | { ok: false; explanation: string };

/**
 * The result as a viewer of `scope` may see it:
 * - the whole tenant: the result itself, unchanged;
 * - no scope: refused, with the scope's explanation;
 * - a scope-tagged report (2, 3, 4) to a viewer whose Intune roles are known (`areas`): refused, with
 *   the permissions their roles lack, unless their roles read every kind of object it shows
 *   (`readsOfTaggedReport`, report-access.ts), before anything else, a load error too: the role, not the tag,
 *   decides whether they see the report at all;
 * - scope tags: a report whose objects carry no scope tags (not in `SCOPE_TAGGED_REPORTS`: connectors,
 *   multi admin approval, analytics, conflicts), with rows or none, or a tagged one none of whose rows
 *   carries tags, covers the whole tenant: it is shown whole when one of the viewer's roles grants the
 *   read permission of its area (`areaOfReport`, report-access.ts), and refused with why otherwise; any other keeps the rows
 *   whose object carries one of the tags, the findings and unchecked subjects of those objects (by
 *   `id` and `subjectId`, without case), their audit stories, and says in its notice which scope it
 *   shows.
 * A load error carries no tenant data and is passed on as it is, except to a viewer of no scope.
 */
export function scopeReport(result: ReportResult, scope: ViewerScope): ScopedReport {
  if (scope.kind !== 'none' && scope.areas && SCOPE_TAGGED_REPORTS.has(result.report)) {
    const refusal = lackedReads(result, scope, scope.areas);
    if (refusal) return { ok: false, explanation: refusal };
  }
  if (scope.kind === 'tenant') {
    // An Intune role assignment without scope tags sees every tagged object, and a tenant-wide
    // report only as its roles read the report's area (`areaOfReport`); the scope off and an Entra role
    // that reads all Intune data see every report.
    if (!scope.areas || SCOPE_TAGGED_REPORTS.has(result.report) || result.state === 'load-error') return { ok: true, result };
    return tenantWide(result, scope);
  }
  if (scope.kind === 'none') return { ok: false, explanation: scope.explanation };
  if (result.state === 'load-error') return { ok: true, result };
  // A tenant-wide report is known by its id, not by its rows: with none, it would otherwise be shown
  // empty with the whole tenant's notice. A tagged report none of whose rows carries tags (read
  // where Graph gives none) cannot be filtered, and is refused as tenant-wide too.
  const tagged = result.rows.some((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string');
  if (!SCOPE_TAGGED_REPORTS.has(result.report) || (result.rows.length > 0 && !tagged)) return tenantWide(result, scope);
  const rows: ReportRow[] = result.rows.filter((row) => visibleTo(scope, rowScopeTags(row)));
  const visibleIds = subjectsInView({ rows });
  const seen = (subjectId: string) => visibleIds.has(subjectId.toLowerCase());
  const scopedNotice = `Showing what your Intune role assignments let you see: ${describeScope(scope)} (${rows.length.toLocaleString('en-US')} of ${result.rows.length.toLocaleString('en-US')} rows).`;
  const scoped: ReportResult = {
    ...result,
    notice: result.notice ? `${scopedNotice} ${result.notice}` : scopedNotice,
    rows,
    findings: result.findings.filter((finding) => seen(finding.subjectId)),
    uncheckedSubjects: result.uncheckedSubjects.filter((subject) => seen(subject.subjectId)),
  };
  if (result.auditLog?.state === 'read') scoped.auditLog = { ...result.auditLog, changes: Object.fromEntries(Object.entries(result.auditLog.changes).filter(([id]) => seen(id))) };
  return { ok: true, result: scoped };
}

/**
 * Whether `scopeReport` shows a viewer of `scope` the report at all, whatever its rows: the same
 * decisions it makes before it looks at them, for what must be decided before a load (a post or a
 * schedule that carries the report, "what applies", which is built on report 2's objects). Unknown
 * is not shown.
 */
export function reportOpensTo(scope: ViewerScope, report: ReportId): boolean {
  if (scope.kind === 'none') return false;
  const areas = scope.areas;
  // Without areas: the scope off or an Entra role that reads all Intune data (every report), or a
  // channel's scope tag (its tagged reports only).
  if (!areas) return scope.kind === 'tenant' || SCOPE_TAGGED_REPORTS.has(report);
  if (SCOPE_TAGGED_REPORTS.has(report)) return taggedReportReadBy(report, (area) => areas.granted.has(area));
  const area = areaOfReport(report);
  return area !== null && areas.granted.has(area);
}

/** What a viewer whose Intune roles read nothing any report shows is told, once (docs/finding-rules.md, "Which role permissions open reports 2, 3 and 4"). */
export function noReportOpens(scope: Exclude<ViewerScope, { kind: 'none' }>): string {
  const roles = scope.areas && scope.areas.roles.length > 0 ? `Your Intune role${scope.areas.roles.length === 1 ? '' : 's'} ${scope.areas.roles.join(', ')}` : 'Your Intune roles';
  const unknown = scope.areas ? [...new Set(scope.areas.unknown.values())] : [];
  if (unknown.length > 0)
    return `${roles} may or may not read what this app's reports show: ${unknown.join('; ')}. Nothing is shown until that is read; try again in a few minutes.`;
  return `${roles} grant${scope.areas?.roles.length === 1 ? 's' : ''} none of the read permissions this app's reports need (such as Device configurations/Read, Managed devices/Read or Endpoint Analytics/Read), so this app shows you no tenant data (your scope: ${describeScope(scope)}). Ask an Intune administrator for a role that reads them (Tenant administration > Roles).`;
}

/**
 * A tenant-wide report to a viewer of tags: whole when a role of theirs grants its area's read
 * permission, with a notice saying which; refused otherwise, saying whether their roles grant no
 * such read, whether that could not be read, or whether no read permission opens the report at all.
 */
function tenantWide(result: ReportResult, scope: Extract<ViewerScope, { kind: 'tags' | 'tenant' }>): ScopedReport {
  const area = areaOfReport(result.report);
  if (area === null)
    return {
      ok: false,
      explanation: `${result.title} covers the whole tenant: its objects carry no scope tags, and no Intune role permission is documented to read all it shows, so it is shown only to viewers whose Microsoft Entra role reads all Intune data (such as Intune Administrator or Global Reader). Your Intune role assignments show ${describeScope(scope)}.`,
    };
  const { permission } = AREA_READS[area];
  const roles = scope.areas?.granted.get(area);
  if (roles) {
    const notice = `${result.title} covers the whole tenant: its objects carry no scope tags, and your Intune role${roles.length === 1 ? '' : 's'} ${roles.join(', ')} grant${roles.length === 1 ? 's' : ''} ${permission}, so it is shown whole.`;
    return { ok: true, result: { ...result, notice: result.notice ? `${notice} ${result.notice}` : notice } };
  }
  const unknown = scope.areas?.unknown.get(area);
  const opening = `${result.title} covers the whole tenant: its objects carry no scope tags, so Intune shows it to administrators whose role grants ${permission}.`;
  return {
    ok: false,
    explanation: unknown
      ? `${opening} Whether yours does is not known just now: ${unknown}. It is not shown until that is read; try again in a few minutes.`
      : `${opening} None of your Intune role assignments' roles grants it, so it is not shown to you (your scope: ${describeScope(scope)}).`,
  };
}

/**
 * Why a viewer's Intune roles do not open a scope-tagged report, or null when they read all it shows
 * ("Roles determine what access admins have to which objects. Scope tags determine which objects
 * admins can see", learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags):
 * the permissions none of their roles grants, naming their roles, or, where a role's read failed, that
 * it is not known yet. Unknown is refused, never shown.
 */
function lackedReads(result: ReportResult, scope: Extract<ViewerScope, { kind: 'tags' | 'tenant' }>, areas: AreaAccess): string | null {
  const needed = readsOfTaggedReport(result.report);
  if (needed === null)
    return `${result.title} is shown to a viewer of an Intune role only when their role reads what it shows, and no Intune permission is known to this app for it, so it is not shown to you.`;
  const missing = needed.filter((area) => !areas.granted.has(area));
  if (missing.length === 0) return null;
  const permissions = needed.map((area) => AREA_READS[area].permission);
  const opening = `${result.title} shows objects Intune shows only to administrators whose role grants ${joinAnd(permissions)}.`;
  const unknown = missing.map((area) => areas.unknown.get(area)).filter((why): why is string => why !== undefined);
  if (unknown.length > 0)
    return `${opening} Whether yours do is not known just now: ${[...new Set(unknown)].join('; ')}. It is not shown until that is read; try again in a few minutes.`;
  const lacked = joinAnd(missing.map((area) => AREA_READS[area].permission));
  const roles = areas.roles.length > 0 ? `your Intune role${areas.roles.length === 1 ? '' : 's'} ${areas.roles.join(', ')}` : "your Intune role assignments' roles";
  return `${opening} None of ${roles} grants ${lacked}, so it is not shown to you (your scope: ${describeScope(scope)}).`;
}
