import { daysAgo, daysFromNow, hoursAgo } from '../demo-records.js';
import type { DemoStep } from '../report-demo.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

/**
 * Report 1 in the demo tenant: one of each integration broken beside working ones (an inactive
 * certificate connector, an unresponsive Mobile Threat Defense partner and partner MDM, managed
 * Google Play whose credentials expired), and look-alikes that are not findings (a connector in the
 * warning band, a partner connector available but not enabled, a partner never configured).
 */
export const connectorHealthDemo: readonly DemoStep<ConnectorFindingKind>[] = [
  {
    step: 1,
    plant(tenant) {
      const { now } = tenant;
      const ndes = [
        { name: 'NDES-CONNECTOR-01', state: 'active' as const, last: hoursAgo(now, 2) },
        { name: 'NDES-CONNECTOR-02', state: 'active' as const, last: hoursAgo(now, 36) },
        { name: 'NDES-CONNECTOR-03', state: 'inactive' as const, last: daysAgo(now, 5) },
      ].map((connector) =>
        records.ndesConnector({
          id: tenant.guid(),
          displayName: connector.name,
          machineName: `${connector.name.toLowerCase()}.contoso.local`,
          state: connector.state,
          lastConnectionDateTime: connector.last,
          now,
        }),
      );
      tenant.add('ndesConnectors', ...ndes);
      tenant.declare('connector-unhealthy', ndes[2]!.id);

      const defender = records.mobileThreatDefenseConnector({
        id: 'fc780465-2017-40d4-a0c5-307022471b92',
        partnerState: 'enabled',
        lastHeartbeatDateTime: hoursAgo(now, 1),
        partnerUnresponsivenessThresholdInDays: 7,
        now,
      });
      const lookout = records.mobileThreatDefenseConnector({
        id: '2c7790de-8b02-4814-85cf-e0c59380dee8',
        partnerState: 'unresponsive',
        lastHeartbeatDateTime: daysAgo(now, 8),
        partnerUnresponsivenessThresholdInDays: 7,
        now,
      });
      const zimperium = records.mobileThreatDefenseConnector({
        id: '08a8455c-48dd-45ff-ad82-7211355354f3',
        partnerState: 'available',
        lastHeartbeatDateTime: hoursAgo(now, 3),
        partnerUnresponsivenessThresholdInDays: 7,
        now,
      });
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
];
