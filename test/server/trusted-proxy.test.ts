import type { Request } from 'restify';
import { describe, expect, it } from 'vitest';
import { callerAddress, isPlatformAddress } from '../../src/server/notify-route.js';

/** A request as restify hands one over: its socket's address and its X-Forwarded-For header. */
function request(remoteAddress: string, forwardedFor?: string): Request {
  return { socket: { remoteAddress }, header: (name: string) => (name === 'x-forwarded-for' ? forwardedFor : undefined) } as unknown as Request;
}

describe("the caller behind App Service's front end (TRUSTED_PROXY=app-service)", () => {
  it("takes the front end's own entry, the last, without its port", () => {
    expect(callerAddress(request('::ffff:169.254.129.3', '198.51.100.1, 203.0.113.7:51234'), 'app-service')).toBe('203.0.113.7');
    expect(callerAddress(request('10.0.0.4', '[2001:db8::1]:443'), 'app-service')).toBe('2001:db8::1');
  });

  it('ignores X-Forwarded-For from a public address: only the platform connects to the port', () => {
    expect(callerAddress(request('203.0.113.50', '198.51.100.1:1'), 'app-service')).toBe('203.0.113.50');
  });

  it('keeps the socket address without TRUSTED_PROXY, and a named proxy works as before', () => {
    expect(callerAddress(request('10.0.0.4', '203.0.113.7:51234'), undefined)).toBe('10.0.0.4');
    expect(callerAddress(request('10.0.0.9', '203.0.113.7'), '10.0.0.9')).toBe('203.0.113.7');
  });

  it.each([
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.129.1', true],
    ['127.0.0.1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
  ])('%s is a platform address: %s', (address, expected) => {
    expect(isPlatformAddress(address)).toBe(expected);
  });
});
