import { describe, expect, it } from 'vitest';
import type { GraphAttemptsOptions } from '../../src/graph/graph-attempts.js';
import { getThroughBatch } from '../../src/graph/graph-batch.js';
import type { BatchOutcome, BatchSubRequest } from '../../src/core/graph/graph-reader.js';
import { GraphRequestRefusedError } from '../../src/core/graph/graph-error.js';
import type { GraphError } from '../../src/core/graph/graph-error.js';
import { replayingAttempts } from '../support/replaying-transport.js';
import type { CannedAnswer, ReplayedRequest } from '../support/replaying-transport.js';

const ORIGIN = 'https://graph.test';
const BATCH_URL = new URL('/v1.0/$batch', ORIGIN);

const groupId = (index: number) => `22222222-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
const lookUp = (index: number): BatchSubRequest => ({ id: String(index), url: `/groups/${groupId(index)}?$select=id` });

interface SubAnswer {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const found = (id: string): SubAnswer => ({ id, status: 200, body: { id } });
const batchAnswer = (responses: SubAnswer[]): CannedAnswer => ({ path: BATCH_URL.pathname, body: { responses } });

/** The sub-request ids a `$batch` call carried. */
const idsIn = (request: ReplayedRequest) => (request.json as { requests: Array<{ id: string }> }).requests.map((sub) => sub.id);

function batchOver(script: CannedAnswer[], options: Partial<GraphAttemptsOptions> = {}) {
  const { attempts, transport, sleeps } = replayingAttempts(script, options);
  const run = (requests: BatchSubRequest[], batchSize = 20) => getThroughBatch(attempts, requests, { url: BATCH_URL, batchSize });
  return { run, attempts, transport, sleeps };
}

function failed(outcome: BatchOutcome | undefined): GraphError {
  if (!outcome || outcome.ok) throw new Error(`expected a failed outcome, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

describe('chunks', () => {
  it('sends 45 sub-requests as calls of 20, 20 and 5, each a POST of GETs, and answers every one', async () => {
    const requests = Array.from({ length: 45 }, (_, index) => lookUp(index));
    // Calls go out in chunk order; each canned answer echoes the ids of its chunk.
    const chunks = [requests.slice(0, 20), requests.slice(20, 40), requests.slice(40)];
    const { run, transport } = batchOver(chunks.map((chunk) => batchAnswer(chunk.map((request) => found(request.id)))));
    const outcomes = await run(requests);

    expect(transport.requests.map((request) => `${request.method} ${request.path}`)).toEqual(Array(3).fill('POST /v1.0/$batch'));
    expect(transport.requests.map((request) => idsIn(request).length)).toEqual([20, 20, 5]);
    expect((transport.requests[0]!.json as { requests: unknown[] }).requests[0]).toEqual({ id: '0', method: 'GET', url: `/groups/${groupId(0)}?$select=id` });
    expect(transport.requests[0]!.headers['content-type']).toBe('application/json');
    expect(outcomes.size).toBe(45);
    expect([...outcomes.values()].every((outcome) => outcome.ok)).toBe(true);
  });

  it('matches answers to sub-requests by id, in any order and any case', async () => {
    const { run } = batchOver([
      batchAnswer([
        { id: 'B', status: 200, body: { n: 2 } },
        { id: 'a', status: 200, body: { n: 1 } },
      ]),
    ]);
    const outcomes = await run([
      { id: 'a', url: `/groups/${groupId(1)}` },
      { id: 'b', url: `/groups/${groupId(2)}` },
    ]);
    expect(outcomes.get('a')).toEqual({ ok: true, status: 200, body: { n: 1 } });
    expect(outcomes.get('b')).toEqual({ ok: true, status: 200, body: { n: 2 } });
  });
});

describe('sub-request retries', () => {
  it('sends a throttled sub-request again by itself after its Retry-After, and resolves it', async () => {
    const { run, transport, sleeps } = batchOver([batchAnswer([found('1'), { id: '2', status: 429, headers: { 'Retry-After': '3' } }, found('3')]), batchAnswer([found('2')])]);
    const outcomes = await run([lookUp(1), lookUp(2), lookUp(3)]);
    expect(transport.requests.map(idsIn)).toEqual([['1', '2', '3'], ['2']]);
    expect(sleeps).toEqual([3000]);
    expect([...outcomes.values()].every((outcome) => outcome.ok)).toBe(true);
  });

  it('waits for the longest Retry-After of the sub-requests it retries together', async () => {
    const { run, sleeps } = batchOver([
      batchAnswer([
        { id: '1', status: 429, headers: { 'retry-after': '2' } },
        { id: '2', status: 503, headers: { 'retry-after': '5' } },
      ]),
      batchAnswer([found('1'), found('2')]),
    ]);
    await run([lookUp(1), lookUp(2)]);
    expect(sleeps).toEqual([5000]);
  });

  it('asks again for a sub-request the response left out, and calls it malformed if it stays out', async () => {
    const { run, transport } = batchOver([batchAnswer([found('1')]), batchAnswer([]), batchAnswer([])], {
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10, maxTotalDelayMs: 1000, throttleWindowMs: 10 },
    });
    const outcomes = await run([lookUp(1), lookUp(2)]);
    expect(transport.requests.map(idsIn)).toEqual([['1', '2'], ['2'], ['2']]);
    expect(outcomes.get('1')?.ok).toBe(true);
    expect(failed(outcomes.get('2'))).toMatchObject({ kind: 'malformed-response', message: 'the $batch response has no answer for this sub-request', attempts: 3 });
  });

  it('gives a sub-request that stays unavailable its own error once the rounds are spent', async () => {
    const unavailable = { id: '2', status: 503, body: { error: { code: 'ServiceUnavailable', message: 'busy' } } };
    const { run, transport } = batchOver([batchAnswer([found('1'), unavailable]), batchAnswer([unavailable]), batchAnswer([unavailable])], {
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10, maxTotalDelayMs: 1000, throttleWindowMs: 10 },
    });
    const outcomes = await run([lookUp(1), lookUp(2)]);
    expect(transport.requests).toHaveLength(3);
    expect(outcomes.get('1')?.ok).toBe(true);
    expect(failed(outcomes.get('2'))).toMatchObject({ kind: 'http', status: 503, code: 'ServiceUnavailable', attempts: 3, path: `/v1.0/groups/${groupId(2)}?$select=id` });
  });
});

