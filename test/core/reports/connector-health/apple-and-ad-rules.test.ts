import { describe, expect, it } from 'vitest';
import { adeTokenVerdict, pushCertificateVerdict, vppTokenVerdict } from '../../../../src/core/reports/connector-health/apple-verdicts.js';
import { adConnectorVerdict } from '../../../../src/core/reports/connector-health/connector-verdicts.js';
import { deriveConnectorHealth } from '../../../../src/core/reports/connector-health/derive.js';
import { CONNECTOR_FINDING_KINDS } from '../../../../src/core/reports/connector-health/finding-kinds.js';
import { isEmptyPushCertificate } from '../../../../src/core/reports/connector-health/load.js';
import type { AdConnector, AdeToken, ApplePushCertificate, ConnectorRecords, VppToken } from '../../../../src/core/reports/connector-health/load.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

/**
 * Report 1's rules for the sources read beside the specification (docs/finding-rules.md, report 1,
 * "Apple tokens and the connector for Active Directory"), on records shaped as Graph documents them:
 * applePushNotificationCertificate (v1.0), depOnboardingSetting (beta), vppToken (v1.0) and
 * deviceManagementDomainJoinConnector (beta).
 */
const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const daysAhead = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

const certificate = (overrides: Partial<ApplePushCertificate> = {}): ApplePushCertificate => ({
  id: 'apns-1',
  appleIdentifier: 'mdm@contoso.example',
  topicIdentifier: 'com.apple.mgmt.External.6f1c4e2a-8b3d-4c5e-9a7f-2d1e0b9c8a76',
  expirationDateTime: daysAhead(200),
  lastModifiedDateTime: daysAgo(165),
  certificateUploadStatus: null,
  certificateUploadFailureReason: null,
  ...overrides,
});
const ade = (overrides: Partial<AdeToken> = {}): AdeToken => ({
  id: 'ade-1',
  tokenName: 'Corporate iPhones',
  appleIdentifier: 'abm@contoso.example',
  tokenType: 'dep',
  tokenExpirationDateTime: daysAhead(200),
  lastSuccessfulSyncDateTime: daysAgo(0.25),
  lastSyncErrorCode: 0,
  syncedDeviceCount: 12,
  ...overrides,
});
const vpp = (overrides: Partial<VppToken> = {}): VppToken => ({
  id: 'vpp-1',
  organizationName: 'Contoso',
  appleId: 'apps@contoso.example',
  vppTokenAccountType: 'business',
  state: 'valid',
  expirationDateTime: daysAhead(200),
  lastSyncDateTime: daysAgo(0.25),
  lastSyncStatus: 'completed',
  ...overrides,
});
const connector = (overrides: Partial<AdConnector> = {}): AdConnector => ({
  id: 'odj-1',
  displayName: 'ODJ-01',
  state: 'active',
  version: '6.2504.2001.8',
  lastConnectionDateTime: daysAgo(0.01),
  ...overrides,
});

const records = (overrides: Partial<ConnectorRecords> = {}): ConnectorRecords => ({
  ndesConnectors: [],
  mobileThreatDefenseConnectors: [],
  deviceManagementPartners: [],
  managedGooglePlay: null,
  autopilot: null,
  applePushCertificate: { ok: true, value: certificate() },
  adeTokens: { ok: true, value: [ade()] },
  vppTokens: { ok: true, value: [vpp()] },
  adConnectors: { ok: true, value: [connector()] },
  ...overrides,
});

