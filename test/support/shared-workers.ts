/**
 * The test folders whose files share their worker's modules (vitest.config.ts, the `shared`
 * project; docs/development.md, "Node, the build and the tests"): pure code, and the simulator,
 * whose files leave no global behind (what a file starts, its own hooks close). Shared, they stop importing
 * the same modules again file after file. Each file of every other folder gets a fresh process.
 */
export const SHARED_WORKER_FOLDERS = ['core', 'lint', 'manifests', 'sim', 'suite'] as const;

/**
 * What a file in a shared worker must not do, as each would outlive the file and change the next
 * one's: mock a module, stub a global or the environment, or set a variable of the environment.
 */
export const LEAKS_INTO_THE_NEXT_FILE: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /^\s*(?:await\s+)?vi\.(?:mock|doMock)\s*\(/, what: 'mocks a module' },
  { pattern: /^\s*vi\.stub(?:Global|Env)\s*\(/, what: 'stubs a global or the environment' },
  { pattern: /^\s*process\.env(?:\.[A-Za-z_]\w*|\[[^\]]+\])\s*=(?!=)/, what: 'sets a variable of the environment' },
  { pattern: /^\s*delete\s+process\.env\b/, what: 'removes a variable of the environment' },
];

/** The leaks `text` shows, each as "line N: what it does": statements, each at the start of its line. */
export function leaksIntoTheNextFile(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { pattern, what } of LEAKS_INTO_THE_NEXT_FILE) if (pattern.test(line)) found.push(`line ${index + 1}: ${what}`);
  });
  return found;
}
