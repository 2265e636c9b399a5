/**
 * What `dmhealth applies` says on standard error while a question takes more than a second
 * (docs/contract.md, "The command line"): the step it is on, one line rewritten in place, as a
 * report's load shows its progress. A question answered from what is kept says nothing. The timer is
 * given, so that a test holds the clock.
 */

import type { AppliesProgress } from '../app/applies-service.js';
import { inertLogLine } from '../app/log-line.js';

/** How long a question waits before it says what it is doing. */
export const APPLIES_PROGRESS_AFTER_MS = 1_000;

/** The step in words: "Reading the assignments of every policy, app and script: deviceConfigurations 120…". */
export function appliesProgressWords(step: Parameters<AppliesProgress>[0], query: string): string {
  if (step.step === 'question') return `Looking up ${query} and its groups…`;
  const what = step.step === 'assignments' ? 'the assignments of every policy, app and script' : "the policies' settings, for conflicts";
  return `Reading ${what}: ${step.source} ${step.records.toLocaleString('en')}…`;
}

export interface ProgressLine {
  /** Hears each step; says the latest once the wait is over. */
  onProgress: AppliesProgress;
  /** Stops, and clears the line if one was written. */
  done(): void;
}

/**
 * A progress line written with `write` (`\r`, clear, the words) once `afterMs` has passed, and at
 * each step after that; nothing at all for a question answered sooner.
 */
export function delayedProgressLine(
  query: string,
  write: (text: string) => void,
  timers: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void } = {
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  afterMs = APPLIES_PROGRESS_AFTER_MS,
): ProgressLine {
  let latest: string | null = null;
  let showing = false;
  let finished = false;
  const show = () => {
    // The question is the caller's own text, echoed: written inert (log-line.ts).
    if (latest !== null) write(`\r\u001b[K${inertLogLine(latest)}`);
  };
  const timer = timers.setTimeout(() => {
    if (finished) return;
    showing = true;
    show();
  }, afterMs);
  return {
    onProgress(step) {
      if (finished) return;
      latest = appliesProgressWords(step, query);
      if (showing) show();
    },
    done() {
      finished = true;
      timers.clearTimeout(timer);
      if (showing) write('\r\u001b[K');
    },
  };
}
