/**
 * The viewers bench's comparison of the viewer scope off and on (`--viewer-scope`,
 * viewers-bench.ts): who the viewers sign in as, and the two runs side by side with their ratios
 * beside the target, the scope on within 1.3× of it off. Pure, so its verdicts are tested.
 */

/** The target: the scope on within this factor of it off. */
export const SCOPE_TARGET = 1.3;

/** One run of N viewers reading one report. */
export interface ScopeRun {
  cold: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string | null;
  /** Distinct answers (ETags) the viewers were sent: one with the scope off, one per set of scope tags with it on. */
  answers: number;
  loads: number;
}

/** How many of the viewers see the whole tenant, one scope tag, two or more, or hold no role assignment (null). */
export function viewerMix(scopes: ReadonlyArray<readonly string[] | null>): { whole: number; oneTag: number; twoTags: number; noRole: number } {
  return {
    whole: scopes.filter((tags) => tags?.length === 0).length,
    oneTag: scopes.filter((tags) => tags?.length === 1).length,
    twoTags: scopes.filter((tags) => (tags?.length ?? 0) >= 2).length,
    noRole: scopes.filter((tags) => tags === null).length,
  };
}

const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
const errorsOf = (run: ScopeRun) => `${run.errors}${run.firstError ? ` (first: ${run.firstError})` : ''}`;

/**
 * The two runs as tables: the measures side by side, then the targets: requests per second off ÷ on
 * and p99 latency on ÷ off, each met when within 1.3× and no request of the scoped run failed (a
 * refusal answers fast, and must not pass for speed).
 */
export function scopeComparisonLines(off: ScopeRun, on: ScopeRun): { lines: string[]; met: boolean } {
  const slower = on.rps > 0 ? off.rps / on.rps : Infinity;
  const p99 = off.p99 > 0 ? on.p99 / off.p99 : Infinity;
  const verdict = (value: number) => value <= SCOPE_TARGET && on.errors === 0 && off.errors === 0;
  const word = (value: number) => (verdict(value) ? 'met' : 'NOT MET');
  return {
    lines: [
      '| measure | scope off | scope on (VIEWER_SCOPE=intune-rbac) | on ÷ off |',
      '|---|---:|---:|---:|',
      `| first (cold) load, ms | ${whole(off.cold)} | ${whole(on.cold)} | ${ratio(on.cold, off.cold)} |`,
      `| requests answered | ${whole(off.requests)} | ${whole(on.requests)} | |`,
      `| requests per second | ${off.rps.toFixed(1)} | ${on.rps.toFixed(1)} | ${ratio(on.rps, off.rps)} |`,
      `| p50 latency, ms | ${whole(off.p50)} | ${whole(on.p50)} | ${ratio(on.p50, off.p50)} |`,
      `| p99 latency, ms | ${whole(off.p99)} | ${whole(on.p99)} | ${ratio(on.p99, off.p99)} |`,
      `| errors | ${errorsOf(off)} | ${errorsOf(on)} | |`,
      `| distinct answers (ETags) | ${off.answers} | ${on.answers} | |`,
      `| upstream loads | ${off.loads} | ${on.loads} | |`,
      '',
      '| target | measured | |',
      '|---|---:|---|',
      `| the scope on within ${SCOPE_TARGET}× of it off: requests per second, off ÷ on | ${slower.toFixed(2)}× | ${word(slower)} |`,
      `| the scope on within ${SCOPE_TARGET}× of it off: p99 latency, on ÷ off | ${p99.toFixed(2)}× | ${word(p99)} |`,
    ],
    met: verdict(slower) && verdict(p99),
  };
}
