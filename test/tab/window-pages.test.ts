import { describe, expect, it } from 'vitest';
import { WINDOW_PAGES_KEPT, WINDOW_PAGE_ROWS, dropFarPages } from '../../src/tab/reports/window-pages.js';
import type { Finding, ReportRow } from '../../src/core/reports/report-model.js';

const pageOf = (page: number): ReportRow[] => Array.from({ length: WINDOW_PAGE_ROWS }, (_, at) => ({ id: `row-${page * WINDOW_PAGE_ROWS + at}`, link: null }));
const findingOf = (id: string): Finding => ({ kind: 'noKey', subjectId: id, subjectName: id, detail: 'No key.', fingerprint: `noKey:${id}` });

describe('the pages a windowed table keeps', () => {
  it('keeps a bounded number of pages as a viewer reads on, dropping the farthest and their rows’ findings', () => {
    const held = { rows: new Map<number, ReportRow[]>(), findings: new Map<string, Finding[]>() };
    for (let page = 0; page < WINDOW_PAGES_KEPT * 3; page += 1) {
      held.rows.set(page, pageOf(page));
      for (const row of pageOf(page)) held.findings.set(String(row.id), [findingOf(String(row.id))]);
      dropFarPages(held, page);
      expect(held.rows.size).toBeLessThanOrEqual(WINDOW_PAGES_KEPT);
    }
    const last = WINDOW_PAGES_KEPT * 3 - 1;
    // The pages nearest the one just read stay; the first ones went, and their findings with them.
    expect([...held.rows.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: WINDOW_PAGES_KEPT }, (_, at) => last - WINDOW_PAGES_KEPT + 1 + at));
    expect(held.findings.has('row-0')).toBe(false);
    expect(held.findings.has(`row-${last * WINDOW_PAGE_ROWS}`)).toBe(true);
    expect(held.findings.size).toBe(WINDOW_PAGES_KEPT * WINDOW_PAGE_ROWS);
  });
});
