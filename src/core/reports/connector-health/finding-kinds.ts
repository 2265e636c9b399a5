import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const CONNECTOR_FINDING_KINDS = {
  'connector-unhealthy': {
    label: 'Connectors not working',
    one: 'Connector not working',
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
  'apple-push-certificate-expired': {
    label: 'Apple MDM push certificate expired',
    severity: 'high',
    remediation: {
      why: 'Without a valid Apple MDM push certificate Intune cannot reach any iPhone, iPad or Mac: policies, apps and remote actions stop, and new Apple devices cannot enrol. Apple allows 30 days after expiry to renew; after that, or with a new certificate instead of a renewal, every Apple device must be enrolled again.',
      steps: [
        'In the Intune admin center, open Devices > Enrollment > Apple > Apple MDM Push Certificate and note the Apple ID the certificate was created with (the finding names it).',
        'Download your CSR, then in the Apple Push Certificates portal sign in with that same Apple ID and choose Renew for this certificate; do not create a new one, or every device must enrol again.',
        'Upload the renewed certificate in Intune with the same Apple ID and check that the expiry date moved a year ahead.',
        'If the 30-day grace period has passed, plan to re-enrol the Apple devices, and store the Apple ID where the team can reach it next year.',
      ],
      sources: [
        { title: 'Get an Apple MDM push certificate (renew)', url: 'https://learn.microsoft.com/intune/intune-service/enrollment/apple-mdm-push-certificate-get' },
        { title: 'Renew Apple certificates and tokens', url: 'https://learn.microsoft.com/intune-education/renew-ios-certificate-token' },
        { title: 'Intune tenant status: connector status', url: 'https://learn.microsoft.com/mem/intune/fundamentals/tenant-status' },
      ],
    },
  },
  'ade-token-unhealthy': {
    label: 'Apple ADE tokens not working',
    one: 'Apple ADE token not working',
    severity: 'high',
    remediation: {
      why: 'An expired Automated Device Enrollment token, or one that has not synced with Apple for three days, stops new and reset Apple devices from enrolling automatically: they arrive without their enrolment profile, and new devices bought through Apple Business Manager do not appear in Intune.',
      steps: [
        'In the Intune admin center, open Devices > Enrollment > Apple > Enrollment program tokens and select the token the finding names; its detail says whether it expired or stopped syncing.',
        'Expired: in Apple Business Manager (or School Manager) go to Settings > MDM Servers, select the server and Download Token, then in Intune select Renew token and upload it. Downloading a token in Apple Business Manager invalidates the one Intune holds, so renew in Intune straight away.',
        'Not syncing: select Sync on the token (at most once every 15 minutes); if it keeps failing, check that the Apple ID that created the token still exists and its terms are accepted in Apple Business Manager.',
      ],
      sources: [
        {
          title: 'Set up automated device enrollment (ADE) for iOS/iPadOS: renew a token, sync',
          url: 'https://learn.microsoft.com/intune/intune-service/enrollment/device-enrollment-program-enroll-ios',
        },
        { title: 'Intune tenant status: connector status', url: 'https://learn.microsoft.com/mem/intune/fundamentals/tenant-status' },
      ],
    },
  },
  'vpp-token-unhealthy': {
    label: 'Apple VPP tokens not working',
    one: 'Apple VPP token not working',
    severity: 'high',
    remediation: {
      why: 'An expired, invalid or externally managed Apple VPP (Apps and Books) token, or one that has not synced for three days, stops Intune from assigning and renewing app licences: purchased apps no longer install on new devices, and ADE devices that need a Company Portal licence cannot enrol.',
      steps: [
        'In the Intune admin center, open Tenant administration > Connectors and tokens > Apple VPP Tokens and select the token the finding names.',
        'Expired or invalid: in Apple Business Manager go to Preferences > Payments and Billing > Apps and Books, download the server token for this location again, then in Intune edit the token and upload it. A token turns invalid when the Apple account that created it changes its password or leaves.',
        'Assigned to another MDM: remove the token from the other MDM service, or upload it again in Intune with Take control of token from another MDM set to Yes.',
        'Not syncing: select Sync on the token and check its status afterwards.',
      ],
      sources: [
        { title: 'Manage Apple volume-purchased apps (VPP tokens)', url: 'https://learn.microsoft.com/intune/intune-service/apps/vpp-apps-ios' },
        { title: 'Intune tenant status: connector status', url: 'https://learn.microsoft.com/mem/intune/fundamentals/tenant-status' },
      ],
    },
  },
  'apple-token-expiring': {
    label: 'Apple certificates and tokens expiring within 30 days',
    one: 'Apple certificate or token expiring within 30 days',
    severity: 'medium',
    remediation: {
      why: "The Apple MDM push certificate, ADE tokens and VPP tokens each last a year. Renewing one needs the Apple ID or Apple Business Manager account that created it, which may belong to someone away or gone; once it expires, Apple devices stop taking commands, enrolling or getting app licences. Intune's own tenant status only warns seven days ahead.",
      steps: [
        'Find who holds the Apple ID or Apple Business Manager account the finding names, before the date in the detail.',
        'Push certificate: Devices > Enrollment > Apple > Apple MDM Push Certificate, download the CSR, choose Renew (not Create) in the Apple Push Certificates portal with the same Apple ID, and upload it.',
        'ADE token: download the token again in Apple Business Manager (Settings > MDM Servers), then Devices > Enrollment > Apple > Enrollment program tokens > Renew token.',
        'VPP token: download the location token again in Apple Business Manager (Apps and Books), then Tenant administration > Connectors and tokens > Apple VPP Tokens > edit the token and upload it.',
      ],
      sources: [
        { title: 'Get an Apple MDM push certificate (renew)', url: 'https://learn.microsoft.com/intune/intune-service/enrollment/apple-mdm-push-certificate-get' },
        {
          title: 'Set up automated device enrollment (ADE) for iOS/iPadOS: renew a token',
          url: 'https://learn.microsoft.com/intune/intune-service/enrollment/device-enrollment-program-enroll-ios',
        },
        { title: 'Manage Apple volume-purchased apps (VPP tokens)', url: 'https://learn.microsoft.com/intune/intune-service/apps/vpp-apps-ios' },
        { title: 'Intune tenant status: connector status', url: 'https://learn.microsoft.com/mem/intune/fundamentals/tenant-status' },
      ],
    },
  },
  'ad-connector-unhealthy': {
    label: 'Intune Connectors for Active Directory not working',
    one: 'Intune Connector for Active Directory not working',
    severity: 'high',
    remediation: {
      why: "Windows Autopilot with Microsoft Entra hybrid join needs a working Intune Connector for Active Directory in the device's domain to create its computer account. A connector in error, inactive, or older than 6.2501.2000.5 (deprecated, it can no longer process enrollment requests) leaves hybrid Autopilot devices stuck in setup.",
      steps: [
        'In the Intune admin center, open Devices > Windows > Enrollment > Windows Autopilot > Intune Connector for Active Directory and find the connector the finding names.',
        'Error or inactive: on that server, check that the connector service runs and reaches Intune through any proxy; a server that was retired can be ignored, and Intune removes inactive connectors after 30 days.',
        'Version older than 6.2501.2000.5: uninstall the legacy connector (there is no automatic upgrade), install the current connector downloaded from the same page, and sign in to configure its managed service account.',
        'Check that every domain hybrid-joined devices enrol into has at least one connector showing Active.',
      ],
      sources: [
        {
          title: 'Windows Autopilot user-driven Microsoft Entra hybrid join: Intune Connector for Active Directory',
          url: 'https://learn.microsoft.com/autopilot/windows-autopilot-hybrid',
        },
        {
          title: 'deviceManagementDomainJoinConnectorState enum (error and inactive)',
          url: 'https://learn.microsoft.com/graph/api/resources/intune-odj-devicemanagementdomainjoinconnectorstate?view=graph-rest-beta',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type ConnectorFindingKind = keyof typeof CONNECTOR_FINDING_KINDS;
