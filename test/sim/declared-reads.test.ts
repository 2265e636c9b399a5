/**
 * The simulator serves every read the product declares (docs/architecture.md, "Declared reads"):
 * each answers as an app holding only the permission the read asks for, and is refused (403) to an
 * app holding every other permission the product asks for but none of the read's. A new declared
 * read fails here until the simulator serves it, as Graph would, with its permission.
 */
import { describe, expect, it } from 'vitest';
import { PRODUCT_READS, optionalPermissionsUsed, permissionsAskedFor } from '../../src/core/upstream-reads.js';
import { DEMO_GRANTED_ROLES, buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { describeSimulatorCoverage } from '../support/simulator-coverage.js';

describe('the demo tenant', () => {
  it('is granted exactly the permissions the declared reads ask for and the optional ones they can use (Device.Read.All), and no hand-written list', () => {
    const asked = permissionsAskedFor();
    expect(optionalPermissionsUsed()).toEqual(['Device.Read.All']);
    expect(buildDemoTenant().grantedRoles).toEqual([...asked, 'Device.Read.All']);
    expect(DEMO_GRANTED_ROLES).toEqual(asked);
  });
});

describeSimulatorCoverage(
  "the simulator's coverage of the product's declared reads",
  () => buildDemoTenant(),
  () => PRODUCT_READS,
  () => permissionsAskedFor(),
);
