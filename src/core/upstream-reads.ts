import { APPLIES_READS } from './applies/reads.js';
import { askedPermissions } from './graph/upstream-read.js';
import type { UpstreamRead } from './graph/upstream-read.js';
import { OPTIONAL_GRAPH_APPLICATION_PERMISSIONS } from './graph/graph-permissions.js';
import type { GraphApplicationPermission, OptionalGraphPermission } from './graph/graph-permissions.js';
import { REPORTS } from './reports/registry.js';
import { VIEWER_SCOPE_READS } from './viewer-scope/reads.js';
import type { ReportRegistry } from './reports/registry.js';

/**
 * Every Graph read the product makes: its reports' declarations, those of "what applies" and those
 * of the viewer scope (made only when it is on, `VIEWER_SCOPE=intune-rbac`). The
 * Graph client's allow-list, the permissions the app registration asks for (aad.manifest.json and
 * the README, held to this by a test), the demo tenant's grants and the `--deny` switch's choices
 * are all derived from this list and nothing else (docs/architecture.md, "Declared reads").
 */
export function upstreamReadsOf(registry: ReportRegistry): readonly UpstreamRead[] {
  return [...new Set([...registry.reads, ...APPLIES_READS, ...VIEWER_SCOPE_READS])];
}

/** The product's reads: the registry's seven reports, "what applies" and the viewer scope. */
export const PRODUCT_READS: readonly UpstreamRead[] = upstreamReadsOf(REPORTS);

/** The application permissions the product asks for, in the permissions table's order. */
export function permissionsAskedFor(registry: ReportRegistry = REPORTS): GraphApplicationPermission[] {
  return askedPermissions(upstreamReadsOf(registry));
}

/**
 * The optional permissions the product's reads can use when a tenant's administrator grants them
 * (`OPTIONAL_GRAPH_APPLICATION_PERMISSIONS`: never asked for by the app registration), in that
 * table's order: what the demo tenant grants besides the asked ones, and what `--deny` may take away.
 */
export function optionalPermissionsUsed(registry: ReportRegistry = REPORTS): OptionalGraphPermission[] {
  const used = new Set<string>(upstreamReadsOf(registry).flatMap((read) => read.permissions));
  return (Object.keys(OPTIONAL_GRAPH_APPLICATION_PERMISSIONS) as OptionalGraphPermission[]).filter((permission) => used.has(permission));
}
