import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { loadReport } from '../../src/core/reports/registry.js';
import { reportToCsv } from '../../src/core/reports/report-csv.js';
import { ReportWindows } from '../../src/core/reports/window/report-window.js';
import type { Finding, ReportResult, ReportRow } from '../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { HeldLoads, enlargedRows, useApiServer } from '../support/api-server.js';
import { gate } from '../support/gate.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { CSV_ROWS_PER_SLICE, windowsPrepared, writeCsv } from '../../src/server/report-rows.js';
import { browserRows } from '../../src/tab/reports/browser-rows.js';
import type { WindowFilters } from '../../src/tab/reports/browser-rows.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const windows = new ReportWindows();
const held = new HeldLoads();
/** Rows in the large copy of report 4 this file serves: enough for many slices of a streamed CSV. */
const LARGE_ROWS = 30_000;

/** Report 4 of the demo tenant, its rows repeated to a large table; some names start as a spreadsheet formula would. */
function enlarged(result: ReportResult, rowCount = LARGE_ROWS): ReportResult {
  return enlargedRows(result, rowCount, (row, index) => ({
    ...row,
    id: `${String(row.id)}-${index}`,
    device: index % 97 === 0 ? `=HYPERLINK("x", "PC-${index}")` : `${String(row.device)}-${index}`,
  }));
}

const api = useApiServer(harness, {
  name: 'report rows',
  load: (graph) =>
    held.around(async (id, onProgress) => {
      const result = await loadReport(id, graph, { onProgress });
      return id === 'escrow-gaps' && result.state === 'loaded' ? enlarged(result) : result;
    }),
  server: { windows, limitClock: () => 0 },
});
const get = api.get;

const userToken = () => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });

interface Window {
  report: string;
  state: string;
  generatedAt: string;
  table: string;
  total: number;
  offset: number;
  rows: ReportRow[];
  findings: Finding[];
}

