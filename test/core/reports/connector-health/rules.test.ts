import { describe, expect, it } from 'vitest';
import { certificateConnectorVerdict, mobileThreatDefenseVerdict } from '../../../../src/core/reports/connector-health/connector-verdicts.js';
import { deriveConnectorHealth } from '../../../../src/core/reports/connector-health/derive.js';
import { autopilotVerdict, managedGooglePlayVerdict, partnerVerdict } from '../../../../src/core/reports/connector-health/partner-verdicts.js';
import type { ConnectorRecords } from '../../../../src/core/reports/connector-health/load.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

type Ndes = ConnectorRecords['ndesConnectors'][number];
type Mtd = ConnectorRecords['mobileThreatDefenseConnectors'][number];
type Partner = ConnectorRecords['deviceManagementPartners'][number];
type GooglePlay = NonNullable<ConnectorRecords['managedGooglePlay']>;
type Autopilot = NonNullable<ConnectorRecords['autopilot']>;

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };
const NEVER = '0001-01-01T00:00:00Z';
const DEFENDER_ID = 'fc780465-2017-40d4-a0c5-307022471b92';
const LOOKOUT_ID = '2c7790de-8b02-4814-85cf-e0c59380dee8';

/** An ISO timestamp `days` before `now`. */
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const daysAhead = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

const ndes = (overrides: Partial<Ndes> = {}): Ndes => ({
  id: 'ndes-1',
  displayName: 'PKI-CONNECTOR-01',
  machineName: 'pki01.contoso.local',
  state: 'active',
  lastConnectionDateTime: daysAgo(0.5),
  connectorVersion: '6.2406.0.1001',
  ...overrides,
});

const mtd = (overrides: Partial<Mtd> = {}): Mtd => ({
  id: DEFENDER_ID,
  partnerState: 'enabled',
  lastHeartbeatDateTime: daysAgo(0.5),
  partnerUnresponsivenessThresholdInDays: 7,
  ...overrides,
});

const partner = (overrides: Partial<Partner> = {}): Partner => ({
  id: 'partner-1',
  displayName: 'Jamf Pro',
  isConfigured: true,
  partnerState: 'enabled',
  lastHeartbeatDateTime: daysAgo(0.5),
  whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: null,
  whenPartnerDevicesWillBeRemovedDateTime: null,
  ...overrides,
});

const googlePlay = (overrides: Partial<GooglePlay> = {}): GooglePlay => ({
  id: 'mgp-1',
  bindStatus: 'boundAndValidated',
  lastAppSyncStatus: 'success',
  lastAppSyncDateTime: daysAgo(0.5),
  ownerOrganizationName: 'Contoso Ltd',
  ...overrides,
});

const autopilot = (overrides: Partial<Autopilot> = {}): Autopilot => ({
  id: 'autopilot-1',
  syncStatus: 'completed',
  lastSyncDateTime: daysAgo(0.5),
  ...overrides,
});

/** The sources read beside the specification, none set up: no Apple MDM, no hybrid join (apple-and-ad-rules.test.ts tests them). */
const NO_APPLE_OR_AD = {
  applePushCertificate: { ok: true, value: null },
  adeTokens: { ok: true, value: [] },
  vppTokens: { ok: true, value: [] },
  adConnectors: { ok: true, value: [] },
} as const satisfies Partial<ConnectorRecords>;

/** A tenant where every integration reports normally. */
const healthyRecords = (overrides: Partial<ConnectorRecords> = {}): ConnectorRecords => ({
  ndesConnectors: [ndes()],
  mobileThreatDefenseConnectors: [mtd()],
  deviceManagementPartners: [partner()],
  managedGooglePlay: googlePlay(),
  autopilot: autopilot(),
  ...NO_APPLE_OR_AD,
  ...overrides,
});

