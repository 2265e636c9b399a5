import { describe, expect, it } from 'vitest';
import { nextRetryDelayMs, parseRetryAfterMs } from '../../src/graph/retry-policy.js';

const policy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 5_000, maxTotalDelayMs: 8_000, throttleWindowMs: 4_000 };
const noJitter = () => 0;

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it('reads delta-seconds', () => expect(parseRetryAfterMs('7', now)).toBe(7000));
  it('reads an HTTP date', () => expect(parseRetryAfterMs('Sat, 21 Nov 2026 10:00:03 GMT', now)).toBe(3000));
  it('never answers a negative wait for a date in the past', () => expect(parseRetryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0));
  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-3', now)).toBeUndefined();
  });
});

describe('nextRetryDelayMs', () => {
  it('honours Retry-After, with at most a quarter second of jitter', () => {
    expect(nextRetryDelayMs(policy, 1, 0, 2000, noJitter)).toBe(2000);
    expect(nextRetryDelayMs(policy, 1, 0, 2000, () => 0.999)).toBeLessThan(2250);
  });
  it('backs off exponentially without Retry-After', () => {
    const max = () => 0.999;
    const ceilings = [1, 2, 3].map((attempt) => nextRetryDelayMs(policy, attempt, 0, undefined, max)!);
    expect(ceilings[0]).toBeLessThan(ceilings[1]!);
    expect(ceilings[1]).toBeLessThan(ceilings[2]!);
  });
  it('waits out the throttling window after a 429 that names no delay, with up to a second of jitter', () => {
    expect(nextRetryDelayMs(policy, 1, 0, undefined, noJitter, true)).toBe(4000);
    expect(nextRetryDelayMs(policy, 1, 0, undefined, () => 0.999, true)).toBeLessThan(5000);
    expect(nextRetryDelayMs(policy, 1, 0, 1500, noJitter, true)).toBe(1500);
  });
  it('caps a single wait', () => expect(nextRetryDelayMs(policy, 1, 0, 60_000, noJitter)).toBe(5000));
  it('stops after the last attempt', () => expect(nextRetryDelayMs(policy, 4, 0, 1000, noJitter)).toBeUndefined());
  it('stops when the total wait would pass its bound', () => expect(nextRetryDelayMs(policy, 2, 7_500, 1000, noJitter)).toBeUndefined());
});
