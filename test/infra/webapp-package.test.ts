// scripts/webapp-package.mjs lays out what `teamsapp deploy` uploads: the server's files reachable
// from its entry, the built tab without source maps, and a package.json with only the packages
// those files import. Run here on a small project of its own, without installing (--no-install).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/webapp-package.mjs');
const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(files: Record<string, string>, dependencies: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'dmhealth-webapp-'));
  roots.push(root);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', type: 'module', engines: { node: '>=22' }, dependencies, devDependencies: { vitest: '^4.0.0' } }),
    'package-lock.json': '{"lockfileVersion":3}',
    'dist/tab/index.html': '<!doctype html>',
    'dist/tab/assets/app.js': 'console.log(1)',
    'dist/tab/assets/app.js.map': '{}',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the Web App package', () => {
  it('holds the files reachable from the server, the tab without source maps, and only the packages they import', () => {
    const root = project(
      {
        'dist/server/main.js':
          "import { a } from '../app/a.js';\nimport pino from 'pino';\nimport { readFileSync } from 'node:fs';\nimport path from 'path';\nexport * from './routes.js';\n",
        'dist/server/routes.js': "const { Template } = createRequire(import.meta.url)('adaptivecards-templating');\nexport const x = 1;\n",
        'dist/app/a.js': "export const a = await import('@azure/storage-blob/dist/index.js');\nexport { b } from './b.js';\n",
        'dist/app/b.js': 'export const b = 2;\n',
        'dist/cli/dmhealth.js': "import '@microsoft/app-manifest';\n",
      },
      { pino: '^8.0.0', 'adaptivecards-templating': '^2.0.0', '@azure/storage-blob': '~12.33.0', react: '^18.0.0' },
    );
    execFileSync(process.execPath, [SCRIPT, '--root', root, '--no-install'], { stdio: 'pipe' });
    const out = join(root, 'build', 'webapp');
    for (const file of ['dist/server/main.js', 'dist/server/routes.js', 'dist/app/a.js', 'dist/app/b.js', 'dist/tab/index.html', 'dist/tab/assets/app.js', 'package-lock.json']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    expect(existsSync(join(out, 'dist/cli/dmhealth.js'))).toBe(false);
    expect(existsSync(join(out, 'dist/tab/assets/app.js.map'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as Record<string, unknown>;
    // React is bundled into the tab; the test tools are dev dependencies: neither is installed.
    expect(manifest.dependencies).toEqual({ '@azure/storage-blob': '~12.33.0', 'adaptivecards-templating': '^2.0.0', pino: '^8.0.0' });
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(manifest.scripts).toEqual({ start: 'node dist/server/main.js' });
    expect(manifest.type).toBe('module');
  });

  it('refuses a server that imports a package the project does not depend on, and a project not built', () => {
    const root = project({ 'dist/server/main.js': "import 'left-pad';\n" }, {});
    const refused = spawnSync(process.execPath, [SCRIPT, '--root', root, '--no-install'], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The server imports left-pad, which package.json does not list under dependencies.');

    const unbuilt = project({ 'dist/server/main.js': "import './missing.js';\n" }, {});
    const missing = spawnSync(process.execPath, [SCRIPT, '--root', unbuilt, '--no-install'], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('server/missing.js is imported but was not built: run npm run build first.');
  });
});