describe('certificateConnectorVerdict: tenant-status bands on the last connection', () => {
  it.each([
    [0.5, 'healthy', []],
    [1, 'healthy', []],
    [1.5, 'warning', ['last connected 1 day ago (warning after 1 day)']],
    [2.99, 'warning', ['last connected 2 days ago (warning after 1 day)']],
    [3, 'unhealthy', ['last connected 3 days ago (unhealthy at 3 days)']],
    [3.5, 'unhealthy', ['last connected 3 days ago (unhealthy at 3 days)']],
  ] as const)('last connection %s days ago is %s', (days, health, reasons) => {
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(days) }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
  });

  it('exactly one day is not a warning (more than one day is)', () => {
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(1) }), now, DEFAULT_THRESHOLDS).health).toBe('healthy');
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: new Date(now.getTime() - 86_400_000 - 60_000).toISOString() }), now, DEFAULT_THRESHOLDS).health).toBe(
      'warning',
    );
  });

  it('exactly three days is unhealthy, just under is a warning', () => {
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(3) }), now, DEFAULT_THRESHOLDS).health).toBe('unhealthy');
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: new Date(now.getTime() - 3 * 86_400_000 + 60_000).toISOString() }), now, DEFAULT_THRESHOLDS).health).toBe(
      'warning',
    );
  });

  it('uses the configured thresholds, not constants', () => {
    const thresholds = { ...DEFAULT_THRESHOLDS, connectorWarningAfterDays: 2, connectorUnhealthyAfterDays: 5 };
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(1.5) }), now, thresholds).health).toBe('healthy');
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(4) }), now, thresholds)).toEqual({
      health: 'warning',
      reasons: ['last connected 4 days ago (warning after 2 days)'],
    });
    expect(certificateConnectorVerdict(ndes({ lastConnectionDateTime: daysAgo(5) }), now, thresholds)).toEqual({
      health: 'unhealthy',
      reasons: ['last connected 5 days ago (unhealthy at 5 days)'],
    });
  });

  describe('each ndesConnectorState member as Microsoft documents it (intune-deviceconfig-ndesconnectorstate, beta)', () => {
    it.each([
      ['active', 'healthy', []],
      ['inactive', 'warning', ['no recent activity from this connector']],
      ['none', 'warning', ['Intune has not reported a state for this connector yet']],
    ] as const)('"%s" with a recent connection is %s', (state, health, reasons) => {
      expect(certificateConnectorVerdict(ndes({ state, lastConnectionDateTime: daysAgo(0.1) }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
    });

    it('an inactive connector is unhealthy only through its last connection: two hours ago a warning, five days ago unhealthy', () => {
      expect(certificateConnectorVerdict(ndes({ state: 'inactive', lastConnectionDateTime: daysAgo(2 / 24) }), now, DEFAULT_THRESHOLDS).health).toBe('warning');
      expect(certificateConnectorVerdict(ndes({ state: 'inactive', lastConnectionDateTime: daysAgo(5) }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'unhealthy',
        reasons: ['no recent activity from this connector', 'last connected 5 days ago (unhealthy at 3 days)'],
      });
    });

    it('"none" with a stale connection is unhealthy through the bands, as any connector', () => {
      expect(certificateConnectorVerdict(ndes({ state: 'none', lastConnectionDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS).health).toBe('unhealthy');
    });

    it('a value Microsoft does not list, or none at all, is a warning that shows it', () => {
      expect(certificateConnectorVerdict(ndes({ state: 'paused' as Ndes['state'] }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['connector state is "paused", a value Microsoft does not document'],
      });
      expect(certificateConnectorVerdict(ndes({ state: undefined }), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'warning', reasons: ['Intune reported no connector state'] });
    });
  });

  it('an active, recent, supported connector is healthy with no reason', () => {
    expect(certificateConnectorVerdict(ndes(), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'healthy', reasons: [] });
  });

  it('a version below the supported floor is a warning; the floor itself and later are not', () => {
    expect(certificateConnectorVerdict(ndes({ connectorVersion: '6.2301.1.10' }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'warning',
      reasons: ['version 6.2301.1.10 is older than the supported 6.2406.0.1001'],
    });
    expect(certificateConnectorVerdict(ndes({ connectorVersion: '6.2406.0.1001' }), now, DEFAULT_THRESHOLDS).health).toBe('healthy');
    expect(certificateConnectorVerdict(ndes({ connectorVersion: '6.2409.1.5' }), now, DEFAULT_THRESHOLDS).health).toBe('healthy');
  });

  it('reads 0001-01-01T00:00:00Z as "never connected"', () => {
    const verdict = certificateConnectorVerdict(ndes({ lastConnectionDateTime: NEVER }), now, DEFAULT_THRESHOLDS);
    expect(verdict.reasons).toEqual(['never connected']);
    expect(verdict.health).not.toBe('healthy');
  });

  it('keeps every reason and the worst health when several rules apply', () => {
    expect(certificateConnectorVerdict(ndes({ state: 'inactive', lastConnectionDateTime: daysAgo(3.5), connectorVersion: '6.2301.0.1' }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['no recent activity from this connector', 'last connected 3 days ago (unhealthy at 3 days)', 'version 6.2301.0.1 is older than the supported 6.2406.0.1001'],
    });
  });
});

describe('mobileThreatDefenseVerdict', () => {
  it('an enabled partner with a recent heartbeat is healthy', () => {
    expect(mobileThreatDefenseVerdict(mtd(), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'healthy', reasons: [] });
  });

  describe('each mobileThreatPartnerTenantState member as Microsoft documents it (intune-onboarding-mobilethreatpartnertenantstate, beta)', () => {
    it.each([
      ['enabled', 'healthy', []],
      ['available', 'warning', ['available at the partner but not enabled in Intune']],
      ['unavailable', 'warning', ['not connected: the partner side of the connection is not set up']],
      ['notSetUp', 'not configured', ['not set up: Intune has not received a heartbeat from this partner']],
      ['unresponsive', 'unhealthy', ["unresponsive: Intune ignores this partner's threat data in compliance"]],
      ['error', 'unhealthy', ['Intune reports an error for this connector']],
    ] as const)('"%s" with a recent heartbeat is %s', (partnerState, health, reasons) => {
      expect(mobileThreatDefenseVerdict(mtd({ partnerState }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
    });

    it.each(['available', 'unavailable'] as const)('"%s" stays a warning however stale its heartbeat: Intune does not use the partner yet', (partnerState) => {
      const verdict = mobileThreatDefenseVerdict(mtd({ partnerState, lastHeartbeatDateTime: daysAgo(10) }), now, DEFAULT_THRESHOLDS);
      expect(verdict.health).toBe('warning');
      expect(verdict.reasons).toContain('last heartbeat 10 days ago');
    });

    it('"notSetUp" is not configured, and its missing heartbeat is not held against it', () => {
      expect(mobileThreatDefenseVerdict(mtd({ partnerState: 'notSetUp', lastHeartbeatDateTime: NEVER }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'not configured',
        reasons: ['not set up: Intune has not received a heartbeat from this partner'],
      });
    });

    it('"enabled" past the bands is unhealthy by its heartbeat', () => {
      expect(mobileThreatDefenseVerdict(mtd({ lastHeartbeatDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'unhealthy',
        reasons: ['last heartbeat 4 days ago (unhealthy at 3 days)'],
      });
    });

    it('a value Microsoft does not list is a warning that shows it, never a finding', () => {
      expect(mobileThreatDefenseVerdict(mtd({ partnerState: 'paused' as Mtd['partnerState'], lastHeartbeatDateTime: daysAgo(5) }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['partner state is "paused", a value Microsoft does not document', 'last heartbeat 5 days ago'],
      });
    });
  });

  describe("a state /v1.0 sends as unknownFutureValue that the beta read did not name (beta's notSetUp or error)", () => {
    const FAILED = "Graph /v1.0 does not name this connector's state (not set up, or error), and reading it on beta failed";
    const NOT_NAMED = "Graph does not name this connector's state (not set up, or error): /v1.0 sends it as unknownFutureValue, and beta did not name it either";
    const hidden = (lastHeartbeatDateTime: string, stateOnBeta?: Mtd['stateOnBeta']) =>
      mtd({ partnerState: 'unknownFutureValue', lastHeartbeatDateTime, ...(stateOnBeta ? { stateOnBeta } : {}) });

    it('a recent heartbeat: a warning saying why, never healthy', () => {
      expect(mobileThreatDefenseVerdict(hidden(daysAgo(0.2), 'failed'), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'warning', reasons: [FAILED] });
      expect(mobileThreatDefenseVerdict(hidden(daysAgo(0.2), 'not named'), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'warning', reasons: [NOT_NAMED] });
      expect(mobileThreatDefenseVerdict(hidden(daysAgo(0.2)), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'warning', reasons: [NOT_NAMED] });
    });

    it('no heartbeat ever, or one past every band: still a warning, since "not set up" proves no failure', () => {
      expect(mobileThreatDefenseVerdict(hidden(NEVER, 'failed'), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'warning', reasons: [FAILED, 'never heartbeat'] });
      expect(mobileThreatDefenseVerdict(hidden(daysAgo(9), 'failed'), now, DEFAULT_THRESHOLDS).health).toBe('warning');
    });
  });

  it("a heartbeat older than the partner's own threshold is unhealthy even inside the tenant-status warning band", () => {
    const verdict = mobileThreatDefenseVerdict(mtd({ lastHeartbeatDateTime: daysAgo(1.5), partnerUnresponsivenessThresholdInDays: 1 }), now, DEFAULT_THRESHOLDS);
    expect(verdict.health).toBe('unhealthy');
    expect(verdict.reasons).toEqual([
      "no heartbeat for more than the partner's 1-day threshold: Intune ignores its data in compliance",
      'last heartbeat 1 day ago (warning after 1 day)',
    ]);
  });

  it("a heartbeat within the partner's own threshold follows the tenant-status bands only", () => {
    expect(mobileThreatDefenseVerdict(mtd({ lastHeartbeatDateTime: daysAgo(1.5), partnerUnresponsivenessThresholdInDays: 7 }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'warning',
      reasons: ['last heartbeat 1 day ago (warning after 1 day)'],
    });
  });

  it('a heartbeat three days or more old is unhealthy even when the partner threshold is longer', () => {
    expect(mobileThreatDefenseVerdict(mtd({ lastHeartbeatDateTime: daysAgo(3.5), partnerUnresponsivenessThresholdInDays: 7 }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['last heartbeat 3 days ago (unhealthy at 3 days)'],
    });
  });

  it('an enabled partner that never sent a heartbeat (0001-01-01) is not healthy', () => {
    const verdict = mobileThreatDefenseVerdict(mtd({ lastHeartbeatDateTime: NEVER }), now, DEFAULT_THRESHOLDS);
    expect(verdict.reasons).toEqual(['never heartbeat']);
    expect(verdict.health).toBe('warning');
  });
});

describe('managedGooglePlayVerdict', () => {
  it('null (never bound, 404) is not configured', () => {
    expect(managedGooglePlayVerdict(null, now, DEFAULT_THRESHOLDS)).toEqual({ health: 'not configured', reasons: ['managed Google Play is not bound'] });
  });

  it('notBound is not configured, whatever the sync fields say', () => {
    expect(managedGooglePlayVerdict(googlePlay({ bindStatus: 'notBound', lastAppSyncStatus: 'credentialsNotValid', lastAppSyncDateTime: NEVER }), now, DEFAULT_THRESHOLDS)).toEqual(
      {
        health: 'not configured',
        reasons: ['managed Google Play is not bound'],
      },
    );
  });

  it('bound and validated with a recent successful sync is healthy', () => {
    expect(managedGooglePlayVerdict(googlePlay(), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'healthy', reasons: [] });
  });

  it('a credentialsNotValid last sync is unhealthy', () => {
    expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus: 'credentialsNotValid' }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['last app sync failed: the binding credentials are no longer valid (bind again)'],
    });
  });

  describe('each androidManagedStoreAccountBindStatus member, read by its name (the beta page describes none)', () => {
    it.each([
      ['boundAndValidated', 'healthy', []],
      ['bound', 'warning', ['bound, not yet validated']],
      ['unbinding', 'warning', ['the binding with managed Google Play is being removed']],
    ] as const)('"%s" with a recent successful sync is %s', (bindStatus, health, reasons) => {
      expect(managedGooglePlayVerdict(googlePlay({ bindStatus }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
    });

    it('"unbinding" stays a warning whatever its last sync said: the binding is being removed', () => {
      expect(
        managedGooglePlayVerdict(googlePlay({ bindStatus: 'unbinding', lastAppSyncStatus: 'unknownError', lastAppSyncDateTime: daysAgo(9) }), now, DEFAULT_THRESHOLDS).health,
      ).toBe('warning');
    });

    it('"bound" with a failed sync is unhealthy by the sync', () => {
      expect(managedGooglePlayVerdict(googlePlay({ bindStatus: 'bound', lastAppSyncStatus: 'managementServiceError' }), now, DEFAULT_THRESHOLDS).health).toBe('unhealthy');
    });
  });

  describe('each androidManagedStoreAccountAppSyncStatus member, read by its name (the beta page describes none)', () => {
    it.each([
      ['success', 'healthy', []],
      ['none', 'healthy', ['no app sync result recorded']],
      ['credentialsNotValid', 'unhealthy', ['last app sync failed: the binding credentials are no longer valid (bind again)']],
      ['androidForWorkApiError', 'unhealthy', ["last app sync failed: Google's managed Google Play service returned an error"]],
      ['managementServiceError', 'unhealthy', ['last app sync failed: the Intune service reported an error']],
      ['unknownError', 'unhealthy', ['last app sync failed with an unknown error']],
    ] as const)('"%s" on a validated binding is %s', (lastAppSyncStatus, health, reasons) => {
      expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
    });

    it('"none" with an old or missing sync date is a warning at most: no sync result proves no failure', () => {
      expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus: 'none', lastAppSyncDateTime: daysAgo(20) }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['no app sync result recorded', 'last app sync 20 days ago'],
      });
      expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus: 'none', lastAppSyncDateTime: NEVER }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['no app sync result recorded', 'never app sync'],
      });
    });

    it('a value Microsoft does not list, or none at all, is a warning that shows it', () => {
      expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus: 'throttled' as GooglePlay['lastAppSyncStatus'] }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['app sync status is "throttled", a value Microsoft does not document'],
      });
      expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncStatus: undefined }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['Intune reported no app sync status'],
      });
    });
  });

  it('a last app sync three or more days ago is unhealthy', () => {
    expect(managedGooglePlayVerdict(googlePlay({ lastAppSyncDateTime: daysAgo(3) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['last app sync 3 days ago (unhealthy at 3 days)'],
    });
  });
});

describe('partnerVerdict', () => {
  it('isConfigured false is not configured', () => {
    expect(partnerVerdict(partner({ isConfigured: false, partnerState: 'unresponsive', lastHeartbeatDateTime: NEVER }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'not configured',
      reasons: ['not connected to Intune'],
    });
  });

  it('a configured, enabled partner with a recent heartbeat is healthy', () => {
    expect(partnerVerdict(partner(), now, DEFAULT_THRESHOLDS)).toEqual({ health: 'healthy', reasons: [] });
  });

  describe('each deviceManagementPartnerTenantState member (intune-onboarding-devicemanagementpartner)', () => {
    it.each([
      ['enabled', 'healthy', []],
      ['unknown', 'warning', ["Intune reports the partner's state as unknown"]],
      ['unavailable', 'warning', ['Intune reports the partner as unavailable']],
      ['terminated', 'warning', ['integration was disconnected']],
      ['rejected', 'unhealthy', ["Intune is rejecting this partner's messages"]],
      ['unresponsive', 'unhealthy', ['the partner has stopped responding to Intune']],
    ] as const)('"%s" with a recent heartbeat is %s', (partnerState, health, reasons) => {
      expect(partnerVerdict(partner({ partnerState }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
    });

    it('"terminated" names the removal date, and its silent heartbeat is no failure', () => {
      expect(
        partnerVerdict(
          partner({ partnerState: 'terminated', lastHeartbeatDateTime: daysAgo(30), whenPartnerDevicesWillBeRemovedDateTime: '2027-02-20T00:00:00Z' }),
          now,
          DEFAULT_THRESHOLDS,
        ),
      ).toEqual({ health: 'warning', reasons: ['integration was disconnected; partner devices will be removed on 2027-02-20'] });
    });

    it('"terminated" on an integration no longer configured still says when its devices go', () => {
      expect(
        partnerVerdict(partner({ isConfigured: false, partnerState: 'terminated', whenPartnerDevicesWillBeRemovedDateTime: '2027-02-20T00:00:00Z' }), now, DEFAULT_THRESHOLDS),
      ).toEqual({ health: 'not configured', reasons: ['integration was disconnected; partner devices will be removed on 2027-02-20'] });
    });

    it.each(['unknown', 'unavailable'] as const)('a configured partner in "%s" with a heartbeat past the bands is unhealthy by its heartbeat', (partnerState) => {
      expect(partnerVerdict(partner({ partnerState, lastHeartbeatDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS).health).toBe('unhealthy');
    });

    it('a value Microsoft does not list is a warning that shows it', () => {
      expect(partnerVerdict(partner({ partnerState: 'paused' as Partner['partnerState'] }), now, DEFAULT_THRESHOLDS)).toEqual({
        health: 'warning',
        reasons: ['partner state is "paused", a value Microsoft does not document'],
      });
    });
  });

  it('a heartbeat three or more days old is unhealthy', () => {
    expect(partnerVerdict(partner({ lastHeartbeatDateTime: daysAgo(3.5) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['last heartbeat 3 days ago (unhealthy at 3 days)'],
    });
  });

  it('mentions a future non-compliance date and a future removal date in the reasons', () => {
    const verdict = partnerVerdict(
      partner({ whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: '2026-12-01T00:00:00Z', whenPartnerDevicesWillBeRemovedDateTime: '2027-01-15T00:00:00Z' }),
      now,
      DEFAULT_THRESHOLDS,
    );
    expect(verdict).toEqual({
      health: 'warning',
      reasons: ['partner devices will be marked non-compliant on 2026-12-01', 'partner devices will be removed on 2027-01-15'],
    });
  });

  it('does not mention a deadline in the past or a "never" one', () => {
    expect(
      partnerVerdict(partner({ whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: daysAgo(10), whenPartnerDevicesWillBeRemovedDateTime: NEVER }), now, DEFAULT_THRESHOLDS),
    ).toEqual({ health: 'healthy', reasons: [] });
  });
});

describe('autopilotVerdict', () => {
  it('null (settings never created) is not configured', () => {
    expect(autopilotVerdict(null, now, DEFAULT_THRESHOLDS)).toEqual({ health: 'not configured', reasons: ['Autopilot has never synchronised'] });
  });

  it('an unknown status that never synchronised (0001-01-01) is not configured', () => {
    expect(autopilotVerdict(autopilot({ syncStatus: 'unknown', lastSyncDateTime: NEVER }), now, DEFAULT_THRESHOLDS).health).toBe('not configured');
  });

  it('a failed last sync is unhealthy, however recent', () => {
    expect(autopilotVerdict(autopilot({ syncStatus: 'failed', lastSyncDateTime: daysAgo(0.2) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['the last Autopilot sync failed'],
    });
  });

  it.each([
    ['completed', 'healthy', []],
    ['inProgress', 'healthy', []],
    ['unknown', 'warning', ['Intune reports the Autopilot sync status as unknown']],
    ['failed', 'unhealthy', ['the last Autopilot sync failed']],
  ] as const)('each windowsAutopilotSyncStatus member: a recent "%s" sync is %s', (syncStatus, health, reasons) => {
    expect(autopilotVerdict(autopilot({ syncStatus }), now, DEFAULT_THRESHOLDS)).toEqual({ health, reasons });
  });

  it('an in-progress sync whose last completion is four days old is unhealthy by the bands', () => {
    expect(autopilotVerdict(autopilot({ syncStatus: 'inProgress', lastSyncDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS).health).toBe('unhealthy');
  });

  it('a completed sync three or more days ago is unhealthy', () => {
    expect(autopilotVerdict(autopilot({ lastSyncDateTime: daysAgo(4) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'unhealthy',
      reasons: ['last sync 4 days ago (unhealthy at 3 days)'],
    });
  });

  it('a completed sync 1.5 days ago is a warning', () => {
    expect(autopilotVerdict(autopilot({ lastSyncDateTime: daysAgo(1.5) }), now, DEFAULT_THRESHOLDS)).toEqual({
      health: 'warning',
      reasons: ['last sync 1 day ago (warning after 1 day)'],
    });
  });
});

describe('deriveConnectorHealth', () => {
  it('gives one healthy row per integration and no finding when everything reports normally', () => {
    const report = deriveConnectorHealth(healthyRecords(), context);
    expect(report.state).toBe('loaded');
    expect(report.notice).toBeNull();
    expect(report.columns.map((column) => column.key)).toEqual(['kind', 'name', 'health', 'lastContact', 'reason']);
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => [row.kind, row.name, row.health, row.reason])).toEqual([
      ['Certificate connector', 'PKI-CONNECTOR-01', 'healthy', 'Reporting normally'],
      ['Mobile Threat Defense', 'Microsoft Defender for Endpoint', 'healthy', 'Reporting normally'],
      ['Managed Google Play', 'Contoso Ltd', 'healthy', 'Reporting normally'],
      ['Partner MDM', 'Jamf Pro', 'healthy', 'Reporting normally'],
      ['Windows Autopilot', 'Autopilot device sync', 'healthy', 'Reporting normally'],
      // No Apple MDM and no hybrid join: not applicable, said so, no finding.
      ['Apple MDM push certificate', '—', 'not configured', 'No Apple MDM push certificate is set up: this tenant does not manage Apple devices'],
      ['Apple ADE token', '—', 'not configured', 'No Automated Device Enrollment token is set up'],
      ['Apple VPP token', '—', 'not configured', 'No Apple VPP (Apps and Books) token is set up'],
      [
        'Connector for Active Directory',
        '—',
        'not configured',
        'No Intune Connector for Active Directory is registered (Windows Autopilot needs one only for Microsoft Entra hybrid join)',
      ],
    ]);
    expect(report.rows[0]).toMatchObject({ id: 'ndes-1', lastContact: daysAgo(0.5) });
    expect(report.rows[1]?.link).toContain('windowsDefenderATP');
  });

  it.each([
    [0.5, 'healthy'],
    [1, 'healthy'],
    [1.5, 'warning'],
    [3, 'unhealthy'],
    [3.5, 'unhealthy'],
  ] as const)('a certificate connector last seen %s days ago gets the row health %s, and a finding only when unhealthy', (days, health) => {
    const report = deriveConnectorHealth(healthyRecords({ ndesConnectors: [ndes({ lastConnectionDateTime: daysAgo(days) })] }), context);
    expect(report.rows.find((row) => row.id === 'ndes-1')?.health).toBe(health);
    expect(report.findings.map((finding) => finding.subjectId)).toEqual(health === 'unhealthy' ? ['ndes-1'] : []);
  });

  it('an inactive certificate connector that connected recently is a warning row, not a finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ ndesConnectors: [ndes({ state: 'inactive', lastConnectionDateTime: daysAgo(2 / 24) })] }), context);
    expect(report.rows.find((row) => row.id === 'ndes-1')).toMatchObject({ health: 'warning', reason: 'No recent activity from this connector' });
    expect(report.findings).toEqual([]);
  });

  it('raises connector-unhealthy for an inactive certificate connector last seen five days ago, with the reason as detail', () => {
    const report = deriveConnectorHealth(healthyRecords({ ndesConnectors: [ndes({ state: 'inactive', lastConnectionDateTime: daysAgo(5) })] }), context);
    expect(report.findings).toEqual([
      {
        kind: 'connector-unhealthy',
        subjectId: 'ndes-1',
        subjectName: 'Certificate connector: PKI-CONNECTOR-01',
        detail: 'No recent activity from this connector; last connected 5 days ago (unhealthy at 3 days)',
      },
    ]);
  });

  it('falls back to the machine name, then the id, for a certificate connector without a display name', () => {
    const report = deriveConnectorHealth(
      healthyRecords({ ndesConnectors: [ndes({ id: 'a', displayName: null }), ndes({ id: 'b', displayName: null, machineName: null })] }),
      context,
    );
    expect(report.rows.filter((row) => row.kind === 'Certificate connector').map((row) => row.name)).toEqual(['pki01.contoso.local', 'b']);
  });

  it('names Mobile Threat Defense partners by connector id (any case) and shows an unknown id raw', () => {
    const report = deriveConnectorHealth(healthyRecords({ mobileThreatDefenseConnectors: [mtd({ id: LOOKOUT_ID.toUpperCase() }), mtd({ id: 'not-a-known-partner' })] }), context);
    expect(report.rows.filter((row) => row.kind === 'Mobile Threat Defense').map((row) => row.name)).toEqual(['Lookout for Work', 'not-a-known-partner']);
  });

  it.each([
    ['unresponsive', "Unresponsive: Intune ignores this partner's threat data in compliance"],
    ['error', 'Intune reports an error for this connector'],
  ] as const)('an MTD connector in state "%s" is an unhealthy row with a finding', (partnerState, detail) => {
    const report = deriveConnectorHealth(healthyRecords({ mobileThreatDefenseConnectors: [mtd({ partnerState })] }), context);
    expect(report.rows[0]).toMatchObject({ kind: 'Mobile Threat Defense', health: 'unhealthy', reason: detail });
    expect(report.findings).toEqual([{ kind: 'connector-unhealthy', subjectId: DEFENDER_ID, subjectName: 'Mobile Threat Defense: Microsoft Defender for Endpoint', detail }]);
  });

  it.each([
    ['available', 'warning', 'Available at the partner but not enabled in Intune'],
    ['unavailable', 'warning', 'Not connected: the partner side of the connection is not set up'],
    ['notSetUp', 'not configured', 'Not set up: Intune has not received a heartbeat from this partner'],
    ['unknownFutureValue', 'warning', "Graph does not name this connector's state (not set up, or error): /v1.0 sends it as unknownFutureValue, and beta did not name it either"],
  ] as const)('an MTD connector in state "%s" is a %s row, not a finding', (partnerState, health, reason) => {
    const report = deriveConnectorHealth(healthyRecords({ mobileThreatDefenseConnectors: [mtd({ partnerState })] }), context);
    expect(report.rows.find((row) => row.kind === 'Mobile Threat Defense')).toMatchObject({ health, reason });
    expect(report.findings).toEqual([]);
  });

  it("an MTD heartbeat older than the connector's own threshold is a finding", () => {
    const report = deriveConnectorHealth(
      healthyRecords({ mobileThreatDefenseConnectors: [mtd({ lastHeartbeatDateTime: daysAgo(2.5), partnerUnresponsivenessThresholdInDays: 2 })] }),
      context,
    );
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([['connector-unhealthy', DEFENDER_ID]]);
    expect(report.findings[0]?.detail).toContain("more than the partner's 2-day threshold");
  });

  it('managed Google Play notBound is a "not configured" row and no finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ managedGooglePlay: googlePlay({ bindStatus: 'notBound' }) }), context);
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')).toMatchObject({ health: 'not configured', reason: 'Managed Google Play is not bound' });
    expect(report.findings).toEqual([]);
  });

  it('managed Google Play null is a "not configured" row with a fixed id and name, and no finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ managedGooglePlay: null }), context);
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')).toMatchObject({
      id: 'androidManagedStoreAccountEnterpriseSettings',
      name: 'Managed Google Play',
      health: 'not configured',
      lastContact: null,
    });
    expect(report.findings).toEqual([]);
  });

  it('managed Google Play with credentialsNotValid sync is an unhealthy finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ managedGooglePlay: googlePlay({ lastAppSyncStatus: 'credentialsNotValid' }) }), context);
    expect(report.findings).toEqual([
      {
        kind: 'connector-unhealthy',
        subjectId: 'mgp-1',
        subjectName: 'Managed Google Play: Contoso Ltd',
        detail: 'Last app sync failed: the binding credentials are no longer valid (bind again)',
      },
    ]);
  });

  it.each([
    ['unbinding', 'success'],
    ['bound', 'success'],
    ['boundAndValidated', 'none'],
  ] as const)('managed Google Play %s with last sync %s is a row without a finding', (bindStatus, lastAppSyncStatus) => {
    const report = deriveConnectorHealth(healthyRecords({ managedGooglePlay: googlePlay({ bindStatus, lastAppSyncStatus }) }), context);
    expect(report.rows.find((row) => row.kind === 'Managed Google Play')?.health).not.toBe('unhealthy');
    expect(report.findings).toEqual([]);
  });

  it.each(['androidForWorkApiError', 'managementServiceError', 'unknownError'] as const)('managed Google Play whose last sync says %s is a finding', (lastAppSyncStatus) => {
    const report = deriveConnectorHealth(healthyRecords({ managedGooglePlay: googlePlay({ lastAppSyncStatus }) }), context);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([['connector-unhealthy', 'mgp-1']]);
    expect(report.findings[0]?.detail).toMatch(/^Last app sync failed/);
  });

  it('a partner with isConfigured false is "not configured" and no finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ deviceManagementPartners: [partner({ isConfigured: false })] }), context);
    expect(report.rows.find((row) => row.kind === 'Partner MDM')).toMatchObject({ id: 'partner-1', health: 'not configured', reason: 'Not connected to Intune' });
    expect(report.findings).toEqual([]);
  });

  it('a terminated partner is a warning row naming the removal date, not a finding', () => {
    const report = deriveConnectorHealth(
      healthyRecords({
        deviceManagementPartners: [partner({ partnerState: 'terminated', lastHeartbeatDateTime: daysAgo(10), whenPartnerDevicesWillBeRemovedDateTime: daysAhead(80) })],
      }),
      context,
    );
    expect(report.rows.find((row) => row.kind === 'Partner MDM')).toMatchObject({
      health: 'warning',
      reason: `Integration was disconnected; partner devices will be removed on ${daysAhead(80).slice(0, 10)}`,
    });
    expect(report.findings).toEqual([]);
  });

  it.each([
    ['rejected', "Intune is rejecting this partner's messages"],
    ['unresponsive', 'The partner has stopped responding to Intune'],
  ] as const)('a %s partner is an unhealthy finding', (partnerState, detail) => {
    const report = deriveConnectorHealth(healthyRecords({ deviceManagementPartners: [partner({ partnerState })] }), context);
    expect(report.findings).toEqual([{ kind: 'connector-unhealthy', subjectId: 'partner-1', subjectName: 'Partner MDM: Jamf Pro', detail }]);
  });

  it("a future non-compliance date is in the partner row's reason", () => {
    const report = deriveConnectorHealth(
      healthyRecords({ deviceManagementPartners: [partner({ whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: '2026-11-29T00:00:00Z' })] }),
      context,
    );
    const row = report.rows.find((candidate) => candidate.kind === 'Partner MDM');
    expect(row?.health).toBe('warning');
    expect(row?.reason).toBe('Partner devices will be marked non-compliant on 2026-11-29');
    expect(report.findings).toEqual([]);
  });

  it('a rejected partner with a future non-compliance date mentions both in the finding detail', () => {
    const report = deriveConnectorHealth(
      healthyRecords({ deviceManagementPartners: [partner({ partnerState: 'rejected', whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: daysAhead(5) })] }),
      context,
    );
    expect(report.findings[0]?.detail).toBe(`Intune is rejecting this partner's messages; partner devices will be marked non-compliant on ${daysAhead(5).slice(0, 10)}`);
  });

  it('a failed Autopilot sync is an unhealthy finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ autopilot: autopilot({ syncStatus: 'failed' }) }), context);
    expect(report.findings).toEqual([
      { kind: 'connector-unhealthy', subjectId: 'autopilot-1', subjectName: 'Windows Autopilot: Autopilot device sync', detail: 'The last Autopilot sync failed' },
    ]);
  });

  it('Autopilot null is a "not configured" row with a fixed id, and no finding', () => {
    const report = deriveConnectorHealth(healthyRecords({ autopilot: null }), context);
    expect(report.rows.find((row) => row.kind === 'Windows Autopilot')).toMatchObject({ id: 'windowsAutopilotSettings', health: 'not configured', lastContact: null });
    expect(report.findings).toEqual([]);
  });

  it('shows a 0001-01-01 timestamp as no last contact, with "never" in the reason', () => {
    const report = deriveConnectorHealth(healthyRecords({ ndesConnectors: [ndes({ lastConnectionDateTime: NEVER })] }), context);
    expect(report.rows.find((row) => row.id === 'ndes-1')).toMatchObject({ lastContact: null, reason: 'Never connected' });
  });

  it('adds a "not configured" placeholder row for an empty connector collection', () => {
    const report = deriveConnectorHealth(healthyRecords({ ndesConnectors: [], mobileThreatDefenseConnectors: [], deviceManagementPartners: [] }), context);
    const placeholders = report.rows.filter((row) => row.health === 'not configured');
    expect(placeholders.map((row) => [row.id, row.kind, row.name, row.reason])).toEqual([
      ['certificate-connector-none', 'Certificate connector', '—', 'No certificate connector is installed'],
      ['mobile-threat-defense-none', 'Mobile Threat Defense', '—', 'No Mobile Threat Defense connector is set up'],
      ['partner-mdm-none', 'Partner MDM', '—', 'No partner MDM integration is set up'],
      ['apple-mdm-push-certificate-none', 'Apple MDM push certificate', '—', 'No Apple MDM push certificate is set up: this tenant does not manage Apple devices'],
      ['apple-ade-token-none', 'Apple ADE token', '—', 'No Automated Device Enrollment token is set up'],
      ['apple-vpp-token-none', 'Apple VPP token', '—', 'No Apple VPP (Apps and Books) token is set up'],
      [
        'connector-for-active-directory-none',
        'Connector for Active Directory',
        '—',
        'No Intune Connector for Active Directory is registered (Windows Autopilot needs one only for Microsoft Entra hybrid join)',
      ],
    ]);
    expect(report.findings).toEqual([]);
  });

  it('raises connector-unhealthy only for unhealthy rows and orders rows unhealthy, warning, healthy, not configured', () => {
    const report = deriveConnectorHealth(
      {
        ndesConnectors: [
          ndes({ id: 'ndes-warn', displayName: 'WARN', lastConnectionDateTime: daysAgo(1.5) }),
          ndes({ id: 'ndes-bad', displayName: 'BAD', state: 'inactive', lastConnectionDateTime: daysAgo(4) }),
        ],
        mobileThreatDefenseConnectors: [mtd({ partnerState: 'available' }), mtd({ id: LOOKOUT_ID, partnerState: 'unresponsive' })],
        deviceManagementPartners: [partner({ isConfigured: false })],
        managedGooglePlay: googlePlay(),
        autopilot: autopilot({ syncStatus: 'failed' }),
        ...NO_APPLE_OR_AD,
      },
      context,
    );
    expect(report.rows.map((row) => [row.id, row.health])).toEqual([
      ['ndes-bad', 'unhealthy'],
      [LOOKOUT_ID, 'unhealthy'],
      ['autopilot-1', 'unhealthy'],
      ['ndes-warn', 'warning'],
      [DEFENDER_ID, 'warning'],
      ['mgp-1', 'healthy'],
      ['partner-1', 'not configured'],
      ['apple-mdm-push-certificate-none', 'not configured'],
      ['apple-ade-token-none', 'not configured'],
      ['apple-vpp-token-none', 'not configured'],
      ['connector-for-active-directory-none', 'not configured'],
    ]);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['connector-unhealthy', 'ndes-bad'],
      ['connector-unhealthy', LOOKOUT_ID],
      ['connector-unhealthy', 'autopilot-1'],
    ]);
  });
});
