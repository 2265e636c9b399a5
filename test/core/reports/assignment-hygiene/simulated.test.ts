import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import type { ReportResult } from '../../../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * Report 2's dependency, supersedence and filter cases on the simulated demo tenant (src/core/reports/assignment-hygiene/demo.ts,
 * step 13), read as the report reads them, with and without GRAPH_BETA_COVERAGE, and with the two
 * beta-only reads failing.
 */
const now = new Date('2026-11-22T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

async function load(betaCoverage: boolean): Promise<ReportResult> {
  const report = await loadReport('assignment-hygiene', harness.client({ betaCoverage }), { now: () => now });
  harness.sim.graph.clearLog();
  expect(report.state).toBe('loaded');
  return report;
}

const row = (report: ReportResult, name: string) => {
  const found = report.rows.find((candidate) => candidate.name === name);
  expect(found, name).toBeDefined();
  return found!;
};
const kindsOf = (report: ReportResult, name: string) => report.findings.filter((finding) => finding.subjectName.endsWith(`: ${name}`)).map((finding) => finding.kind);

describe.each([false, true])('report 2 on the demo tenant (beta coverage: %s)', (betaCoverage) => {
  it('reads the app relationships and the filters on /beta whatever the coverage', async () => {
    await loadReport('assignment-hygiene', harness.client({ betaCoverage }), { now: () => now });
    const paths = harness.sim.graph.requests.map((request) => request.path);
    harness.sim.graph.clearLog();
    expect(paths).toContain('/beta/deviceAppManagement/mobileAppRelationships');
    expect(paths).toContain('/beta/deviceManagement/assignmentFilters');
    expect(paths).not.toContain('/v1.0/deviceAppManagement/mobileAppRelationships');
  });

  it('judges each Win32 dependency and supersedence case by what Intune documents', async () => {
    const report = await load(betaCoverage);
    expect(row(report, 'Microsoft Visual C++ 2015-2022 Redistributable').status).toBe('Installed automatically as a dependency of "Contoso VPN Client"');
    expect(row(report, 'Contoso Licence Agent').status).toBe('Detection-only dependency of "Contoso CAD": Intune checks for it but never installs it');
    expect(row(report, 'Contoso Data Runtime').status).toBe('Installed automatically as a dependency of "Contoso Data Studio"');
    expect(row(report, 'Contoso Data Drivers').status).toBe('Installed automatically as a dependency of "Contoso Data Runtime"');
    expect(row(report, 'Notepad++ 7.9').status).toBe('Superseded by "Notepad++ 8.6" (update)');
    expect(row(report, 'Contoso Field Runtime').status).toMatch(/^Installed automatically as a dependency of "Contoso Field App"/);
    for (const name of [
      'Microsoft Visual C++ 2015-2022 Redistributable',
      'Contoso Licence Agent',
      'Contoso Data Runtime',
      'Contoso Data Drivers',
      'Notepad++ 7.9',
      'Contoso Field Runtime',
    ])
      expect(kindsOf(report, name), name).toEqual([]);
    expect(kindsOf(report, 'Legacy Scanner Driver')).toEqual(['unassigned']);
    expect(report.findings.find((finding) => finding.subjectName === 'App: Legacy Scanner Driver')?.detail).toContain('dependency of "Legacy Scanner Utility"');
    expect(kindsOf(report, 'Adobe Acrobat Reader (2024)')).toEqual(['unassigned']);
    expect(report.findings.find((finding) => finding.subjectName === 'App: Adobe Acrobat Reader (2024)')?.detail).toContain(
      'It supersedes "Adobe Acrobat Reader (2020)", but Intune ignores a superseding app that isn\'t targeted',
    );
  });

  it('judges All users + All devices by their filters, and never calls an unknown filter deleted', async () => {
    const report = await load(betaCoverage);
    expect(kindsOf(report, 'Detect stale VPN profiles')).toEqual([]);
    expect(kindsOf(report, 'Collect Defender logs')).toEqual(['all-users-and-all-devices']);
    expect(kindsOf(report, 'Reset Windows Update components')).toEqual(['all-users-and-all-devices']);
    expect(kindsOf(report, 'Repair OneDrive sync')).toEqual([]);
    expect(row(report, 'Repair OneDrive sync').status).toMatch(/^Could not check: .*different filters/);
    expect(kindsOf(report, 'Check free disk space')).toEqual([]);
    expect(row(report, 'Check free disk space').status).toMatch(/^Could not check: .*filter could not be read/);
    expect(JSON.stringify(row(report, 'Check free disk space'))).not.toContain('deleted');
    expect(kindsOf(report, 'Contoso Travel')).toEqual(['all-users-and-all-devices']);
    expect(row(report, 'Collect Defender logs').assignments).toBe('Include: All users (include filter "Corporate Windows"); All devices (include filter "Corporate Windows")');
  });

  it('reads the object types only beta has on either coverage, and finds them applying to nobody or to All users and All devices', async () => {
    const report = await load(betaCoverage);
    expect(kindsOf(report, 'Windows - Office ADMX (draft)')).toEqual(['unassigned']);
    expect(row(report, 'Windows - Office ADMX (draft)').type).toBe('Administrative template');
    expect(kindsOf(report, 'Windows - Edge ADMX (home page)')).toEqual([]);
    expect(kindsOf(report, 'macOS - Set dock items')).toEqual(['all-users-and-all-devices']);
    expect(row(report, 'macOS - Set dock items').assignments).toBe('Include: All users; All devices');
    expect(kindsOf(report, 'macOS - Install Rosetta')).toEqual([]);
    expect(kindsOf(report, 'Windows 11 24H2 rollout')).toEqual(['exclusions-only']);
    expect(row(report, 'Windows 11 24H2 rollout').type).toBe('Windows feature update profile');
    expect(kindsOf(report, 'Linux - Compliance')).toEqual(['unassigned']);
    expect(row(report, 'Linux - Compliance').type).toBe('Compliance policy (settings catalog)');
    expect(kindsOf(report, 'Windows baseline (2021, unassigned)')).toEqual(['unassigned']);
    expect(row(report, 'Windows baseline (2021, unassigned)').type).toBe('Endpoint security policy (intent)');
    expect(row(report, 'Windows baseline (2021, unassigned)').linkLabel).toBe('the security baselines list');
  });

  it('judges /v1.0-read profiles by their filters on either coverage, reading their assignments again on /beta where /v1.0 hides them', async () => {
    const report = await load(betaCoverage);
    expect(kindsOf(report, 'Windows - BitLocker (legacy)')).toEqual(['all-users-and-all-devices']);
    expect(kindsOf(report, 'Windows - Endpoint protection (legacy)')).toEqual(['all-users-and-all-devices']);
    expect(kindsOf(report, 'Windows - Compliance (corporate split)')).toEqual([]);
    expect(row(report, 'Windows - Compliance (corporate split)').statusTone).toBe('ok');
    expect(row(report, 'Windows - Compliance (corporate split)').status).toBe(
      'All users and All devices are kept apart by filter "Corporate Windows" (include on one, exclude on the other)',
    );
    expect(row(report, 'Windows - BitLocker (legacy)').assignments).toBe(
      'Include: All users (include filter "Corporate Windows"); All devices (include filter "Corporate Windows")',
    );
    // Different app intents are a finding whatever the filters; its filters are read on /beta all the same, for "what applies".
    expect(row(report, 'Contoso Travel').assignments).toBe(
      'Include: All users [required] (include filter "Corporate Windows"); All devices [uninstall] (exclude filter "Corporate Windows")',
    );
  });

  it('reads on /beta, only on /v1.0 coverage, the assignments of every /v1.0 object a filter could be on, twenty to a $batch call', async () => {
    harness.sim.graph.clearLog();
    await loadReport('assignment-hygiene', harness.client({ betaCoverage }), { now: () => now });
    const requests = harness.sim.graph.requests;
    const reread = requests.filter((request) => request.path.endsWith('/assignments'));
    const batches = requests.filter((request) => !request.inBatch && request.path === '/beta/$batch');
    harness.sim.graph.clearLog();
    if (betaCoverage) {
      expect(reread).toEqual([]);
      return;
    }
    const id = (collection: 'deviceConfigurations' | 'deviceCompliancePolicies' | 'mobileApps', name: string) =>
      harness.sim.tenant.collections[collection].find((record) => record.displayName === name)!.id;
    const paths = reread.map((request) => request.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        `/beta/deviceManagement/deviceConfigurations/${id('deviceConfigurations', 'Windows - Endpoint protection (legacy)')}/assignments`,
        `/beta/deviceManagement/deviceConfigurations/${id('deviceConfigurations', 'Windows - BitLocker (legacy)')}/assignments`,
        `/beta/deviceManagement/deviceCompliancePolicies/${id('deviceCompliancePolicies', 'Windows - Compliance (corporate split)')}/assignments`,
        `/beta/deviceAppManagement/mobileApps/${id('mobileApps', 'Contoso Travel')}/assignments`,
      ]),
    );
    // Exclusions only, and unassigned: no filter there can matter, so not read again.
    expect(paths).not.toContain(`/beta/deviceManagement/deviceConfigurations/${id('deviceConfigurations', 'Windows - Kiosk lockdown')}/assignments`);
    expect(paths).not.toContain(`/beta/deviceAppManagement/mobileApps/${id('mobileApps', 'Legacy PDF Reader')}/assignments`);
    expect(new Set(paths).size).toBe(paths.length);
    expect(reread.every((request) => request.inBatch)).toBe(true);
    // The group look-ups go to /v1.0/$batch; these alone to /beta/$batch, at most twenty each.
    expect(batches).toHaveLength(Math.ceil(paths.length / 20));
  });
});

