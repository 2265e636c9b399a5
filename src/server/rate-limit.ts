import type { Response } from 'restify';

/**
 * A fixed window per caller: at most `limit` requests in `windowMs`. For what people and schedulers
 * do rarely (a notify trigger, a refresh, a triage change), so a small limit costs nothing and
 * keeps anyone from doing it at machine speed. Windows of callers gone quiet are dropped as new
 * ones come, so the map stays small.
 */
export class FixedWindowRateLimit {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a request; returns the seconds to wait when it is over the limit, else 0. */
  take(caller: string): number {
    const now = this.now();
    for (const [key, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
    const window = this.windows.get(caller) ?? { startedAt: now, count: 0 };
    window.count += 1;
    this.windows.set(caller, window);
    return window.count > this.limit ? Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)) : 0;
  }
}

/** The answer past a limit: 429, with `Retry-After` saying when to try again and the message saying why. */
export function refuseTooMany(res: Response, retryAfterSeconds: number, message: string): void {
  res.header('retry-after', String(retryAfterSeconds));
  res.send(429, { error: { status: 429, message } });
}
