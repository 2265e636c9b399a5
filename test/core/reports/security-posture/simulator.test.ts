import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import type { ReportResult, ReportRow } from '../../../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant });

const policyId = (name: string) => {
  const record = [...tenant.collections.configurationPolicies, ...tenant.collections.intents].find((item) => item.name === name || item.displayName === name);
  if (!record) throw new Error(`the demo plants no "${name}"`);
  return record.id;
};
const rowsOf = (result: ReportResult, name: string): ReportRow[] => result.rows.filter((row) => row.policy === name);
const statusOf = (result: ReportResult, name: string, area = 'Security baseline') => rowsOf(result, name).find((row) => row.area === area)?.status;
const findingsOf = (result: ReportResult, name: string) => result.findings.filter((finding) => finding.subjectId === policyId(name)).map((finding) => finding.kind);

async function load(): Promise<ReportResult> {
  const result = await loadReport('security-posture', harness.client(), { now: () => now });
  expect(result.error).toBeNull();
  return result;
}

describe('report 3 on the demo tenant', () => {
  it('judges only policies that reach someone: unassigned and exclusion-only policies are shown as not deployed, a policy set assignment counts', async () => {
    const result = await load();
    for (const name of [
      'ASR - Draft rules (unassigned)',
      'Firewall - Kiosk exceptions (exclusions only)',
      'Security baseline for Windows (24H2) - updated to 25H2',
      'Windows baseline (2021, unassigned)',
    ]) {
      expect(findingsOf(result, name), name).toEqual([]);
      expect(rowsOf(result, name).length, name).toBeGreaterThan(0);
      expect(
        rowsOf(result, name).every((row) => row.status === 'Not deployed (assigned to no one)' && row.statusTone === 'neutral'),
        name,
      ).toBe(true);
    }
    expect(findingsOf(result, 'Firewall - Branch offices (policy set)')).toEqual(['firewall-profile-off']);
  });

  it("reads a settings catalog baseline's freshness from its template's lifecycle state, never from the number in its id", async () => {
    const result = await load();
    // 23H2 is `_1` and November 2021 `_3`: both superseded, whatever the numbers say.
    expect(statusOf(result, 'Security baseline for Windows (23H2)')).toBe('Outdated: on 23H2, a superseded version; 25H2 is current');
    expect(statusOf(result, 'Security baseline for Windows (November 2021)')).toBe('Outdated: on November 2021, a superseded version; 25H2 is current');
    expect(statusOf(result, 'Security baseline for Windows (24H2)')).toBe('Outdated: on 24H2, a superseded version; 25H2 is current');
    expect(statusOf(result, 'Security baseline for Windows (25H2)')).toBe('Current');
    expect(statusOf(result, 'Defender for Endpoint baseline (24H1)')).toBe('Current');
    expect(statusOf(result, 'Defender for Endpoint baseline (Version 6)')).toBe('Outdated: on Version 6, a superseded version; 24H1 is current');
    expect(statusOf(result, 'Edge baseline (Version 139)')).toBe('Current');
    expect(statusOf(result, 'Security baseline for Windows (unknown version)')).toMatch(
      /^Could not check: its template 66df8dce-0166-4b82-92f7-1f74e3ca17a3_9 is not among the baseline templates Graph returned; 25H2 is current$/,
    );
    expect(statusOf(result, 'STIG audit baseline')).toBe('Current (an audit-only baseline: it configures nothing)');
    expect(findingsOf(result, 'Security baseline for Windows (unknown version)')).toEqual([]);
    expect(result.uncheckedSubjects.map(({ kind }) => kind)).toContain('baseline-outdated');
  });

  it('an intent-era baseline is outdated once its product has an active settings catalog version; an unlisted template is not checked', async () => {
    const result = await load();
    expect(statusOf(result, 'Windows baseline (2021)')).toBe(
      'Outdated: on November 2021; newer versions exist only in the settings catalog: Security Baseline for Windows 10 and later 25H2',
    );
    expect(statusOf(result, 'Windows 365 baseline')).toBe('Outdated: on November 2021; newer versions exist only in the settings catalog: Windows 365 Security Baseline 24H1');
    expect(statusOf(result, 'Edge baseline')).toMatch(/settings catalog: Security Baseline for Microsoft Edge Version 139$/);
    expect(statusOf(result, 'Windows baseline (2019)')).toMatch(/^Could not check: its template .* is not among the templates Graph returned$/);
  });

  it("reads a policy's /settings to the last page when its expansion stops short, and finds the rule in audit beyond the first 25", async () => {
    const result = await load();
    expect(findingsOf(result, 'Defender - Full configuration')).toEqual(['asr-rule-audit']);
    const settingsReads = harness.sim.graph.requests.filter(
      (request) => request.path === `/beta/deviceManagement/configurationPolicies/${policyId('Defender - Full configuration')}/settings`,
    );
    expect(settingsReads.map((request) => request.query.includes('skiptoken'))).toEqual([false, true]);
    // Read whole, the servers policy is judged like any other: no rule in audit, nothing to check.
    expect(rowsOf(result, 'Defender - Servers').map((row) => row.status)).toEqual(['Enforced']);
  });

  it('a policy whose settings never add up to its setting count is not checked, and its kinds stay open', async () => {
    const result = await load();
    expect(statusOf(result, 'Firewall - Datacenter', 'Policy settings')).toBe('Could not check: 2 of 3 settings read');
    expect(findingsOf(result, 'Firewall - Datacenter')).toEqual([]);
    expect(result.uncheckedSubjects.map(({ kind }) => kind)).toEqual(expect.arrayContaining(['asr-rule-audit', 'firewall-profile-off']));
  });

  it('a policy whose /settings read fails is not checked: no clean pass, and the failure is named', async () => {
    harness.sim.faults.add({ path: `/beta/deviceManagement/configurationPolicies/${policyId('Defender - Servers')}/settings`, status: 500 });
    const result = await load();
    expect(statusOf(result, 'Defender - Servers', 'Policy settings')).toBe('Could not check: reading its settings failed: Graph answered 500; 0 of 30 settings read');
    expect(findingsOf(result, 'Defender - Servers')).toEqual([]);
    expect(result.uncheckedSubjects.map(({ kind }) => kind)).toEqual(expect.arrayContaining(['asr-rule-audit', 'firewall-profile-off']));
  });

  it('when the baseline templates cannot be read, no settings catalog baseline is current or outdated, and the intent-era rules that need no template still apply', async () => {
    harness.sim.faults.add({ path: '/beta/deviceManagement/configurationPolicyTemplates', status: 500 });
    const result = await load();
    expect(result.state).toBe('loaded');
    for (const name of ['Security baseline for Windows (25H2)', 'Security baseline for Windows (24H2)', 'Defender for Endpoint baseline (24H1)']) {
      expect(statusOf(result, name), name).toBe('Could not check: the baseline templates could not be read: Graph answered 500');
      expect(findingsOf(result, name), name).toEqual([]);
    }
    expect(statusOf(result, 'Windows baseline (2021)')).toBe(
      'Could not check: whether a newer version exists in the settings catalog is unknown: the baseline templates could not be read: Graph answered 500',
    );
    expect(statusOf(result, 'Windows baseline (2020)')).toMatch(/^Outdated: on August 2020; November 2021 is available$/);
    expect(findingsOf(result, 'Defender for Endpoint baseline (v5)')).toEqual(['baseline-outdated']);
    expect(result.uncheckedSubjects.map(({ kind }) => kind)).toContain('baseline-outdated');
  });

  it('reads the whole template list and keeps the baselines itself when the service refuses the $filter', async () => {
    harness.sim.faults.add({ path: '/beta/deviceManagement/configurationPolicyTemplates', status: 400, times: 1 });
    const result = await load();
    const reads = harness.sim.graph.requests.filter((request) => request.path === '/beta/deviceManagement/configurationPolicyTemplates');
    expect(reads[0]!.query).toContain('%24filter=templateFamily');
    expect(reads.slice(1).every((request) => !request.query.includes('filter'))).toBe(true);
    expect(statusOf(result, 'Security baseline for Windows (25H2)')).toBe('Current');
    expect(statusOf(result, 'Security baseline for Windows (24H2)')).toBe('Outdated: on 24H2, a superseded version; 25H2 is current');
  });
});
