import type { SourceRetry } from '../../core/reports/report-model.js';
import { countOf } from '../../core/text/words.js';

/** A load's progress as the server's progress endpoint gives it (report-api.ts, `LoadProgressSnapshot`). */
interface ProgressSnapshot {
  elapsedMs: number;
  sources: ReadonlyArray<{ source: string; records: number; retrying?: SourceRetry }>;
}

const recordCount = new Intl.NumberFormat();

/** What the server has read so far, source by source: "managedDevices: 42,000 records". */
export function describeProgress(progress: ProgressSnapshot, now: number = Date.now()): string {
  const sources = progress.sources.map(
    ({ source, records, retrying }) => `${source}: ${countOf(records, 'record', 'records', recordCount)}${retrying ? `, ${describeRetry(retrying, now)}` : ''}`,
  );
  const seconds = Math.floor(progress.elapsedMs / 1000);
  return [...sources, ...(seconds >= 1 ? [`${seconds} s`] : [])].join(' · ');
}

/** A source being tried again: "Graph answered 503; retrying, attempt 2 in 8 s" (the wait counts down as the progress is read again). */
export function describeRetry(retry: SourceRetry, now: number): string {
  const failed = retry.status === null ? 'Graph could not be reached' : `Graph answered ${retry.status}`;
  const seconds = Math.max(0, Math.ceil((Date.parse(retry.at) - now) / 1000));
  return `${failed}; retrying, attempt ${retry.attempt} ${seconds > 0 ? `in ${seconds} s` : 'now'}`;
}
