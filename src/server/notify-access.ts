import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `Authorization: Bearer <NOTIFY_API_KEY>` in constant time: both sides are hashed first,
 * so neither the key's content nor its length leaks through how long a comparison takes.
 */
export function createNotifyKeyCheck(apiKey: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(apiKey, 'utf8').digest();
  return (authorization) => {
    const presented = /^Bearer (.+)$/.exec(authorization?.trim() ?? '')?.[1] ?? '';
    return timingSafeEqual(createHash('sha256').update(presented, 'utf8').digest(), expected);
  };
}

/**
 * A fixed window per caller: at most `limit` requests in `windowMs`. Notify triggers are rare (a
 * scheduler, a person), so a small limit costs nothing and makes guessing the key hopeless. Windows
 * of callers gone quiet are dropped as new ones come, so the map stays small.
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
