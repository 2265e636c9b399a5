import { AREA_READS } from '../../src/core/viewer-scope/areas.js';
import { VIEWER_SCOPE_DEMO } from '../../src/core/viewer-scope/demo.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';

/**
 * Takes Endpoint Analytics read out of the demo's Europe role, as an administrator editing the role
 * would, keeping its other permissions, and returns what puts the role back. The list is replaced,
 * not edited in place: the simulator serves a collection's pages the same until the collection is replaced.
 */
export function withoutEuropeAnalyticsRead(tenant: SimTenant): () => void {
  return withEuropeRoleActions(tenant, (actions) => actions.filter((action) => action !== AREA_READS.endpointAnalytics.action));
}

/** Gives the demo's Europe role the actions `change` makes of its own, and returns what puts the role back. */
export function withEuropeRoleActions(tenant: SimTenant, change: (actions: readonly string[]) => string[]): () => void {
  const { collections } = tenant;
  const kept = collections.roleDefinitions;
  collections.roleDefinitions = kept.map((definition) => {
    if (definition.displayName !== VIEWER_SCOPE_DEMO.europeRole) return definition;
    const permissions = definition.rolePermissions as Array<{ resourceActions: Array<{ allowedResourceActions: string[] }> }>;
    const actions = permissions.flatMap((permission) => permission.resourceActions.flatMap((action) => action.allowedResourceActions));
    return { ...definition, rolePermissions: [{ resourceActions: [{ allowedResourceActions: change(actions), notAllowedResourceActions: [] }] }] };
  });
  return () => {
    collections.roleDefinitions = kept;
  };
}