describe('pushCertificateVerdict: expiry, as tenant status (expired) and community practice (30 days)', () => {
  it.each([
    [200, 'healthy', []],
    [31, 'healthy', []],
    [30, 'warning', ['certificate expires on 2026-12-22, in 30 days (warning within 30 days)']],
    [6.5, 'warning', ['certificate expires on 2026-11-28, in 7 days (warning within 30 days)']],
  ] as const)('%s days ahead is %s', (days, health, reasons) => {
    const verdict = pushCertificateVerdict(certificate({ expirationDateTime: daysAhead(days) }), now);
    expect(verdict).toMatchObject({ health, reasons });
    expect(verdict.expiresSoon === true).toBe(health === 'warning');
  });

  it('expired within the 30-day grace period: unhealthy, and says by when to renew with the same Apple ID', () => {
    expect(pushCertificateVerdict(certificate({ expirationDateTime: daysAgo(10) }), now)).toEqual({
      health: 'unhealthy',
      reasons: ['certificate expired on 2026-11-12', 'renew it with the same Apple ID by 2026-12-12 (the 30-day grace period), or every Apple device must enrol again'],
    });
  });

  it('expired past the grace period: unhealthy, and says the grace period ended', () => {
    expect(pushCertificateVerdict(certificate({ expirationDateTime: daysAgo(45) }), now).reasons).toEqual([
      'certificate expired on 2026-10-08',
      'the 30-day grace period to renew it ended on 2026-11-07',
    ]);
  });

  it('none set up (404, or an empty record) is not configured: the tenant does not manage Apple devices', () => {
    expect(pushCertificateVerdict(null, now)).toEqual({
      health: 'not configured',
      reasons: ['no Apple MDM push certificate is set up: this tenant does not manage Apple devices'],
    });
    expect(isEmptyPushCertificate(certificate({ appleIdentifier: null, topicIdentifier: null, expirationDateTime: '0001-01-01T00:00:00Z' }))).toBe(true);
    expect(isEmptyPushCertificate(certificate({ appleIdentifier: '', topicIdentifier: '', expirationDateTime: '1970-01-01T00:00:00Z' }))).toBe(true);
    expect(isEmptyPushCertificate(certificate())).toBe(false);
    expect(isEmptyPushCertificate(certificate({ appleIdentifier: null, topicIdentifier: null }))).toBe(false);
  });

  it('shows a stated upload failure as a warning; the undocumented upload status alone says nothing', () => {
    expect(pushCertificateVerdict(certificate({ certificateUploadFailureReason: 'The certificate is not valid' }), now)).toEqual({
      health: 'warning',
      reasons: ['the last certificate upload failed: The certificate is not valid'],
    });
    expect(pushCertificateVerdict(certificate({ certificateUploadStatus: 'somethingElse' }), now).health).toBe('healthy');
  });

  it('no expiry date is a warning, never healthy and never a finding', () => {
    expect(pushCertificateVerdict(certificate({ expirationDateTime: '0001-01-01T00:00:00Z' }), now)).toEqual({
      health: 'warning',
      reasons: ['Intune reported no expiry date for this certificate'],
    });
  });
});

describe('adeTokenVerdict: expiry, last successful sync in the tenant status bands, Apple sync errors', () => {
  it.each([
    ['valid', ade(), 'healthy', []],
    ['expiring', ade({ tokenExpirationDateTime: daysAhead(12) }), 'warning', ['token expires on 2026-12-04, in 12 days (warning within 30 days)']],
    ['expired', ade({ tokenExpirationDateTime: daysAgo(1) }), 'unhealthy', ['token expired on 2026-11-21']],
    ['synced more than a day ago', ade({ lastSuccessfulSyncDateTime: daysAgo(1.5) }), 'warning', ['last synced 1 day ago (warning after 1 day)']],
    ['synced three days ago', ade({ lastSuccessfulSyncDateTime: daysAgo(3) }), 'unhealthy', ['last synced 3 days ago (unhealthy at 3 days)']],
    ['never synced', ade({ lastSuccessfulSyncDateTime: '0001-01-01T00:00:00Z' }), 'warning', ['never synced']],
    ['with an Apple sync error', ade({ lastSyncErrorCode: 4001 }), 'warning', ['Apple reported error 4001 at the last sync']],
  ] as const)('%s: %s', (_label, token, health, reasons) => {
    expect(adeTokenVerdict(token, now, DEFAULT_THRESHOLDS)).toMatchObject({ health, reasons });
  });
});

