import { describe, expect, it } from 'vitest';
import { slowestFiles, slowestFilesTable } from '../support/slowest-files.js';

const times = [
  { file: 'test/a.test.ts', milliseconds: 1_000, tests: 1 },
  { file: 'test/b.test.ts', milliseconds: 30_000, tests: 12 },
  { file: 'test/c.test.ts', milliseconds: 9_000, tests: 3 },
  { file: 'test/d.test.ts', milliseconds: 9_000, tests: 2 },
];

describe('the slowest test files, printed when a run ends', () => {
  it('lists the slowest first, ties by name, no more than asked', () => {
    expect(slowestFiles(times, 3).map((time) => time.file)).toEqual(['test/b.test.ts', 'test/c.test.ts', 'test/d.test.ts']);
    expect(slowestFiles(times, 10)).toHaveLength(4);
  });

  it("gives each file's seconds, its share of all files' time and its tests", () => {
    const table = slowestFilesTable(times, 2).split('\n');
    expect(table[0]).toBe('The 2 slowest of 4 test files (49 s in files; two run at once, so the run takes about half):');
    expect(table[1]).toBe('  test/b.test.ts    30.0 s  61.2 %  12 tests');
    expect(table[2]).toBe('  test/c.test.ts     9.0 s  18.4 %  3 tests');
    expect(table).toHaveLength(3);
  });
});