describe('half-failed calls', () => {
  it("keeps each sub-request's own answer: found, deleted and forbidden side by side, none retried", async () => {
    const { run, transport } = batchOver([
      batchAnswer([
        found('1'),
        { id: '2', status: 404, headers: { 'request-id': 'header-id' }, body: { error: { code: 'Request_ResourceNotFound', message: 'Resource does not exist.' } } },
        { id: '3', status: 403, body: { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges.', innerError: { 'request-id': 'envelope-id' } } } },
      ]),
    ]);
    const outcomes = await run([lookUp(1), lookUp(2), lookUp(3)]);
    expect(transport.requests).toHaveLength(1);
    expect(outcomes.get('1')).toEqual({ ok: true, status: 200, body: { id: '1' } });
    expect(failed(outcomes.get('2'))).toMatchObject({ kind: 'http', status: 404, code: 'Request_ResourceNotFound', requestId: 'header-id', method: 'GET', attempts: 1 });
    expect(failed(outcomes.get('3'))).toMatchObject({
      kind: 'http',
      status: 403,
      code: 'Authorization_RequestDenied',
      message: 'Insufficient privileges.',
      requestId: 'envelope-id',
    });
  });

  it("builds a sub-request's error exactly as a single request's error for the same answer", async () => {
    const answer = { status: 403, headers: { 'request-id': 'r-1' }, body: { error: { code: 'Forbidden', message: 'Missing role.' } } };
    const { run, attempts } = batchOver([batchAnswer([{ id: '1', ...answer }]), { path: '/v1.0/deviceManagement/managedDevices', ...answer }]);
    const fromBatch = failed((await run([lookUp(1)])).get('1'));
    const single = await attempts.send('GET', new URL('/v1.0/deviceManagement/managedDevices', ORIGIN)).catch((error: unknown) => error);
    const fields = (error: unknown) => {
      const { kind, status, code, message, requestId, attempts: tries } = error as GraphError;
      return { kind, status, code, message, requestId, attempts: tries };
    };
    expect(fields(fromBatch)).toEqual({ kind: 'http', status: 403, code: 'Forbidden', message: 'Missing role.', requestId: 'r-1', attempts: 1 });
    expect(fields(single)).toEqual(fields(fromBatch));
  });

  it("gives every sub-request the call's error when the whole call fails", async () => {
    const { run, transport } = batchOver([{ path: BATCH_URL.pathname, status: 400, body: { error: { code: 'BadRequest', message: 'Invalid batch payload.' } } }]);
    const outcomes = await run([lookUp(1), lookUp(2)]);
    expect(transport.requests).toHaveLength(1);
    for (const id of ['1', '2']) expect(failed(outcomes.get(id))).toMatchObject({ kind: 'http', status: 400, method: 'POST', path: '/v1.0/$batch' });
  });

  it('calls a $batch answer that is not JSON, or has no responses, malformed for every sub-request', async () => {
    const { run } = batchOver([
      { path: BATCH_URL.pathname, body: '{"responses":[' },
      { path: BATCH_URL.pathname, body: { value: [] } },
    ]);
    const notJson = await run([lookUp(1)]);
    expect(failed(notJson.get('1'))).toMatchObject({ kind: 'malformed-response', status: 200 });
    const noResponses = await run([lookUp(2)]);
    expect(failed(noResponses.get('2'))).toMatchObject({ kind: 'malformed-response', message: 'the $batch response has no "responses" array' });
  });
});

describe('refusals before sending', () => {
  it('refuses a duplicate id and a path off the allow-list without a call', async () => {
    const { run, transport } = batchOver([]);
    await expect(run([lookUp(1), { ...lookUp(2), id: '1' }])).rejects.toThrow(GraphRequestRefusedError);
    await expect(run([{ id: '1', url: '/users/00000000-0000-0000-0000-000000000001' }])).rejects.toThrow(GraphRequestRefusedError);
    await expect(run([{ id: '1', url: 'groups/00000000-0000-0000-0000-000000000001' }])).rejects.toThrow(GraphRequestRefusedError);
    expect(transport.requests).toHaveLength(0);
  });
});
