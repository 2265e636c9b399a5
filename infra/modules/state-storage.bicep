// The app's state (installations, ledgers, schedules, triage, history, shared loads: docs/using.md,
// "State") in Blob Storage, which only Microsoft Entra identities may reach: no account key, no
// SAS signed with one, no anonymous read. The Web App's managed identity is the one principal
// given data access, and only to the state container.

@description('Azure region of the storage account.')
param location string

@description('Name of the storage account: 3 to 24 lower-case letters and digits, unique across Azure.')
@minLength(3)
@maxLength(24)
param storageAccountName string

@description('Name of the blob container that holds the state.')
param containerName string

@description('Object (principal) id of the managed identity that reads and writes the state.')
param dataContributorPrincipalId string

// Storage Blob Data Contributor: read, write, delete and lease blobs, and nothing on the
// account's keys or settings (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles/storage#storage-blob-data-contributor).
var storageBlobDataContributorRoleId = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: storageAccountName
  location: location
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
  properties: {
    accessTier: 'Hot'
    // Entra sign-in only: requests signed with an account key (or a SAS made from one) are refused
    // (https://learn.microsoft.com/azure/storage/common/shared-key-authorization-prevent).
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    allowBlobPublicAccess: false
    allowCrossTenantReplication: false
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
    encryption: {
      keySource: 'Microsoft.Storage'
      services: {
        blob: {
          enabled: true
        }
      }
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: storage
  name: 'default'
  properties: {
    // A blob or the container deleted by mistake can be restored for 7 days.
    deleteRetentionPolicy: {
      enabled: true
      days: 7
    }
    containerDeleteRetentionPolicy: {
      enabled: true
      days: 7
    }
  }
}

resource container 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: containerName
  properties: {
    publicAccess: 'None'
  }
}

resource stateAccess 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: container
  name: guid(container.id, dataContributorPrincipalId, storageBlobDataContributorRoleId)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageBlobDataContributorRoleId)
    principalId: dataContributorPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// What STATE_STORE takes for Blob Storage signed in with an identity: the container's URL.
output containerUrl string = '${storage.properties.primaryEndpoints.blob}${containerName}'
