import { describe, expect, it } from 'vitest';
import type { GraphAttemptsOptions, GraphExchange } from '../../src/graph/graph-attempts.js';
import { GraphError, GraphRequestRefusedError } from '../../src/core/graph/graph-error.js';
import type { RetryPolicy } from '../../src/graph/retry-policy.js';
import { replayingAttempts } from '../support/replaying-transport.js';
import type { CannedAnswer } from '../support/replaying-transport.js';

const ORIGIN = 'https://graph.test';
const DEVICES = '/v1.0/deviceManagement/managedDevices';
const url = (path = DEVICES) => new URL(path, ORIGIN);

const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxTotalDelayMs: 120_000, throttleWindowMs: 20_000 };

/** Attempts over a script, with waits recorded instead of spent, no jitter and a clock at 0. */
function attemptsOver(script: CannedAnswer[], options: Partial<GraphAttemptsOptions> = {}) {
  const exchanges: GraphExchange[] = [];
  const { attempts, transport, tokens, sleeps } = replayingAttempts(script, {
    userAgent: 'test-agent/1',
    retry: POLICY,
    now: () => 0,
    onExchange: (exchange) => exchanges.push(exchange),
    ...options,
  });
  return { attempts, transport, tokens, sleeps, exchanges };
}

const OK = { status: 200, body: { value: [{ id: 'a' }] } };

