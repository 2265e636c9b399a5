import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Empties the suite log that test/suite-log/ checks after the run.
    globalSetup: ['test/support/suite-log-setup.ts'],
    // Every integration test starts its own simulator on an ephemeral loopback port, so files can
    // run in parallel; two workers match the two cores the CI machine has.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
