import { describe, expect, it } from 'vitest';
import { CHANGED_COLUMN_KEY, ReportWindows, parseWindowQuery, windowQuery } from '../../../../src/core/reports/window/report-window.js';
import type { WindowQuery } from '../../../../src/core/reports/window/report-window.js';
import type { Finding, ReportColumn, ReportResult, ReportRow } from '../../../../src/core/reports/report-model.js';
import type { FindingKindTable } from '../../../../src/core/findings/finding-kinds.js';
import { rowSearchText, sortedOrder, visibleRows, worstFirstOrder } from './window-reference.js';
import { findingKind, findingsBySubject } from '../../../../src/core/findings/finding-kinds.js';
import { splitByTriage } from '../../../../src/core/triage/triage-book.js';
import type { TriageDecision } from '../../../../src/core/triage/triage-book.js';
import { reportSections } from '../../../../src/tab/reports/report-sections.js';
import { withChangedColumn } from '../../../../src/tab/reports/changed-column.js';

const REMEDIATION = { why: 'Why.', steps: ['Fix it.'], sources: [{ title: 'Learn', url: 'https://learn.microsoft.com/' }] };
const KINDS: FindingKindTable = {
  noKey: { label: 'Devices without an escrowed BitLocker key', severity: 'high', remediation: REMEDIATION },
  stale: { label: 'Devices not seen for 30 days', severity: 'low', remediation: REMEDIATION },
  noLaps: { label: 'Devices without an escrowed LAPS password', severity: 'medium', remediation: REMEDIATION },
};

const COLUMNS: ReportColumn[] = [
  { key: 'device', label: 'Device', available: true, format: 'text' },
  { key: 'lastSync', label: 'Last sync', available: true, format: 'date' },
  { key: 'storage', label: 'Free storage', available: true, format: 'number' },
  { key: 'recoveryKey', label: 'Recovery key', available: true, format: 'date' },
  { key: 'lapsPassword', label: 'LAPS password', available: false, format: 'date' },
];

const NAMES = ['PC-10', 'pc-2', 'Éclair', 'eclair', 'Zebra', 'alpha 7', 'ALPHA 07', 'pc-2', 'beta', 'Δelta'];

/** A table with ties, empty cells, mixed case, accents, digits, a column of words and dates, and an n/a column whose cells hold text. */
function sampleRows(count: number): ReportRow[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `device-${index}`,
    link: index % 7 === 0 ? null : `https://intune.microsoft.com/#device/${index}`,
    device: index % 11 === 5 ? null : `${NAMES[index % NAMES.length]}${index % 3 === 0 ? '' : `-${index % 4}`}`,
    lastSync: index % 9 === 4 ? null : new Date(Date.UTC(2026, 0, 1 + (index % 17), index % 5)).toISOString(),
    storage: index % 6 === 1 ? null : (index * 37) % 23,
    recoveryKey: index % 5 === 0 ? 'missing' : index % 5 === 1 ? null : new Date(Date.UTC(2025, 5, 1 + (index % 13))).toISOString(),
    lapsPassword: index % 2 === 0 ? 'secret-looking' : null,
  }));
}

function findingsFor(rows: readonly ReportRow[]): Finding[] {
  const findings: Finding[] = [];
  rows.forEach((row, index) => {
    const kinds = [index % 4 === 0 ? 'noKey' : null, index % 6 === 0 ? 'stale' : null, index % 5 === 2 ? 'noLaps' : null].filter((kind): kind is string => kind !== null);
    for (const kind of kinds)
      findings.push({ kind, subjectId: String(row.id), subjectName: String(row.device), detail: `${kind} for ${String(row.id)}`, fingerprint: `${kind}:${String(row.id)}` });
  });
  return findings;
}

function resultOf(rows: ReportRow[], columns = COLUMNS, extra: Partial<ReportResult> = {}): ReportResult {
  return {
    report: 'escrow-gaps',
    title: 'Escrow gaps',
    state: 'loaded',
    error: null,
    notice: null,
    columns,
    rows,
    findings: findingsFor(rows),
    findingKinds: KINDS,
    unchecked: [],
    uncheckedSubjects: [],
    notChecked: [],
    generatedAt: '2026-02-01T00:00:00.000Z',
    ...extra,
  };
}

