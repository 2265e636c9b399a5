import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../../src/core/reports/registry.js';
import { reportToCsv } from '../../../../src/core/reports/report-csv.js';
import type { ReportResult, ReportRow } from '../../../../src/core/reports/report-model.js';
import { ReportWindows, windowQuery } from '../../../../src/core/reports/window/report-window.js';
import { settingConflictsReport } from '../../../../src/core/reports/setting-conflicts/definition.js';
import { CAMERA, ONBOARDING, SECRET_TOKENS } from '../../../../src/core/reports/setting-conflicts/demo.js';
import { CONFLICT_SIDES_KEY, conflictSidesOf } from '../../../../src/core/reports/setting-conflicts/sides.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now, registry: REPORTS });
const harness = useTestSimulator({ tenant });

async function load(): Promise<ReportResult> {
  const result = await REPORTS.load(settingConflictsReport.id, harness.client(), { now: () => now });
  expect(result.error).toBeNull();
  return result;
}

const rowOf = (result: ReportResult, id: string): ReportRow => {
  const row = result.rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

const policyId = (name: string) => tenant.collections.configurationPolicies.find((item) => item.name === name)!.id;

describe("a setting conflict's policies side by side (the row's cell no column shows)", () => {
  it('lists each policy that sets the setting with its value and its Intune page, and which two decide the verdict', async () => {
    const result = await load();
    const camera = conflictSidesOf(rowOf(result, CAMERA));
    // The front desk's device restrictions profile blocks the camera (its field's CSP is Camera/AllowCamera), and
    // reaches its group's users' PCs, which the policy to All devices allows it on: that pair decides.
    const frontDesk = tenant.collections.deviceConfigurations.find((profile) => profile.displayName === 'Front desk - camera blocked')!;
    expect(camera).toEqual({
      policies: [
        { policyId: policyId('Devices - camera allowed'), name: 'Devices - camera allowed', link: expect.any(String), value: 'Allowed.', secret: false, decides: true },
        {
          policyId: policyId('Devices - camera blocked (meeting rooms)'),
          name: 'Devices - camera blocked (meeting rooms)',
          link: expect.any(String),
          value: 'Not allowed.',
          secret: false,
          decides: false,
        },
        { policyId: frontDesk.id, name: 'Front desk - camera blocked', link: expect.any(String), value: 'Blocked', secret: false, decides: true },
      ],
      more: 0,
    });
    for (const side of camera!.policies.filter((side) => side.policyId !== frontDesk.id))
      expect(side.link).toContain(`https://intune.microsoft.com/#view/Microsoft_Intune_Workflows/PolicySummaryBlade/policyId/${side.policyId}/`);
    expect(camera!.policies.find((side) => side.policyId === frontDesk.id)!.link).toContain(`/configurationId/${frontDesk.id}`);
    // The row's own link is the first of the deciding pair's, as before.
    expect(camera!.policies.map((side) => side.link)).toContain(rowOf(result, CAMERA).link);
  });

  it('carries a secret as set, never its value nor the token Graph gives for it', async () => {
    const result = await load();
    const cell = String(rowOf(result, ONBOARDING)[CONFLICT_SIDES_KEY]);
    const onboarding = conflictSidesOf(rowOf(result, ONBOARDING))!;
    expect(onboarding.policies).toHaveLength(2);
    expect(onboarding.policies.every((side) => side.secret && side.value === null)).toBe(true);
    for (const token of SECRET_TOKENS) expect(cell).not.toContain(token);
    expect(cell).not.toContain('(secret, set)');
  });

  it('is only on rows of a conflict judged from settings: a reported conflict or a row that could not be checked has none', async () => {
    const result = await load();
    const judged = new Set(result.findings.filter((finding) => finding.kind !== 'reported-setting-conflict').map((finding) => finding.subjectId));
    for (const row of result.rows) expect(conflictSidesOf(row) !== null, String(row.id)).toBe(judged.has(String(row.id)));
  });

  it('adds no column to the table or its CSV, and the filter does not search it', async () => {
    const result = await load();
    expect(result.columns.map((column) => column.key)).not.toContain(CONFLICT_SIDES_KEY);
    const csv = reportToCsv(result);
    const [header, ...lines] = csv.trimEnd().split('\r\n');
    expect(header).toBe('Setting,Verdict,Policies and their values,Overlap,Findings,Severity,Detail,Link');
    expect(lines).toHaveLength(result.rows.length);
    for (const word of ['"policyId"', '"decides"', '{"policies"']) expect(csv).not.toContain(word);
    // Words of the cell only: no row passes a filter for them.
    const windows = new ReportWindows();
    for (const q of ['decides', '"policyId"']) expect(windows.window(result, windowQuery('', { q }), null).total).toBe(0);
    expect(windows.window(result, windowQuery('', { q: 'camera allowed' }), null).total).toBeGreaterThan(0);
  });

  it('reads nothing from a cell that is not what the report writes, and never a secret value', () => {
    expect(conflictSidesOf({ id: 'x' })).toBeNull();
    expect(conflictSidesOf({ id: 'x', [CONFLICT_SIDES_KEY]: 'not json' })).toBeNull();
    expect(conflictSidesOf({ id: 'x', [CONFLICT_SIDES_KEY]: JSON.stringify({ policies: [{ name: 'A' }], more: 0 }) })).toBeNull();
    const planted = { policyId: 'p', name: 'A', link: null, value: 'hunter2', secret: true, decides: false };
    expect(conflictSidesOf({ id: 'x', [CONFLICT_SIDES_KEY]: JSON.stringify({ policies: [planted], more: 3 }) })).toEqual({
      policies: [{ ...planted, value: null }],
      more: 3,
    });
  });
});
