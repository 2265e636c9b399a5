import { describe, expect, it } from 'vitest';
import { worstFirstOrder } from '../../src/tab/table/row-order.js';

describe('worstFirstOrder', () => {
  it("puts the worst finding first and keeps the report's own order within a rank, rows without a finding last", () => {
    // Report 6's own order is slowest start first; a blue screen (High, 0) outranks a slow start (Low, 2).
    const rows = [
      { id: 'slowest', rank: 2 },
      { id: 'clean', rank: 3 },
      { id: 'blue-screen-a', rank: 0 },
      { id: 'slow', rank: 2 },
      { id: 'blue-screen-b', rank: 0 },
    ];
    const order = worstFirstOrder(rows, (row) => Number(row.rank));
    expect([...order].map((index) => rows[index]!.id)).toEqual(['blue-screen-a', 'blue-screen-b', 'slowest', 'slow', 'clean']);
  });
});