const query = (overrides: Partial<WindowQuery> = {}): WindowQuery => windowQuery('', { limit: 1000, ...overrides });
const ids = (rows: readonly ReportRow[]) => rows.map((row) => row.id);

/** Decisions in force for some findings: accepted and snoozed ones are not open. */
function decisionsFor(findings: readonly Finding[]): Map<string, TriageDecision> {
  const decisions = new Map<string, TriageDecision>();
  findings.forEach((finding, index) => {
    if (index % 3 !== 0) return;
    decisions.set(finding.fingerprint, {
      fingerprint: finding.fingerprint,
      report: 'escrow-gaps',
      kind: finding.kind,
      subjectId: finding.subjectId,
      subjectName: finding.subjectName,
      state: index % 2 === 0 ? 'accepted' : 'snoozed',
      reason: 'known',
      until: index % 2 === 0 ? null : '2999-01-01',
      by: { objectId: 'a', name: 'A', username: 'a@contoso.example' },
      at: '2026-01-01T00:00:00.000Z',
    });
  });
  return decisions;
}

describe('a report window: order', () => {
  const rows = sampleRows(400);
  const result = resultOf(rows);

  it('orders every column both ways exactly as the tab does, empty cells last and ties in the report order', () => {
    const windows = new ReportWindows();
    for (const column of COLUMNS) {
      for (const [dir, direction] of [
        ['asc', 'ascending'],
        ['desc', 'descending'],
      ] as const) {
        const tab = Array.from(sortedOrder(rows, { columnKey: column.key, direction }), (index) => rows[index]!.id);
        expect(ids(windows.window(result, query({ sort: column.key, dir }), new Map()).rows), `${column.key} ${dir}`).toEqual(tab);
      }
    }
    const byName = windows.window(result, query({ sort: 'device' }), new Map()).rows;
    expect(byName.at(-1)!.device).toBeNull();
    expect(windows.window(result, query({ sort: 'device', dir: 'desc' }), new Map()).rows.at(-1)!.device).toBeNull();
  });

  it('builds a column order once per load, whichever direction and however often it is asked', () => {
    const windows = new ReportWindows();
    windows.window(result, query({ sort: 'device' }), new Map());
    windows.window(result, query({ sort: 'device', dir: 'desc', offset: 50 }), new Map());
    windows.window(result, query({ sort: 'device', q: 'pc' }), new Map());
    expect(windows.sortBuilds).toBe(1);
    windows.window(result, query({ sort: 'storage' }), new Map());
    expect(windows.sortBuilds).toBe(2);
    windows.window(resultOf(sampleRows(400)), query({ sort: 'device' }), new Map());
    expect(windows.sortBuilds).toBe(3); // a new load is a new order
  });

  it('built ahead a step at a time, a large table has the orders the tab gives, and no query builds one again', () => {
    // More distinct names than one natively sorted run, in no order, with case, accents and digits to fold.
    const large: ReportRow[] = sampleRows(20_000).map((row, index) => ({ ...row, device: index % 13 === 0 ? null : `${NAMES[index % NAMES.length]}-${(index * 7_919) % 20_011}` }));
    const largeResult = resultOf(large);
    const windows = new ReportWindows();
    let steps = 0;
    for (const _ of windows.prepare(largeResult)) steps += 1;
    expect(steps).toBeGreaterThan(10);
    expect(windows.sortBuilds).toBe(COLUMNS.length);
    for (const column of ['device', 'lastSync', 'storage']) {
      for (const [dir, direction] of [
        ['asc', 'ascending'],
        ['desc', 'descending'],
      ] as const) {
        const tab = Array.from(sortedOrder(large, { columnKey: column, direction }), (index) => large[index]!.id).slice(5_000, 6_000);
        expect(ids(windows.window(largeResult, query({ sort: column, dir, offset: 5_000 }), new Map()).rows), `${column} ${dir}`).toEqual(tab);
      }
    }
    expect(windows.sortBuilds).toBe(COLUMNS.length);
  });

  it('before any sort, shows the worst open finding first, then the report order, as the tab does', () => {
    const decisions = decisionsFor(result.findings);
    const open = splitByTriage(result.findings, decisions, new Date()).open;
    const openOf = findingsBySubject(open, KINDS);
    const rank = { high: 0, medium: 1, low: 2 } as const;
    const tab = Array.from(
      worstFirstOrder(rows, (row) => {
        const worst = openOf.get(String(row.id))?.[0];
        return worst ? rank[findingKind(KINDS, worst.kind).severity] : 3;
      }),
      (index) => rows[index]!.id,
    );
    const windows = new ReportWindows();
    expect(ids(windows.window(result, query(), decisions).rows)).toEqual(tab);
    // With no decisions in force, every finding is open.
    expect(ids(windows.window(result, query(), new Map()).rows)[0]).toBe('device-0');
  });
});

