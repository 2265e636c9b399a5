import { defineConfig } from 'vitest/config';
import { SHARED_WORKER_FOLDERS } from './test/support/shared-workers.js';
import SlowestFilesReporter from './test/support/slowest-files.js';

export default defineConfig({
  test: {
    // The slowest twenty files, printed when the run ends (docs/development.md, "Node, the build and the tests").
    reporters: ['default', new SlowestFilesReporter(20)],
    // Empties the suite log that test/suite-log/ checks after the run.
    globalSetup: ['test/support/suite-log-setup.ts'],
    // Every integration test starts its own simulator on an ephemeral loopback port, so files can
    // run in parallel; two workers match the two cores the CI machine has.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for work under way (a page drawing what a click changed, a load ending), which
    // a busy machine may not finish within the default second: the test's own timeout bounds it.
    expect: { poll: { timeout: 20_000 } },
    // Pure code's files share their worker's modules; every other file runs in a fresh process (test/support/shared-workers.ts).
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: SHARED_WORKER_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`), isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED_WORKER_FOLDERS.map((folder) => `test/${folder}/**`) },
      },
    ],
  },
});
