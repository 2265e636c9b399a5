import { findingKind } from '../core/findings/finding-kinds.js';
import type { GraphApplicationPermission } from '../core/graph/graph-permissions.js';
import { REPORTS } from '../core/reports/registry.js';
import { permissionsAskedFor } from '../core/upstream-reads.js';
import type { ReportRegistry } from '../core/reports/registry.js';

/** What a permission not granted costs: a whole report that cannot load, or the checks an n/a source leaves undone. */
export interface PermissionCost {
  report: string;
  /** The report's title. */
  title: string;
  /** `report`: the report is a load error (403); `source`: only the named source is n/a. */
  scope: 'report' | 'source';
  /** For `source`: the column shown as n/a (its key), the source in the reader's words, and the finding kinds it alone proves, by label. */
  column?: string;
  source?: string;
  checks?: string[];
}

export interface RequiredPermission {
  permission: GraphApplicationPermission;
  costs: PermissionCost[];
}

/**
 * The application permissions the product asks for, derived from its declared reads
 * (`permissionsAskedFor`, docs/architecture.md, "Declared reads"), each with what it costs when it
 * is not granted: from each report's `permissions` (which the registry holds to its reads) and
 * `optionalSources`.
 */
export function requiredGraphPermissions(registry: ReportRegistry = REPORTS): RequiredPermission[] {
  const byPermission = new Map<GraphApplicationPermission, PermissionCost[]>(permissionsAskedFor(registry).map((permission) => [permission, []]));
  for (const report of registry.definitions) {
    for (const permission of report.permissions) {
      // A permission the report's required reads ask for too costs the whole report, whatever optional source it also reads.
      const wholeReport = report.reads.some((read) => !read.optional && read.permissions[0] === permission);
      const optional = wholeReport ? [] : report.optionalSources.filter((source) => source.permission === permission);
      const costs: PermissionCost[] =
        optional.length > 0
          ? optional.map((source) => ({
              report: report.id,
              title: report.title,
              scope: 'source' as const,
              column: source.column,
              source: source.source,
              checks: source.findingKinds.map((kind) => findingKind(report.findingKinds, kind).label),
            }))
          : [{ report: report.id, title: report.title, scope: 'report' as const }];
      byPermission.set(permission, [...(byPermission.get(permission) ?? []), ...costs]);
    }
  }
  return [...byPermission].map(([permission, costs]) => ({ permission, costs }));
}

/**
 * The application permissions an app-only access token holds: its `roles` claim, which Entra
 * issues from the admin consent given to the app ("Access token claims reference", Microsoft
 * identity platform docs). A client-credentials token is issued without `roles` when no consent
 * was given at all. Null when the token cannot be read as a JWT: an access token is the resource's
 * business and may one day be opaque, and what cannot be read proves nothing missing.
 */
export function grantedRoles(token: string): Set<string> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { roles?: unknown };
    if (typeof claims !== 'object' || claims === null) return null;
    return new Set(Array.isArray(claims.roles) ? claims.roles.filter((role): role is string => typeof role === 'string') : []);
  } catch {
    return null;
  }
}

/** The required permissions the token does not hold, with their costs; empty when all are held or the token cannot be read. */
export function missingPermissions(token: string, required: readonly RequiredPermission[]): RequiredPermission[] {
  const roles = grantedRoles(token);
  if (!roles) return [];
  return required.filter(({ permission }) => !roles.has(permission));
}

/** The missing permissions in words, for /readyz and the log: product text only, nothing of the tenant. */
export function describeMissingPermissions(missing: readonly RequiredPermission[]): string {
  const one = ({ permission, costs }: RequiredPermission) =>
    `${permission} (${costs
      .map((cost) =>
        cost.scope === 'report'
          ? `report ${cost.report} cannot load`
          : `report ${cost.report} shows its column ${cost.column} (${cost.source}) as n/a and does not check ${cost.checks!.join(', ') || 'what it proves'}`,
      )
      .join('; ')})`;
  return `admin consent is missing for ${missing.map(one).join('; ')}`;
}