describe('a report window: the default order', () => {
  it("puts the worst finding first and keeps the report's own order within a rank, rows without a finding last", () => {
    // Report 6's own order is slowest start first; a blue screen (High) outranks a slow start (Low).
    const rows: ReportRow[] = ['slowest', 'clean', 'blue-screen-a', 'slow', 'blue-screen-b'].map((id) => ({ id, link: null, device: id }));
    const worst: Record<string, string> = { slowest: 'stale', 'blue-screen-a': 'noKey', slow: 'stale', 'blue-screen-b': 'noKey' };
    const findings: Finding[] = Object.entries(worst).map(([id, kind]) => ({ kind, subjectId: id, subjectName: id, detail: kind, fingerprint: `${kind}:${id}` }));
    const result = resultOf(rows, COLUMNS.slice(0, 1), { findings });
    expect(ids(new ReportWindows().window(result, query(), new Map()).rows)).toEqual(['blue-screen-a', 'blue-screen-b', 'slowest', 'slow', 'clean']);
  });
});

describe('a report window: filters', () => {
  const rows = sampleRows(300);
  const result = resultOf(rows);
  const searchText = rows.map((row) => rowSearchText(row, COLUMNS));

  it('matches every word of the text over the visible cells, case-insensitively, as the tab filter does', () => {
    const windows = new ReportWindows();
    for (const q of ['pc', 'PC-2 2026-01-0', '  éclair ', 'missing 2026', 'secret', 'zebra-1', 'nothing-like-this']) {
      const tab = visibleRows(rows, Int32Array.from(rows.keys()), searchText, q);
      const window = windows.window(result, query({ q }), new Map());
      expect(window.total, q).toBe(tab.length);
      expect(new Set(ids(window.rows)), q).toEqual(new Set(ids(tab)));
    }
    // The n/a column's cells are not visible, so its text matches nothing.
    expect(windows.window(result, query({ q: 'secret' }), new Map()).total).toBe(0);
  });

  it('keeps the filters a tenant’s viewers ask within a minute: a hundred and fifty distinct ones, asked over and over, are each worked out once', () => {
    const windows = new ReportWindows();
    const filters = Array.from({ length: 150 }, (_, index) => String(index));
    for (let round = 0; round < 3; round += 1) for (const q of filters) windows.window(result, query({ q, sort: 'device', offset: 5, limit: 10 }), new Map());
    expect(windows.filterBuilds).toBe(filters.length);
    // Each is still the tab's answer.
    for (const q of ['7', '149']) expect(windows.window(result, query({ q }), new Map()).total).toBe(visibleRows(rows, Int32Array.from(rows.keys()), searchText, q).length);
  });

  it('slices a filter kept through a large table in one step, not a step per sixteen thousand rows', () => {
    const large = resultOf(sampleRows(100_000));
    const windows = new ReportWindows();
    windows.window(large, query({ q: 'alpha', sort: 'device' }), new Map());
    // The same filter again, the window near its end: the rows are looked up by a bit each.
    const total = windows.window(large, query({ q: 'alpha', sort: 'device', limit: 1 }), new Map()).total;
    let steps = 0;
    const slicing = windows.windowSteps(large, query({ q: 'alpha', sort: 'device', offset: total - 10, limit: 10 }), new Map());
    let next = slicing.next();
    for (; !next.done; next = slicing.next()) steps += 1;
    expect(next.value.rows).toHaveLength(10);
    expect(steps).toBe(0);
  });

  it('narrows to a kind, to open findings, and to open findings of a kind (the tab’s kind toggle), for the caller’s decisions', () => {
    const windows = new ReportWindows();
    const decisions = decisionsFor(result.findings);
    const inForce = decisions;
    const open = splitByTriage(result.findings, decisions, new Date()).open;
    const subjects = (findings: readonly Finding[]) => new Set(findings.map((finding) => finding.subjectId));
    const expectRows = (narrow: Partial<WindowQuery>, expected: Set<string>) => {
      const window = windows.window(result, query(narrow), inForce);
      expect(window.total, JSON.stringify(narrow)).toBe(expected.size);
      expect(new Set(ids(window.rows))).toEqual(expected);
    };
    expectRows({ open: true }, subjects(open));
    expectRows({ finding: 'noKey' }, subjects(result.findings.filter((finding) => finding.kind === 'noKey')));
    expectRows({ finding: 'noKey', open: true }, subjects(open.filter((finding) => finding.kind === 'noKey')));
    // Decisions that could not be read: every finding open, as the tab counts them then.
    expect(windows.window(result, query({ open: true }), null).total).toBe(subjects(result.findings).size);
    // Text and narrowing together, after sorting.
    const both = windows.window(result, query({ q: 'pc', finding: 'stale', sort: 'device', dir: 'desc' }), inForce);
    expect(
      both.rows.every((row) => String(row.device).toLowerCase().includes('pc') && result.findings.some((finding) => finding.subjectId === row.id && finding.kind === 'stale')),
    ).toBe(true);
  });

  it('narrows to the rows with a finding accepted, or snoozed, now (the tab’s Accepted and Snoozed toggles), of a kind too', () => {
    const windows = new ReportWindows();
    const decisions = decisionsFor(result.findings);
    const split = splitByTriage(result.findings, decisions, new Date());
    const subjects = (findings: readonly Finding[]) => new Set(findings.map((finding) => finding.subjectId));
    for (const triage of ['accepted', 'snoozed'] as const) {
      expect(split[triage].length, triage).toBeGreaterThan(0);
      const window = windows.window(result, query({ triage }), decisions);
      expect(window.total, triage).toBe(subjects(split[triage]).size);
      expect(new Set(ids(window.rows))).toEqual(subjects(split[triage]));
      const ofKind = windows.window(result, query({ triage, finding: 'stale' }), decisions);
      expect(new Set(ids(ofKind.rows))).toEqual(subjects(split[triage].filter((finding) => finding.kind === 'stale')));
    }
    // Decisions that could not be read: nothing counts as decided, as the tab counts it then.
    expect(windows.window(result, query({ triage: 'accepted' }), null).total).toBe(0);
    // A snoozed finding accepted since moves from one to the other: the filter is kept per state, not per fingerprint.
    const acceptedBefore = subjects(split.accepted);
    const moved = split.snoozed.find((finding) => !acceptedBefore.has(finding.subjectId))!;
    const accepted = new Map(decisions).set(moved.fingerprint, { ...decisions.get(moved.fingerprint)!, state: 'accepted', until: null });
    expect(ids(windows.window(result, query({ triage: 'accepted' }), decisions).rows)).not.toContain(moved.subjectId);
    expect(ids(windows.window(result, query({ triage: 'accepted' }), accepted).rows)).toContain(moved.subjectId);
    expect(windows.decisionsBearing(result, accepted)).not.toBe(windows.decisionsBearing(result, decisions));
  });

  it('keeps a filter per set of decisions: a finding accepted since is no longer open in the next window', () => {
    const windows = new ReportWindows();
    const subjects = (findings: readonly Finding[]) => new Set(findings.map((finding) => finding.subjectId)).size;
    expect(windows.window(result, query({ open: true }), new Map()).total).toBe(subjects(result.findings));
    const decisions = decisionsFor(result.findings);
    const open = splitByTriage(result.findings, decisions, new Date()).open;
    expect(windows.window(result, query({ open: true }), decisions).total).toBe(subjects(open));
    expect(windows.window(result, query({ open: true }), new Map()).total).toBe(subjects(result.findings));
    // Decisions about another report's findings change nothing.
    expect(windows.window(result, query({ open: true }), new Map([['other-report:finding', { state: 'accepted' as const }]])).total).toBe(subjects(result.findings));
  });

  it('slices within bounds: an offset past the end is an empty slice of the same total', () => {
    const windows = new ReportWindows();
    const all = windows.window(result, query({ sort: 'storage' }), new Map()).rows;
    const page = windows.window(result, query({ sort: 'storage', offset: 290, limit: 50 }), new Map());
    expect(page.total).toBe(300);
    expect(ids(page.rows)).toEqual(ids(all.slice(290)));
    const past = windows.window(result, query({ offset: 5000, limit: 10 }), new Map());
    expect(past).toEqual({ total: 300, offset: 5000, rows: [] });
    const filtered = windows.window(result, query({ q: 'pc', offset: 3, limit: 2 }), new Map());
    expect(filtered.rows).toHaveLength(2);
    expect(filtered.offset).toBe(3);
  });

  it('hands back the rows as the report JSON has them, id and link included', () => {
    const windows = new ReportWindows();
    const [first] = windows.window(result, query({ limit: 1, sort: 'storage' }), new Map()).rows;
    expect(first).toBe(rows.find((row) => row.id === first!.id));
    expect(Object.keys(first!)).toEqual(expect.arrayContaining(['id', 'link', 'device']));
  });
});

