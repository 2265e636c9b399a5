import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativeImports, sourceFiles } from './import-graph.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORTS = join('src', 'core', 'reports');

/** A report's own files, where its load, its rules and its definition live: what no other report, nor "what applies", reaches into. */
const REPORT_INTERNALS = new Set(['load.ts', 'definition.ts', 'derive.ts']);

/** The report folder a file is in (a folder of src/core/reports with a definition.ts), or null. */
function reportOf(file: string): string | null {
  if (!file.startsWith(REPORTS + sep)) return null;
  const [folder] = file.slice(REPORTS.length + 1).split(sep);
  return folder && existsSync(join(REPO_ROOT, REPORTS, folder, 'definition.ts')) ? folder : null;
}

/** Whether a file is bound by the rule: a report's, "what applies"'s or the policy settings' (docs/architecture.md, "Policy settings"). */
function bound(file: string): boolean {
  return reportOf(file) !== null || file.startsWith(join('src', 'core', 'applies') + sep) || file.startsWith(join('src', 'core', 'policy-settings') + sep);
}

/** Each import of another report's load, definition or rules by a file the rule binds, as `importer -> imported`. */
function reachesInto(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, imports]) =>
    bound(file)
      ? imports
          .filter((target) => {
            const owner = reportOf(target);
            return owner !== null && owner !== reportOf(file) && REPORT_INTERNALS.has(target.split(sep).at(-1)!);
          })
          .map((target) => `${file} -> ${target}`)
      : [],
  );
}

describe("no report reaches into another's load, definition or rules", () => {
  it('finds a report importing another report’s load, and "what applies" importing a report’s rules, but not a records file or a report’s own files', () => {
    const graph = new Map<string, string[]>([
      [
        join(REPORTS, 'setting-conflicts', 'load.ts'),
        [join(REPORTS, 'security-posture', 'load.ts'), join(REPORTS, 'assignment-hygiene', 'records.ts'), join(REPORTS, 'setting-conflicts', 'derive.ts')],
      ],
      [join('src', 'core', 'applies', 'conflicts.ts'), [join(REPORTS, 'setting-conflicts', 'derive.ts'), join('src', 'core', 'policy-settings', 'pair-judge.ts')]],
      [join(REPORTS, 'registry.ts'), [join(REPORTS, 'setting-conflicts', 'definition.ts')]],
    ]);
    expect(reachesInto(graph)).toEqual([
      `${join(REPORTS, 'setting-conflicts', 'load.ts')} -> ${join(REPORTS, 'security-posture', 'load.ts')}`,
      `${join('src', 'core', 'applies', 'conflicts.ts')} -> ${join(REPORTS, 'setting-conflicts', 'derive.ts')}`,
    ]);
  });

  it('holds in src: a report built on another takes its records through the registry (`builtOn`), and shared rules live in src/core/policy-settings', () => {
    const files = sourceFiles(REPO_ROOT, 'src');
    const graph = new Map(files.map((file) => [file, relativeImports(REPO_ROOT, file)]));
    expect(reachesInto(graph)).toEqual([]);
  });
});
