import { describe, expect, it } from 'vitest';
import { GraphError } from '../../../src/core/graph/graph-error.js';
import type { GraphFailureKind } from '../../../src/core/graph/graph-error.js';
import { REREADS_AT_ONCE, optionalReadFailure, rereadEach } from '../../../src/core/reports/optional-read.js';

const graphError = (kind: GraphFailureKind, status?: number) =>
  new GraphError({ kind, ...(status === undefined ? {} : { status }), message: 'failed', method: 'GET', path: '/beta/deviceManagement/assignmentFilters', attempts: 1 });

describe('a failed optional read', () => {
  const live = new AbortController().signal;

  it('says what Graph answered, a malformed answer as such rather than by its 200, and a failure without a status by its kind', () => {
    expect(optionalReadFailure(graphError('http', 503), live)).toBe('Graph answered 503');
    expect(optionalReadFailure(graphError('malformed-response', 200), live)).toBe('Graph sent a malformed answer');
    expect(optionalReadFailure(graphError('timeout'), live)).toBe('the read failed (timeout)');
    expect(optionalReadFailure(graphError('network'), live)).toBe('the read failed (network)');
  });

  it('goes on up when it is not a Graph failure (a bug) or the load was cancelled', () => {
    const bug = new TypeError('not a Graph failure');
    expect(() => optionalReadFailure(bug, live)).toThrow(bug);
    const cancelled = new AbortController();
    cancelled.abort();
    const failure = graphError('http', 500);
    expect(() => optionalReadFailure(failure, cancelled.signal)).toThrow(failure);
  });
});

describe('rereadEach', () => {
  it(`reads every item, at most ${REREADS_AT_ONCE} at a time, the answers in the items' order`, async () => {
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const reading = rereadEach([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
      return item * 10;
    });
    // Release the reads one by one, last started first, until none is left.
    for (let released = 0; released < 10; released += 1) {
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      releases.pop()!();
    }
    expect(await reading).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(most).toBe(REREADS_AT_ONCE);
  });

  it('reads nothing for no items', async () => {
    expect(await rereadEach([], async () => 1)).toEqual([]);
  });
});
