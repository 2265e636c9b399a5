#!/usr/bin/env node
// Builds the server (tsc into dist/) and the tab (vite into dist/tab/).
//   node scripts/build.mjs               both, always (npm run build, npm test)
//   node scripts/build.mjs --if-changed  only a part whose sources changed since its last build (npm start)
//   node scripts/build.mjs --check       builds nothing; says which parts are out of date, exit 1 if any
//   --root DIR                           the project folder (this script's parent by default)
// "Changed" is decided by content, not by time: a SHA-256 over every input file's path and bytes,
// kept in dist/.build-state.json once a build has succeeded. A checkout, a pull or an edit that
// touches an input rebuilds that part; starting again with nothing changed rebuilds nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: { 'if-changed': { type: 'boolean' }, check: { type: 'boolean' }, root: { type: 'string' } },
  strict: true,
});
const root = resolve(options.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const stateFile = join(root, 'dist', '.build-state.json');

// Both parts read src/ (the tab imports the core's report model); each has its own configuration.
// package-lock.json stands for the dependencies, and so for the compiler and bundler versions too.
const parts = [
  {
    name: 'server',
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
    output: join('dist', 'server', 'main.js'),
    command: [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  },
  {
    name: 'tab',
    inputs: ['src', 'vite.config.ts', join('src', 'tab', 'tsconfig.json'), 'package.json', 'package-lock.json'],
    output: join('dist', 'tab', 'index.html'),
    command: [join('node_modules', 'vite', 'bin', 'vite.js'), 'build'],
  },
];

function filesUnder(path) {
  const absolute = join(root, path);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [path];
  return readdirSync(absolute).flatMap((name) => filesUnder(join(path, name)));
}

function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const file of [...new Set(inputs.flatMap(filesUnder))].sort()) {
    hash
      .update(file.split(sep).join('/'))
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

function readState() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return {};
  }
}

function writeState(state) {
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
}

const state = readState();
let outOfDate = 0;
for (const part of parts) {
  const current = fingerprint(part.inputs);
  const upToDate = state[part.name] === current && existsSync(join(root, part.output));
  if (options.check) {
    console.log(`${part.name}: ${upToDate ? 'up to date' : 'out of date'}`);
    if (!upToDate) outOfDate += 1;
    continue;
  }
  if (options['if-changed'] && upToDate) {
    console.error(`build: the ${part.name} is up to date with its sources; not rebuilt.`);
    continue;
  }
  // Forget the old fingerprint first, so that a build that fails or is interrupted is redone.
  delete state[part.name];
  writeState(state);
  console.error(`build: building the ${part.name}…`);
  const result = spawnSync(process.execPath, part.command, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  state[part.name] = current;
  writeState(state);
}
if (outOfDate > 0) process.exit(1);
