/**
 * One "what applies" question asked first, in a process of its own, as `dmhealth applies` asks it:
 * the tenant from the environment, the services the command line makes, nothing loaded before. A
 * token is taken first, so the timer covers Graph and the rules only. Prints one JSON line: the
 * question's time and requests, how long its assignment lists took (until it looked the subject
 * up), the answer's counts, and the same question asked again in the same process.
 *
 * Usage: applies-once <device|user|group>
 */
import { readConfig } from '../src/app/config.js';
import { createServices } from '../src/app/create-services.js';
import { openGraphConnection } from '../src/app/graph-connection.js';
import { PRODUCT_READS } from '../src/core/upstream-reads.js';

export interface AppliesOnceFigures {
  query: string;
  subject: string;
  timeMs: number;
  requests: number;
  /** From the question's start until its assignment lists were read (its first step that is not theirs). */
  assignmentsMs: number;
  answer: string;
  /** The same question again in the same process, from what it kept. */
  laterMs: number;
  laterRequests: number;
}

async function main(): Promise<void> {
  const query = process.argv.slice(2).join(' ');
  if (!query) throw new Error('usage: applies-once <device|user|group>');
  const read = readConfig(process.env);
  if (!read.ok || read.config.connection.mode !== 'tenant') throw new Error('applies-once needs a tenant in the environment (the bench starts one)');
  const connection = await openGraphConnection(read.config.connection, { reads: PRODUCT_READS, betaCoverage: read.config.betaCoverage });
  try {
    await connection.tokens.getToken();
    const services = createServices({ connection, log: () => undefined });
    let assignmentsMs: number | null = null;
    const started = performance.now();
    const result = await services.applies!.applies(query, {
      onProgress: (step) => {
        if (step.step !== 'assignments' && assignmentsMs === null) assignmentsMs = performance.now() - started;
      },
    });
    const timeMs = performance.now() - started;
    if (result.kind !== 'found') throw new Error(`what applies to ${query}: ${result.kind}`);
    const again = performance.now();
    const later = await services.applies!.applies(query);
    const laterMs = performance.now() - again;
    const { applies, excluded, dependsOnFilter, unknown, notForPlatform } = result.answer.counts;
    const figures: AppliesOnceFigures = {
      query,
      subject: result.answer.subject.kind,
      timeMs,
      requests: result.requests,
      assignmentsMs: assignmentsMs ?? timeMs,
      answer: `${applies} applies, ${excluded} excluded, ${dependsOnFilter} depend on a filter, ${unknown} unknown, ${notForPlatform} not for its platform`,
      laterMs,
      laterRequests: later.requests,
    };
    console.log(JSON.stringify(figures));
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
