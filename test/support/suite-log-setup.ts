import { rmSync } from 'node:fs';
import { SUITE_LOG_DIRECTORY } from './suite-log.js';

/** Vitest global setup: a run's suite log starts empty, so the check after it reads this run alone. */
export default function setup(): void {
  rmSync(SUITE_LOG_DIRECTORY, { recursive: true, force: true });
}