describe("report 2 when an object's assignments cannot be read again on /beta", () => {
  const endpointProtection = () => harness.sim.tenant.collections.deviceConfigurations.find((record) => record.displayName === 'Windows - Endpoint protection (legacy)')!.id;

  it.each([
    ['answers 500', { status: 500 }, 'Graph answered 500'],
    ['answers 403', { status: 403 }, 'Graph answered 403'],
    ['answers 404', { status: 404 }, 'Graph answered 404'],
  ] as const)("that object stays 'could not check' when Graph %s; the report loads and the others are judged", async (_label, fault, reason) => {
    harness.sim.faults.add({ path: `/beta/deviceManagement/deviceConfigurations/${endpointProtection()}/assignments`, ...fault });
    const report = await load(false);
    expect(report.error).toBeNull();
    expect(kindsOf(report, 'Windows - Endpoint protection (legacy)')).toEqual([]);
    expect(row(report, 'Windows - Endpoint protection (legacy)').status).toBe(
      `Could not check: All users and All devices may overlap, but its assignments could not be read on /beta to see their filters (${reason})`,
    );
    expect(row(report, 'Windows - Endpoint protection (legacy)').statusTone).toBe('neutral');
    expect(kindsOf(report, 'Windows - BitLocker (legacy)')).toEqual(['all-users-and-all-devices']);
    expect(kindsOf(report, 'Windows - Compliance (corporate split)')).toEqual([]);
  });
});

