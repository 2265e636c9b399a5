/**
 * When and how long to wait before trying a Graph request again. Pure: the clock and the random
 * source are passed in, so the rules are tested without waiting.
 *
 * Graph's throttling guidance (learn.microsoft.com/graph/throttling): on 429 wait the number of
 * seconds in `Retry-After` and retry. Intune counts requests per app and tenant in 20-second windows
 * (learn.microsoft.com/graph/throttling-limits, Intune service limits) and its 429 may come without
 * `Retry-After`; backing off by a second or two would only spend the attempts inside the same
 * window, so such a 429 waits out a window. Other failures without a delay (503, 504, a dropped
 * connection) back off exponentially. Every loop is bounded in attempts and in total waiting time
 * (two minutes), so a tenant that stays throttled yields a clear error instead of a hung report.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First back-off step when the answer names no delay. */
  baseDelayMs: number;
  /** Longest single wait, whatever `Retry-After` asks for. */
  maxDelayMs: number;
  /** Longest total waiting across the attempts of one request. */
  maxTotalDelayMs: number;
  /** The wait after a 429 that names no delay: the service's throttling window. */
  throttleWindowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxTotalDelayMs: 120_000,
  throttleWindowMs: 20_000,
};

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503 || status === 504;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names its day and month; without letters, Date.parse would read "-3" as a year.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1), or `undefined` when the request
 * must not be tried again. `throttled`: the failure was a 429.
 */
export function nextRetryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  waitedSoFarMs: number,
  retryAfterMs: number | undefined,
  random: () => number,
  throttled = false,
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const delay =
    retryAfterMs !== undefined
      ? // Honour the server's figure exactly; a little jitter keeps parallel callers from returning in lockstep.
        retryAfterMs + Math.floor(random() * 250)
      : throttled
        ? // A 429 without Retry-After: the window it counted in has to pass; up to a second of jitter.
          policy.throttleWindowMs + Math.floor(random() * 1000)
        : // "Full jitter" exponential back-off: spreads retries of many callers over the window.
          Math.floor(random() * policy.baseDelayMs * 2 ** (attempt - 1)) + 50;
  const bounded = Math.min(delay, policy.maxDelayMs);
  if (waitedSoFarMs + bounded > policy.maxTotalDelayMs) return undefined;
  return bounded;
}
