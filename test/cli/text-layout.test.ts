import { describe, expect, it } from 'vitest';
import { layoutTable, outputWidth, wrap } from '../../src/cli/text-layout.js';

describe('text for a terminal', () => {
  it('wraps at spaces within the width, cutting only a word longer than a line', () => {
    const lines = wrap(`Learn: Include and exclude app assignments <https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments>`, 40, '      ', '    ');
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    expect(lines[0]).toBe('    Learn: Include and exclude app');
    expect(lines.join('').replace(/\s+/g, '')).toBe('Learn:Includeandexcludeappassignments<https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments>');
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
