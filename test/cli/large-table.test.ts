import { describe, expect, it } from 'vitest';
import { layoutTable } from '../../src/cli/text-layout.js';

describe('a table as large as a large tenant gives', () => {
  it('lays out 400,000 rows, more than a call may take as arguments', () => {
    const rows = Array.from({ length: 400_000 }, (_, index) => [`NW-${String(index).padStart(6, '0')}`, 'missing']);
    const table = layoutTable(
      [
        { label: 'Device', priority: 1, kind: 'name' },
        { label: 'Recovery key', priority: 0, kind: 'verdict' },
      ],
      rows,
      80,
    );
    expect(table.lines).toHaveLength(400_002);
  });
});
