import { describe, expect, it } from 'vitest';
import type { FindingKind } from '../../../src/core/findings/finding-kinds.js';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { staleDevicesReport } from '../../fixtures/stale-devices/definition.js';

/** Every kind every report states, with the fixture's eighth report beside the seven. */
const KINDS = [...REPORTS.definitions, staleDevicesReport].flatMap((report) =>
  Object.entries(report.findingKinds as Readonly<Record<string, FindingKind>>).map(([kind, entry]) => ({ report: report.id, kind, entry })),
);

const PLACEHOLDER = /\b(TODO|TBD|FIXME|XXX)\b|lorem ipsum/i;

describe('remediation guidance', () => {
  it('covers some kinds', () => {
    expect(KINDS.length).toBeGreaterThan(REPORTS.definitions.length);
  });

  it.each(KINDS)('$report / $kind says why it matters', ({ entry }) => {
    expect(entry.remediation.why.trim()).not.toBe('');
  });

  it.each(KINDS)('$report / $kind has 2 to 6 distinct, non-empty steps', ({ entry }) => {
    const { steps } = entry.remediation;
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.length).toBeLessThanOrEqual(6);
    for (const step of steps) expect(step.trim()).not.toBe('');
    expect(new Set(steps.map((step) => step.trim())).size).toBe(steps.length);
  });

  it.each(KINDS)('$report / $kind cites Microsoft Learn, and only Microsoft Learn', ({ entry }) => {
    const { sources } = entry.remediation;
    expect(sources.some((source) => source.url.startsWith('https://learn.microsoft.com/'))).toBe(true);
    for (const source of sources) {
      expect(source.title.trim()).not.toBe('');
      const url = new URL(source.url);
      expect(url.protocol).toBe('https:');
      expect(url.hostname).toBe('learn.microsoft.com');
    }
  });

  it.each(KINDS)('$report / $kind has no placeholder text', ({ entry }) => {
    expect(JSON.stringify({ label: entry.label, remediation: entry.remediation })).not.toMatch(PLACEHOLDER);
  });
});
