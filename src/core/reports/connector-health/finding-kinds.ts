import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const CONNECTOR_FINDING_KINDS = {
  'connector-unhealthy': {
    label: 'Connectors not working',
    severity: 'high',
    remediation: {
      why: "A connector that has stopped working fails quietly: certificate profiles stop issuing and renewing Wi-Fi, VPN and email certificates, Mobile Threat Defense risk stops reaching compliance, managed Google Play apps stop syncing, a partner's devices stop reporting compliance, and newly registered Autopilot devices don't arrive. Users find out when a certificate expires or a new device can't finish setup.",
      steps: [
        'In the Intune admin center, open Tenant administration > Connectors and tokens and find the connector the finding names; its detail says which check failed (state, last contact, version or sync status).',
        "Certificate connector: on the connector server, check that the connector's services are running and that the server reaches Intune through any proxy, then run the connector's configuration again to repair or update it. Versions below 6.2406.0.1001 are out of support.",
        "Mobile Threat Defense: in Connectors and tokens > Mobile Threat Defense, check the connector's status and last heartbeat, then restore the connection from the partner's console. Past the connector's unresponsiveness threshold Intune stops using the partner's data, and platforms set to block on missing partner data turn noncompliant.",
        'Managed Google Play: in Connectors and tokens > Managed Google Play, select Sync. If the binding shows as unbinding or sync keeps failing, check Tenant administration > Audit logs for who changed it before reconnecting under Devices > Enrollment > Android > Managed Google Play.',
        "Partner device management: check the integration in the partner's console (for Jamf Pro, its Microsoft Intune integration settings) and in Connectors and tokens > Partner device management. A rejected or unresponsive partner stops reporting its devices' compliance; a terminated one was disconnected, and its devices are removed on the date shown.",
        'Windows Autopilot: in Devices > Enrollment > Windows > Windows Autopilot > Devices, select Sync and wait for it to finish; Intune refuses a new sync within 10 minutes of the last. Devices registered by your OEM or reseller appear only after a successful sync.',
      ],
      sources: [
        {
          title: 'Certificate Connector for Microsoft Intune: lifecycle',
          url: 'https://learn.microsoft.com/en-us/intune/intune-service/protect/certificate-connector-overview#lifecycle',
        },
        {
          title: 'mobileThreatDefenseConnector resource type (partner state, heartbeat, unresponsiveness threshold)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-onboarding-mobilethreatdefenseconnector',
        },
        {
          title: 'Connect your Intune account to your managed Google Play account',
          url: 'https://learn.microsoft.com/intune/intune-service/enrollment/connect-intune-android-enterprise',
        },
        {
          title: 'deviceManagementPartner resource type (partner state and deadlines)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-onboarding-devicemanagementpartner?view=graph-rest-beta',
        },
        { title: 'Windows Autopilot registration overview', url: 'https://learn.microsoft.com/en-us/mem/autopilot/registration-overview' },
        {
          title: 'windowsAutopilotSettings resource type (sync)',
          url: 'https://learn.microsoft.com/graph/api/resources/intune-enrollment-windowsautopilotsettings?view=graph-rest-beta',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type ConnectorFindingKind = keyof typeof CONNECTOR_FINDING_KINDS;
