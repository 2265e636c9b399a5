import { describe, expect, it } from 'vitest';
import { Throttle } from '../../src/sim/throttling.js';

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
});
