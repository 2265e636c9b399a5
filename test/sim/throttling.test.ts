import { describe, expect, it } from 'vitest';
import { Throttle, throttleLimitsFor } from '../../src/sim/throttling.js';
import { buildLargeTenant } from '../../src/sim/tenants/large-tenant.js';
import { tenantUserCount } from '../../src/sim/tenants/sim-tenant.js';

describe("the simulator's per-app throttling", () => {
  const limits = {
    intune: { requests: 3, windowMs: 20_000 },
    'intune-devices': { requests: 5, windowMs: 20_000 },
    'intune-auditing': { requests: 3, windowMs: 20_000 },
    directory: { requests: 5, windowMs: 10_000 },
    identity: { requests: 5, windowMs: 10_000 },
  };

  it('admits up to the limit in a window, then answers 429 with the seconds left in it', () => {
    let now = 1_000_000;
    const throttle = new Throttle(limits, () => now);
    expect([1, 2, 3].map(() => throttle.admit('app', 'intune').ok)).toEqual([true, true, true]);
    now += 12_500;
    expect(throttle.admit('app', 'intune')).toEqual({ ok: false, retryAfterSeconds: 8 });
    now += 7_500;
    expect(throttle.admit('app', 'intune').ok).toBe(true);
  });

  it('counts each app and each workload on its own', () => {
    const throttle = new Throttle(limits, () => 0);
    for (let index = 0; index < 3; index += 1) throttle.admit('app', 'intune');
    expect(throttle.admit('app', 'intune').ok).toBe(false);
    expect(throttle.admit('other-app', 'intune').ok).toBe(true);
    expect(throttle.admit('app', 'intune-devices').ok).toBe(true);
    // Intune's audit log has a table of its own (learn.microsoft.com/graph/throttling-limits,
    // "Intune auditing service limits"): a spent configuration window leaves it whole, and back.
    expect([1, 2, 3].map(() => throttle.admit('app', 'intune-auditing').ok)).toEqual([true, true, true]);
    expect(throttle.admit('app', 'intune-auditing').ok).toBe(false);
    expect(throttle.admit('app', 'intune').ok).toBe(false);
  });

  it("holds the identity limits to the tenant's size, as Microsoft's table sets them", () => {
    // "S - under 50 users, M - between 50 and 500 users, and L - above 500 users" (learn.microsoft.com/graph/throttling-limits).
    expect([0, 49, 50, 500, 501].map((users) => throttleLimitsFor(users).identity.requests)).toEqual([3_500, 3_500, 5_000, 5_000, 8_000]);
    expect(throttleLimitsFor(501).directory).toEqual({ requests: 8_000, windowMs: 10_000 });
    expect(throttleLimitsFor(501).intune).toEqual({ requests: 1_000, windowMs: 20_000 });
    // The benchmark's floor takes the large tenant's size as the largest, at its smallest build too.
    expect(tenantUserCount(buildLargeTenant({ devices: 2_000, now: new Date('2026-11-22T09:00:00Z') }))).toBeGreaterThan(500);
  });
});
