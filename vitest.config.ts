import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every integration test starts its own simulator on an ephemeral loopback port, so files can
    // run in parallel; two workers match the two cores the CI machine has.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
