/** Report 1 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { LOADING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { CONNECTOR_READS, NDES_READ } from './reads.js';
import { deriveConnectorHealth } from './derive.js';
import { CONNECTOR_FINDING_KINDS } from './finding-kinds.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import { loadConnectors } from './load.js';
import type { ConnectorRecords } from './load.js';
import { connectorHealthDemo } from './demo.js';

export const connectorHealthReport: ReportDefinition<ConnectorRecords, ConnectorFindingKind> = {
  id: 'connector-health',
  title: 'Connector & Integration Health',
  summary:
    'Integrations that stop working without an alert: the certificate connector, Mobile Threat Defense, managed Google Play, partner MDM, the Autopilot sync, the Apple MDM push certificate, ADE and VPP tokens and the Intune Connector for Active Directory, in the Intune admin center’s own health bands.',
  permissions: ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementConfiguration.Read.All'],
  prerequisites: ['An Intune licence for the tenant.'],
  beta: false,
  navigationLabel: 'Connectors & integrations',
  botNames: ['dead connectors', 'connectors', 'connector health', 'connectors and integrations', 'integrations', 'integration health'],
  botTopics: [
    'connector',
    'ndes',
    'certificate connector',
    'pki',
    'scep',
    'mobile threat defense',
    'mtd',
    'threat defense',
    'google play',
    'managed google play',
    'android enterprise',
    'partner',
    'partner mdm',
    'jamf',
    'autopilot',
    'integration',
    'vpp',
    'apple token',
    'push certificate',
    'apns',
    'ade token',
  ],
  botDescription: 'Connectors and integrations that stopped working',
  tables: { '': 'Connectors and integrations' },
  // A dead connector is posted without being asked for, after escrow gaps.
  postedByDefault: 2,
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: CONNECTOR_FINDING_KINDS,
  optionalSources: [],
  /**
   * Tenant-wide, and no Intune read permission opens it: its rows span areas with different permissions (Certificate
   * Connector, Mobile Threat Defense, Partner Device Management, Managed Google Play, Enrollment
   * programs, Mobile apps for VPP tokens), and Microsoft names no read permission for the Apple MDM
   * push certificate, the Intune Connector for Active Directory or Windows Autopilot's sync settings.
   */
  seenBy: { kind: 'tenantWide', area: null },
  demo: connectorHealthDemo,
  reads: CONNECTOR_READS,
  faultSource: NDES_READ.path,
  load: loadConnectors,
  derive: deriveConnectorHealth,
};