describe('report 2 when a beta-only read fails', () => {
  it.each([403, 500])("the relationships answering %s make unassigned Win32 apps 'could not check', never unused, and other verdicts stand", async (status) => {
    harness.sim.faults.add({ path: '/beta/deviceAppManagement/mobileAppRelationships', status, times: 1 });
    const report = await load(false);
    for (const name of ['Microsoft Visual C++ 2015-2022 Redistributable', 'Legacy Scanner Driver', 'Adobe Acrobat Reader (2024)', 'Legacy PDF Reader']) {
      expect(kindsOf(report, name), name).toEqual([]);
      expect(row(report, name).status).toBe("Could not check: the app relationships could not be read; it may be installed as another app's dependency");
    }
    expect(report.notice).toContain(`Win32 app dependencies and supersedence could not be read (Graph answered ${status})`);
    expect(kindsOf(report, 'Contoso Expenses')).toEqual(['exclusions-only']);
    expect(kindsOf(report, 'macOS - Compliance')).toEqual(['unassigned']);
  });

  it('a relationship record the report cannot read makes the whole list unusable, not "no relationships"', async () => {
    harness.sim.faults.add({
      path: '/beta/deviceAppManagement/mobileAppRelationships',
      rawBody: () =>
        JSON.stringify({ value: [{ '@odata.type': '#microsoft.graph.mobileAppDependency', id: 'x_y', sourceId: 'x', targetId: 'y', targetType: 'unknownFutureValue' }] }),
      times: 1,
    });
    const report = await load(true);
    expect(row(report, 'Microsoft Visual C++ 2015-2022 Redistributable').status).toMatch(/^Could not check/);
    expect(kindsOf(report, 'Adobe Acrobat Reader (2024)')).toEqual([]);
  });

  it("the filters failing make filtered All users + All devices pairs 'could not check'; different app intents stay a finding", async () => {
    harness.sim.faults.add({ path: '/beta/deviceManagement/assignmentFilters', status: 500, times: 1 });
    const report = await load(true);
    expect(report.notice).toContain('Assignment filters could not be read (Graph answered 500)');
    for (const name of ['Detect stale VPN profiles', 'Collect Defender logs', 'Reset Windows Update components']) {
      expect(kindsOf(report, name), name).toEqual([]);
      expect(row(report, name).status).toMatch(/^Could not check: All users and All devices may overlap, but a filter could not be read/);
    }
    expect(kindsOf(report, 'Contoso Travel')).toEqual(['all-users-and-all-devices']);
    // No filter on either target, and Graph says so: still a finding.
    expect(kindsOf(report, 'Windows - Endpoint protection (legacy)')).toEqual(['all-users-and-all-devices']);
  });
});
