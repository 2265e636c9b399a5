import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The house's sizes (CONTRIBUTING.md, "House rules"): a source file a reader takes in at once; a bot file smaller still. */
const MAX_LINES = 600;
const MAX_BOT_LINES = 300;

function lineCount(file: string): number {
  return readFileSync(join(REPO_ROOT, file), 'utf8').split('\n').length - 1;
}

describe('source file sizes', () => {
  it(`no file in src is over ${MAX_LINES} lines, and none in src/bot over ${MAX_BOT_LINES}: each is split along its seams`, () => {
    const over = sourceFiles(REPO_ROOT, 'src')
      .map((file) => ({ file, lines: lineCount(file), limit: file.startsWith(join('src', 'bot')) ? MAX_BOT_LINES : MAX_LINES }))
      .filter(({ lines, limit }) => lines > limit)
      .map(({ file, lines, limit }) => `${file}: ${lines} lines (at most ${limit})`);
    expect(over).toEqual([]);
  });
});
