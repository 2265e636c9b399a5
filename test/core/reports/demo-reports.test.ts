import { describe, expect, it } from 'vitest';
import { REPORTS, REPORT_IDS, reportDefinition } from '../../../src/core/reports/registry.js';
import type { ReportId } from '../../../src/core/reports/report-model.js';
import { cellTone } from '../../../src/core/reports/report-model.js';
import { V1_COVERAGE_NOTICE } from '../../../src/core/reports/assignment-hygiene/derive.js';
import { LAPS_MAY_BE_IN_AD, LAPS_NOT_SUPPORTED, joinTypeNotice } from '../../../src/core/reports/escrow-gaps/derive.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';
import { demoApprovedBaseline } from '../../support/demo-baseline.js';
import { declaredFindingsFor } from '../../../src/sim/tenants/sim-tenant.js';
import { ROW_SCOPE_TAGS_KEY } from '../../../src/core/viewer-scope/scope-tag-ids.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant });

const key = (finding: { kind: string; subjectId: string }) => `${finding.kind} ${finding.subjectId.toLowerCase()}`;

describe('the reports on the demo tenant', () => {
  it('tells how far a load has got, per source, in records', async () => {
    const progress: Array<{ report: string; source: string; records: number }> = [];
    await loadReport('escrow-gaps', harness.client(), { now: () => now, onProgress: (step) => progress.push(step) });
    const devices = progress.filter((step) => step.source === 'managedDevices');
    // The list is asked for Windows devices only (`$filter`), so those are the records it reads.
    const windows = tenant.collections.managedDevices.filter((device) => device.operatingSystem === 'Windows');
    expect(devices.at(-1)).toEqual({ report: 'escrow-gaps', source: 'managedDevices', records: windows.length });
    expect(new Set(progress.map((step) => step.source))).toEqual(new Set(['managedDevices', 'recoveryKeys', 'deviceLocalCredentials']));
    harness.sim.graph.clearLog();
  });

  it.each(REPORT_IDS.flatMap((id) => [[id, false] as const, [id, true] as const]))(
    '%s (beta coverage: %s) finds exactly what the scenario declares, each request once',
    async (id: ReportId, betaCoverage: boolean) => {
      const graph = harness.client({ betaCoverage });
      const result = await loadReport(id, graph, { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
      expect(result.error).toBeNull();
      expect(result.state).toBe('loaded');
      const declared = new Set(
        declaredFindingsFor(tenant, { betaCoverage })
          .filter((finding) => finding.report === id)
          .map(key),
      );
      expect(new Set(result.findings.map(key))).toEqual(declared);
      expect(declared.size).toBeGreaterThan(0);

      // Each GET once, in a batch or not; `$batch` calls themselves repeat (report 2 sends the
      // group look-ups, then the deleted-items look-ups of the groups not found, and on /v1.0
      // coverage the objects' assignments to /beta/$batch, twenty to a call; report 3 reads
      // policies' settings 20 to a call, and the setting conflicts demo's policies make it two calls).
      const requests = harness.sim.graph.requests
        .filter((request) => !['/v1.0/$batch', '/beta/$batch'].includes(request.path))
        .map((request) => `${request.method} ${request.path}?${request.query}`);
      // The setting conflicts report and report 8, loaded alone, run reports 3's and 2's loads side by side (with no
      // cache to share them), and both read Intune's template list: report 3 for its baselines,
      // report 2 for its intents' platforms.
      const repeated = requests.filter((request, index) => requests.indexOf(request) !== index);
      expect(repeated).toEqual(id === 'setting-conflicts' || id === 'baseline-drift' ? ['GET /beta/deviceManagement/templates?'] : []);
      expect(harness.sim.graph.requests.every((request) => request.method === 'GET' || ['/v1.0/$batch', '/beta/$batch'].includes(request.path))).toBe(true);
      harness.sim.graph.clearLog();
    },
  );

  it.each(REPORT_IDS)(
    '%s says how to show each column: a format for each, numbers in number columns, a tone for each verdict, and each finding is a danger or warning',
    async (id) => {
      const result = await loadReport(id, harness.client(), { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
      harness.sim.graph.clearLog();
      for (const column of result.columns) {
        expect(['text', 'date', 'duration', 'count', 'number', 'status'], column.key).toContain(column.format);
        const rows = result.rows.filter((row) => (row.section ?? undefined) === column.section);
        const values = rows.map((row) => row[column.key]).filter((value) => value !== null);
        if (column.format === 'count' || column.format === 'duration' || column.format === 'number')
          expect(
            values.every((value) => typeof value === 'number'),
            column.key,
          ).toBe(true);
        if (column.format === 'count')
          expect(
            values.every((value) => Number.isInteger(value)),
            column.key,
          ).toBe(true);
        if (column.format === 'duration') expect(column.unit, column.key).toMatch(/^(seconds|minutes)$/);
        if (column.format === 'status') expect(column.toneKey ?? column.tones, `${column.key} is a verdict`).toBeDefined();
        if (column.toneKey)
          expect(
            rows.every((row) => row[column.key] === null || cellTone(row, column) !== null),
            column.key,
          ).toBe(true);
      }
      // A row a finding is about shows it in a loud tone somewhere.
      const toned = result.columns.filter((column) => column.toneKey || column.tones);
      const loud = new Set(result.rows.filter((row) => toned.some((column) => ['danger', 'warning'].includes(String(cellTone(row, column))))).map((row) => row.id));
      if (toned.length > 0) expect(result.findings.filter((finding) => !loud.has(finding.subjectId)).map((finding) => finding.kind)).toEqual([]);
    },
  );
});

describe("the reports' charts on the demo tenant", () => {
  it.each(REPORT_IDS)('%s charts only cells of its own tables, and thresholds its result carries, and has something to draw', async (id) => {
    const result = await loadReport(id, harness.client(), { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
    harness.sim.graph.clearLog();
    for (const chart of reportDefinition(id).charts) {
      const columns = result.columns.filter((column) => column.section === chart.section);
      expect(
        columns.map((column) => column.key),
        chart.id,
      ).toEqual(expect.arrayContaining([chart.labelKey, chart.valueKey]));
      expect(['count', 'duration', 'number'], chart.id).toContain(columns.find((column) => column.key === chart.valueKey)?.format);
      if (chart.threshold) expect(typeof result.thresholds?.[chart.threshold.key], chart.id).toBe('number');
      const bars = result.rows.filter((row) => (row.section ?? undefined) === chart.section && Number(row[chart.valueKey]) > 0);
      expect(bars.length, chart.id).toBeGreaterThan(0);
    }
  });
});

describe("the reports' columns and rows describe themselves", () => {
  /** The cell each table's rows are named by: what the tab's list of name keys gave before the reports declared it. */
  const NAMED_BY: Record<ReportId, Record<string, string>> = {
    'connector-health': { '': 'name' },
    'assignment-hygiene': { '': 'name' },
    'security-posture': { '': 'policy' },
    'escrow-gaps': { '': 'device' },
    'admin-approval': { coverage: 'area', policies: 'policy', requests: 'requested' },
    'startup-reliability': { devices: 'device', apps: 'app', models: 'modelName' },
    'setting-conflicts': { '': 'setting' },
    'baseline-drift': { '': 'policy' },
  };

  it.each(REPORT_IDS)('%s names each table by one declared column, asks of devices only in its tables, and gives wide room only to text', async (id) => {
    const result = await loadReport(id, harness.client(), { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
    harness.sim.graph.clearLog();
    const tables = [...new Set(result.columns.map((column) => column.section ?? ''))];
    const named = Object.fromEntries(
      tables.map((table) => {
        const names = result.columns.filter((column) => (column.section ?? '') === table && column.role === 'name');
        expect(names.length, `${id} ${table}`).toBe(1);
        return [table, names[0]!.key];
      }),
    );
    expect(named).toEqual(NAMED_BY[id]);
    for (const table of Object.keys(reportDefinition(id).rowSubjects ?? {})) expect(tables).toContain(table);
    for (const column of result.columns.filter((column) => column.role === 'wide')) expect(column.format, `${id} ${column.key}`).toBe('text');
  });

  it.each(REPORT_IDS)('%s declares that its rows carry scope tags exactly when they do, read where Graph gives them (beta)', async (id) => {
    // A post for one scope tag holds those reports. Objects carry `roleScopeTagIds` on beta only, so
    // report 4, and report 2's /v1.0 kinds, carry them only with complete coverage.
    const result = await loadReport(id, harness.client({ betaCoverage: true }), { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
    harness.sim.graph.clearLog();
    expect(
      result.rows.some((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string'),
      `${id} rows carry scope tags`,
    ).toBe(REPORTS.scopeTagged.includes(id));
  });

  it('posts report 4, then report 1, when no report is named, and keeps that out of the catalogue', () => {
    expect(REPORTS.postedByDefault).toEqual(['escrow-gaps', 'connector-health']);
    expect(REPORTS.catalogue().some((presentation) => 'postedByDefault' in presentation)).toBe(false);
    expect(REPORTS.scopeTagged).toEqual(['assignment-hygiene', 'security-posture', 'escrow-gaps', 'baseline-drift']);
    expect(REPORTS.catalogue().some((presentation) => 'scopeTagged' in presentation)).toBe(false);
    expect(REPORTS.catalogue().find((presentation) => presentation.id === 'startup-reliability')?.rowSubjects).toEqual({ devices: 'device' });
  });
});

describe("report 2 when Graph leaves out an object's assignments", () => {
  it('shows the object as not checked, and makes no "never assigned" finding of it', async () => {
    harness.sim.faults.add({
      path: '/v1.0/deviceAppManagement/mobileApps',
      rawBody: () => JSON.stringify({ value: [{ '@odata.type': '#microsoft.graph.win32LobApp', id: '0d5c1e2a-0000-4000-8000-00000000a551', displayName: 'Contoso Timesheets' }] }),
      times: 1,
    });
    const report = await loadReport('assignment-hygiene', harness.client());
    expect(report.rows.find((row) => row.name === 'Contoso Timesheets')).toMatchObject({ status: 'Could not check: Graph returned no assignments for it' });
    expect(report.findings.filter((finding) => finding.subjectName.includes('Contoso Timesheets'))).toEqual([]);
  });
});

describe('what /v1.0 cannot show, on the demo tenant (issue 11, points 3 and 6)', () => {
  const beta = (path: string) => path.replace('/v1.0/', '/beta/');
  /** The demo tenant's objects of kinds that /v1.0 leaves out of these collections. */
  const BETA_ONLY_OBJECTS = [
    'Windows - Legacy VPN',
    'iOS - Exchange email',
    'Windows - Wi-Fi (Corp)',
    'Microsoft Teams',
    'AOSP - Compliance (RealWear)',
    'Microsoft 365 Apps for enterprise',
  ];
  const COLLECTIONS = ['/v1.0/deviceManagement/deviceConfigurations', '/v1.0/deviceManagement/deviceCompliancePolicies', '/v1.0/deviceAppManagement/mobileApps'];

  it('report 2 on /v1.0 (the default) misses the beta-only objects, says which kinds it cannot show, and reads no beta twin', async () => {
    const report = await loadReport('assignment-hygiene', harness.client());
    const names = report.rows.map((row) => String(row.name));
    for (const name of BETA_ONLY_OBJECTS) {
      expect(names).not.toContain(name);
    }
    expect(report.notice).toContain(V1_COVERAGE_NOTICE);
    const paths = harness.sim.graph.requests.map((request) => request.path);
    for (const path of COLLECTIONS) {
      expect(paths).toContain(path);
      expect(paths).not.toContain(beta(path));
    }
  });

  it('report 2 with GRAPH_BETA_COVERAGE reads the beta twins instead, shows those objects, and has no coverage caveat', async () => {
    const report = await loadReport('assignment-hygiene', harness.client({ betaCoverage: true }));
    const names = report.rows.map((row) => String(row.name));
    for (const name of BETA_ONLY_OBJECTS) {
      expect(names).toContain(name);
    }
    expect(report.notice ?? '').not.toContain('GRAPH_BETA_COVERAGE');
    const paths = harness.sim.graph.requests.map((request) => request.path);
    for (const path of COLLECTIONS) {
      expect(paths).toContain(beta(path));
      expect(paths).not.toContain(path);
    }
  });

  it('report 4 keeps Cloud PCs out of the key finding, and sets hybrid-joined devices apart where the join type is known', async () => {
    const onV1 = await loadReport('escrow-gaps', harness.client());
    const cloudPcs = onV1.rows.filter((row) => String(row.note ?? '').startsWith('Windows 365 Cloud PC'));
    expect(cloudPcs).toHaveLength(2);
    expect(cloudPcs.every((row) => row.recoveryKey === 'not applicable')).toBe(true);
    expect(onV1.findings.filter((finding) => cloudPcs.some((row) => row.id === finding.subjectId)).map((finding) => finding.kind)).toEqual(['missing-laps-password']);
    expect(onV1.notice).toContain(joinTypeNotice({ keys: true, laps: true }));
    expect(onV1.findings.some((finding) => finding.kind === 'recovery-key-not-in-entra')).toBe(false);
    expect(onV1.rows.some((row) => row.lapsPassword === LAPS_NOT_SUPPORTED || row.lapsPassword === LAPS_MAY_BE_IN_AD)).toBe(false);
    expect(onV1.uncheckedSubjects).toEqual([]);

    const onBeta = await loadReport('escrow-gaps', harness.client({ betaCoverage: true }));
    expect(onBeta.findings.filter((finding) => finding.kind === 'recovery-key-not-in-entra')).toHaveLength(2);
    expect(onBeta.notice ?? '').not.toContain('GRAPH_BETA_COVERAGE');
    expect(onBeta.notice ?? '').not.toContain('the join type is not read');
    expect(onBeta.rows.filter((row) => String(row.note ?? '').startsWith('Hybrid joined'))).toHaveLength(4);
    // LAPS by join type: the workplace-joined device is not supported, the hybrid one without a
    // password in Entra ID may be backed up to AD, and neither is a finding.
    const notSupported = onBeta.rows.filter((row) => row.lapsPassword === LAPS_NOT_SUPPORTED);
    const mayBeInAd = onBeta.rows.filter((row) => row.lapsPassword === LAPS_MAY_BE_IN_AD);
    expect(notSupported.map((row) => row.device)).toEqual(['CONTOSO-0250']);
    expect(mayBeInAd.map((row) => row.device)).toEqual(['CONTOSO-0251']);
    const notFindings = new Set([...notSupported, ...mayBeInAd].map((row) => String(row.id)));
    expect(onBeta.findings.filter((finding) => notFindings.has(finding.subjectId))).toEqual([]);
    expect(onV1.findings.filter((finding) => notFindings.has(finding.subjectId)).map((finding) => finding.kind)).toEqual(['missing-laps-password', 'missing-laps-password']);
    // The hybrid one is left unchecked, with the fingerprint its /v1.0 finding had, so that finding stays open.
    const v1Finding = onV1.findings.find((finding) => finding.subjectId === mayBeInAd[0]!.id)!;
    expect(onBeta.uncheckedSubjects).toEqual([{ kind: 'missing-laps-password', subjectId: String(mayBeInAd[0]!.id), fingerprint: v1Finding.fingerprint }]);
  });
});
