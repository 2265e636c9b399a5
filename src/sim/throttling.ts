import type { Workload } from './resources/resource-model.js';

export interface ThrottleLimit {
  requests: number;
  windowMs: number;
}

/**
 * Per app and tenant, from learn.microsoft.com/graph/throttling-limits: Intune device
 * configuration and applications 1,000 requests per 20 s, Intune devices 2,000 per 20 s, Intune
 * auditing ("The preceding limits apply to ... auditEvent") 1,000 per 20 s; each service's table is
 * its own window, so a request of one spends nothing of another's. Identity
 * limits are in resource units per 10 s (3,500 for the smallest tenants, more for larger ones:
 * `throttleLimitsFor`; a group read with `$select` and `$expand` costing about 1); counted here as
 * requests. The LAPS and BitLocker lists publish no figure; the identity one is used.
 */
export const DEFAULT_THROTTLE_LIMITS: Record<Workload, ThrottleLimit> = {
  intune: { requests: 1000, windowMs: 20_000 },
  'intune-devices': { requests: 2000, windowMs: 20_000 },
  'intune-auditing': { requests: 1000, windowMs: 20_000 },
  directory: { requests: 3500, windowMs: 10_000 },
  identity: { requests: 3500, windowMs: 10_000 },
};

/**
 * Microsoft's limits for a tenant of `users` users: the identity ones grow with its size ("Identity
 * and access service limits": "S - under 50 users, M - between 50 and 500 users, and L - above 500
 * users", 3,500, 5,000 and 8,000 resource units per 10 seconds per app per tenant).
 */
export function throttleLimitsFor(users: number): Record<Workload, ThrottleLimit> {
  const identity = users > 500 ? 8_000 : users >= 50 ? 5_000 : 3_500;
  return { ...DEFAULT_THROTTLE_LIMITS, directory: { requests: identity, windowMs: 10_000 }, identity: { requests: identity, windowMs: 10_000 } };
}

/** Fixed windows per app and workload; over the limit, 429 with the seconds left in the window. */
export class Throttle {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limits: Record<Workload, ThrottleLimit>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts the request; answers the `Retry-After` seconds when it is over the limit. */
  admit(appId: string, workload: Workload): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const limit = this.limits[workload];
    const key = `${appId}|${workload}`;
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= limit.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= limit.requests) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + limit.windowMs - now) / 1000)) };
  }
}
