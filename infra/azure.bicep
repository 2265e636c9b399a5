// Device Management Health in an organization's own Azure subscription, as `teamsapp provision`
// deploys it (teamsapp.yml, arm/deploy): one Linux Web App on Node 22 LTS that serves the tab, the
// bot's /api/messages and the tab's API, signed in everywhere with one user-assigned managed
// identity, so that nothing here makes or stores a secret:
// - Microsoft Graph: the identity is trusted by the Entra app that holds the reports' application
//   permissions (M365_CLIENT_ID) through a federated identity credential, made once per
//   environment after provisioning (docs/deployment.md, "Deploy to your organization", step 4);
// - the Bot Framework: an Azure Bot of type UserAssignedMSI on the identity (modules/azure-bot.bicep);
// - the state: Blob Storage without account keys, the identity a data contributor on the state
//   container alone (modules/state-storage.bicep);
// - telemetry: Application Insights over a Log Analytics workspace (modules/monitoring.bicep).
// The outputs at the end are written to env/.env.<environment> by the Toolkit, upper-cased.

@description('Prefix of every resource name; the Toolkit appends RESOURCE_SUFFIX (infra/azure.parameters.json) so that names are unique across Azure.')
@minLength(4)
@maxLength(20)
param resourceBaseName string

@description('Azure region of every resource but the Azure Bot, which is global. The resource group\'s region unless set.')
param location string = resourceGroup().location

@description('App Service plan size. Basic (B1) or higher: "always on" and health checks need it (https://learn.microsoft.com/azure/app-service/overview-hosting-plans).')
@allowed([
  'B1'
  'B2'
  'B3'
  'S1'
  'S2'
  'S3'
  'P0v3'
  'P1v3'
  'P2v3'
])
param webAppSku string = 'B1'

@description('Instances of the Web App. More than one share the state and the report loads through Blob Storage (docs/using.md, "State"). At most 3: the Basic plans allowed above scale to 3 instances, the Standard and Premium ones further (https://learn.microsoft.com/azure/app-service/overview-hosting-plans), so every allowed size takes every allowed count.')
@minValue(1)
@maxValue(3)
param instanceCount int = 1

@description('The Entra tenant whose Intune data is read (M365_TENANT_ID); the one the Toolkit made the Entra app in.')
param m365TenantId string

@description('Client id of the Entra app that holds the reports\' application permissions and is the tab\'s SSO audience (M365_CLIENT_ID).')
param m365ClientId string

@description('The Teams app id, for deep links from the bot\'s cards to the tab (TEAMS_APP_ID).')
param teamsAppId string

@description('Name the bot shows in the Azure portal.')
@maxLength(42)
param botDisplayName string

@description('Azure Bot pricing tier: F0 is free for the Teams channel.')
@allowed([
  'F0'
  'S1'
])
param botServiceSku string = 'F0'

@description('Name of the blob container that holds the app\'s state.')
@minLength(3)
@maxLength(63)
param stateContainerName string = 'dmhealth-state'

@description('Days Log Analytics keeps the app\'s logs and telemetry.')
@minValue(30)
@maxValue(730)
param logRetentionDays int = 30

// What an operator may change, kept here so that a provision, which rewrites every app setting,
// keeps them (docs/contract.md, "Configuration", says what each does).
@description('GRAPH_BETA_COVERAGE: read the four collections /v1.0 cuts short on /beta (docs/using.md, "What /v1.0 cannot show").')
param graphBetaCoverage bool = false

@description('CONNECTOR_WARNING_DAYS: days without a connector sync before report 1 warns; less than connectorUnhealthyDays.')
@minValue(1)
param connectorWarningDays int = 1

@description('CONNECTOR_UNHEALTHY_DAYS: days without a connector sync before report 1 calls it unhealthy.')
@minValue(2)
param connectorUnhealthyDays int = 3

@description('Object id of a person or group who may set the app\'s secrets in its Key Vault (the notify key); none when empty.')
param secretsOfficerPrincipalId string = ''

@description('Name of the user-assigned managed identity.')
param identityName string = '${resourceBaseName}-identity'

@description('Name of the App Service plan.')
param serverfarmsName string = '${resourceBaseName}-plan'

