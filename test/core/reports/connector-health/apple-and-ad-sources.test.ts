import { describe, expect, it } from 'vitest';
import type { GraphExchange } from '../../../../src/graph/graph-client.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import * as records from '../../../../src/core/reports/connector-health/demo-records.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { recordCredential } from '../../../support/suite-log.js';
import { blankTenant, useTestSimulator } from '../../../support/simulated-tenant.js';

/**
 * Report 1's reads beside the specification against the simulator (docs/finding-rules.md, report
 * 1, "Apple tokens and the connector for Active Directory"): the Apple MDM push certificate, ADE
 * and VPP tokens and the Intune Connectors for Active Directory, each state as Graph serves it, a
 * tenant where they do not apply, and a read that fails without failing the report.
 */
const now = new Date('2026-11-22T09:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const daysAgo = (days: number) => hoursAgo(days * 24);
const daysAhead = (days: number) => hoursAgo(-days * 24);

const PUSH = '/v1.0/deviceManagement/applePushNotificationCertificate';
const ADE = '/beta/deviceManagement/depOnboardingSettings';
const VPP = '/v1.0/deviceAppManagement/vppTokens';
const AD = '/beta/deviceManagement/domainJoinConnectors';

recordCredential(records.VPP_TOKEN_LOOK_ALIKE);
recordCredential(records.APPLE_PUSH_CERTIFICATE_LOOK_ALIKE);

describe('report 1 on the demo tenant: Apple certificate and tokens, connectors for Active Directory', () => {
  const tenant = buildDemoTenant({ now });
  const harness = useTestSimulator({ tenant });

  it('lists each with its state, and finds the expired and expiring ones as declared', async () => {
    const exchanges: GraphExchange[] = [];
    const report = await loadReport('connector-health', harness.client({ onExchange: (exchange) => exchanges.push(exchange) }), { now: () => now });
    expect(report.state).toBe('loaded');
    const rows = (kind: string) => report.rows.filter((row) => row.kind === kind).map((row) => [row.name, row.health]);
    expect(rows('Apple MDM push certificate')).toEqual([['mdm-push@contoso-demo.example', 'warning']]);
    expect(rows('Apple ADE token').sort()).toEqual(
      [
        ['Contoso corporate iPhones', 'healthy'],
        ['Contoso Macs', 'warning'],
        ['Contoso retail iPads', 'unhealthy'],
        ['Contoso warehouse scanners', 'unhealthy'],
        ['Contoso field iPads', 'warning'],
      ].sort(),
    );
    // /v1.0 has no displayName or locationName: every token is named by its organisation and expiry.
    expect(rows('Apple VPP token').map(([, health]) => health)).toEqual(['unhealthy', 'unhealthy', 'unhealthy', 'warning', 'warning', 'warning', 'warning', 'healthy']);
    expect(rows('Connector for Active Directory').sort()).toEqual(
      [
        ['ODJ-CONNECTOR-01', 'healthy'],
        ['ODJ-CONNECTOR-02', 'healthy'],
        ['ODJ-CONNECTOR-03', 'unhealthy'],
        ['ODJ-CONNECTOR-04', 'unhealthy'],
        ['ODJ-LEGACY-01', 'unhealthy'],
      ].sort(),
    );
    const kinds = report.findings.map((finding) => finding.kind);
    expect(kinds.filter((kind) => kind === 'apple-token-expiring')).toHaveLength(3);
    expect(kinds.filter((kind) => kind === 'ade-token-unhealthy')).toHaveLength(2);
    expect(kinds.filter((kind) => kind === 'vpp-token-unhealthy')).toHaveLength(3);
    expect(kinds.filter((kind) => kind === 'ad-connector-unhealthy')).toHaveLength(3);
    expect(report.rows.find((row) => row.name === 'ODJ-LEGACY-01')?.reason).toBe(
      'Version 6.2412.1500.1 is deprecated and can no longer process enrollment requests (6.2501.2000.5 or later is needed)',
    );

    // Each read once, with a $select of the fields used: never the push certificate itself, never the VPP token.
    const log = harness.sim.graph.requests;
    for (const path of [PUSH, ADE, VPP, AD]) expect(log.filter((entry) => entry.path === path).map((entry) => entry.status)).toEqual([200]);
    const select = (path: string) => new URLSearchParams(log.find((entry) => entry.path === path)!.query).get('$select')!.split(',');
    expect(select(PUSH)).not.toContain('certificate');
    expect(select(VPP)).not.toContain('token');
    expect(select(VPP)).toEqual(expect.arrayContaining(['state', 'expirationDateTime', 'lastSyncDateTime', 'lastSyncStatus']));
    for (const secret of [records.VPP_TOKEN_LOOK_ALIKE, records.APPLE_PUSH_CERTIFICATE_LOOK_ALIKE]) {
      expect(JSON.stringify(report)).not.toContain(secret);
      expect(JSON.stringify(exchanges)).not.toContain(secret);
    }
  });

  it("gives the specification's reads a $select of the fields the rules use", async () => {
    await loadReport('connector-health', harness.client(), { now: () => now });
    const selects = new Map(harness.sim.graph.requests.map((entry) => [entry.path, new URLSearchParams(entry.query).get('$select')]));
    expect(selects.get('/beta/deviceManagement/ndesConnectors')).toBe('id,displayName,machineName,state,lastConnectionDateTime,connectorVersion');
    expect(selects.get('/v1.0/deviceManagement/mobileThreatDefenseConnectors')).toBe('id,partnerState,lastHeartbeatDateTime,partnerUnresponsivenessThresholdInDays');
    expect(selects.get('/beta/deviceManagement/mobileThreatDefenseConnectors')).toBe('id,partnerState,lastHeartbeatDateTime,partnerUnresponsivenessThresholdInDays');
    expect(selects.get('/v1.0/deviceManagement/deviceManagementPartners')).toContain('whenPartnerDevicesWillBeRemovedDateTime');
    expect(selects.get('/beta/deviceManagement/windowsAutopilotSettings')).toBe('id,syncStatus,lastSyncDateTime');
  });
});

describe('report 1 where the Apple and Active Directory sources do not apply, or cannot be read', () => {
  const tenant = blankTenant();
  const harness = useTestSimulator({ tenant });
  const load = (options: Parameters<typeof harness.client>[0] = {}) => loadReport('connector-health', harness.client(options), { now: () => now });

  it('a tenant without a push certificate (404), tokens or connectors: each "not configured", no finding', async () => {
    const report = await loadReport('connector-health', harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(harness.sim.graph.requests.find((entry) => entry.path === PUSH)?.status).toBe(404);
    expect(report.rows.find((row) => row.kind === 'Apple MDM push certificate')).toMatchObject({
      health: 'not configured',
      reason: 'No Apple MDM push certificate is set up: this tenant does not manage Apple devices',
    });
    for (const kind of ['Apple ADE token', 'Apple VPP token', 'Connector for Active Directory']) {
      expect(report.rows.find((row) => row.kind === kind)).toMatchObject({ health: 'not configured', name: '—' });
    }
    expect(report.findings).toEqual([]);
  });

  it.each([
    ['expired within the grace period', daysAgo(5), 'apple-push-certificate-expired', 'unhealthy'],
    ['expiring in 10 days', daysAhead(10), 'apple-token-expiring', 'warning'],
    ['valid for 200 days', daysAhead(200), null, 'healthy'],
  ] as const)('a push certificate %s: %s', async (_label, expirationDateTime, kind, health) => {
    const certificate = records.applePushNotificationCertificate({ id: '5e1d7a3c-9b2f-4c6d-8e0a-1f3b5d7c9e2a', appleIdentifier: 'mdm@fabrikam.example', expirationDateTime, now });
    harness.sim.tenant.singletons.applePushNotificationCertificate = certificate;
    try {
      const report = await load();
      expect(report.rows.find((row) => row.kind === 'Apple MDM push certificate')).toMatchObject({ id: certificate.id, health });
      expect(report.findings.map((finding) => finding.kind)).toEqual(kind ? [kind] : []);
    } finally {
      delete harness.sim.tenant.singletons.applePushNotificationCertificate;
    }
  });

  it.each([
    ['valid', 'completed', daysAhead(100), hoursAgo(2), 'healthy', null],
    ['expired', 'failed', daysAgo(2), daysAgo(2), 'unhealthy', 'vpp-token-unhealthy'],
    ['invalid', 'completed', daysAhead(100), hoursAgo(2), 'unhealthy', 'vpp-token-unhealthy'],
    ['assignedToExternalMDM', 'completed', daysAhead(100), hoursAgo(2), 'unhealthy', 'vpp-token-unhealthy'],
    ['duplicateLocationId', 'completed', daysAhead(100), hoursAgo(2), 'warning', null],
    ['valid', 'failed', daysAhead(100), hoursAgo(2), 'warning', null],
    ['valid', 'completed', daysAhead(100), daysAgo(3.5), 'unhealthy', 'vpp-token-unhealthy'],
    ['valid', 'completed', daysAhead(20), hoursAgo(2), 'warning', 'apple-token-expiring'],
  ] as const)('a VPP token %s, last sync %s: %s', async (state, lastSyncStatus, expirationDateTime, lastSyncDateTime, health, kind) => {
    const token = records.vppToken({
      id: '7c2e4a6b-1d3f-4e5a-9b8c-0d2e4f6a8b1c',
      organizationName: 'Fabrikam',
      locationName: 'HQ',
      state,
      expirationDateTime,
      lastSyncDateTime,
      lastSyncStatus,
      now,
    });
    harness.sim.tenant.collections.vppTokens = [token];
    try {
      const report = await load();
      expect(report.rows.find((row) => row.id === token.id)).toMatchObject({ name: `Fabrikam (expires ${expirationDateTime.slice(0, 10)})`, health });
      expect(report.findings.map((finding) => finding.kind)).toEqual(kind ? [kind] : []);
    } finally {
      harness.sim.tenant.collections.vppTokens = [];
    }
  });

  it.each([
    ['active', '6.2504.2001.8', hoursAgo(0.1), 'healthy'],
    ['error', '6.2504.2001.8', hoursAgo(2), 'unhealthy'],
    ['inactive', '6.2504.2001.8', daysAgo(6), 'unhealthy'],
    ['active', '6.2409.100.3', hoursAgo(0.1), 'unhealthy'],
  ] as const)('a connector for Active Directory %s at %s: %s', async (state, version, lastConnectionDateTime, health) => {
    const connector = records.domainJoinConnector({ id: '3a5c7e9b-2d4f-4a6c-8e1b-3d5f7a9c1e2b', displayName: 'ODJ-01', state, version, lastConnectionDateTime });
    harness.sim.tenant.collections.domainJoinConnectors = [connector];
    try {
      const report = await load();
      expect(report.rows.find((row) => row.id === connector.id)).toMatchObject({ health });
      expect(report.findings.map((finding) => finding.kind)).toEqual(health === 'unhealthy' ? ['ad-connector-unhealthy'] : []);
    } finally {
      harness.sim.tenant.collections.domainJoinConnectors = [];
    }
  });

  it.each([
    ['denied (403)', PUSH, { status: 403 }, 'the Apple MDM push certificate', 'Graph answered 403'],
    ['failing (503 past every retry)', ADE, { status: 503 }, 'the Automated Device Enrollment tokens', 'Graph answered 503'],
    ['denied (403)', VPP, { status: 403 }, 'the Apple VPP tokens', 'Graph answered 403'],
    ['malformed', AD, { malformed: true }, 'the Intune Connectors for Active Directory', 'Graph sent a malformed answer'],
  ] as const)('a read %s of %s is "could not check", and the report still loads', async (_label, path, fault, what, reason) => {
    harness.sim.faults.add({ path, ...fault });
    const report = await load({ sleep: async () => {} });
    expect(report.state).toBe('loaded');
    expect(report.error).toBeNull();
    expect(report.rows.filter((row) => row.health === 'could not check').map((row) => row.reason)).toEqual([`Could not check ${what}: ${reason}`]);
    expect(report.findings).toEqual([]);
    // Nothing is resolved by a read that did not happen.
    expect(report.uncheckedSubjects.length).toBeGreaterThan(0);
  });
});
