// The bot's registration with the Bot Framework: an Azure Bot whose identity is the Web App's
// user-assigned managed identity, so there is no app password to keep or renew
// (https://learn.microsoft.com/azure/bot-service/bot-builder-authentication#bot-identity-information),
// and its Teams channel.

@description('Name (handle) of the Azure Bot, unique across Azure.')
param botServiceName string

@description('Name the bot shows in the Azure portal.')
@maxLength(42)
param botDisplayName string

@description('Pricing tier of the Azure Bot: F0 is free for the Teams channel, a standard channel.')
@allowed([
  'F0'
  'S1'
])
param botServiceSku string

@description('Client id of the managed identity the bot signs in as.')
param identityClientId string

@description('Resource id of that managed identity.')
param identityResourceId string

@description('Tenant of that managed identity.')
param identityTenantId string

@description('Where the Bot Framework sends Teams activities: https://<web app host>/api/messages.')
param messagingEndpoint string

resource bot 'Microsoft.BotService/botServices@2022-09-15' = {
  name: botServiceName
  // Azure Bot registrations are global; the messages themselves go to the Web App.
  location: 'global'
  kind: 'azurebot'
  sku: {
    name: botServiceSku
  }
  properties: {
    displayName: botDisplayName
    endpoint: messagingEndpoint
    msaAppType: 'UserAssignedMSI'
    msaAppId: identityClientId
    msaAppMSIResourceId: identityResourceId
    msaAppTenantId: identityTenantId
  }
}

resource teamsChannel 'Microsoft.BotService/botServices/channels@2022-09-15' = {
  parent: bot
  name: 'MsTeamsChannel'
  location: 'global'
  properties: {
    channelName: 'MsTeamsChannel'
    properties: {
      isEnabled: true
      deploymentEnvironment: 'CommercialDeployment'
    }
  }
}

output botServiceName string = bot.name