@description('Name of the Web App, unique across Azure: the tab is served on https://<name>.azurewebsites.net.')
param webAppName string = resourceBaseName

@description('Name of the storage account: lower-case letters and digits, unique across Azure.')
@maxLength(24)
param storageAccountName string = take(toLower(replace(replace(resourceBaseName, '-', ''), '_', '')), 24)

@description('Name of the Log Analytics workspace.')
param logAnalyticsName string = '${resourceBaseName}-logs'

@description('Name of the Application Insights resource.')
param appInsightsName string = '${resourceBaseName}-insights'

@description('Name (handle) of the Azure Bot, unique across Azure.')
param botServiceName string = '${resourceBaseName}-bot'

@description('Name of the Key Vault that holds the app\'s secrets, unique across Azure.')
@maxLength(24)
param keyVaultName string = take('${resourceBaseName}-kv', 24)

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: identityName
  location: location
}

module monitoring './modules/monitoring.bicep' = {
  name: 'monitoring'
  params: {
    location: location
    logAnalyticsName: logAnalyticsName
    appInsightsName: appInsightsName
    retentionInDays: logRetentionDays
  }
}

module stateStorage './modules/state-storage.bicep' = {
  name: 'state-storage'
  params: {
    location: location
    storageAccountName: storageAccountName
    containerName: stateContainerName
    dataContributorPrincipalId: identity.properties.principalId
  }
}

module keyVault './modules/key-vault.bicep' = {
  name: 'key-vault'
  params: {
    location: location
    keyVaultName: keyVaultName
    secretsUserPrincipalId: identity.properties.principalId
    secretsOfficerPrincipalId: secretsOfficerPrincipalId
  }
}

resource serverfarm 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: serverfarmsName
  location: location
  kind: 'linux'
  sku: {
    name: webAppSku
    capacity: instanceCount
  }
  properties: {
    // Linux plan (https://learn.microsoft.com/azure/templates/microsoft.web/serverfarms).
    reserved: true
  }
}

resource webApp 'Microsoft.Web/sites@2023-12-01' = {
  name: webAppName
  location: location
  kind: 'app,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identity.id}': {}
    }
  }
  properties: {
    serverFarmId: serverfarm.id
    httpsOnly: true
    clientAffinityEnabled: false
    publicNetworkAccess: 'Enabled'
    // Key Vault references are resolved as the user-assigned identity, not a system-assigned one
    // (https://learn.microsoft.com/azure/app-service/app-service-key-vault-references#access-vaults-with-a-user-assigned-identity).
    keyVaultReferenceIdentity: identity.id
    siteConfig: {
      // Node 22 LTS (https://learn.microsoft.com/azure/app-service/configure-language-nodejs).
      linuxFxVersion: 'NODE|22-lts'
      // The package is built before it is deployed (scripts/webapp-package.mjs); the server is its one process.
      appCommandLine: 'node dist/server/main.js'
      alwaysOn: true
      // App Service takes an instance out of the load balancer while this path fails
      // (https://learn.microsoft.com/azure/app-service/monitor-instances-health-check).
      healthCheckPath: '/healthz'
      minTlsVersion: '1.2'
      scmMinTlsVersion: '1.2'
      ftpsState: 'Disabled'
      http20Enabled: true
      webSocketsEnabled: false
    }
  }
}

// No basic-authentication publishing credentials, on FTP or on the deployment endpoint (SCM):
// many organizations forbid them by policy, and the Toolkit's zip deploy signs in to SCM with an
// Entra token, which this setting leaves working
// (https://learn.microsoft.com/azure/app-service/configure-basic-auth-disable).
resource ftpPublishing 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2023-12-01' = {
  parent: webApp
  name: 'ftp'
  properties: {
    allow: false
  }
}

resource scmPublishing 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2023-12-01' = {
  parent: webApp
  name: 'scm'
  properties: {
    allow: false
  }
}

