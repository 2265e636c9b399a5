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
 * so their other members are tested on tenants of their own.
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
