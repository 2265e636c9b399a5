import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ReportPreview } from '../../src/core/reports/report-preview.js';
import type { Finding, ReportRow } from '../../src/core/reports/report-model.js';
import { windowTextSortKey as textSortKey } from '../../src/core/reports/row-keys.js';
import { buildLargeTenant } from '../../src/sim/tenants/large-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { finishedAnswer, holdRequests, useTabPages } from '../support/tab-server.js';
import { gate } from '../support/gate.js';
import { loadReport } from '../../src/core/reports/registry.js';

// 2,000 devices: report 4 has about 1,500 rows. The tab page's `windowFrom` parameter lowers the
// threshold (window-threshold.ts) so that this report is read in windows as a 150,000-row one is.
const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000 }) });
const tab = useTabPages(harness);
const WINDOW_FROM = 1_000;

interface Window {
  total: number;
  offset: number;
  rows: ReportRow[];
  findings: Finding[];
}

/** The report API requests a page makes for a report, as path and query, in order. */
function apiRequests(page: Page, id: string): Array<{ path: string; query: URLSearchParams }> {
  const seen: Array<{ path: string; query: URLSearchParams }> = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(`/api/reports/${id}`) && !url.pathname.endsWith('/progress')) seen.push({ path: url.pathname, query: url.searchParams });
  });
  return seen;
}

const isRows = (url: string, test: (query: URLSearchParams) => boolean) => {
  const parsed = new URL(url);
  return parsed.pathname === '/api/reports/escrow-gaps/rows' && test(parsed.searchParams);
};

/** The windowed report open, its first window painted; the preview's sizes and the first window. */
async function openWindowed(page: Page): Promise<{ whole: ReportPreview['whole']; first: Window }> {
  const previewAnswer = finishedAnswer(page, (response) => new URL(response.url()).pathname === '/api/reports/escrow-gaps/preview');
  const firstAnswer = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('offset') === '0'));
  await page.goto(`${tab.server.base}/tab/?windowFrom=${WINDOW_FROM}#/escrow-gaps`);
  const { whole } = (await (await previewAnswer).json()) as ReportPreview;
  const first = (await (await firstAnswer).json()) as Window;
  await page.locator('[role=table] [role=row][aria-rowindex="2"]:not([data-placeholder])').waitFor();
  return { whole, first };
}

/** The names in the table's first cells, top to bottom, of the rows drawn. */
async function shownDevices(page: Page, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) names.push((await page.locator(`[role=table] [role=row][aria-rowindex="${index + 2}"] [data-open-row]`).textContent()) ?? '');
  return names;
}

async function shownCount(page: Page): Promise<number> {
  return Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'));
}

