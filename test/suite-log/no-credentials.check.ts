import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_LOG_DIRECTORY } from '../support/suite-log.js';

// Runs after the whole suite (npm test's second Vitest run): it reads what every server under test
// logged during the first run.
function read(kind: 'log' | 'credentials'): string[] {
  if (!existsSync(SUITE_LOG_DIRECTORY)) return [];
  return readdirSync(SUITE_LOG_DIRECTORY)
    .filter((name) => name.startsWith(`${kind}-`))
    .flatMap((name) => readFileSync(join(SUITE_LOG_DIRECTORY, name), 'utf8').split('\n'))
    .filter(Boolean);
}

describe('the log of the whole suite', () => {
  const lines = read('log');
  const credentials = [...new Set(read('credentials'))];

  it('was written: the servers under test logged, and the credentials they were given are known', () => {
    expect(lines.length, `no server log in ${SUITE_LOG_DIRECTORY}: run the suite first (npm test runs it before this check)`).toBeGreaterThan(50);
    const sources = new Set(lines.map((line) => line.split('\t')[0]));
    for (const source of ['bot', 'bot server', 'bot server (restify)', 'reports API', 'app process']) expect(sources, source).toContain(source);
    expect(credentials.length).toBeGreaterThan(2);
  });

  it('holds no bearer token, no JWT, no client secret and no notify key', () => {
    const leaks = lines.filter(
      (line) =>
        /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/.test(line) ||
        /\bBearer (?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/i.test(line) ||
        credentials.some((credential) => line.includes(credential)),
    );
    // Name where a leak is, not what leaked.
    expect(leaks.map((line) => line.split('\t')[0])).toEqual([]);
  });
});
