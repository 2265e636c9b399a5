// Where the app's telemetry and the Web App's logs go: a Log Analytics workspace and a
// workspace-based Application Insights resource over it (classic Application Insights is retired:
// https://learn.microsoft.com/azure/azure-monitor/app/convert-classic-resource).

@description('Azure region of the workspace and of Application Insights.')
param location string

@description('Name of the Log Analytics workspace.')
param logAnalyticsName string

@description('Name of the Application Insights resource.')
param appInsightsName string

@description('Days the workspace keeps logs and telemetry (30 are included in the price).')
@minValue(30)
@maxValue(730)
param retentionInDays int

resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: logAnalyticsName
  location: location
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: appInsightsName
  location: location
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: workspace.id
    IngestionMode: 'LogAnalytics'
  }
}

output workspaceId string = workspace.id
// Not a secret: it names where to send telemetry, not who may read it
// (https://learn.microsoft.com/azure/azure-monitor/app/connection-strings).
output connectionString string = appInsights.properties.ConnectionString
