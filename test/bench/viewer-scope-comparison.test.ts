import { describe, expect, it } from 'vitest';
import { scopeComparisonLines, viewerMix } from '../../bench/viewer-scope-comparison.js';
import type { ScopeRun } from '../../bench/viewer-scope-comparison.js';
import { largeTenantAdministrators } from '../../src/sim/tenants/large-tenant.js';

const run = (figures: Partial<ScopeRun>): ScopeRun => ({
  cold: 5_000,
  requests: 12_000,
  rps: 400,
  p50: 80,
  p99: 600,
  errors: 0,
  firstError: null,
  answers: 1,
  loads: 1,
  ...figures,
});

const targetRows = (lines: readonly string[]) => lines.filter((line) => line.startsWith('| the scope on within'));

describe('the viewers bench with the scope on and off', () => {
  it("signs the viewers in as the large tenant's mix: most regional, some whole-tenant", () => {
    expect(viewerMix(largeTenantAdministrators().map((administrator) => administrator.tagIds))).toEqual({ whole: 10, oneTag: 30, twoTags: 10, noRole: 0 });
    expect(viewerMix([[], ['1'], ['1', '2'], null])).toEqual({ whole: 1, oneTag: 1, twoTags: 1, noRole: 1 });
  });

  it('prints both runs, their ratios, and the target met within 1.3×', () => {
    const { lines, met } = scopeComparisonLines(run({}), run({ rps: 320, p99: 750, answers: 7 }));
    expect(met).toBe(true);
    expect(lines).toContain('| requests per second | 400.0 | 320.0 | 0.80 |');
    expect(lines).toContain('| distinct answers (ETags) | 1 | 7 | |');
    expect(targetRows(lines)).toEqual([
      '| the scope on within 1.3× of it off: requests per second, off ÷ on | 1.25× | met |',
      '| the scope on within 1.3× of it off: p99 latency, on ÷ off | 1.25× | met |',
    ]);
  });

  it('says NOT MET past 1.3×, for throughput or for the p99', () => {
    const slow = scopeComparisonLines(run({}), run({ rps: 200 }));
    expect(slow.met).toBe(false);
    expect(targetRows(slow.lines)[0]).toBe('| the scope on within 1.3× of it off: requests per second, off ÷ on | 2.00× | NOT MET |');
    const late = scopeComparisonLines(run({}), run({ p99: 900 }));
    expect(late.met).toBe(false);
    expect(targetRows(late.lines)[1]).toBe('| the scope on within 1.3× of it off: p99 latency, on ÷ off | 1.50× | NOT MET |');
  });

  it('never counts refusals as speed: a run with errors does not meet the target', () => {
    const { lines, met } = scopeComparisonLines(run({}), run({ rps: 900, errors: 3, firstError: '/api/reports/security-posture answered 403 to viewer 1' }));
    expect(met).toBe(false);
    expect(targetRows(lines).every((line) => line.endsWith('| NOT MET |'))).toBe(true);
    expect(lines).toContain('| errors | 0 | 3 (first: /api/reports/security-posture answered 403 to viewer 1) | |');
  });
});
