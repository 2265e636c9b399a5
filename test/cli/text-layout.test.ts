import { describe, expect, it } from 'vitest';
import { layoutTable, outputWidth, wrap } from '../../src/cli/text-layout.js';

describe('text for a terminal', () => {
  it('wraps at spaces within the width, cutting a word longer than a line but never a link', () => {
    const url = 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments';
    const lines = wrap(`Learn: Include and exclude app assignments ${url} (Microsoft Learn)`, 40, '      ', '    ');
    expect(lines[0]).toBe('    Learn: Include and exclude app');
    // The link is whole on a line of its own, past the width: clickable and copyable as it is.
    expect(lines).toContain(`      ${url}`);
    expect(lines.filter((line) => !line.includes(url)).every((line) => line.length <= 40)).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(`Learn: Include and exclude app assignments ${url} (Microsoft Learn)`);
    expect(wrap('DESKTOP-0123456789ABCDEF', 10)).toEqual(['DESKTOP-01', '23456789AB', 'CDEF']);
    expect(wrap('a b', null, '  ')).toEqual(['  a b']);
  });

  it('fits a table by shrinking wide cells, then leaving out the least important columns, never the first', () => {
    const columns = [
      { label: 'Device', priority: 100 },
      { label: 'Notes', priority: 10 },
      { label: 'Recovery key', priority: 60 },
    ];
    const rows = [['DESKTOP-000123456789', 'x'.repeat(50), 'missing']];
    // At 48 the wide cells shrink; at 34 that is not enough, and the least important column goes.
    expect(layoutTable(columns, rows, 48).left).toEqual([]);
    const { lines, left } = layoutTable(columns, rows, 34);
    expect(lines.every((line) => line.length <= 34)).toBe(true);
    expect(left).toEqual(['Notes']);
    expect(lines[0]).toMatch(/^Device +Recovery key$/);
    expect(layoutTable(columns, rows, null).left).toEqual([]);
  });

  it('lays out for --width, else the terminal, else COLUMNS; a pipe without COLUMNS has no limit', () => {
    expect(outputWidth(90, { isTTY: true, columns: 200 }, {})).toBe(90);
    expect(outputWidth(undefined, { isTTY: true, columns: 132 }, { COLUMNS: '80' })).toBe(132);
    expect(outputWidth(undefined, { isTTY: false }, { COLUMNS: '100' })).toBe(100);
    expect(outputWidth(undefined, { isTTY: false }, {})).toBeNull();
  });
});