describe('a report window: the rows’ findings', () => {
  it('gives the findings of the window’s rows only, each row’s worst first, as the tab lists a row’s findings', () => {
    const rows = sampleRows(300);
    const result = resultOf(rows);
    const windows = new ReportWindows();
    const window = windows.window(result, query({ sort: 'device', offset: 40, limit: 25 }), new Map());
    const found = windows.findingsOf(result, window.rows);
    const inWindow = new Set(ids(window.rows).map(String));
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found)).toEqual(new Set(result.findings.filter((finding) => inWindow.has(finding.subjectId))));
    const tabs = findingsBySubject(result.findings, KINDS);
    for (const id of inWindow) expect(found.filter((finding) => finding.subjectId === id)).toEqual(tabs.get(id) ?? []);
  });
});

describe('a report window: several tables and the audit log', () => {
  const columns: ReportColumn[] = [
    { key: 'device', label: 'Device', available: true, format: 'text', section: 'devices' },
    { key: 'bootSeconds', label: 'Boot', available: true, format: 'duration', unit: 'seconds', section: 'devices' },
    { key: 'app', label: 'App', available: true, format: 'text', section: 'apps' },
    { key: 'crashes', label: 'Crashes', available: true, format: 'count', section: 'apps' },
  ];
  const rows: ReportRow[] = [
    ...Array.from({ length: 30 }, (_, index) => ({ id: `d${index}`, link: null, section: 'devices', device: `Device ${index}`, bootSeconds: (index * 7) % 13 })),
    ...Array.from({ length: 12 }, (_, index) => ({ id: `a${index}`, link: null, section: 'apps', app: `App ${index % 5}`, crashes: index % 4 === 0 ? null : index })),
  ];
  const result = resultOf(rows, columns, {
    findings: [],
    auditLog: { state: 'read', since: '2026-01-01T00:00:00Z', changes: { D3: [{ at: '2026-01-20T00:00:00Z', by: 'x', activity: 'Patch', properties: [] }] } },
  });

  it('serves each table on its own, with its own columns, as the tab splits them', () => {
    const windows = new ReportWindows();
    const shape = windows.shape(result);
    expect(shape.tables).toEqual(['devices', 'apps']);
    expect(shape.columnsOf('apps')).toEqual(['app', 'crashes', CHANGED_COLUMN_KEY]);
    const sections = reportSections(
      { tables: { devices: 'Devices', apps: 'Applications' } },
      ...(Object.values(withChangedColumn(columns, rows, result.auditLog)) as [ReportColumn[], ReportRow[]]),
    );
    for (const section of sections) {
      const table = section.key!;
      expect(windows.window(result, query({ table, limit: 1000 }), new Map()).total).toBe(section.rows.length);
      for (const column of section.columns) {
        for (const dir of ['asc', 'desc'] as const) {
          const tab = Array.from(sortedOrder(section.rows, { columnKey: column.key, direction: dir === 'asc' ? 'ascending' : 'descending' }), (index) => section.rows[index]!.id);
          expect(ids(windows.window(result, query({ table, sort: column.key, dir }), new Map()).rows), `${table} ${column.key} ${dir}`).toEqual(tab);
        }
      }
    }
  });

  it('adds the last change the audit log holds to each row, as the tab does, and sorts by it', () => {
    const windows = new ReportWindows();
    const window = windows.window(result, query({ table: 'devices', sort: CHANGED_COLUMN_KEY, limit: 2 }), new Map());
    expect(window.rows[0]).toMatchObject({ id: 'd3', [CHANGED_COLUMN_KEY]: '2026-01-20T00:00:00Z' });
    expect(window.rows[1]![CHANGED_COLUMN_KEY]).toBeNull();
  });
});

