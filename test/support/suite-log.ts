import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * Every log line of the servers the tests start, and every credential the tests hand out, for the
 * suite-wide check that no log line carries a credential (test/suite-log/, run after the suite).
 * Git-ignored; emptied when a run starts (suite-log-setup.ts). The credentials are the throwaway
 * ones of the simulated tenant and the tests' notify keys.
 */
export const SUITE_LOG_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'suite-log');

function append(kind: 'log' | 'credentials', text: string): void {
  mkdirSync(SUITE_LOG_DIRECTORY, { recursive: true });
  appendFileSync(join(SUITE_LOG_DIRECTORY, `${kind}-${process.pid}.txt`), text);
}

/** A line a server under test logged; `source` says which. */
export function recordServerLog(source: string, line: string): void {
  append('log', `${source}\t${line.replace(/\r?\n/g, '\\n')}\n`);
}

/** A credential that must never appear in a log line. */
export function recordCredential(value: string): void {
  append('credentials', `${value}\n`);
}

/** A stream for a server's own log (restify's), recording each line and handing it on to `alsoTo`. */
export function serverLogStream(source: string, alsoTo?: (line: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        recordServerLog(source, line);
        alsoTo?.(line);
      }
      done();
    },
  });
}
