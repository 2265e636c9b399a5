import { describe, expect, it } from 'vitest';
import { cutCell, layoutTable, outputWidth, wrap } from '../../src/cli/text-layout.js';

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

  it('keeps names that share a long prefix apart, cutting them in the middle, and a verdict whole before a name', () => {
    const columns = [
      { label: 'Integration', priority: 70 },
      { label: 'Name', priority: 100, kind: 'name' as const },
      { label: 'Health', priority: 80, kind: 'verdict' as const },
      { label: 'Reason', priority: 20 },
    ];
    const rows = [1, 2, 3, 4, 5, 6, 7].map((token) => ['Apple VPP token', `Contoso (example) VPP token ${token}`, 'Only deleted or empty groups', 'x'.repeat(60)]);
    for (const width of [50, 80, 120]) {
      const { lines } = layoutTable(columns, rows, width);
      expect(lines.every((line) => line.length <= width)).toBe(true);
      const body = lines.slice(2);
      // The rows differ only in their names: seven tokens, seven different lines. The verdict whole.
      expect(new Set(body).size).toBe(7);
      expect(body.every((line) => line.includes('Only deleted or empty groups'))).toBe(true);
    }
    expect(cutCell('Contoso (example) VPP token 7', 12, 'name')).toBe('Conto…oken 7');
    expect(cutCell('Only deleted or empty groups', 12)).toBe('Only delete…');
    expect(cutCell('short', 12, 'name')).toBe('short');
  });

  it('lays out for --width, else the terminal, else COLUMNS; a pipe without COLUMNS has no limit', () => {
    expect(outputWidth(90, { isTTY: true, columns: 200 }, {})).toBe(90);
    expect(outputWidth(undefined, { isTTY: true, columns: 132 }, { COLUMNS: '80' })).toBe(132);
    expect(outputWidth(undefined, { isTTY: false }, { COLUMNS: '100' })).toBe(100);
    expect(outputWidth(undefined, { isTTY: false }, {})).toBeNull();
  });
});