// The settings the server reads in tenant mode with a managed identity (docs/contract.md,
// "Configuration"). A separate resource, since TAB_DOMAIN is the Web App's own host name. A
// provision replaces every app setting with these: a setting added in the portal is lost then, so
// every one an operator may change is a parameter above (infra/azure.parameters.json).
resource appSettings 'Microsoft.Web/sites/config@2023-12-01' = {
  parent: webApp
  name: 'appsettings'
  properties: {
    // The package is mounted read-only as it was uploaded, not unpacked or rebuilt on the Web App
    // (https://learn.microsoft.com/azure/app-service/deploy-run-package).
    WEBSITE_RUN_FROM_PACKAGE: '1'
    SCM_DO_BUILD_DURING_DEPLOYMENT: 'false'
    M365_TENANT_ID: m365TenantId
    M365_CLIENT_ID: m365ClientId
    MANAGED_IDENTITY_CLIENT_ID: identity.properties.clientId
    STATE_STORE: stateStorage.outputs.containerUrl
    BOT_ID: identity.properties.clientId
    BOT_TYPE: 'UserAssignedMSI'
    BOT_TENANT_ID: identity.properties.tenantId
    TEAMS_APP_ID: teamsAppId
    TAB_DOMAIN: webApp.properties.defaultHostName
    // Requests reach the server through App Service's front end, which appends the caller to
    // X-Forwarded-For; the server trusts that header from the platform's addresses only
    // (docs/contract.md, "Configuration").
    TRUSTED_PROXY: 'app-service'
    APPLICATIONINSIGHTS_CONNECTION_STRING: monitoring.outputs.connectionString
    GRAPH_BETA_COVERAGE: graphBetaCoverage ? 'true' : 'false'
    CONNECTOR_WARNING_DAYS: string(connectorWarningDays)
    CONNECTOR_UNHEALTHY_DAYS: string(connectorUnhealthyDays)
    // The notify key, set in the vault by an operator (docs/deployment.md, "Deploy to your organization"):
    // until the secret exists App Service hands the reference's own text over, which the server
    // reads as no key, so /api/notify stays off (docs/contract.md, "Configuration").
    NOTIFY_API_KEY: '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=notify-api-key)'
  }
}

// The server's output (its log lines), the requests App Service saw and the platform's own
// events, kept in the workspace beside the telemetry.
resource webAppLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  scope: webApp
  name: 'to-log-analytics'
  properties: {
    workspaceId: monitoring.outputs.workspaceId
    logs: [
      {
        category: 'AppServiceConsoleLogs'
        enabled: true
      }
      {
        category: 'AppServiceHTTPLogs'
        enabled: true
      }
      {
        category: 'AppServicePlatformLogs'
        enabled: true
      }
    ]
  }
}

module azureBot './modules/azure-bot.bicep' = {
  name: 'azure-bot'
  params: {
    botServiceName: botServiceName
    botDisplayName: botDisplayName
    botServiceSku: botServiceSku
    identityClientId: identity.properties.clientId
    identityResourceId: identity.id
    identityTenantId: identity.properties.tenantId
    messagingEndpoint: 'https://${webApp.properties.defaultHostName}/api/messages'
  }
}

// Written to env/.env.<environment> by `teamsapp provision` (names upper-cased by the Toolkit).
// The deploy step's target.
output AZURE_APP_SERVICE_RESOURCE_ID string = webApp.id
// The tab's host: the Teams manifest's URLs and valid domain, and the Entra app's identifier URI.
output TAB_DOMAIN string = webApp.properties.defaultHostName
output TAB_ENDPOINT string = 'https://${webApp.properties.defaultHostName}'
// The bot's id in the Teams manifest: the managed identity's client id.
output BOT_ID string = identity.properties.clientId
// What the federated identity credential on the Entra app names (docs/deployment.md, "Deploy to your
// organization", step 4): the identity's object id as subject, its tenant in the issuer.
output MANAGED_IDENTITY_CLIENT_ID string = identity.properties.clientId
output MANAGED_IDENTITY_PRINCIPAL_ID string = identity.properties.principalId
output MANAGED_IDENTITY_TENANT_ID string = identity.properties.tenantId
output STATE_STORE string = stateStorage.outputs.containerUrl
// Where the notify key is set: the secret notify-api-key in this vault.
output KEY_VAULT_NAME string = keyVault.outputs.name
