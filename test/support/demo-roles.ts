import { VIEWER_SCOPE_DEMO } from '../../src/core/viewer-scope/demo.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';

/**
 * Takes Endpoint Analytics read out of the demo's Europe role, as an administrator editing the role
 * would, and returns what puts the role back. The list is replaced, not edited in place: the
 * simulator serves a collection's pages the same until the collection is replaced.
 */
export function withoutEuropeAnalyticsRead(tenant: SimTenant): () => void {
  const { collections } = tenant;
  const kept = collections.roleDefinitions;
  collections.roleDefinitions = kept.map((definition) =>
    definition.displayName === VIEWER_SCOPE_DEMO.europeRole
      ? { ...definition, rolePermissions: [{ resourceActions: [{ allowedResourceActions: ['Microsoft.Intune_Organization_Read'], notAllowedResourceActions: [] }] }] }
      : definition,
  );
  return () => {
    collections.roleDefinitions = kept;
  };
}
