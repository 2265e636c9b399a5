import { describe, expect, it } from 'vitest';
import { createNotifyKeyCheck } from '../../src/server/notify-access.js';
import { FixedWindowRateLimit } from '../../src/server/rate-limit.js';

describe('the notify key check', () => {
  const matches = createNotifyKeyCheck('0123456789abcdef0123456789abcdef');

  it('takes exactly the key, as a Bearer token', () => {
    expect(matches('Bearer 0123456789abcdef0123456789abcdef')).toBe(true);
    expect(matches('Bearer 0123456789abcdef0123456789abcdee')).toBe(false);
    expect(matches('Bearer 0123456789abcdef0123456789abcdef0')).toBe(false);
    expect(matches('0123456789abcdef0123456789abcdef')).toBe(false);
    expect(matches(undefined)).toBe(false);
    expect(matches('Bearer ')).toBe(false);
  });
});

describe('FixedWindowRateLimit', () => {
  it('lets a caller through up to the limit, then says how long to wait, and starts again after the window', () => {
    let now = 0;
    const limit = new FixedWindowRateLimit(2, 60_000, () => now);
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(0);
    now = 15_000;
    expect(limit.take('a')).toBe(45);
    expect(limit.take('b')).toBe(0);
    now = 60_000;
    expect(limit.take('a')).toBe(0);
  });
});
