#!/usr/bin/env node
// Lays out what `teamsapp deploy` zips onto the Web App (docs/deployment.md, "Deploy to your organization"):
//   node scripts/webapp-package.mjs            after `npm run build`; writes build/webapp/
//   --root DIR                                 the project folder (this script's parent by default)
//   --no-install                               lays out the files and package.json only (tests)
//
// The package holds only what the server runs:
// - the compiled server files reachable from dist/server/main.js (its imports followed, so the CLI
//   and the Teams package builder stay out), and the built tab (dist/tab/), without source maps;
// - a package.json whose dependencies are only the packages those files import, at the versions the
//   project's package.json asks for, and the project's package-lock.json, so npm installs the same
//   versions the tests ran with;
// - node_modules/ installed from them with production dependencies only: no compiler, no test
//   tools, and none of the tab's libraries (React, Fluent UI), which Vite has already bundled;
//   their source maps and type declarations are removed, since nothing loads them at run time.
// The Web App runs it with `node dist/server/main.js` (infra/azure.bicep, appCommandLine).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The specifiers a compiled ES module loads: static and dynamic imports, re-exports, createRequire calls. */
export function importSpecifiers(source) {
  const found = new Set();
  const patterns = [
    /\bimport\s+(?:[^'"()]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+[^'"()]*?\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1]);
  return [...found];
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; a Node built-in or a relative path → undefined. */
export function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/**
 * The files reachable from `entry` by relative imports, and the packages they import. Files are
 * paths relative to `distDir`.
 */
export function reachableFrom(distDir, entry) {
  const files = new Set();
  const packages = new Set();
  const pending = [resolve(distDir, entry)];
  while (pending.length > 0) {
    const file = pending.pop();
    const name = relative(distDir, file).split(sep).join('/');
    if (files.has(name)) continue;
    if (!existsSync(file)) throw new Error(`${name} is imported but was not built: run npm run build first.`);
    files.add(name);
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else {
        const pkg = packageOf(specifier);
        if (pkg) packages.add(pkg);
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** The package.json of the Web App's package: the server's packages at the project's own ranges. */
export function webAppManifest(project, packages) {
  const dependencies = {};
  for (const name of packages) {
    const range = project.dependencies?.[name];
    if (!range) throw new Error(`The server imports ${name}, which package.json does not list under dependencies.`);
    dependencies[name] = range;
  }
  return {
    name: project.name,
    version: project.version,
    private: true,
    type: 'module',
    engines: project.engines,
    scripts: { start: 'node dist/server/main.js' },
    dependencies,
    ...(project.overrides ? { overrides: project.overrides } : {}),
    // The install scripts the project approved (npm's `allowScripts`), so an install of the package runs the same ones.
    ...(project.allowScripts ? { allowScripts: project.allowScripts } : {}),
  };
}

/** Files of installed packages that nothing loads when the server runs. */
export const RUN_TIME_UNUSED = /\.(?:map|d\.ts|d\.mts|d\.cts)$/;

function filesUnder(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return lstatSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function main() {
  const { values: options } = parseArgs({
    options: { root: { type: 'string' }, 'no-install': { type: 'boolean' } },
    strict: true,
  });
  const root = resolve(options.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const dist = join(root, 'dist');
  const out = join(root, 'build', 'webapp');
  if (!existsSync(join(dist, 'tab', 'index.html'))) throw new Error('dist/tab/index.html is missing: run npm run build first.');

  const { files, packages } = reachableFrom(dist, join('server', 'main.js'));
  rmSync(out, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(join(out, 'dist', file)), { recursive: true });
    cpSync(join(dist, file), join(out, 'dist', file));
  }
  for (const file of filesUnder(join(dist, 'tab')).filter((path) => !path.endsWith('.map'))) {
    const target = join(out, 'dist', relative(dist, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(webAppManifest(project, packages), null, 2)}\n`);
  cpSync(join(root, 'package-lock.json'), join(out, 'package-lock.json'));
  console.error(`webapp package: ${files.length} server files, the tab, and ${packages.length} packages: ${packages.join(', ')}`);
  if (options['no-install']) return;

  // Production dependencies only, at the lock file's versions; no install scripts run (none of
  // the server's packages needs one).
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: out,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // Source maps and type declarations are never loaded at run time (the server runs without
  // --enable-source-maps); in these packages they are nearly half of node_modules.
  const unused = filesUnder(join(out, 'node_modules')).filter((path) => RUN_TIME_UNUSED.test(path));
  for (const path of unused) rmSync(path);
  console.error(`webapp package: ready in ${relative(root, out)} (${unused.length} source maps and type declarations left out)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`webapp package: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
