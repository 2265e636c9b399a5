import { describe, expect, it } from 'vitest';
import { REPORTS, loadReport } from '../../../src/core/reports/registry.js';
import type { ReportId, ReportResult } from '../../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';
import { demoApprovedBaseline } from '../../support/demo-baseline.js';

const now = new Date('2026-11-22T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

/** Loads a report as an app registration holding exactly `roles`. */
async function loadAs(id: ReportId, roles: readonly string[]): Promise<ReportResult> {
  const app = harness.sim.addApplication({ roles });
  const graph = harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });
  return loadReport(id, graph, { now: () => now, approvedBaseline: demoApprovedBaseline(() => now) });
}

const withoutOne = REPORTS.definitions
  .flatMap((report) => report.permissions.map((missing) => ({ id: report.id, missing, roles: report.permissions.filter((permission) => permission !== missing) })))
  .filter(({ id, missing }) => !(id === 'escrow-gaps' && missing !== 'DeviceManagementManagedDevices.Read.All'));

describe('permissions', () => {
  it.each(REPORTS.definitions.map((report) => [report.id, report.permissions] as const))('%s loads with exactly its own permissions', async (id, permissions) => {
    const result = await loadAs(id, permissions);
    expect(result.error).toBeNull();
    expect(result.state).toBe('loaded');
    expect(result.columns.every((column) => column.available)).toBe(true);
  });

  it.each(withoutOne)('$id without $missing is a load error naming 403', async ({ id, roles }) => {
    const result = await loadAs(id, roles);
    expect(result.state).toBe('load-error');
    expect(result.error?.status).toBe(403);
    expect(result.error?.message).toContain('403');
    // Never an empty table in place of the error.
    expect(result.rows).toEqual([]);
    expect(result.findings).toEqual([]);
  });

  const escrowColumns = [
    {
      missing: 'DeviceLocalCredential.ReadBasic.All',
      column: 'lapsPassword',
      silentKind: 'missing-laps-password',
      otherKind: 'missing-recovery-key',
      unchecked: ['missing-laps-password'],
    },
    {
      missing: 'BitlockerKey.ReadBasic.All',
      column: 'recoveryKey',
      silentKind: 'missing-recovery-key',
      otherKind: 'missing-laps-password',
      unchecked: ['missing-recovery-key', 'recovery-key-not-in-entra'],
    },
  ];
  it.each(escrowColumns)(
    'escrow-gaps without $missing shows that column as n/a, derives nothing from it and says so',
    async ({ missing, column, silentKind, otherKind, unchecked }) => {
      const roles = REPORTS.definitions.find((report) => report.id === 'escrow-gaps')!.permissions.filter((permission) => permission !== missing);
      const result = await loadAs('escrow-gaps', roles);
      expect(result.state).toBe('loaded');
      expect(result.columns.find((candidate) => candidate.key === column)?.available).toBe(false);
      expect(result.rows.every((row) => row[column] === null)).toBe(true);
      expect(result.findings.some((finding) => finding.kind === silentKind)).toBe(false);
      expect(result.findings.some((finding) => finding.kind === otherKind)).toBe(true);
      expect(result.unchecked).toEqual(unchecked);
      // The readers are told which checks did not run, which permission to grant, and how bad it could be.
      expect(result.notChecked).toHaveLength(1);
      expect(result.notChecked[0]!.permission).toBe(missing);
      expect(result.notChecked[0]!.checks.map((check) => check.kind).sort()).toEqual([...unchecked].sort());
      expect(result.notChecked[0]!.worst).toBe(missing === 'BitlockerKey.ReadBasic.All' ? 'high' : 'medium');
    },
  );

  it('escrow-gaps with every permission has nothing not checked', async () => {
    const result = await loadAs('escrow-gaps', REPORTS.definitions.find((report) => report.id === 'escrow-gaps')!.permissions);
    expect(result.notChecked).toEqual([]);
  });

  it('escrow-gaps with neither escrow source granted is a load error naming 403', async () => {
    const result = await loadAs('escrow-gaps', ['DeviceManagementManagedDevices.Read.All']);
    expect(result.state).toBe('load-error');
    expect(result.error?.status).toBe(403);
  });

  it('report 4 asks for metadata only: no secret selected, and the ReadBasic roles suffice', async () => {
    await loadAs('escrow-gaps', ['DeviceLocalCredential.ReadBasic.All', 'BitlockerKey.ReadBasic.All', 'DeviceManagementManagedDevices.Read.All']);
    const escrowRequests = harness.sim.graph.requests.filter((request) => /deviceLocalCredentials|recoveryKeys/.test(request.path));
    expect(escrowRequests.map((request) => request.status)).toEqual([200, 200]);
    const selects = Object.fromEntries(escrowRequests.map((request) => [request.path, new URLSearchParams(request.query).get('$select')]));
    expect(selects).toEqual({ '/v1.0/directory/deviceLocalCredentials': 'id,lastBackupDateTime', '/v1.0/informationProtection/bitlocker/recoveryKeys': null });
  });
});