describe('a report window: the parameters', () => {
  const shape = new ReportWindows().shape(resultOf(sampleRows(5)));
  const sectioned = { tables: ['devices', 'apps'], columnsOf: (table: string) => (table === 'devices' ? ['device'] : ['app']), kinds: [] };

  it('takes defaults and the last of a repeated parameter', () => {
    expect(parseWindowQuery({}, shape)).toEqual({ ok: true, query: query({ limit: 100 }) });
    expect(parseWindowQuery({ limit: ['5', '7'], sort: 'device', dir: 'desc', q: 'pc', finding: 'noKey', open: 'true', offset: '20' }, shape)).toEqual({
      ok: true,
      query: query({ limit: 7, sort: 'device', dir: 'desc', q: 'pc', finding: 'noKey', open: true, offset: 20 }),
    });
    expect(parseWindowQuery({ triage: 'snoozed', finding: 'noKey' }, shape)).toEqual({ ok: true, query: query({ limit: 100, triage: 'snoozed', finding: 'noKey' }) });
    expect(parseWindowQuery({ table: 'apps' }, sectioned)).toMatchObject({ ok: true, query: { table: 'apps' } });
    expect(parseWindowQuery({}, sectioned)).toMatchObject({ ok: true, query: { table: 'devices' } });
  });

  it('names each parameter it cannot take, with what it takes', () => {
    const errors: Array<[Record<string, string>, typeof shape, string, string]> = [
      [{ limit: '0' }, shape, 'limit', 'limit: "0" is not a whole number from 1 to 1,000.'],
      [{ limit: '1001' }, shape, 'limit', 'limit: "1001" is not a whole number from 1 to 1,000.'],
      [{ limit: 'ten' }, shape, 'limit', 'limit: "ten" is not a whole number from 1 to 1,000.'],
      [{ offset: '-1' }, shape, 'offset', 'offset: "-1" is not a whole number from 0.'],
      [{ offset: '1.5' }, shape, 'offset', 'offset: "1.5" is not a whole number from 0.'],
      [{ sort: 'colour' }, shape, 'sort', 'sort: "colour" is not a column of this table; it has "device", "lastSync", "storage", "recoveryKey", "lapsPassword".'],
      [{ dir: 'up' }, shape, 'dir', 'dir: "up" is not "asc" or "desc".'],
      [{ finding: 'lost' }, shape, 'finding', 'finding: "lost" is not a finding kind of this report; it has "noKey", "stale", "noLaps".'],
      [{ open: 'yes' }, shape, 'open', 'open: "yes" is not "true" or "false".'],
      [{ triage: 'reopened' }, shape, 'triage', 'triage: "reopened" is not "accepted" or "snoozed".'],
      [{ triage: 'accepted', open: 'true' }, shape, 'triage', 'triage: a finding accepted or snoozed is not open; ask for triage or for open=true, not both.'],
      [{ table: 'apps' }, shape, 'table', 'table: this report has one table; leave table out.'],
      [{ table: 'models' }, sectioned, 'table', 'table: "models" is not a table of this report; it has "devices", "apps".'],
      [{ table: 'apps', sort: 'device' }, sectioned, 'sort', 'sort: "device" is not a column of this table; it has "app".'],
      [{ finding: 'x' }, sectioned, 'finding', 'finding: this report has no finding kinds.'],
    ];
    for (const [parameters, against, parameter, message] of errors)
      expect(parseWindowQuery(parameters, against), JSON.stringify(parameters)).toEqual({ ok: false, error: { parameter, message } });
  });
});