describe('retries', () => {
  it('waits out a 429 for exactly the seconds of its Retry-After, then succeeds', async () => {
    const { attempts, transport, sleeps, exchanges } = attemptsOver([{ status: 429, headers: { 'Retry-After': '7' } }, OK]);
    const { body } = await attempts.sendForJson('GET', url());
    expect(body).toEqual({ value: [{ id: 'a' }] });
    expect(transport.requests).toHaveLength(2);
    expect(sleeps).toEqual([7000]);
    expect(exchanges.map(({ status, attempt }) => [status, attempt])).toEqual([
      [429, 1],
      [200, 2],
    ]);
  });

  it('reads a Retry-After given as an HTTP date against the injected clock', async () => {
    const now = Date.parse('2025-02-13T10:00:00Z');
    const { attempts, sleeps } = attemptsOver([{ status: 503, headers: { 'retry-after': 'Thu, 13 Feb 2025 10:00:05 GMT' } }, OK], { now: () => now });
    await attempts.send('GET', url());
    expect(sleeps).toEqual([5000]);
  });

  it('waits out a whole throttling window after a 429 without Retry-After', async () => {
    const { attempts, sleeps } = attemptsOver([{ status: 429 }, { status: 429 }, OK]);
    await attempts.send('GET', url());
    expect(sleeps).toEqual([20_000, 20_000]);
  });

  it('backs off exponentially from a 503 without a delay and gives up after maxAttempts with the last status', async () => {
    const unavailable = { status: 503, body: { error: { code: 'ServiceUnavailable', message: 'try later' } } };
    const { attempts, transport, sleeps } = attemptsOver([unavailable, unavailable, unavailable, unavailable, OK], { random: () => 0.5 });
    const error = await attempts.send('GET', url()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'http', status: 503, code: 'ServiceUnavailable', attempts: 4 });
    expect(transport.requests).toHaveLength(4);
    // Full jitter at random 0.5: half of 500, 1,000 and 2,000 ms, plus the 50 ms floor.
    expect(sleeps).toEqual([300, 550, 1050]);
    expect(transport.unused).toHaveLength(1);
  });

  it('stops when the next wait would pass the total waiting budget, without waiting for nothing', async () => {
    const busy = { status: 429, headers: { 'retry-after': '30' } };
    const { attempts, transport, sleeps } = attemptsOver([busy, busy, busy, OK], { retry: { ...POLICY, maxTotalDelayMs: 50_000 } });
    await expect(attempts.send('GET', url())).rejects.toMatchObject({ kind: 'http', status: 429, attempts: 2 });
    expect(sleeps).toEqual([30_000]);
    expect(transport.requests).toHaveLength(2);
  });

  it('retries a dropped connection and a timeout, and sends the same client-request-id each time', async () => {
    const { attempts, transport, exchanges } = attemptsOver([{ fails: 'network' }, { delayMs: 200 }, OK], { requestTimeoutMs: 20 });
    await attempts.send('GET', url());
    expect(transport.requests).toHaveLength(3);
    expect(exchanges.map((exchange) => exchange.status)).toEqual([undefined, undefined, 200]);
    expect(new Set(transport.requests.map((request) => request.headers['client-request-id'])).size).toBe(1);
  });

  it('reports a request that keeps timing out as a timeout', async () => {
    const { attempts, transport } = attemptsOver([{ delayMs: 200 }, { delayMs: 200 }], { requestTimeoutMs: 20, retry: { ...POLICY, maxAttempts: 2 } });
    await expect(attempts.send('GET', url())).rejects.toMatchObject({ name: 'GraphError', kind: 'timeout', attempts: 2 });
    expect(transport.requests).toHaveLength(2);
  });

  it('does not retry a body the transport could not decode', async () => {
    const { attempts, transport, sleeps } = attemptsOver([{ fails: 'malformed-response' }, OK]);
    await expect(attempts.send('GET', url())).rejects.toMatchObject({ kind: 'malformed-response', attempts: 1 });
    expect(transport.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('ends a retry wait at once when the signal aborts, and sends nothing more', async () => {
    const controller = new AbortController();
    const { attempts, transport } = attemptsOver([{ status: 429, headers: { 'retry-after': '10' } }, OK], {
      sleep: () => {
        setTimeout(() => controller.abort(new Error('the report stopped')), 0);
        return new Promise<void>(() => undefined);
      },
    });
    await expect(attempts.send('GET', url(), { signal: controller.signal })).rejects.toThrow('the report stopped');
    expect(transport.requests).toHaveLength(1);
  });
});

describe('tokens', () => {
  it('renews a token Graph rejects with 401 once, without a wait, and retries with the new one', async () => {
    const { attempts, transport, tokens, sleeps } = attemptsOver([{ status: 401 }, OK]);
    await attempts.send('GET', url());
    expect(tokens.invalidated).toBe(1);
    expect(transport.requests.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(sleeps).toEqual([]);
  });

  it('lets a second 401 stand', async () => {
    const denied = { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired.' } } };
    const { attempts, transport, tokens } = attemptsOver([denied, denied, OK]);
    await expect(attempts.send('GET', url())).rejects.toMatchObject({ kind: 'http', status: 401, code: 'InvalidAuthenticationToken', attempts: 2 });
    expect(tokens.invalidated).toBe(1);
    expect(transport.requests).toHaveLength(2);
  });
});

describe('errors', () => {
  it("maps Graph's error envelope to a GraphError with status, code, message and request id, and does not retry a 403", async () => {
    const { attempts, transport } = attemptsOver([
      {
        status: 403,
        headers: { 'request-id': 'header-id' },
        body: { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.', innerError: { 'request-id': 'envelope-id' } } },
      },
    ]);
    const error = await attempts.send('GET', url(`${DEVICES}?$top=1`)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 403,
      code: 'Authorization_RequestDenied',
      message: 'Insufficient privileges to complete the operation.',
      requestId: 'envelope-id',
      method: 'GET',
      path: `${DEVICES}?$top=1`,
      clientRequestId: transport.requests[0]!.headers['client-request-id'],
      attempts: 1,
    });
    expect(transport.requests).toHaveLength(1);
  });

  it("takes the request-id header and a plain message for a body that is not Graph's envelope", async () => {
    const { attempts } = attemptsOver([{ status: 502, headers: { 'request-id': 'gateway-id' }, body: '<html>Bad Gateway</html>' }]);
    await expect(attempts.send('GET', url())).rejects.toMatchObject({ kind: 'http', status: 502, code: undefined, message: 'Graph answered 502', requestId: 'gateway-id' });
  });

  it('turns a 2xx whose body is not JSON into a malformed-response error with the status', async () => {
    const { attempts, transport } = attemptsOver([{ status: 200, body: '{"value":[' }, OK]);
    await expect(attempts.sendForJson('GET', url())).rejects.toMatchObject({ name: 'GraphError', kind: 'malformed-response', status: 200 });
    expect(transport.requests).toHaveLength(1);
  });

  it('refuses a path off the allow-list and a write before anything is sent', async () => {
    const { attempts, transport } = attemptsOver([OK]);
    await expect(attempts.send('GET', url('/v1.0/users'))).rejects.toThrow(GraphRequestRefusedError);
    await expect(attempts.send('POST', url())).rejects.toThrow(GraphRequestRefusedError);
    expect(transport.requests).toHaveLength(0);
  });
});

describe('requests', () => {
  it('sends the token, the user agent and a client-request-id with each request', async () => {
    const { attempts, transport } = attemptsOver([OK]);
    await attempts.send('GET', url(), { headers: { prefer: 'include-unknown-enum-members' } });
    expect(transport.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer token-1',
      accept: 'application/json',
      'user-agent': 'test-agent/1',
      prefer: 'include-unknown-enum-members',
      'client-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('keeps at most maxConcurrency requests in flight, and a request waiting out Retry-After holds no slot', async () => {
    let wake!: () => void;
    const { attempts, transport } = attemptsOver(
      [{ path: `${DEVICES}?$top=1`, status: 429, headers: { 'retry-after': '1' } }, ...Array.from({ length: 6 }, () => ({ ...OK, delayMs: 10 }))],
      { maxConcurrency: 2, sleep: () => new Promise<void>((resolve) => (wake = resolve)) },
    );
    const throttled = attempts.send('GET', url(`${DEVICES}?$top=1`));
    // The throttled request sleeps; five others still get both slots.
    await Promise.all(Array.from({ length: 5 }, (_, index) => attempts.send('GET', url(`${DEVICES}?$top=${index + 2}`))));
    expect(transport.requests).toHaveLength(6);
    wake();
    await throttled;
    expect(transport.requests).toHaveLength(7);
    expect(transport.peakInFlight).toBe(2);
  });
});
