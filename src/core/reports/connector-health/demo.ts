import { daysAgo, daysFromNow, hoursAgo } from '../demo-records.js';
import type { DemoRecord, DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

/**
 * Report 1 in the demo tenant: one of each integration broken beside working ones (an inactive
 * certificate connector silent for five days, an unresponsive Mobile Threat Defense partner and
 * partner MDM, managed Google Play whose credentials expired), and look-alikes that are not findings
 * (a connector in the warning band, a partner connector available but not enabled, a partner never
 * configured). Step 13 adds one record for each other member of the collections' status enums
 * (docs/finding-rules.md, report 1): managed Google Play and Autopilot hold one value per tenant,
 * so their other members are tested on tenants of their own. Step 14 adds the Apple MDM push
 * certificate, ADE and VPP tokens and the Intune Connectors for Active Directory, each state
 * beside a look-alike (docs/finding-rules.md, report 1, "Apple tokens and the connector for Active
 * Directory"); the certificate is one per tenant, so its expired and absent cases are tested on
 * tenants of their own.
 */
export const connectorHealthDemo: readonly DemoStep<ConnectorFindingKind>[] = [
  {
    step: 1,
    plant(tenant) {
      const { now } = tenant;
      const ndes = plantNdesConnectors(tenant, [
        { name: 'NDES-CONNECTOR-01', state: 'active', last: hoursAgo(now, 2) },
        { name: 'NDES-CONNECTOR-02', state: 'active', last: hoursAgo(now, 36) },
        { name: 'NDES-CONNECTOR-03', state: 'inactive', last: daysAgo(now, 5) },
      ]);
      tenant.declare('connector-unhealthy', ndes[2]!.id);

      const defender = mtdConnector(now, 'fc780465-2017-40d4-a0c5-307022471b92', 'enabled', hoursAgo(now, 1));
      const lookout = mtdConnector(now, '2c7790de-8b02-4814-85cf-e0c59380dee8', 'unresponsive', daysAgo(now, 8));
      const zimperium = mtdConnector(now, '08a8455c-48dd-45ff-ad82-7211355354f3', 'available', hoursAgo(now, 3));
      tenant.add('mobileThreatDefenseConnectors', defender, lookout, zimperium);
      tenant.declare('connector-unhealthy', lookout.id);

      const jamf = records.deviceManagementPartner({
        id: tenant.guid(),
        displayName: 'Jamf Pro',
        isConfigured: true,
        partnerState: 'enabled',
        lastHeartbeatDateTime: hoursAgo(now, 4),
      });
      const workspaceOne = records.deviceManagementPartner({
        id: tenant.guid(),
        displayName: 'VMware Workspace ONE',
        isConfigured: false,
        partnerState: 'unknown',
        lastHeartbeatDateTime: '0001-01-01T00:00:00Z',
      });
      const mobileIron = records.deviceManagementPartner({
        id: tenant.guid(),
        displayName: 'MobileIron',
        isConfigured: true,
        partnerState: 'unresponsive',
        lastHeartbeatDateTime: daysAgo(now, 10),
        whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: daysFromNow(now, 4),
      });
      tenant.add('deviceManagementPartners', jamf, workspaceOne, mobileIron);
      tenant.declare('connector-unhealthy', mobileIron.id);

      const googlePlay = records.androidManagedStoreSettings({
        id: 'androidManagedStoreAccountEnterpriseSettings',
        bindStatus: 'boundAndValidated',
        lastAppSyncStatus: 'credentialsNotValid',
        lastAppSyncDateTime: daysAgo(now, 4),
        now,
      });
      tenant.setSingleton('androidManagedStoreAccountEnterpriseSettings', googlePlay);
      tenant.declare('connector-unhealthy', googlePlay.id);
      tenant.setSingleton('windowsAutopilotSettings', records.windowsAutopilotSettings({ lastSyncDateTime: hoursAgo(now, 6), syncStatus: 'completed', now }));
    },
  },
  {
    step: 13,
    plant(tenant) {
      const { now } = tenant;
      // ndesConnectorState (learn.microsoft.com/graph/api/resources/intune-deviceconfig-ndesconnectorstate?view=graph-rest-beta):
      // no member is a failure; a connector is unhealthy only when its last connection is three or
      // more days old (learn.microsoft.com/intune/intune-service/fundamentals/tenant-status).
      const ndes = plantNdesConnectors(tenant, [
        { name: 'NDES-CONNECTOR-04', state: 'none', last: hoursAgo(now, 1) },
        { name: 'NDES-CONNECTOR-05', state: 'inactive', last: hoursAgo(now, 2) },
        { name: 'NDES-CONNECTOR-06', state: 'active', last: daysAgo(now, 4) },
      ]);
      tenant.declare('connector-unhealthy', ndes[2]!.id);

      // mobileThreatPartnerTenantState (learn.microsoft.com/graph/api/resources/intune-onboarding-mobilethreatpartnertenantstate?view=graph-rest-beta).
      // /v1.0 sends `notSetUp` and `error` as unknownFutureValue (src/sim/v1-schema.ts); the report
      // reads them again on beta, so the connector in error is a finding on either coverage.
      const symantec = mtdConnector(now, '28fd67fd-b179-4629-a8b0-dad420b697c7', 'unavailable', '0001-01-01T00:00:00Z');
      const checkPoint = mtdConnector(now, 'd3ddeae8-441f-4681-b80f-aef644f7195a', 'notSetUp', '0001-01-01T00:00:00Z');
      const sentinelOne = mtdConnector(now, 'bb13fe25-ce1f-45aa-b278-cabbc6b9072e', 'error', hoursAgo(now, 2));
      const pradeo = mtdConnector(now, '8d0ed095-8191-4bd3-8a41-953b22d51ff7', 'available', daysAgo(now, 6));
      tenant.add('mobileThreatDefenseConnectors', symantec, checkPoint, sentinelOne, pradeo);
      tenant.declare('connector-unhealthy', sentinelOne.id);

      // deviceManagementPartnerTenantState (learn.microsoft.com/graph/api/resources/intune-onboarding-devicemanagementpartner):
      // `terminated` is a disconnection by an administrator, whose devices go on the date shown
      // (learn.microsoft.com/intune/intune-service/protect/conditional-access-integrate-jamf).
      const partner = (displayName: string, partnerState: Parameters<typeof records.deviceManagementPartner>[0]['partnerState'], lastHeartbeatDateTime: string, removal?: string) =>
        records.deviceManagementPartner({
          id: tenant.guid(),
          displayName,
          isConfigured: true,
          partnerState,
          lastHeartbeatDateTime,
          ...(removal ? { whenPartnerDevicesWillBeRemovedDateTime: removal } : {}),
        });
      const citrix = partner('Citrix Endpoint Management', 'unknown', hoursAgo(now, 5));
      const blackBerry = partner('BlackBerry UEM', 'unavailable', hoursAgo(now, 6));
      const kandji = partner('Kandji', 'terminated', daysAgo(now, 20), daysFromNow(now, 70));
      const addigy = partner('Addigy', 'rejected', hoursAgo(now, 3));
      tenant.add('deviceManagementPartners', citrix, blackBerry, kandji, addigy);
      tenant.declare('connector-unhealthy', addigy.id);
    },
  },
  {
    step: 14,
    plant(tenant) {
      const { now } = tenant;
      // Expiring within 30 days: a warning and a finding (community practice; tenant status warns at 7 days).
      const push = records.applePushNotificationCertificate({ id: tenant.guid(), appleIdentifier: 'mdm-push@contoso-demo.example', expirationDateTime: daysFromNow(now, 20), now });
      tenant.setSingleton('applePushNotificationCertificate', push);
      tenant.declare('apple-token-expiring', push.id);

      // depOnboardingSetting (beta): expiry, last successful sync in the tenant status bands, Apple's sync error.
      const ade = (tokenName: string, expires: string, synced: string, lastSyncErrorCode?: number) =>
        records.depOnboardingSetting({
          id: tenant.guid(),
          tokenName,
          tokenExpirationDateTime: expires,
          lastSuccessfulSyncDateTime: synced,
          ...(lastSyncErrorCode === undefined ? {} : { lastSyncErrorCode }),
          now,
        });
      const adeValid = ade('Contoso corporate iPhones', daysFromNow(now, 200), hoursAgo(now, 6));
      const adeExpiring = ade('Contoso Macs', daysFromNow(now, 25), hoursAgo(now, 5));
      const adeExpired = ade('Contoso retail iPads', daysAgo(now, 3), daysAgo(now, 3));
      const adeStale = ade('Contoso warehouse scanners', daysFromNow(now, 150), daysAgo(now, 4));
      const adeSyncError = ade('Contoso field iPads', daysFromNow(now, 180), hoursAgo(now, 20), 4001);
      tenant.add('depOnboardingSettings', adeValid, adeExpiring, adeExpired, adeStale, adeSyncError);
      tenant.declare('apple-token-expiring', adeExpiring.id);
      tenant.declare('ade-token-unhealthy', adeExpired.id);
      tenant.declare('ade-token-unhealthy', adeStale.id);

      // vppTokenState and vppTokenSyncStatus, every member but `none`/`inProgress` sync results, each once.
      const vpp = (
        locationName: string,
        state: Parameters<typeof records.vppToken>[0]['state'],
        expires: string,
        synced: string,
        lastSyncStatus: Parameters<typeof records.vppToken>[0]['lastSyncStatus'] = 'completed',
      ) => records.vppToken({ id: tenant.guid(), organizationName: 'Contoso', locationName, state, expirationDateTime: expires, lastSyncDateTime: synced, lastSyncStatus, now });
      const vppValid = vpp('Head office', 'valid', daysFromNow(now, 240), hoursAgo(now, 8));
      const vppExpiring = vpp('Branch offices', 'valid', daysFromNow(now, 14), hoursAgo(now, 7));
      const vppExpired = vpp('Retail stores', 'expired', daysAgo(now, 10), daysAgo(now, 10), 'failed');
      const vppInvalid = vpp('Labs', 'invalid', daysFromNow(now, 90), hoursAgo(now, 9), 'failed');
      const vppExternal = vpp('Subsidiary', 'assignedToExternalMDM', daysFromNow(now, 120), hoursAgo(now, 10));
      const vppDuplicate = vpp('Head office (second upload)', 'duplicateLocationId', daysFromNow(now, 240), hoursAgo(now, 11));
      const vppSyncFailed = vpp('Warehouse', 'valid', daysFromNow(now, 160), hoursAgo(now, 12), 'failed');
      const vppUnknown = vpp('Training', 'unknown', daysFromNow(now, 170), hoursAgo(now, 13));
      tenant.add('vppTokens', vppValid, vppExpiring, vppExpired, vppInvalid, vppExternal, vppDuplicate, vppSyncFailed, vppUnknown);
      tenant.declare('apple-token-expiring', vppExpiring.id);
      tenant.declare('vpp-token-unhealthy', vppExpired.id);
      tenant.declare('vpp-token-unhealthy', vppInvalid.id);
      tenant.declare('vpp-token-unhealthy', vppExternal.id);

      // deviceManagementDomainJoinConnectorState, and the version floor 6.2501.2000.5 (learn.microsoft.com/autopilot/windows-autopilot-hybrid).
      const connector = (displayName: string, state: Parameters<typeof records.domainJoinConnector>[0]['state'], version: string, last: string) =>
        records.domainJoinConnector({ id: tenant.guid(), displayName, state, version, lastConnectionDateTime: last });
      const adActive = connector('ODJ-CONNECTOR-01', 'active', '6.2504.2001.8', hoursAgo(now, 0.2));
      const adAtFloor = connector('ODJ-CONNECTOR-02', 'active', '6.2501.2000.5', hoursAgo(now, 0.3));
      const adError = connector('ODJ-CONNECTOR-03', 'error', '6.2504.2001.8', hoursAgo(now, 2));
      const adInactive = connector('ODJ-CONNECTOR-04', 'inactive', '6.2504.2001.8', daysAgo(now, 6));
      const adLegacy = connector('ODJ-LEGACY-01', 'active', '6.2412.1500.1', hoursAgo(now, 0.5));
      tenant.add('domainJoinConnectors', adActive, adAtFloor, adError, adInactive, adLegacy);
      tenant.declare('ad-connector-unhealthy', adError.id);
      tenant.declare('ad-connector-unhealthy', adInactive.id);
      tenant.declare('ad-connector-unhealthy', adLegacy.id);
    },
  },
];

/** Certificate connectors on `<name>.contoso.local`, one seeded id each, in order. */
function plantNdesConnectors(
  tenant: DemoTenantBuilder<ConnectorFindingKind>,
  connectors: ReadonlyArray<{ name: string; state: Parameters<typeof records.ndesConnector>[0]['state']; last: string }>,
): DemoRecord[] {
  const planted = connectors.map((connector) =>
    records.ndesConnector({
      id: tenant.guid(),
      displayName: connector.name,
      machineName: `${connector.name.toLowerCase()}.contoso.local`,
      state: connector.state,
      lastConnectionDateTime: connector.last,
      now: tenant.now,
    }),
  );
  tenant.add('ndesConnectors', ...planted);
  return planted;
}

/** A Mobile Threat Defense connector with the seven-day unresponsiveness threshold every demo partner has. */
function mtdConnector(now: Date, id: string, partnerState: Parameters<typeof records.mobileThreatDefenseConnector>[0]['partnerState'], lastHeartbeatDateTime: string): DemoRecord {
  return records.mobileThreatDefenseConnector({ id, partnerState, lastHeartbeatDateTime, partnerUnresponsivenessThresholdInDays: 7, now });
}
