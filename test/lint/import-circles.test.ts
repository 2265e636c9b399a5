import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles, relativeImports, sourceFiles } from './import-graph.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('import circles', () => {
  it('finds a pair that trades types, a longer ring and a file that imports itself, and nothing in a chain', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
      ['f.ts', ['f.ts']],
      ['g.ts', ['h.ts']],
      ['h.ts', []],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts'], ['c.ts', 'd.ts', 'e.ts'], ['f.ts']]);
  });

  it('reads type-only, re-exported and dynamic imports, and resolves .js to the source file', () => {
    const text = [
      "import type { A } from './graph/graph-reader.js';",
      "export { B } from './error-text.js';",
      'const c = await import("./net/loopback.js");',
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(relativeImports(REPO_ROOT, 'src/core/new-file.ts', text).sort()).toEqual(['src/core/error-text.ts', 'src/core/graph/graph-reader.ts', 'src/core/net/loopback.ts']);
  });

  it('has none in src: each pair that trades types shares a third file instead', () => {
    const files = sourceFiles(REPO_ROOT, 'src');
    const graph = new Map(files.map((file) => [file, relativeImports(REPO_ROOT, file)]));
    expect(importCircles(graph)).toEqual([]);
  });
});