describe('a report read in windows', () => {
  it('opens from its preview and windows of rows, never downloading the whole report; the counts come from the summary', async () => {
    const page = await tab.newPage();
    const requests = apiRequests(page, 'escrow-gaps');
    const { whole, first } = await openWindowed(page);
    expect(whole.rows).toBeGreaterThanOrEqual(WINDOW_FROM);
    expect(first.total).toBe(whole.rows);
    await expect.poll(() => shownCount(page)).toBe(whole.rows);
    expect(await page.locator('[data-shown-count]').textContent()).toBe(`Showing ${whole.rows.toLocaleString('en-US')} of ${whole.rows.toLocaleString('en-US')} rows`);
    // The table knows its length: every row has its place, fetched or not.
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe(String(whole.rows + 1));
    expect(await shownDevices(page, 5)).toEqual(first.rows.slice(0, 5).map((row) => String(row.device)));
    // Every finding is open (no decisions stored): the summary's counts add up to the whole report's.
    await page.locator('[data-finding-kind]').first().waitFor();
    const counts = await page.$$eval('[data-finding-kind]', (items) => items.map((item) => Number(item.getAttribute('data-finding-count'))));
    expect(counts.reduce((total, count) => total + count, 0)).toBe(whole.findings);
    expect(await page.getByRole('searchbox', { name: 'Filter rows' }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    const paths = requests.map((request) => request.path);
    expect(paths).not.toContain('/api/reports/escrow-gaps');
    expect(paths).toContain('/api/reports/escrow-gaps/preview');
    expect(paths).toContain('/api/reports/escrow-gaps/summary');
    const rows = requests.filter((request) => request.path === '/api/reports/escrow-gaps/rows');
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]!.query.get('offset')).toBe('0');
    expect(rows[0]!.query.get('limit')).toBe('100');
    expect(rows[0]!.query.has('sort')).toBe(false);
  });

  it('opens a row’s pane with its findings from the window, and what applies to its device', async () => {
    const page = await tab.newPage();
    const { first } = await openWindowed(page);
    const at = first.rows.findIndex((row) => first.findings.some((finding) => finding.subjectId === row.id));
    expect(at).toBeGreaterThanOrEqual(0);
    const findings = first.findings.filter((finding) => finding.subjectId === first.rows[at]!.id);
    const row = page.locator(`[role=table] [role=row][aria-rowindex="${at + 2}"]`);
    await row.scrollIntoViewIfNeeded();
    await row.locator('button[aria-label$="details and how to fix"]').click();
    const pane = page.getByRole('dialog', { name: 'Finding details' });
    await pane.waitFor();
    expect((await pane.locator('[data-finding-details]').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-finding-details')))).sort()).toEqual(
      findings.map((finding) => finding.kind).sort(),
    );
    for (const finding of findings) expect(await pane.textContent()).toContain(finding.detail);
    // A device row's pane asks what applies to the device, as it does when the report is read whole.
    const ask = pane.locator('[data-what-applies]');
    expect(await ask.textContent()).toBe(`What applies to ${String(first.rows[at]!.device)}`);
    await ask.click();
    await expect.poll(() => page.locator('[data-applies-dialog]').getAttribute('data-phase'), { timeout: 30_000 }).toBe('found');
    expect(await page.locator('[data-applies-dialog] h3').first().textContent()).toContain(`What applies to device ${String(first.rows[at]!.device)}`);
  });

  it('fetches further windows as the table scrolls, showing placeholders of a row’s height meanwhile, announced politely', async () => {
    const page = await tab.newPage();
    const requests = apiRequests(page, 'escrow-gaps');
    const { whole } = await openWindowed(page);
    const lastPage = Math.floor((whole.rows - 1) / 100) * 100;
    // The windows past the first are held until the test has seen their placeholders.
    const release = await holdRequests(page, /\/api\/reports\/escrow-gaps\/rows\?(.*&)?offset=[1-9]/);
    const lastAnswer = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('offset') === String(lastPage)));
    await page.getByRole('region', { name: /Escrow Gaps/ }).evaluate((scroller) => scroller.scrollTo(0, scroller.scrollHeight));
    const placeholder = page.locator(`[role=table] [role=row][data-placeholder][aria-rowindex="${whole.rows + 1}"]`);
    await placeholder.waitFor();
    expect(await placeholder.getAttribute('aria-busy')).toBe('true');
    expect((await placeholder.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    expect(await page.locator('[aria-live=polite][data-fetching]').textContent()).toMatch(/^Loading rows [\d,]+ to [\d,]+…$/);
    release();
    const last = (await (await lastAnswer).json()) as Window;
    expect(last.offset).toBe(lastPage);
    const lastRow = page.locator(`[role=table] [role=row][aria-rowindex="${whole.rows + 1}"] [data-open-row]`);
    await expect.poll(() => lastRow.textContent()).toBe(String(last.rows[last.rows.length - 1]!.device));
    await expect.poll(() => page.locator('[role=table] [role=row][data-placeholder]').count()).toBe(0);
    // Only the windows in view (and the one ahead) were asked for: the view jumped past the middle ones.
    const offsets = requests.filter((request) => request.path.endsWith('/rows')).map((request) => Number(request.query.get('offset')));
    expect(offsets).not.toContain(500);
    expect(offsets).toContain(lastPage);
  });

  it('sorts on the server when a header is clicked, and shows the server’s order', async () => {
    const page = await tab.newPage();
    await openWindowed(page);
    const header = page.getByRole('columnheader', { name: 'Device' });
    const ascending = finishedAnswer(page, (response) =>
      isRows(response.url(), (query) => query.get('sort') === 'device' && query.get('dir') === 'asc' && query.get('offset') === '0'),
    );
    await header.getByRole('button').click();
    const sorted = (await (await ascending).json()) as Window;
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const names = sorted.rows.slice(0, 5).map((row) => String(row.device));
    await expect.poll(() => shownDevices(page, 5)).toEqual(names);
    const keys = names.map(textSortKey);
    expect([...keys].sort()).toEqual(keys);
    const descending = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('sort') === 'device' && query.get('dir') === 'desc'));
    await header.getByRole('button').click();
    const reversed = (await (await descending).json()) as Window;
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => shownDevices(page, 3)).toEqual(reversed.rows.slice(0, 3).map((row) => String(row.device)));
  });

  it('narrows on the server: the text filter once typing pauses, a finding kind, and open findings only', async () => {
    const page = await tab.newPage();
    const requests = apiRequests(page, 'escrow-gaps');
    const { first } = await openWindowed(page);
    const name = String(first.rows[0]!.device);
    const filtered = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('q') === name));
    await page.getByRole('searchbox', { name: 'Filter rows' }).pressSequentially(name, { delay: 10 });
    const answer = (await (await filtered).json()) as Window;
    expect(answer.total).toBeGreaterThanOrEqual(1);
    await expect.poll(() => shownCount(page)).toBe(answer.total);
    // Debounced: no window was asked for a part of the name.
    const queries = requests.filter((request) => request.path.endsWith('/rows') && request.query.has('q')).map((request) => request.query.get('q'));
    expect(queries).toEqual([name]);
    // Nothing matches: said so, never an empty table; and the rows come back when the filter is cleared.
    await page.getByRole('searchbox', { name: 'Filter rows' }).fill('no-device-is-named-this');
    await page.getByText('No rows match the filter.').waitFor();
    expect(await page.locator('[role=table]').count()).toBe(0);
    const cleared = finishedAnswer(page, (response) => isRows(response.url(), (query) => !query.has('q') && query.get('offset') === '0'));
    await page.getByRole('searchbox', { name: 'Filter rows' }).fill('');
    await cleared;
    await expect.poll(() => shownCount(page)).toBe(first.total);

    const kind = page.locator('[data-finding-kind]').first();
    const kindKey = (await kind.getAttribute('data-finding-kind'))!;
    const kindCount = Number(await kind.getAttribute('data-finding-count'));
    const ofKind = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('finding') === kindKey && query.get('open') === 'true' && !query.has('q')));
    await kind.getByRole('button').click();
    const kindAnswer = (await (await ofKind).json()) as Window;
    // One finding of a kind per device in this report: as many rows as the kind's count.
    expect(kindAnswer.total).toBe(kindCount);
    await expect.poll(() => shownCount(page)).toBe(kindCount);
    await kind.getByRole('button').click();

    const open = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('open') === 'true' && !query.has('finding')));
    await page.getByRole('switch', { name: 'Open findings only' }).check();
    const openAnswer = (await (await open).json()) as Window;
    expect(openAnswer.total).toBeLessThan(first.total);
    await expect.poll(() => shownCount(page)).toBe(openAnswer.total);
  });

  it('narrows on the server to the rows with an accepted finding, and back to every row', async () => {
    const page = await tab.newPage();
    const { first } = await openWindowed(page);
    // Accept the first row's first finding in its pane, by keyboard.
    const button = page.getByRole('button', { name: /findings? for .*: details and how to fix$/ }).first();
    const device = /for (.*): details/.exec((await button.getAttribute('aria-label')) ?? '')?.[1] ?? '';
    await button.click();
    const pane = page.getByRole('dialog');
    const section = pane.locator('[data-finding-details]').first();
    await section.getByRole('button', { name: 'Accept…' }).click();
    await section.getByRole('textbox').fill('Lab device, wiped weekly');
    await section.getByRole('button', { name: 'Accept finding' }).focus();
    await page.keyboard.press('Enter');
    await section.locator('[data-triage=accepted]').waitFor();
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });

    const accepted = page.locator('[data-triaged=accepted]');
    await expect.poll(() => accepted.getAttribute('data-finding-count')).toBe('1');
    const narrowed = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('triage') === 'accepted' && !query.has('open')));
    await accepted.getByRole('button').click();
    const answer = (await (await narrowed).json()) as Window;
    expect(answer.total).toBe(1);
    expect(answer.rows[0]!.device).toBe(device);
    await expect.poll(() => shownCount(page)).toBe(1);
    expect(await shownDevices(page, 1)).toEqual([device]);

    // Pressed again, every row.
    await accepted.getByRole('button').click();
    await expect.poll(() => shownCount(page)).toBe(first.total);
    // The finding reopened from its row, narrowed to again, so the file's other tests see the report as it loaded.
    await accepted.getByRole('button').click();
    await expect.poll(() => shownCount(page)).toBe(1);
    await page
      .getByRole('button', { name: new RegExp(`for ${device}: details and how to fix$`) })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reopen' }).click();
    await page.getByRole('dialog').locator('[data-finding-details] [data-triage=open]').first().waitFor();
  });

  it('exports the server’s CSV of the whole report, not one built in the browser', async () => {
    const page = await tab.newPage();
    await openWindowed(page);
    const csvAnswer = finishedAnswer(page, (response) => new URL(response.url()).pathname === '/api/reports/escrow-gaps.csv');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const answer = await csvAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^text\/csv/);
    expect((await download).suggestedFilename()).toMatch(/^escrow-gaps-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('keeps the whole-report path below the threshold: a small report in one request, and this one whole without the lowered threshold', async () => {
    const page = await tab.newPage();
    const requests = apiRequests(page, 'connector-health');
    await page.goto(`${tab.server.base}/tab/?windowFrom=${WINDOW_FROM}#/connector-health`);
    await page.locator('[data-shown-count]:not([data-partial])').waitFor();
    const tableRequests = (paths: string[], id: string) => paths.filter((path) => [`/api/reports/${id}`, `/api/reports/${id}/preview`, `/api/reports/${id}/rows`].includes(path));
    expect(
      tableRequests(
        requests.map((request) => request.path),
        'connector-health',
      ),
    ).toEqual(['/api/reports/connector-health/preview']);

    const other = await tab.newPage();
    const escrow = apiRequests(other, 'escrow-gaps');
    await other.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await other.locator('[data-shown-count]:not([data-partial])').waitFor();
    expect(
      tableRequests(
        escrow.map((request) => request.path),
        'escrow-gaps',
      ),
    ).toEqual(['/api/reports/escrow-gaps/preview', '/api/reports/escrow-gaps']);
  });

  it('sorts from the keyboard as from a pointer, the table reachable while windows load', async () => {
    const page = await tab.newPage();
    await openWindowed(page);
    const header = page.getByRole('columnheader', { name: 'Device' });
    await header.getByRole('button').focus();
    const sorted = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('sort') === 'device' && query.get('dir') === 'asc'));
    await page.keyboard.press('Enter');
    await sorted;
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    // The table's region takes focus and scrolls with the keys; the windows in view follow.
    const region = page.getByRole('region', { name: /Escrow Gaps/ });
    await region.focus();
    const further = finishedAnswer(page, (response) => isRows(response.url(), (query) => query.get('offset') !== '0' && query.get('sort') === 'device'));
    await page.keyboard.press('End');
    expect(((await (await further).json()) as Window).offset).toBeGreaterThan(0);
  });

  it('refreshes as the whole report does: the table stays, says it is refreshing, then shows the newer load’s windows, never the whole report', async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const graph = harness.client();
    const newer = gate();
    let escrowLoads = 0;
    const server = await tab.startServer(graph, {
      load: async (id, onProgress) => {
        const newerLoad = id === 'escrow-gaps' && escrowLoads++ > 0;
        if (newerLoad) await newer.opened;
        return loadReport(id, graph, { onProgress, now: () => (newerLoad ? later : now) });
      },
    });
    const page = await tab.newPage();
    const requests = apiRequests(page, 'escrow-gaps');
    await page.goto(`${server.base}/tab/?windowFrom=${WINDOW_FROM}#/escrow-gaps`);
    await page.locator('[role=table] [role=row][aria-rowindex="2"]:not([data-placeholder])').waitFor();
    expect(await page.locator('[data-generated-at]').getAttribute('data-generated-at')).toBe(now.toISOString());
    const newerWindow = finishedAnswer(
      page,
      async (response) => isRows(response.url(), () => true) && ((await response.json()) as { generatedAt: string }).generatedAt === later.toISOString(),
    );
    try {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('button', { name: 'Refreshing…' }).waitFor();
      expect(await page.locator('[role=table] [role=row][aria-rowindex="2"]:not([data-placeholder])').count()).toBe(1);
    } finally {
      newer.open();
    }
    await page.locator(`[data-generated-at="${later.toISOString()}"]`).waitFor();
    await newerWindow;
    await page.locator('[role=table] [role=row][aria-rowindex="2"]:not([data-placeholder])').waitFor();
    const paths = requests.map((request) => request.path);
    expect(paths).not.toContain('/api/reports/escrow-gaps');
    expect(requests.filter((request) => request.path === '/api/reports/escrow-gaps/preview' && request.query.get('refresh') === 'true')).toHaveLength(1);
  });
});
