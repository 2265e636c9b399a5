import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { VIEWER_SCOPE_DEMO } from '../../../src/core/viewer-scope/demo.js';
import { ENTRA_ROLE_IDS } from '../../../src/core/viewer-scope/entra-roles.js';
import { loadRbacRecords } from '../../../src/core/viewer-scope/load.js';
import { scopeReport } from '../../../src/core/viewer-scope/scope-report.js';
import { ROW_SCOPE_TAGS_KEY } from '../../../src/core/viewer-scope/scope-tag-ids.js';
import { viewerScopeOf } from '../../../src/core/viewer-scope/scope.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { withoutEuropeAnalyticsRead } from '../../support/demo-roles.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

describe('the demo tenant through each administrator’s scope', () => {
  it("report 3's rows carry their policy's scope tags, and the regional administrator sees Europe's policies and their findings only", async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('security-posture', graph), loadRbacRecords(graph)]);
    expect(result.state).toBe('loaded');
    expect(result.rows.every((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string')).toBe(true);
    const { central, regional } = harness.sim.tenant.demoAdministrators!;

    const whole = scopeReport(result, viewerScopeOf(rbac, { objectId: central }));
    expect(whole.ok && whole.result).toBe(result);

    const europe = scopeReport(result, viewerScopeOf(rbac, { objectId: regional }));
    expect(europe.ok).toBe(true);
    if (!europe.ok) return;
    const policies = new Set(europe.result.rows.map((row) => row.policy));
    expect([...policies].sort()).toEqual([...VIEWER_SCOPE_DEMO.europePolicies, ...VIEWER_SCOPE_DEMO.bothPolicies].sort());
    expect(europe.result.findings.map((finding) => `${finding.kind} ${finding.subjectName}`).sort()).toEqual([
      'asr-rule-audit ASR - Standard protection',
      'baseline-outdated Security baseline for Windows (23H2)',
    ]);
    // The shared result's findings include those the regional administrator does not see.
    expect(result.findings.some((finding) => finding.subjectName === VIEWER_SCOPE_DEMO.americasPolicies[0])).toBe(true);
    expect(europe.result.notice).toMatch(/^Showing what your Intune role assignments let you see: scope tag Europe \(\d+ of \d+ rows\)\./);
  });

  it("report 2 on /v1.0: the beta-only kinds' rows carry their object's tags, the rest none, so the regional administrator sees Europe's beta-read objects and their findings only", async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('assignment-hygiene', graph), loadRbacRecords(graph)]);
    expect(result.state).toBe('loaded');
    const { central, regional } = harness.sim.tenant.demoAdministrators!;
    // /v1.0's profiles, compliance policies and apps have no `roleScopeTagIds` (the v1.0 metadata): not known, never Default.
    const untagged = result.rows.filter((row) => typeof row[ROW_SCOPE_TAGS_KEY] !== 'string');
    expect(new Set(untagged.map((row) => row.type))).toEqual(new Set(['Configuration profile', 'Compliance policy', 'App']));
    expect(result.rows.find((row) => row.name === 'Clear Teams cache')?.[ROW_SCOPE_TAGS_KEY]).toBe(VIEWER_SCOPE_DEMO.tags.europe);
    expect(result.rows.find((row) => row.name === 'Collect Defender logs')?.[ROW_SCOPE_TAGS_KEY]).toBe(VIEWER_SCOPE_DEMO.tags.americas);

    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: central }))).toEqual({ ok: true, result });
    const europe = scopeReport(result, viewerScopeOf(rbac, { objectId: regional }));
    expect(europe.ok).toBe(true);
    if (!europe.ok) return;
    const names = europe.result.rows.map((row) => String(row.name)).sort();
    // Report 3's settings catalog policies are report 2's objects too, with the same tags.
    expect(names).toEqual(['Clean up temp folders', 'Clear Teams cache', ...VIEWER_SCOPE_DEMO.europePolicies, ...VIEWER_SCOPE_DEMO.bothPolicies].sort());
    expect(europe.result.findings.map((finding) => `${finding.kind} ${finding.subjectName}`).sort()).toEqual([
      'assigned-to-missing-or-empty-groups Platform script: Clean up temp folders',
      'unassigned Remediation: Clear Teams cache',
    ]);
    // Findings the regional administrator does not see: of an Americas object, and of a profile read without tags.
    expect(result.findings.some((finding) => finding.subjectName.endsWith('Collect Defender logs'))).toBe(true);
    expect(result.findings.some((finding) => finding.subjectName.endsWith('Windows - Kiosk lockdown'))).toBe(true);
  });

  it('report 2 with complete coverage (beta): the profiles, compliance policies and apps carry their tags too', async () => {
    const graph = harness.client({ betaCoverage: true });
    const [result, rbac] = await Promise.all([REPORTS.load('assignment-hygiene', graph), loadRbacRecords(graph)]);
    expect(result.rows.every((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string')).toBe(true);
    const europe = scopeReport(result, viewerScopeOf(rbac, { objectId: harness.sim.tenant.demoAdministrators!.regional }));
    if (!europe.ok) throw new Error(europe.explanation);
    expect(europe.result.rows.map((row) => String(row.name)).sort()).toEqual(
      [...VIEWER_SCOPE_DEMO.europeObjects, ...VIEWER_SCOPE_DEMO.europePolicies, ...VIEWER_SCOPE_DEMO.bothPolicies].sort(),
    );
    expect(europe.result.findings.map((finding) => finding.subjectName).sort()).toEqual([
      'App: Contoso Expenses',
      'Configuration profile: Windows - Kiosk lockdown',
      'Platform script: Clean up temp folders',
      'Remediation: Clear Teams cache',
    ]);
  });

  it('report 4 on /v1.0 reads no scope tags: refused to the regional administrator, shown whole to the central one', async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('escrow-gaps', graph), loadRbacRecords(graph)]);
    expect(result.rows.some((row) => ROW_SCOPE_TAGS_KEY in row)).toBe(false);
    const { central, regional } = harness.sim.tenant.demoAdministrators!;
    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: central }))).toEqual({ ok: true, result });
    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: regional }))).toMatchObject({ ok: false, explanation: expect.stringMatching(/carry no scope tags/) });
  });

  it.each([
    ['complete coverage', { betaCoverage: true }],
    ['the scope on, default coverage', { scopeTags: true }],
  ] as const)(
    "report 4 read on beta (%s): each row carries its device's tags, and the regional administrator sees Europe's devices and their gaps only",
    async (_read, options) => {
      const graph = harness.client(options);
      const [result, rbac] = await Promise.all([REPORTS.load('escrow-gaps', graph), loadRbacRecords(graph)]);
      expect(result.rows.every((row) => typeof row[ROW_SCOPE_TAGS_KEY] === 'string')).toBe(true);
      const europe = scopeReport(result, viewerScopeOf(rbac, { objectId: harness.sim.tenant.demoAdministrators!.regional }));
      if (!europe.ok) throw new Error(europe.explanation);
      const numbers = europe.result.rows.map((row) => Number(String(row.device).slice('CONTOSO-'.length)));
      expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: VIEWER_SCOPE_DEMO.europeDevices }, (_, index) => index + 1));
      const devices = new Set(europe.result.rows.map((row) => row.id));
      expect(europe.result.findings.length).toBeGreaterThan(0);
      expect(europe.result.findings.every((finding) => devices.has(finding.subjectId))).toBe(true);
      expect(europe.result.findings.length).toBe(result.findings.filter((finding) => devices.has(finding.subjectId)).length);
      expect(result.findings.length).toBeGreaterThan(europe.result.findings.length);
    },
  );

  it('connectors are tenant-wide and no Intune role permission reads them all: refused to both Intune administrators, shown whole to the Entra Intune Administrator', async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('connector-health', graph), loadRbacRecords(graph)]);
    const { central, regional, 'intune-administrator': entraAdmin } = harness.sim.tenant.demoAdministrators!;
    for (const objectId of [central, regional])
      expect(scopeReport(result, viewerScopeOf(rbac, { objectId }))).toMatchObject({ ok: false, explanation: expect.stringMatching(/covers the whole tenant/) });
    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: central }))).toMatchObject({
      explanation: expect.stringMatching(/Your Intune role assignments show the whole tenant\.$/),
    });
    expect(scopeReport(result, viewerScopeOf(rbac, { objectId: entraAdmin, entraRoleIds: [ENTRA_ROLE_IDS.intuneAdministrator] }))).toEqual({ ok: true, result });
  });

  it('endpoint analytics opens to the regional administrator, whose role grants Endpoint Analytics read; without it they are told their roles grant none', async () => {
    const graph = harness.client();
    const [result, rbac] = await Promise.all([REPORTS.load('startup-reliability', graph), loadRbacRecords(graph)]);
    const { central, regional } = harness.sim.tenant.demoAdministrators!;
    // The central administrator's Read Only Operator holds Endpoint Analytics/Read: shown whole, saying so.
    const centrally = scopeReport(result, viewerScopeOf(rbac, { objectId: central }));
    expect(centrally.ok && centrally.result.rows).toEqual(result.rows);
    expect(centrally.ok && centrally.result.notice).toContain('your Intune role Read Only Operator grants Endpoint Analytics/Read');
    const shown = scopeReport(result, viewerScopeOf(rbac, { objectId: regional }));
    expect(shown.ok).toBe(true);
    if (!shown.ok) return;
    // Whole: every row and finding, and a notice naming the role that opens it.
    expect(shown.result.rows).toEqual(result.rows);
    expect(shown.result.findings).toEqual(result.findings);
    expect(shown.result.notice).toContain(`your Intune role ${VIEWER_SCOPE_DEMO.europeRole} grants Endpoint Analytics/Read, so it is shown whole`);
    // Multi admin approval stays whole-tenant only: no one read permission covers its requests.
    const approvals = await REPORTS.load('admin-approval', graph);
    expect(scopeReport(approvals, viewerScopeOf(rbac, { objectId: regional }))).toMatchObject({
      ok: false,
      explanation: expect.stringMatching(/covers the whole tenant: its objects carry no scope tags, and no Intune role permission is documented to read all it shows/),
    });

    // The same role without Endpoint Analytics read: refused, and told why.
    const restore = withoutEuropeAnalyticsRead(harness.sim.tenant);
    try {
      const without = viewerScopeOf(await loadRbacRecords(graph), { objectId: regional });
      expect(scopeReport(result, without)).toEqual({
        ok: false,
        explanation: expect.stringMatching(/Intune shows it to administrators whose role grants Endpoint Analytics\/Read\. None of your Intune role assignments' roles grants it/),
      });
    } finally {
      restore();
    }
  });
});
