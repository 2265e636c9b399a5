import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import type { ReportPreview } from '../../src/core/reports/report-preview.js';
import { PREVIEW_ROWS_PER_TABLE } from '../../src/core/reports/report-preview.js';
import { buildLargeTenant } from '../../src/sim/tenants/large-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { finishedAnswer, holdRequests, useTabPages } from '../support/tab-server.js';

// 2,000 devices: report 4 has about 1,500 rows, more than a preview holds whole.
const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000 }) });
const tab = useTabPages(harness);

/** Paths of the report API a page asks for, in order. */
function reportRequests(page: Page, id: string): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === `/api/reports/${id}` || path === `/api/reports/${id}/preview`) paths.push(path);
  });
  return paths;
}

async function findingTotal(page: Page): Promise<number> {
  const counts = await page.$$eval('[data-finding-kind]', (items) => items.map((item) => Number(item.getAttribute('data-finding-count'))));
  return counts.reduce((total, count) => total + count, 0);
}

describe('opening a report', () => {
  it('draws a large report from its first rows at once, with nothing that would need the rest, then the whole of it', async () => {
    const page = await tab.newPage();
    const requests = reportRequests(page, 'escrow-gaps');
    // The whole report's request alone (not its preview, progress or triage).
    const releaseWhole = await holdRequests(page, '**/api/reports/escrow-gaps');
    const previewAnswer = finishedAnswer(page, (response) => new URL(response.url()).pathname === '/api/reports/escrow-gaps/preview');
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const { whole } = (await (await previewAnswer).json()) as ReportPreview;
    expect(whole.rows).toBeGreaterThan(1_000);

    const partial = page.locator('[data-shown-count][data-partial]');
    await partial.waitFor();
    expect(await partial.getAttribute('data-shown-count')).toBe(String(PREVIEW_ROWS_PER_TABLE));
    expect(await partial.textContent()).toBe(`Showing the first ${PREVIEW_ROWS_PER_TABLE} of ${whole.rows.toLocaleString('en-US')} rows; loading the rest…`);
    await page.locator('[role=table] [role=row][aria-rowindex="2"]').waitFor();
    // Assistive technology is told the table's length is not known yet (aria-rowcount -1), not that it is 100.
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe('-1');
    // No counts, filter, export or sort that only the first rows would answer.
    expect(await page.locator('[data-state=counting]').textContent()).toBe(`Reading all ${whole.rows.toLocaleString('en-US')} rows to count their findings…`);
    expect(await page.locator('[data-finding-kind]').count()).toBe(0);
    expect(await page.getByRole('searchbox', { name: 'Filter rows' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
    const deviceHeader = page.getByRole('columnheader', { name: 'Device' });
    expect(await deviceHeader.getByRole('button').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    releaseWhole();
    const complete = page.locator('[data-shown-count]:not([data-partial])');
    await complete.waitFor();
    expect(await complete.getAttribute('data-shown-count')).toBe(String(whole.rows));
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe(String(whole.rows + 1));
    expect(await findingTotal(page)).toBe(whole.findings);
    await deviceHeader.getByRole('button').click();
    expect(await deviceHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('searchbox', { name: 'Filter rows' }).isDisabled()).toBe(false);
    expect(requests).toEqual(['/api/reports/escrow-gaps/preview', '/api/reports/escrow-gaps']);
  });

  it('once the whole report is in, its tools answer for every row: "Open findings only" keeps the rows with an open finding', async () => {
    const page = await tab.newPage();
    const wholeAnswer = finishedAnswer(page, (response) => new URL(response.url()).pathname === '/api/reports/escrow-gaps');
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const report = (await (await wholeAnswer).json()) as ReportResult;
    await page.locator('[data-shown-count]:not([data-partial])').waitFor();
    // No decisions are stored on this server, so every finding is open.
    const subjects = new Set(report.findings.map((finding) => finding.subjectId));
    const withFindings = report.rows.filter((row) => typeof row.id === 'string' && subjects.has(row.id)).length;
    expect(withFindings).toBeGreaterThan(PREVIEW_ROWS_PER_TABLE);
    expect(withFindings).toBeLessThan(report.rows.length);
    await page.getByRole('switch', { name: 'Open findings only' }).check();
    await expect.poll(() => page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe(String(withFindings));
  });

  it('reads a small report in one request: its preview is the whole of it', async () => {
    const page = await tab.newPage();
    const requests = reportRequests(page, 'connector-health');
    await page.goto(`${tab.server.base}/tab/#/connector-health`);
    await page.locator('[data-shown-count]:not([data-partial])').waitFor();
    expect(await page.locator('[data-state=counting]').count()).toBe(0);
    expect(requests).toEqual(['/api/reports/connector-health/preview']);
  });

  it('says so when the rest of a report cannot be read after its first rows, rather than leave them as if they were all', async () => {
    const page = await tab.newPage();
    const release = await holdRequests(page, '**/api/reports/escrow-gaps', (route) =>
      route.fulfill({ status: 503, json: { error: { code: 'StateStoreUnavailable', message: 'the state store did not answer' } } }),
    );
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[data-shown-count][data-partial]').waitFor();
    release();
    const failure = page.locator('[data-state=api-error]');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('The server answered HTTP 503: the state store did not answer.');
    expect(await page.locator('[role=table]').count()).toBe(0);
  });
});