describe('GET /api/reports/:id/rows', () => {
  it('asks for a token, and knows only the reports the registry has', async () => {
    expect((await get('/api/reports/escrow-gaps/rows')).status).toBe(401);
    const unknown = await get('/api/reports/no-such-report/rows', await userToken());
    expect(unknown.status).toBe(404);
  });

  it('waits for the first load as the report does, the load showing its progress meanwhile, then answers the rows', async () => {
    const token = await userToken();
    const holding = held.hold('security-posture');
    let settled = false;
    const answer = get('/api/reports/security-posture/rows?limit=5', token).then((response) => ((settled = true), response));
    let progress = (await get('/api/reports/security-posture/progress', token)).json<{ loading: boolean }>();
    for (let attempt = 0; attempt < 50 && !progress.loading; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      progress = (await get('/api/reports/security-posture/progress', token)).json<{ loading: boolean }>();
    }
    expect(progress.loading).toBe(true);
    expect(settled).toBe(false);
    holding.open();
    const response = await answer;
    expect(response.status).toBe(200);
    const window = response.json<Window>();
    const report = (await get('/api/reports/security-posture', token)).json<ReportResult>();
    expect(window).toMatchObject({ report: 'security-posture', state: 'loaded', generatedAt: report.generatedAt, table: '', total: report.rows.length, offset: 0 });
    expect(window.rows.length).toBe(Math.min(5, report.rows.length));
  });

  it("answers every row of report 4 in windows, as the report's JSON has them, with the counts the filters give", async () => {
    const token = await userToken();
    const report = (await get('/api/reports/escrow-gaps', token)).json<ReportResult>();
    expect(report.rows).toHaveLength(LARGE_ROWS);
    const byId = new Map(report.rows.map((row) => [row.id, row]));
    const seen = new Set<unknown>();
    const findingsSeen: unknown[] = [];
    for (let offset = 0; offset < LARGE_ROWS; offset += 1000) {
      const window = (await get(`/api/reports/escrow-gaps/rows?sort=device&dir=desc&offset=${offset}&limit=1000`, token)).json<Window>();
      expect(window.total).toBe(LARGE_ROWS);
      for (const row of window.rows) {
        expect(row).toEqual(byId.get(row.id));
        seen.add(row.id);
      }
      // Each window carries its own rows' findings, and only theirs.
      const inWindow = new Set(window.rows.map((row) => row.id));
      expect(window.findings.every((finding) => inWindow.has(finding.subjectId))).toBe(true);
      findingsSeen.push(...window.findings);
    }
    expect(seen.size).toBe(LARGE_ROWS);
    expect(findingsSeen).toHaveLength(report.findings.length);
    const subjects = new Set(report.findings.map((finding) => finding.subjectId));
    const withFinding = report.rows.filter((row) => subjects.has(String(row.id))).length;
    expect((await get('/api/reports/escrow-gaps/rows?open=true', token)).json<Window>().total).toBe(withFinding); // no decision in force: every finding is open
    const kind = report.findings[0]!.kind;
    const ofKind = new Set(report.findings.filter((finding) => finding.kind === kind).map((finding) => finding.subjectId));
    expect((await get(`/api/reports/escrow-gaps/rows?finding=${kind}&open=true`, token)).json<Window>().total).toBe(report.rows.filter((row) => ofKind.has(String(row.id))).length);
    const hyperlinks = (await get(`/api/reports/escrow-gaps/rows?q=${encodeURIComponent('=hyperlink')}&limit=1`, token)).json<Window>();
    expect(hyperlinks.total).toBe(report.rows.filter((row) => String(row.device).startsWith('=HYPERLINK')).length);
  });

  it('sorts each column once per load, before its first window, however many windows read it; a 304 for a window the client has', async () => {
    const token = await userToken();
    const report = (await get('/api/reports/escrow-gaps', token)).json<ReportResult>();
    const before = windows.sortBuilds;
    const first = await get('/api/reports/escrow-gaps/rows?sort=user&offset=100', token);
    const second = await get('/api/reports/escrow-gaps/rows?sort=user&dir=desc&offset=2000', token);
    const third = await get('/api/reports/escrow-gaps/rows?sort=device&q=pc', token);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    // The load's first window (an earlier test's) waited while every column's order was built, a step per turn.
    expect(windows.sortBuilds - before).toBe(0);
    expect(windows.sortBuilds).toBeGreaterThanOrEqual(report.columns.length);
    const again = await get('/api/reports/escrow-gaps/rows?sort=user&offset=100', token, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it("serves each of report 6's tables on its own", async () => {
    const token = await userToken();
    const report = (await get('/api/reports/startup-reliability', token)).json<ReportResult>();
    const tables = [...new Set(report.columns.map((column) => column.section))];
    expect(tables.length).toBeGreaterThan(1);
    for (const table of tables) {
      const window = (await get(`/api/reports/startup-reliability/rows?table=${table}&limit=1000`, token)).json<Window>();
      expect(window.table).toBe(table);
      expect(window.total).toBe(report.rows.filter((row) => row.section === table).length);
      expect(window.rows.every((row) => row.section === table)).toBe(true);
    }
    expect((await get('/api/reports/startup-reliability/rows', token)).json<Window>().table).toBe(tables[0]);
  });

  it('narrows to the rows with a finding accepted or snoozed by the tenant’s decisions, and a decision changed is a window changed', async () => {
    const token = await userToken();
    const report = (await get('/api/reports/escrow-gaps', token)).json<ReportResult>();
    const finding = report.findings[0]!;
    expect((await get('/api/reports/escrow-gaps/rows?triage=accepted', token)).json<Window>().total).toBe(0);
    const triager = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE, TRIAGER_ROLE] });
    const decide = async (body: Record<string, string>) => {
      const response = await request(`${api.base}/api/reports/escrow-gaps/triage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${triager}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fingerprint: finding.fingerprint, ...body }),
      });
      await response.body.text();
      expect(response.statusCode).toBe(200);
    };
    await decide({ action: 'snooze', reason: 'waiting for a new disk', until: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) });
    const snoozed = (await get('/api/reports/escrow-gaps/rows?triage=snoozed', token)).json<Window>();
    expect(snoozed.rows.map((row) => row.id)).toEqual([finding.subjectId]);
    const accepted = await get('/api/reports/escrow-gaps/rows?triage=accepted', token);
    expect(accepted.json<Window>().total).toBe(0);
    // The same query and the same finding decided on, now accepted: another ETag, so a client holding the old window is not told 304.
    await decide({ action: 'accept', reason: 'kiosk' });
    const since = await get('/api/reports/escrow-gaps/rows?triage=accepted', token, { 'if-none-match': String(accepted.headers.etag) });
    expect(since.status).toBe(200);
    expect(since.json<Window>().rows.map((row) => row.id)).toEqual([finding.subjectId]);
    await decide({ action: 'reopen' });
    expect((await get('/api/reports/escrow-gaps/rows?triage=accepted', token)).json<Window>().total).toBe(0);
  });

  it('gives the rows the tab gives a report it holds whole, for the same table, order and filters: one code in the browser and on the server', async () => {
    const token = await userToken();
    for (const id of ['startup-reliability', 'assignment-hygiene'] as const) {
      const report = (await get(`/api/reports/${id}`, token)).json<ReportResult>();
      const kind = report.findings[0]?.kind ?? null;
      expect(kind).not.toBeNull();
      for (const table of [...new Set(report.columns.map((column) => column.section ?? null))]) {
        const keys = report.columns.filter((column) => (column.section ?? null) === table).map((column) => column.key);
        const none: WindowFilters = { sort: null, q: '', finding: null, open: false, triage: null };
        const cases: WindowFilters[] = [
          none,
          ...keys.flatMap((columnKey) => (['ascending', 'descending'] as const).map((direction) => ({ ...none, sort: { columnKey, direction } }))),
          { ...none, q: 'a', open: true },
          { ...none, sort: { columnKey: keys[0]!, direction: 'descending' }, finding: kind, open: true },
        ];
        for (const filters of cases) {
          const parameters = new URLSearchParams({ limit: '1000', q: filters.q, open: String(filters.open) });
          if (table !== null) parameters.set('table', table);
          if (filters.sort) parameters.set('sort', filters.sort.columnKey);
          if (filters.sort) parameters.set('dir', filters.sort.direction === 'descending' ? 'desc' : 'asc');
          if (filters.finding) parameters.set('finding', filters.finding);
          const window = (await get(`/api/reports/${id}/rows?${parameters.toString()}`, token)).json<Window>();
          const inBrowser = browserRows(report, table, filters, new Map());
          expect(window.total, `${id} ${parameters.toString()}`).toBe(inBrowser.length);
          expect(window.rows, `${id} ${parameters.toString()}`).toEqual(inBrowser.slice(0, 1000));
        }
      }
    }
  });

  it('refuses what it cannot take with a 400 naming the parameter', async () => {
    const token = await userToken();
    const cases: Array<[string, string, string]> = [
      ['limit=0', 'limit', 'limit: "0" is not a whole number from 1 to 1,000.'],
      ['limit=1001', 'limit', 'limit: "1001" is not a whole number from 1 to 1,000.'],
      ['offset=-3', 'offset', 'offset: "-3" is not a whole number from 0.'],
      ['sort=colour', 'sort', 'sort: "colour" is not a column of this table;'],
      ['dir=up', 'dir', 'dir: "up" is not "asc" or "desc".'],
      ['finding=lost', 'finding', 'finding: "lost" is not a finding kind of this report;'],
      ['open=yes', 'open', 'open: "yes" is not "true" or "false".'],
      ['triage=reopened', 'triage', 'triage: "reopened" is not "accepted" or "snoozed".'],
      ['triage=accepted&open=true', 'triage', 'triage: a finding accepted or snoozed is not open;'],
      ['table=apps', 'table', 'table: this report has one table; leave table out.'],
    ];
    for (const [parameters, parameter, message] of cases) {
      const response = await get(`/api/reports/escrow-gaps/rows?${parameters}`, token);
      expect(response.status, parameters).toBe(400);
      const { error } = response.json<{ error: { status: number; message: string; parameter: string } }>();
      expect(error.status).toBe(400);
      expect(error.parameter).toBe(parameter);
      expect(error.message.startsWith(message), error.message).toBe(true);
    }
  });

  it('answers a load error as the report does, never as an empty window; a later load is a window with its own generatedAt', async () => {
    const token = await userToken();
    const before = (await get('/api/reports/connector-health/rows', token)).json<Window>();
    expect(before.state).toBe('loaded');
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance', status: 403, times: 2 });
    const failed = await get('/api/reports/startup-reliability/rows?refresh=true', token);
    const report = failed.json<Record<string, unknown>>();
    expect(failed.status).toBe(200);
    expect(report).toMatchObject({ report: 'startup-reliability', state: 'load-error', error: { status: 403 } });
    expect(report).not.toHaveProperty('rows');
    expect(report).not.toHaveProperty('total');
    harness.sim.faults.clear();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = (await get('/api/reports/connector-health/rows?refresh=true', token)).json<Window>();
    expect(later.generatedAt).not.toBe(before.generatedAt);
    expect(later.generatedAt).toBe((await get('/api/reports/connector-health', token)).json<ReportResult>().generatedAt);
  });
});

describe('GET /api/reports/:id.csv, written as it is made', () => {
  it('sends the same bytes as the whole-text CSV, the formula guard included', async () => {
    const token = await userToken();
    const report = (await get('/api/reports/escrow-gaps', token)).json<ReportResult>();
    const response = await request(`${api.base}/api/reports/escrow-gaps.csv`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(bytes.equals(Buffer.from(reportToCsv(report), 'utf8'))).toBe(true);
    const lines = bytes.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(LARGE_ROWS + 2);
    expect(lines.some((line) => line.startsWith(`"'=HYPERLINK(""x"", ""PC-`))).toBe(true);
    expect(lines.some((line) => line.startsWith('=') || line.startsWith('"='))).toBe(false);
  });

  it('stops making the CSV when the client goes, without ending the answer', async () => {
    // Rows enough that the socket's buffers fill long before the end (about 40 MB of CSV).
    const report = enlarged(await loadReport('escrow-gaps', harness.client()), 300_000);
    const full = gate();
    let slices = 0;
    let written: Promise<void> | undefined;
    let answer: ServerResponse | undefined;
    const csvServer = createServer((_req, res) => {
      answer = res;
      const write = res.write.bind(res) as (chunk: string) => boolean;
      res.write = ((chunk: string) => {
        slices += 1;
        const room = write(chunk);
        if (!room) full.open();
        return room;
      }) as typeof res.write;
      written = writeCsv(res, report);
    });
    await new Promise<void>((resolve) => csvServer.listen(0, '127.0.0.1', resolve));
    try {
      // A client that asks and never reads: the server's buffer fills, then the client goes.
      const client = connect((csvServer.address() as AddressInfo).port, '127.0.0.1');
      client.pause();
      client.write('GET /report.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await full.opened;
      client.destroy();
      await written;
      // The header and fewer slices than the report has: it stopped, and never said it was done.
      expect(slices).toBeGreaterThan(1);
      expect(slices).toBeLessThan(1 + Math.ceil(report.rows.length / CSV_ROWS_PER_SLICE));
      expect(answer!.writableEnded).toBe(false);
    } finally {
      csvServer.closeAllConnections();
      await new Promise((resolve) => csvServer.close(resolve));
    }
  });
});

describe('windows built ahead', () => {
  it("builds a large load's windows a step per turn of the event loop, once however many ask", async () => {
    const result = enlarged(await loadReport('escrow-gaps', harness.client()));
    const fresh = new ReportWindows();
    let turns = 0;
    let built = false;
    const otherWork = (async () => {
      while (!built) {
        turns += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const ready = windowsPrepared(fresh, result);
    expect(windowsPrepared(fresh, result)).toBe(ready);
    await ready;
    built = true;
    await otherWork;
    // Other work ran between the steps: a request waiting beside the build is answered meanwhile.
    expect(turns).toBeGreaterThan(10);
    expect(fresh.sortBuilds).toBe(fresh.shape(result).columnsOf('').length);
  });

  it('builds the index once when a CSV export meets windows being prepared, each taking steps of the one build', async () => {
    const result = enlarged(await loadReport('escrow-gaps', harness.client()));
    const fresh = new ReportWindows();
    const csvServer = createServer((_req, res) => void writeCsv(res, result, fresh));
    await new Promise<void>((resolve) => csvServer.listen(0, '127.0.0.1', resolve));
    try {
      // Both start before either has taken a step: the preparation and the export's index meet mid-build.
      const ready = windowsPrepared(fresh, result);
      const exported = await request(`http://127.0.0.1:${(csvServer.address() as AddressInfo).port}/report.csv`);
      const text = await exported.body.text();
      await ready;
      expect(text).toBe(reportToCsv(result));
      expect(fresh.indexBuilds).toBe(1);
    } finally {
      csvServer.closeAllConnections();
      await new Promise((resolve) => csvServer.close(resolve));
    }
  });
});
