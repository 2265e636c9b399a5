import type { Reporter, TestModule } from 'vitest/node';

/** One test file's time: importing it, its hooks and its tests, in milliseconds, as Vitest measured them. */
export interface FileTime {
  file: string;
  milliseconds: number;
  tests: number;
}

/** The `count` slowest files, slowest first (a tie by name, so the list reads the same run to run). */
export function slowestFiles(times: readonly FileTime[], count: number): FileTime[] {
  return [...times].sort((a, b) => b.milliseconds - a.milliseconds || a.file.localeCompare(b.file)).slice(0, count);
}

/** The table printed at the end of a run: a line a file, its seconds, its share of all files' time and its tests. */
export function slowestFilesTable(times: readonly FileTime[], count: number): string {
  const total = times.reduce((sum, time) => sum + time.milliseconds, 0);
  const slowest = slowestFiles(times, count);
  const width = Math.max(0, ...slowest.map((time) => time.file.length));
  const lines = slowest.map((time) => {
    const seconds = (time.milliseconds / 1000).toFixed(1).padStart(6);
    const share = total > 0 ? `${((time.milliseconds / total) * 100).toFixed(1).padStart(4)} %` : '   - %';
    return `  ${time.file.padEnd(width)}  ${seconds} s  ${share}  ${time.tests} test${time.tests === 1 ? '' : 's'}`;
  });
  return [`The ${slowest.length} slowest of ${times.length} test files (${(total / 1000).toFixed(0)} s in files; two run at once, so the run takes about half):`, ...lines].join(
    '\n',
  );
}

/**
 * Prints the slowest test files when a run ends (docs/development.md, "Node, the build and the tests"), so
 * that whoever makes the suite slower sees it in their own run, not three rounds later.
 */
export default class SlowestFilesReporter implements Reporter {
  constructor(private readonly count = 20) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const times = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: module.relativeModuleId,
        milliseconds: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
        tests: [...module.children.allTests()].length,
      };
    });
    if (times.length > 1) process.stdout.write(`\n${slowestFilesTable(times, this.count)}\n`);
  }
}
