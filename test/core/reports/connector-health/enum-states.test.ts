import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import * as records from '../../../../src/core/reports/connector-health/demo-records.js';
import type { DemoRecord } from '../../../../src/core/reports/report-demo.js';
import { blankTenant, requestAppToken, useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * Report 1 against the simulator, for the status enums as Microsoft documents them
 * (docs/finding-rules.md, report 1): the Mobile Threat Defense states `/v1.0` does not name, read
 * again on beta, and the managed Google Play and Autopilot singletons, which a tenant holds once,
 * one variant after another.
 */
const now = new Date('2026-11-22T09:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const daysAgo = (days: number) => hoursAgo(days * 24);
const NEVER = '0001-01-01T00:00:00Z';

const V1_MTD = '/v1.0/deviceManagement/mobileThreatDefenseConnectors';
const BETA_MTD = '/beta/deviceManagement/mobileThreatDefenseConnectors';

const IN_ERROR = 'fc780465-2017-40d4-a0c5-307022471b92';
const NOT_SET_UP = '08a8455c-48dd-45ff-ad82-7211355354f3';
const UNRESPONSIVE = '2c7790de-8b02-4814-85cf-e0c59380dee8';
const ENABLED = 'd3ddeae8-441f-4681-b80f-aef644f7195a';

const mtd = (id: string, partnerState: Parameters<typeof records.mobileThreatDefenseConnector>[0]['partnerState'], lastHeartbeatDateTime: string) =>
  records.mobileThreatDefenseConnector({ id, partnerState, lastHeartbeatDateTime, partnerUnresponsivenessThresholdInDays: 7, now });

const tenant = blankTenant();
tenant.collections.mobileThreatDefenseConnectors = [
  // Beta names these; /v1.0, where report 1 reads the list, sends both as unknownFutureValue.
  mtd(IN_ERROR, 'error', hoursAgo(2)),
  mtd(NOT_SET_UP, 'notSetUp', NEVER),
  mtd(UNRESPONSIVE, 'unresponsive', daysAgo(8)),
  mtd(ENABLED, 'enabled', hoursAgo(1)),
];
const harness = useTestSimulator({ tenant });

const load = (options: Parameters<typeof harness.client>[0] = {}) => loadReport('connector-health', harness.client(options), { now: () => now });
const rowOf = (report: Awaited<ReturnType<typeof load>>, id: string) => report.rows.find((row) => row.id === id);
const paths = () => harness.sim.graph.requests.map((request) => `${request.path} ${request.status}`);

describe('report 1 reads again on beta the Mobile Threat Defense states /v1.0 sends as unknownFutureValue', () => {
  it('is served as Graph documents it: /v1.0 sends error and notSetUp as unknownFutureValue, beta names them', async () => {
    const token = await requestAppToken(harness.sim);
    const dispatcher = new Agent({ connect: { ca: harness.sim.caPem } });
    const states = async (path: string) => {
      const response = await request(`${harness.sim.graphUrl}${path}`, { headers: { authorization: `Bearer ${token}` }, dispatcher });
      const body = (await response.body.json()) as { value: Array<{ id: string; partnerState: string }> };
      return Object.fromEntries(body.value.map((connector) => [connector.id, connector.partnerState]));
    };
    try {
      expect(await states(V1_MTD)).toEqual({ [IN_ERROR]: 'unknownFutureValue', [NOT_SET_UP]: 'unknownFutureValue', [UNRESPONSIVE]: 'unresponsive', [ENABLED]: 'enabled' });
      expect(await states(BETA_MTD)).toEqual({ [IN_ERROR]: 'error', [NOT_SET_UP]: 'notSetUp', [UNRESPONSIVE]: 'unresponsive', [ENABLED]: 'enabled' });
    } finally {
      await dispatcher.close();
    }
  });

  it('names them from beta: an error connector with a fresh heartbeat is a finding, one not set up is not configured', async () => {
    const report = await load();
    expect(report.state).toBe('loaded');
    expect(paths()).toEqual(expect.arrayContaining([`${V1_MTD} 200`, `${BETA_MTD} 200`]));
    expect(paths().indexOf(`${V1_MTD} 200`)).toBeLessThan(paths().indexOf(`${BETA_MTD} 200`));
    expect(rowOf(report, IN_ERROR)).toMatchObject({ health: 'unhealthy', reason: 'Intune reports an error for this connector' });
    expect(rowOf(report, NOT_SET_UP)).toMatchObject({ health: 'not configured', reason: 'Not set up: Intune has not received a heartbeat from this partner' });
    expect(rowOf(report, ENABLED)).toMatchObject({ health: 'healthy' });
    expect(report.findings.map((finding) => finding.subjectId).sort()).toEqual([IN_ERROR, UNRESPONSIVE].sort());
  });

  it('makes the beta read under complete coverage too, with the same verdicts', async () => {
    const report = await load({ betaCoverage: true });
    expect(paths()).toEqual(expect.arrayContaining([`${V1_MTD} 200`, `${BETA_MTD} 200`]));
    expect(report.findings.map((finding) => finding.subjectId).sort()).toEqual([IN_ERROR, UNRESPONSIVE].sort());
  });

  it.each([
    ['denied (403)', { status: 403 }],
    ['failing (503 past every retry)', { status: 503 }],
  ])('when the beta read is %s, a connector /v1.0 does not name is a warning: never healthy, never a finding', async (_label, fault) => {
    harness.sim.faults.add({ path: BETA_MTD, ...fault });
    const report = await load({ sleep: async () => {} });
    expect(report.state).toBe('loaded');
    expect(report.error).toBeNull();
    const failed = "Graph /v1.0 does not name this connector's state (not set up, or error), and reading it on beta failed";
    expect(rowOf(report, IN_ERROR)).toMatchObject({ health: 'warning', reason: failed });
    expect(rowOf(report, NOT_SET_UP)).toMatchObject({ health: 'warning', reason: `${failed}; never heartbeat` });
    // What /v1.0 names is judged as always.
    expect(rowOf(report, ENABLED)).toMatchObject({ health: 'healthy' });
    expect(report.findings.map((finding) => finding.subjectId)).toEqual([UNRESPONSIVE]);
  });

  it('makes no beta read when /v1.0 names every state', async () => {
    const named = [mtd(ENABLED, 'enabled', hoursAgo(1)), mtd(UNRESPONSIVE, 'unresponsive', daysAgo(8))];
    harness.sim.faults.add({ path: V1_MTD, rawBody: () => JSON.stringify({ value: named }), times: 1 });
    const report = await load();
    expect(paths().filter((path) => path.startsWith(BETA_MTD))).toEqual([]);
    expect(report.findings.map((finding) => finding.subjectId)).toEqual([UNRESPONSIVE]);
  });
});

/** One tenant holds one managed Google Play binding and one Autopilot settings record: each variant in turn. */
describe('report 1 on the singletons, variant by variant', () => {
  const GOOGLE_PLAY_ID = 'androidManagedStoreAccountEnterpriseSettings';
  const googlePlay = (bindStatus: string, lastAppSyncStatus: string, lastAppSyncDateTime = hoursAgo(3)): DemoRecord =>
    records.androidManagedStoreSettings({
      id: GOOGLE_PLAY_ID,
      bindStatus: bindStatus as Parameters<typeof records.androidManagedStoreSettings>[0]['bindStatus'],
      lastAppSyncStatus: lastAppSyncStatus as Parameters<typeof records.androidManagedStoreSettings>[0]['lastAppSyncStatus'],
      lastAppSyncDateTime,
      now,
    });
  const autopilot = (syncStatus: string, lastSyncDateTime: string): DemoRecord =>
    records.windowsAutopilotSettings({ syncStatus: syncStatus as Parameters<typeof records.windowsAutopilotSettings>[0]['syncStatus'], lastSyncDateTime, now });

  it.each([
    ['notBound', 'none', 'not configured', false],
    ['bound', 'success', 'warning', false],
    ['unbinding', 'success', 'warning', false],
    ['boundAndValidated', 'none', 'healthy', false],
    ['boundAndValidated', 'success', 'healthy', false],
    ['boundAndValidated', 'androidForWorkApiError', 'unhealthy', true],
    ['boundAndValidated', 'managementServiceError', 'unhealthy', true],
    ['boundAndValidated', 'unknownError', 'unhealthy', true],
    ['boundAndValidated', 'credentialsNotValid', 'unhealthy', true],
  ] as const)('managed Google Play %s with last app sync %s: %s (a finding: %s)', async (bindStatus, syncStatus, health, finding) => {
    harness.sim.tenant.singletons.androidManagedStoreAccountEnterpriseSettings = googlePlay(bindStatus, syncStatus);
    try {
      const report = await load();
      expect(report.rows.find((row) => row.kind === 'Managed Google Play')?.health).toBe(health);
      expect(report.findings.some((candidate) => candidate.subjectId === GOOGLE_PLAY_ID)).toBe(finding);
    } finally {
      delete harness.sim.tenant.singletons.androidManagedStoreAccountEnterpriseSettings;
    }
  });

  it.each([
    ['unknown', NEVER, 'not configured', false],
    ['unknown', hoursAgo(5), 'warning', false],
    ['inProgress', hoursAgo(5), 'healthy', false],
    ['completed', hoursAgo(5), 'healthy', false],
    ['completed', daysAgo(4), 'unhealthy', true],
    ['failed', hoursAgo(5), 'unhealthy', true],
  ] as const)('Autopilot sync %s, last synced %s: %s (a finding: %s)', async (syncStatus, lastSyncDateTime, health, finding) => {
    harness.sim.tenant.singletons.windowsAutopilotSettings = autopilot(syncStatus, lastSyncDateTime);
    try {
      const report = await load();
      const row = report.rows.find((candidate) => candidate.kind === 'Windows Autopilot');
      expect(row?.health).toBe(health);
      expect(report.findings.some((candidate) => candidate.subjectId === row?.id)).toBe(finding);
    } finally {
      delete harness.sim.tenant.singletons.windowsAutopilotSettings;
    }
  });
});
