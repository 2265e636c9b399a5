import { describe, expect, it } from 'vitest';
import type { Finding, ReportResult, ReportRow } from '../../../src/core/reports/report-model.js';
import { PREVIEW_ROWS_PER_TABLE, PREVIEW_WHOLE_UP_TO_ROWS, isPartialReport, previewReport } from '../../../src/core/reports/report-preview.js';
import { reportResult } from '../../fixtures/report-result.js';

const GENERATED_AT = '2026-11-24T08:00:00.000Z';

function findingOn(kind: string, subjectId: string): Finding {
  return { kind, subjectId, subjectName: subjectId, detail: '', fingerprint: `${kind}:${subjectId}` };
}

/** A report 4 result with `count` device rows and a finding on each device named in `withFindings`. */
function escrowResult(count: number, withFindings: readonly number[]): ReportResult {
  const rows: ReportRow[] = Array.from({ length: count }, (_, index) => ({ id: `device-${index}`, device: `PC-${index}` }));
  return { ...reportResult(GENERATED_AT), rows, findings: withFindings.map((index) => findingOn('missing-recovery-key', `device-${index}`)) };
}

describe('the preview of a report (the first screen of the tab)', () => {
  it('is the whole result, with its size, up to a thousand rows', () => {
    const result = escrowResult(PREVIEW_WHOLE_UP_TO_ROWS, [0, 999]);
    const preview = previewReport(result);
    expect(preview).toEqual({ ...result, whole: { rows: 1_000, findings: 2 } });
    expect(isPartialReport(preview)).toBe(false);
  });

  it("of a larger one, keeps the first rows in the report's order and those rows' findings only, and says how large the whole is", () => {
    const result = escrowResult(2_500, [0, 42, PREVIEW_ROWS_PER_TABLE, 2_000]);
    const preview = previewReport(result);
    expect(preview.rows).toEqual(result.rows.slice(0, PREVIEW_ROWS_PER_TABLE));
    expect(preview.findings.map((finding) => finding.subjectId)).toEqual(['device-0', 'device-42']);
    expect(preview.whole).toEqual({ rows: 2_500, findings: 4 });
    expect(isPartialReport(preview)).toBe(true);
    expect(result.rows).toHaveLength(2_500); // the cached result itself is left whole
  });

  it('keeps the first rows of each table of a report with several (report 6: devices, apps, models)', () => {
    const devices = Array.from({ length: 1_500 }, (_, index): ReportRow => ({ id: `device-${index}`, section: 'devices' }));
    const apps = Array.from({ length: 7 }, (_, index): ReportRow => ({ id: `app-${index}`, section: 'apps' }));
    const models = Array.from({ length: 5 }, (_, index): ReportRow => ({ id: `model-${index}`, section: 'models' }));
    const result = { ...reportResult(GENERATED_AT), rows: [...devices, ...apps, ...models], findings: [findingOn('slow-app', 'app-3'), findingOn('slow-startup', 'device-1400')] };
    const preview = previewReport(result);
    expect(preview.rows).toEqual([...devices.slice(0, PREVIEW_ROWS_PER_TABLE), ...apps, ...models]);
    expect(preview.findings.map((finding) => finding.subjectId)).toEqual(['app-3']);
    expect(isPartialReport(preview)).toBe(true);
  });

  it('is whole when no table is longer than a preview keeps, however many rows there are in all', () => {
    const tables = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    const rows = tables.flatMap((section) => Array.from({ length: PREVIEW_ROWS_PER_TABLE }, (_, index): ReportRow => ({ id: `${section}-${index}`, section })));
    // A finding that names no row (a tenant-wide one) stays too: nothing was cut.
    const result = { ...reportResult(GENERATED_AT), rows, findings: [findingOn('tenant-wide', 'tenant')] };
    expect(rows.length).toBeGreaterThan(PREVIEW_WHOLE_UP_TO_ROWS);
    const preview = previewReport(result);
    expect(preview).toEqual({ ...result, whole: { rows: rows.length, findings: 1 } });
    expect(isPartialReport(preview)).toBe(false);
  });

  it('is a load error whole: there are no rows to cut', () => {
    const failed = reportResult(GENERATED_AT, [], { state: 'load-error' });
    expect(previewReport(failed)).toEqual({ ...failed, whole: { rows: 0, findings: 0 } });
  });

  it('a report without a size is taken as whole, as every answer before previews was', () => {
    expect(isPartialReport(escrowResult(3, []))).toBe(false);
  });
});
