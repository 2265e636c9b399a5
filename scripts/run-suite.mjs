#!/usr/bin/env node
// The suite, then the suite-wide log check (npm test). The check runs even when the suite fails: a
// test that fails or times out must not also hide a credential a server under test wrote to the log
// (vitest.suite-log.config.ts). The exit status is the suite's when the check passes, else 1, so a
// failure of either fails npm test. Node rather than shell, so that it runs wherever npm does.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const vitestPackage = createRequire(import.meta.url).resolve('vitest/package.json');
const vitest = join(dirname(vitestPackage), 'vitest.mjs');

// DMHEALTH_TEST_CLOCK_SHIFT_HOURS runs the suite on another day: every Node process it starts reads
// the wall clock that many hours away (test/support/clock-shift.mjs), so a test that reads the
// real date fails (CONTRIBUTING.md, on the real clock). .ci/run sets it for one of its two runs.
const env = { ...process.env };
const shiftHours = process.env.DMHEALTH_TEST_CLOCK_SHIFT_HOURS;
if (shiftHours && shiftHours !== '0') {
  const shim = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'support', 'clock-shift.mjs')).href;
  env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${shim}`.trim();
  console.log(`The suite runs with every clock ${shiftHours} hours from now (DMHEALTH_TEST_CLOCK_SHIFT_HOURS).`);
}

/** Runs vitest with `args`, its output on this terminal; its exit status, 1 if it ended on a signal. */
function vitestRun(args) {
  const run = spawnSync(process.execPath, [vitest, 'run', ...args], { stdio: 'inherit', env });
  if (run.error) console.error(`vitest could not be started: ${run.error.message}`);
  return run.status ?? 1;
}

// Arguments go to the suite's run (a file filter, to try this script on a few tests).
const suite = vitestRun(process.argv.slice(2));
if (suite !== 0) console.error(`The suite failed (exit status ${suite}); the suite-wide log check runs all the same.`);
const logCheck = vitestRun(['--config', 'vitest.suite-log.config.ts']);
process.exitCode = logCheck !== 0 ? 1 : suite;
