import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { leaksIntoTheNextFile, SHARED_WORKER_FOLDERS } from '../support/shared-workers.js';
import { sourceFiles } from './import-graph.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('test files that share a worker', () => {
  it('finds a mocked module, a stubbed global, and a variable of the environment set or removed, and not one read or compared, nor a spy a test restores', () => {
    const text = [
      "vi.mock('node:fs/promises', async () => ({}));",
      "  vi.stubEnv('TZ', 'UTC');",
      '    process.env.IDENTITY_ENDPOINT = printed.endpoint;',
      "process.env['A'] = '1';",
      '  delete process.env.A;',
      'const endpoint = process.env.IDENTITY_ENDPOINT;',
      "if (process.env.CI === 'true') return;",
      '  vi.spyOn(console, "log");',
    ].join('\n');
    expect(leaksIntoTheNextFile(text)).toEqual([
      'line 1: mocks a module',
      'line 2: stubs a global or the environment',
      'line 3: sets a variable of the environment',
      'line 4: sets a variable of the environment',
      'line 5: removes a variable of the environment',
    ]);
  });

  it('leave nothing behind for the next file: none mocks a module or changes the environment', () => {
    const found = SHARED_WORKER_FOLDERS.flatMap((folder) =>
      sourceFiles(REPO_ROOT, join('test', folder)).flatMap((file) => leaksIntoTheNextFile(readFileSync(join(REPO_ROOT, file), 'utf8')).map((leak) => `${file} ${leak}`)),
    );
    expect(found).toEqual([]);
  });
});