describe('vppTokenVerdict: vppTokenState, expiry, vppTokenSyncStatus and the last sync', () => {
  it.each([
    ['valid', 'healthy', []],
    ['expired', 'unhealthy', ['Intune reports the token as expired']],
    ['invalid', 'unhealthy', ["Intune reports the token as invalid: renew it (the Apple account's password changed, or it left the organisation)"]],
    ['assignedToExternalMDM', 'unhealthy', ['the token is assigned to another MDM service: Intune cannot use it until it is taken back']],
    ['duplicateLocationId', 'warning', ['another token is uploaded for the same location: remove the duplicate so this one syncs again']],
    ['unknown', 'warning', ["Intune reports the token's state as unknown"]],
    ['unknownFutureValue', 'warning', ['token state is "unknownFutureValue", a value Microsoft does not document']],
  ] as const)('state %s is %s', (state, health, reasons) => {
    expect(vppTokenVerdict(vpp({ state: state as VppToken['state'] }), now, DEFAULT_THRESHOLDS)).toMatchObject({ health, reasons });
  });

  it('a failed last sync is a warning; its age decides whether it is unhealthy', () => {
    expect(vppTokenVerdict(vpp({ lastSyncStatus: 'failed' }), now, DEFAULT_THRESHOLDS)).toMatchObject({ health: 'warning', reasons: ['the last sync with Apple failed'] });
    expect(vppTokenVerdict(vpp({ lastSyncStatus: 'failed', lastSyncDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS)).toMatchObject({
      health: 'unhealthy',
      reasons: ['the last sync with Apple failed', 'last synced 4 days ago (unhealthy at 3 days)'],
    });
  });

  it('a valid token expiring within 30 days is a warning that expires soon', () => {
    expect(vppTokenVerdict(vpp({ expirationDateTime: daysAhead(14) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'warning',
      reasons: ['token expires on 2026-12-06, in 14 days (warning within 30 days)'],
      expiresSoon: true,
    });
  });
});

describe('adConnectorVerdict: state as the enum describes it, and the 6.2501.2000.5 floor', () => {
  it.each([
    ['active', '6.2504.2001.8', 'healthy', []],
    ['active', '6.2501.2000.5', 'healthy', []],
    ['error', '6.2504.2001.8', 'unhealthy', ['Intune reports an error: no heartbeat from this connector for more than an hour']],
    ['inactive', '6.2504.2001.8', 'unhealthy', ['inactive: no heartbeat from this connector for more than 5 days (Intune removes inactive connectors after 30 days)']],
    ['active', '6.2501.2000.4', 'unhealthy', ['version 6.2501.2000.4 is deprecated and can no longer process enrollment requests (6.2501.2000.5 or later is needed)']],
    ['active', '6.2412.1500.1', 'unhealthy', ['version 6.2412.1500.1 is deprecated and can no longer process enrollment requests (6.2501.2000.5 or later is needed)']],
    ['active', 'preview', 'healthy', []],
    ['paused', '6.2504.2001.8', 'warning', ['connector state is "paused", a value Microsoft does not document']],
  ] as const)('%s at version %s is %s', (state, version, health, reasons) => {
    expect(adConnectorVerdict(connector({ state: state as AdConnector['state'], version }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
  });
});

describe('deriveConnectorHealth: the Apple and Active Directory rows and their findings', () => {
  const findingsOf = (report: ReturnType<typeof deriveConnectorHealth>) => report.findings.map((finding) => [finding.kind, finding.subjectId]);

  it('all valid: one healthy row each, no finding', () => {
    const report = deriveConnectorHealth(records(), context);
    expect(report.rows.map((row) => [row.kind, row.name, row.health])).toEqual([
      ['Apple MDM push certificate', 'mdm@contoso.example', 'healthy'],
      ['Apple ADE token', 'Corporate iPhones', 'healthy'],
      ['Apple VPP token', 'Contoso (expires 2027-06-10)', 'healthy'],
      ['Connector for Active Directory', 'ODJ-01', 'healthy'],
      ['Certificate connector', '—', 'not configured'],
      ['Mobile Threat Defense', '—', 'not configured'],
      ['Managed Google Play', 'Managed Google Play', 'not configured'],
      ['Partner MDM', '—', 'not configured'],
      ['Windows Autopilot', 'Autopilot device sync', 'not configured'],
    ]);
    expect(report.findings).toEqual([]);
    expect(report.uncheckedSubjects).toBeUndefined();
  });

  it('makes each kind of its own: expired certificate, expiring certificates and tokens, broken tokens, broken connectors', () => {
    const report = deriveConnectorHealth(
      records({
        applePushCertificate: { ok: true, value: certificate({ expirationDateTime: daysAgo(2) }) },
        adeTokens: { ok: true, value: [ade({ id: 'ade-expiring', tokenExpirationDateTime: daysAhead(20) }), ade({ id: 'ade-stale', lastSuccessfulSyncDateTime: daysAgo(5) })] },
        vppTokens: {
          ok: true,
          value: [
            vpp({ id: 'vpp-invalid', state: 'invalid' }),
            vpp({ id: 'vpp-expiring', expirationDateTime: daysAhead(3) }),
            vpp({ id: 'vpp-duplicate', state: 'duplicateLocationId' }),
          ],
        },
        adConnectors: { ok: true, value: [connector({ id: 'odj-error', state: 'error' }), connector({ id: 'odj-ok' })] },
      }),
      context,
    );
    expect(findingsOf(report).sort()).toEqual(
      [
        ['apple-push-certificate-expired', 'apns-1'],
        ['apple-token-expiring', 'ade-expiring'],
        ['ade-token-unhealthy', 'ade-stale'],
        ['vpp-token-unhealthy', 'vpp-invalid'],
        ['apple-token-expiring', 'vpp-expiring'],
        ['ad-connector-unhealthy', 'odj-error'],
      ].sort(),
    );
    // Each finding's row is as loud as it: danger for high, warning for the expiring ones.
    for (const finding of report.findings) {
      const row = report.rows.find((candidate) => candidate.id === finding.subjectId)!;
      expect(row.healthTone).toBe(CONNECTOR_FINDING_KINDS[finding.kind].severity === 'high' ? 'danger' : 'warning');
    }
    expect(report.rows.find((row) => row.id === 'vpp-duplicate')).toMatchObject({ health: 'warning', healthTone: 'warning' });
  });

  it('an expired token whose expiry is also near makes one finding, the unhealthy one', () => {
    const report = deriveConnectorHealth(records({ vppTokens: { ok: true, value: [vpp({ id: 'vpp-x', state: 'expired', expirationDateTime: daysAhead(5) })] } }), context);
    expect(findingsOf(report)).toEqual([['vpp-token-unhealthy', 'vpp-x']]);
  });

  it('a source that does not apply says so: no push certificate, no tokens, no connector, and no finding', () => {
    const report = deriveConnectorHealth(
      records({ applePushCertificate: { ok: true, value: null }, adeTokens: { ok: true, value: [] }, vppTokens: { ok: true, value: [] }, adConnectors: { ok: true, value: [] } }),
      context,
    );
    expect(
      report.rows.filter((row) => String(row.id).endsWith('-none') && /Apple|Active Directory/.test(String(row.kind))).map((row) => [row.id, row.health, row.healthTone]),
    ).toEqual([
      ['apple-mdm-push-certificate-none', 'not configured', 'neutral'],
      ['apple-ade-token-none', 'not configured', 'neutral'],
      ['apple-vpp-token-none', 'not configured', 'neutral'],
      ['connector-for-active-directory-none', 'not configured', 'neutral'],
    ]);
    expect(report.findings).toEqual([]);
  });

  it('a source that could not be read is "could not check": no finding, its kinds kept open, the rest judged as usual', () => {
    const report = deriveConnectorHealth(
      records({
        applePushCertificate: { ok: false, reason: 'Graph answered 403' },
        vppTokens: { ok: false, reason: 'Graph answered 503' },
        adConnectors: { ok: true, value: [connector({ id: 'odj-old', version: '6.2410.0.1' })] },
      }),
      context,
    );
    expect(report.rows.filter((row) => row.health === 'could not check').map((row) => [row.id, row.reason, row.healthTone])).toEqual([
      ['apple-mdm-push-certificate-unread', 'Could not check the Apple MDM push certificate: Graph answered 403', 'neutral'],
      ['apple-vpp-token-unread', 'Could not check the Apple VPP tokens: Graph answered 503', 'neutral'],
    ]);
    expect(findingsOf(report)).toEqual([['ad-connector-unhealthy', 'odj-old']]);
    expect(report.uncheckedSubjects).toEqual([
      { kind: 'apple-push-certificate-expired', subjectId: 'apple-mdm-push-certificate-unread' },
      { kind: 'apple-token-expiring', subjectId: 'apple-mdm-push-certificate-unread' },
      { kind: 'vpp-token-unhealthy', subjectId: 'apple-vpp-token-unread' },
      { kind: 'apple-token-expiring', subjectId: 'apple-vpp-token-unread' },
    ]);
  });
});
