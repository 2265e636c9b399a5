import { defineConfig } from 'vitest/config';

// The check that runs after the suite (npm test): no log line of any server under test carried a
// credential. Kept apart so that it reads a finished run's log.
export default defineConfig({
  test: {
    include: ['test/suite-log/*.check.ts'],
  },
});
