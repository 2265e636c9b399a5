import { setTimeout as sleepFor } from 'node:timers/promises';
import { TENANT_SIZE_FROM } from '../core/graph/graph-reader.js';
import { listenForAbort } from './abort-listener.js';

/**
 * Pacing under Microsoft Graph's per-app throttling limits, so that a long read never trips them.
 *
 * Microsoft publishes the limits per service (learn.microsoft.com/graph/throttling-limits):
 * - "Intune device configuration service limits", any request: 1,000 per 20 seconds per app per
 *   tenant (2,000 per tenant for all apps). The other Intune services' tables are no lower, and
 *   which of them a path belongs to is mostly not written on the path, so Intune's paths are paced
 *   as one budget, the smallest.
 * - "Intune auditing service limits", any request: 1,000 per 20 seconds per app per tenant, for one
 *   resource, `auditEvent`. Its path says it (`/deviceManagement/auditEvents`), so the audit log is
 *   paced on a budget of its own: its requests count against that table, not the others'.
 * - "Identity and access service limits": per app per tenant, 3,500 resource units per 10 seconds
 *   for a tenant of fewer than 50 users, 5,000 for 50 to 500 users, 8,000 above 500; a read of one
 *   object by id with `$select` costs about one unit. The budget starts at the smallest tenant's
 *   and rises only once the load has proved the tenant larger (`directoryBudgetFor`).
 * Every sub-request of a `$batch` counts on its own ("JSON batching": each request in the batch
 * is evaluated against the limits), so a `$batch` call spends as many units as it carries.
 *
 * The budget keeps a margin under each limit (other work of the same app, a clock that is not the
 * service's) and counts a request from the moment it is sent, in a sliding window: no window of
 * that length, wherever the service starts it, sees more than the budget. A throttled answer is
 * still handled where it arrives (retry-policy.ts), since other apps share the tenant's limit.
 */

export type BudgetName = 'intune' | 'intune-auditing' | 'directory';

export interface BudgetLimit {
  /** Requests (units) allowed in any window of `windowMs`. */
  requests: number;
  windowMs: number;
}

/** Nine tenths of each published limit, over a window one second longer than the service's; the directory's for the smallest tenants. */
export const GRAPH_BUDGETS: Readonly<Record<BudgetName, BudgetLimit>> = {
  intune: { requests: 900, windowMs: 21_000 },
  'intune-auditing': { requests: 900, windowMs: 21_000 },
  directory: { requests: 3_150, windowMs: 11_000 },
};

/**
 * The directory budget for a tenant proved to hold at least `users` users: nine tenths of the
 * identity limit of its size ("Identity and access service limits", learn.microsoft.com/graph/throttling-limits:
 * "S - under 50 users, M - between 50 and 500 users, and L - above 500 users", 3,500, 5,000 and
 * 8,000 resource units per 10 seconds), over 11 s. Only a lower bound on the users is ever known
 * (those the load has seen), so the size is never overstated.
 */
export function directoryBudgetFor(users: number): BudgetLimit {
  const limit = users >= TENANT_SIZE_FROM.large ? 8_000 : users >= TENANT_SIZE_FROM.medium ? 5_000 : 3_500;
  return { requests: (limit * 9) / 10, windowMs: 11_000 };
}

/**
 * Which budget a Graph path spends: Intune auditing's for the audit log, Intune's for the rest of
 * `deviceManagement` and `deviceAppManagement`, the directory's for everything else.
 */
export function budgetOf(pathname: string): BudgetName {
  if (/^\/(v1\.0|beta)\/deviceManagement\/auditEvents(\/|$)/.test(pathname)) return 'intune-auditing';
  return /^\/(v1\.0|beta)\/device(Management|AppManagement)(\/|$)/.test(pathname) ? 'intune' : 'directory';
}

export type BudgetCost = Partial<Record<BudgetName, number>>;

/** Units reserved for one request: stamped when it is sent, or given back if it never is. */
export interface BudgetReservation {
  sent(): void;
  cancel(): void;
}

interface Spend {
  units: number;
  /** When the request was sent; `Infinity` while it waits for a slot (it counts, and does not age). */
  at: number;
}

/**
 * A sliding window of spent units per budget. Reservations for the same budgets are granted in the
 * order asked, so a `$batch` call of twenty is not overtaken for ever by single reads; a wait for
 * one budget holds up no request of another. Waiting is bounded: a unit ages out of its window at
 * the latest `windowMs` after it was sent.
 */
export class RequestBudget {
  private readonly spends: Record<BudgetName, Spend[]> = { intune: [], 'intune-auditing': [], directory: [] };
  /** One line of reservations per set of budgets asked for, so that a wait for one budget holds up no other. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly waiting = new Set<() => void>();

  private limits: Readonly<Record<BudgetName, BudgetLimit>>;

  constructor(
    limits: Readonly<Record<BudgetName, BudgetLimit>> = GRAPH_BUDGETS,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = (ms, signal) => sleepFor(ms, undefined, { signal }),
  ) {
    this.limits = limits;
  }

  /**
   * Raises one budget's limit, never lowers it: a limit learnt during a load (a larger tenant's
   * directory limit) takes effect for the requests still waiting, which are woken to see it.
   */
  raise(budget: BudgetName, limit: BudgetLimit): void {
    const current = this.limits[budget];
    if (limit.requests / limit.windowMs <= current.requests / current.windowMs) return;
    this.limits = { ...this.limits, [budget]: limit };
    this.wake();
  }

