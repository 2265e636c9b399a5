import { describe, expect, it } from 'vitest';
import type { GraphExchange } from '../../../../src/graph/graph-client.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import * as records from '../../../../src/core/reports/connector-health/demo-records.js';
import { recordCredential } from '../../../support/suite-log.js';
import { blankTenant, useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * Report 1 against what Graph really sends (issue 11, point 5): Mobile Threat Defense states that
 * only beta names, and the enrolment tokens that the managed Google Play settings carry.
 */
const now = new Date('2026-11-22T09:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const IN_ERROR = '2c7790de-8b02-4814-85cf-e0c59380dee8';
const NOT_SET_UP = '08a8455c-48dd-45ff-ad82-7211355354f3';
const STORE_PATH = '/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings';

const tenant = blankTenant();
tenant.collections.mobileThreatDefenseConnectors = [
  // Beta calls these `error` and `notSetUp`; /v1.0, where report 1 reads them first, says unknownFutureValue.
  records.mobileThreatDefenseConnector({ id: IN_ERROR, partnerState: 'error', lastHeartbeatDateTime: hoursAgo(24 * 5), partnerUnresponsivenessThresholdInDays: 7, now }),
  records.mobileThreatDefenseConnector({ id: NOT_SET_UP, partnerState: 'notSetUp', lastHeartbeatDateTime: '0001-01-01T00:00:00Z', partnerUnresponsivenessThresholdInDays: 7, now }),
];
const googlePlay = records.androidManagedStoreSettings({
  id: 'androidManagedStoreAccountEnterpriseSettings',
  bindStatus: 'boundAndValidated',
  lastAppSyncStatus: 'success',
  lastAppSyncDateTime: hoursAgo(3),
  now,
});
tenant.singletons.androidManagedStoreAccountEnterpriseSettings = googlePlay;
const harness = useTestSimulator({ tenant });
recordCredential(records.MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN);

describe('report 1 and the Mobile Threat Defense states /v1.0 does not name', () => {
  it('reads them again on beta: the connector in error is a finding, the one never set up is not configured', async () => {
    const report = await loadReport('connector-health', harness.client(), { now: () => now });
    const row = (id: string) => report.rows.find((candidate) => candidate.id === id);
    expect(row(IN_ERROR)).toMatchObject({ health: 'unhealthy', reason: 'Intune reports an error for this connector; last heartbeat 5 days ago (unhealthy at 3 days)' });
    expect(row(NOT_SET_UP)).toMatchObject({ health: 'not configured' });
    expect(report.findings.map((finding) => finding.subjectId)).toEqual([IN_ERROR]);
  });
});

describe('report 1 and the managed Google Play enrolment tokens', () => {
  it('asks Graph for the five fields it reads, so no enrolment token comes over the wire', async () => {
    const exchanges: GraphExchange[] = [];
    const report = await loadReport('connector-health', harness.client({ onExchange: (exchange) => exchanges.push(exchange) }), { now: () => now });
    const store = harness.sim.graph.requests.filter((entry) => entry.path === STORE_PATH);
    expect(store).toHaveLength(1);
    expect(new URLSearchParams(store[0]!.query).get('$select')).toBe('id,bindStatus,lastAppSyncStatus,lastAppSyncDateTime,ownerOrganizationName');
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')).toMatchObject({ health: 'healthy', name: 'Contoso' });
    expect(JSON.stringify(report)).not.toContain(records.MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN);
    expect(JSON.stringify(exchanges)).not.toContain(records.MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN);
  });

  it('keeps no token when Graph sends the whole record anyway', async () => {
    harness.sim.faults.add({ path: STORE_PATH, rawBody: () => JSON.stringify(googlePlay), times: 1 });
    const report = await loadReport('connector-health', harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')).toMatchObject({ health: 'healthy' });
    const text = JSON.stringify(report);
    expect(text).not.toContain(records.MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN);
    expect(text).not.toContain('companyCodes');
  });
});
