import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../src/graph/concurrency-limit.js';
import type { SlotPriority } from '../../src/graph/concurrency-limit.js';
import { gate } from '../support/gate.js';

/** Tasks that hold their slot until the test ends them, and the order they started in. */
function heldTasks(limit: ConcurrencyLimit) {
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const start = (name: string, priority: SlotPriority) =>
    limit.run(() => {
      started.push(name);
      const held = gate();
      gates.set(name, held);
      return held.opened;
    }, priority);
  const end = async (name: string) => {
    gates.get(name)!.open();
    await settle();
  };
  return { started, start, end };
}

/** Lets every promise callback that is ready run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the concurrency limit', () => {
  it('serves waiting pages before other requests, each in arrival order', async () => {
    const limit = new ConcurrencyLimit(1);
    const order: string[] = [];
    const held = gate();
    const holder = limit.run(() => held.opened);
    const queued = [
      limit.run(async () => void order.push('batch 1')),
      limit.run(async () => void order.push('batch 2')),
      limit.run(async () => void order.push('page 1'), 'paging'),
      limit.run(async () => void order.push('page 2'), 'paging'),
    ];
    held.open();
    await Promise.all([holder, ...queued]);
    expect(order).toEqual(['page 1', 'page 2', 'batch 1', 'batch 2']);
  });

  it('gives every slot to $batch calls and single reads when no collection is being paged', async () => {
    const tasks = heldTasks(new ConcurrencyLimit(3));
    for (const name of ['a', 'b', 'c', 'd']) void tasks.start(name, 'other');
    await settle();
    expect(tasks.started).toEqual(['a', 'b', 'c']);
    await tasks.end('a');
    expect(tasks.started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps one slot free of them while a collection is being paged, so its next page never waits for a $batch call to end', async () => {
    const limit = new ConcurrencyLimit(3);
    const tasks = heldTasks(limit);
    const closeChain = limit.openChain();
    for (const name of ['batch-1', 'batch-2', 'batch-3']) void tasks.start(name, 'other');
    await settle();
    expect(tasks.started).toEqual(['batch-1', 'batch-2']);
    void tasks.start('page-2', 'paging');
    await settle();
    expect(tasks.started).toEqual(['batch-1', 'batch-2', 'page-2']); // at once, in the kept slot
    // All three slots are held; the next page waiting goes before the batch call waiting longer.
    void tasks.start('page-3', 'paging');
    await tasks.end('batch-1');
    expect(tasks.started.at(-1)).toBe('page-3');
    await tasks.end('page-2');
    expect(tasks.started.at(-1)).toBe('batch-3');
    // Two batch calls hold two slots: a third waits, even with the last slot free, while the chain is open.
    void tasks.start('batch-4', 'other');
    await tasks.end('page-3');
    expect(tasks.started.at(-1)).toBe('batch-3');
    closeChain();
    await settle();
    expect(tasks.started.at(-1)).toBe('batch-4');
  });

  it('never holds more than its limit, whoever asks', async () => {
    const limit = new ConcurrencyLimit(2);
    const tasks = heldTasks(limit);
    limit.openChain();
    for (const [name, priority] of [
      ['page-1', 'paging'],
      ['page-2', 'paging'],
      ['page-3', 'paging'],
      ['batch', 'other'],
    ] as const)
      void tasks.start(name, priority);
    await settle();
    expect(tasks.started).toEqual(['page-1', 'page-2']);
  });
});