  /** The limit a budget paces under now. */
  limitOf(budget: BudgetName): BudgetLimit {
    return this.limits[budget];
  }

  /** Waits until `cost` fits every budget it names, then holds it until `sent` or `cancel`. */
  reserve(cost: BudgetCost, signal?: AbortSignal): Promise<BudgetReservation> {
    const line = (Object.keys(cost) as BudgetName[])
      .filter((budget) => (cost[budget] ?? 0) > 0)
      .sort()
      .join(',');
    const turn = (this.queues.get(line) ?? Promise.resolve()).then(() => this.grant(cost, signal));
    // The next reservation in the line waits for this one to be granted, not for its request to end.
    this.queues.set(
      line,
      turn.then(
        () => undefined,
        () => undefined,
      ),
    );
    return turn;
  }

  /** Units spent or held in each budget's window now: for tests and logs. */
  inWindow(budget: BudgetName): number {
    this.prune(budget);
    return this.spends[budget].reduce((sum, spend) => sum + spend.units, 0);
  }

  private async grant(cost: BudgetCost, signal: AbortSignal | undefined): Promise<BudgetReservation> {
    const wanted = (Object.entries(cost) as Array<[BudgetName, number]>)
      .filter(([, units]) => units > 0)
      // A request larger than a whole budget could never fit: it is let through at the full budget.
      .map(([budget, units]) => [budget, Math.min(units, this.limits[budget].requests)] as const);
    for (;;) {
      signal?.throwIfAborted();
      const waits = wanted.map(([budget, units]) => this.waitFor(budget, units));
      if (waits.every((wait) => wait === 0)) break;
      const timed = waits.filter((wait) => Number.isFinite(wait) && wait > 0);
      // Held units age only once sent: wait for a change, or for the oldest sent unit to leave its window.
      await this.pause(timed.length > 0 ? Math.min(...timed) : undefined, signal);
    }
    const held = wanted.map(([budget, units]) => {
      const spend: Spend = { units, at: Number.POSITIVE_INFINITY };
      this.spends[budget].push(spend);
      return spend;
    });
    let settled = false;
    const settle = (apply: (spend: Spend, budget: BudgetName) => void) => {
      if (settled) return;
      settled = true;
      held.forEach((spend, index) => apply(spend, wanted[index]![0]));
      this.wake();
    };
    return {
      sent: () => settle((spend) => (spend.at = this.now())),
      cancel: () =>
        settle((spend, budget) => {
          const spends = this.spends[budget];
          const at = spends.indexOf(spend);
          if (at >= 0) spends.splice(at, 1);
        }),
    };
  }

  /** Milliseconds until `units` more fit `budget`: 0 now, Infinity until a held request is sent. */
  private waitFor(budget: BudgetName, units: number): number {
    this.prune(budget);
    const { requests, windowMs } = this.limits[budget];
    let used = this.spends[budget].reduce((sum, spend) => sum + spend.units, 0);
    if (used + units <= requests) return 0;
    // Granted requests not yet sent are about to be: their times decide when the window frees, so
    // wait for them to go first rather than count on times not yet known.
    if (this.spends[budget].some((spend) => !Number.isFinite(spend.at))) return Number.POSITIVE_INFINITY;
    // Oldest sent spends first: the time at which enough of them have left the window.
    const sent = this.spends[budget].filter((spend) => Number.isFinite(spend.at)).sort((a, b) => a.at - b.at);
    for (const spend of sent) {
      used -= spend.units;
      if (used + units <= requests) return Math.max(1, spend.at + windowMs - this.now());
    }
    return Number.POSITIVE_INFINITY;
  }

  private prune(budget: BudgetName): void {
    const cutoff = this.now() - this.limits[budget].windowMs;
    const spends = this.spends[budget];
    if (spends.some((spend) => spend.at <= cutoff)) this.spends[budget] = spends.filter((spend) => spend.at > cutoff);
  }

  private async pause(ms: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    let stopListening: (() => void) | undefined;
    // The timer goes with the wait: a wait ended by a change leaves nothing to keep the process up.
    const timer = new AbortController();
    let woken: (() => void) | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => {
          woken = resolve;
          this.waiting.add(resolve);
        }),
        ...(ms === undefined ? [] : [this.sleep(ms, timer.signal).catch(() => undefined)]),
        ...(signal
          ? [
              new Promise<never>((_, reject) => {
                stopListening = listenForAbort(signal, () => reject(signal.reason));
              }),
            ]
          : []),
      ]);
    } finally {
      if (woken) this.waiting.delete(woken);
      timer.abort();
      stopListening?.();
    }
  }

  private wake(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const resolve of waiting) resolve();
  }
}
