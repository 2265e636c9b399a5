import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/browser.js';

const BUILD = join(REPO_ROOT, 'scripts', 'build.mjs');

/** `build.mjs --check` against a project folder: which parts `npm start` would rebuild. */
async function check(root: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [BUILD, '--check', '--root', root]);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
}

describe('npm start builds only what changed', () => {
  it('finds this checkout up to date after npm run build', async () => {
    expect(await check(REPO_ROOT), 'the build is older than the sources: run npm run build (npm test does)').toEqual({ code: 0, stdout: 'server: up to date\ntab: up to date\n' });
  });

  describe('in a copy of the project', () => {
    let copy: string;
    beforeAll(() => {
      // The inputs, copied (so every file has a new mtime), and the outputs' markers and build state.
      copy = mkdtempSync(join(tmpdir(), 'dmhealth-build-'));
      for (const input of ['src', 'tsconfig.json', 'tsconfig.build.json', 'vite.config.ts', 'package.json', 'package-lock.json'])
        cpSync(join(REPO_ROOT, input), join(copy, input), { recursive: true });
      mkdirSync(join(copy, 'dist', 'server'), { recursive: true });
      mkdirSync(join(copy, 'dist', 'tab'), { recursive: true });
      writeFileSync(join(copy, 'dist', 'server', 'main.js'), '');
      writeFileSync(join(copy, 'dist', 'tab', 'index.html'), '');
      cpSync(join(REPO_ROOT, 'dist', '.build-state.json'), join(copy, 'dist', '.build-state.json'));
    });
    afterAll(() => rmSync(copy, { recursive: true, force: true }));

    it('judges by content, not by time: fresh copies of the same sources are up to date', async () => {
      expect(await check(copy)).toEqual({ code: 0, stdout: 'server: up to date\ntab: up to date\n' });
    });

    it('rebuilds the tab alone when only its bundler configuration changes, and both when a source does', async () => {
      appendFileSync(join(copy, 'vite.config.ts'), '\n');
      expect(await check(copy)).toEqual({ code: 1, stdout: 'server: up to date\ntab: out of date\n' });
      appendFileSync(join(copy, 'src', 'core', 'reports', 'registry.ts'), '\n');
      expect(await check(copy)).toEqual({ code: 1, stdout: 'server: out of date\ntab: out of date\n' });
    });

    it('rebuilds a part whose output is gone, whatever its sources', async () => {
      const fresh = mkdtempSync(join(tmpdir(), 'dmhealth-build-'));
      try {
        cpSync(copy, fresh, { recursive: true });
        cpSync(join(REPO_ROOT, 'src'), join(fresh, 'src'), { recursive: true, force: true });
        cpSync(join(REPO_ROOT, 'vite.config.ts'), join(fresh, 'vite.config.ts'));
        rmSync(join(fresh, 'dist', 'tab', 'index.html'));
        expect(await check(fresh)).toEqual({ code: 1, stdout: 'server: up to date\ntab: out of date\n' });
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    });
  });
});
