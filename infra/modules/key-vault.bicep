// The app's secrets (today the notify key, NOTIFY_API_KEY) in a Key Vault that the Web App reads
// through Key Vault references with its managed identity: Azure RBAC only (no access policies),
// soft delete on, and the identity allowed to read secrets and nothing else
// (https://learn.microsoft.com/azure/app-service/app-service-key-vault-references).

@description('Azure region of the vault.')
param location string

@description('Name of the vault: 3 to 24 letters, digits and hyphens, unique across Azure.')
@minLength(3)
@maxLength(24)
param keyVaultName string

@description('Object (principal) id of the managed identity that reads the secrets.')
param secretsUserPrincipalId string

@description('Object id of a person or group who may set the secrets (Key Vault Secrets Officer); none when empty. Data access to a vault under Azure RBAC is not part of Owner.')
param secretsOfficerPrincipalId string = ''

@description('Days a deleted vault or secret can be recovered (7 to 90).')
@minValue(7)
@maxValue(90)
param softDeleteRetentionInDays int = 90

// Key Vault Secrets User: read secrets' values; Key Vault Secrets Officer: manage secrets
// (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles/security#key-vault-secrets-user).
var keyVaultSecretsUserRoleId = '4633458b-17de-408a-b874-0445c86b69e6'
var keyVaultSecretsOfficerRoleId = 'b86a8fe4-44ce-4948-aee5-eccb2c155cd7'

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: keyVaultName
  location: location
  properties: {
    tenantId: subscription().tenantId
    sku: {
      family: 'A'
      name: 'standard'
    }
    // Azure RBAC decides who reads what; no access policy exists to drift from it.
    enableRbacAuthorization: true
    accessPolicies: []
    // A secret or the vault deleted by mistake can be recovered. Purge protection is left off: it
    // cannot be turned off again, and it would keep the vault's name taken for the retention period
    // after the resource group is deleted (docs/deployment.md, "Removing it").
    enableSoftDelete: true
    softDeleteRetentionInDays: softDeleteRetentionInDays
    enabledForDeployment: false
    enabledForTemplateDeployment: false
    enabledForDiskEncryption: false
    publicNetworkAccess: 'Enabled'
  }
}

resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: vault
  name: guid(vault.id, secretsUserPrincipalId, keyVaultSecretsUserRoleId)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', keyVaultSecretsUserRoleId)
    principalId: secretsUserPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource secretsOfficer 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(secretsOfficerPrincipalId)) {
  scope: vault
  name: guid(vault.id, secretsOfficerPrincipalId, keyVaultSecretsOfficerRoleId)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', keyVaultSecretsOfficerRoleId)
    principalId: secretsOfficerPrincipalId
  }
}

output name string = vault.name
output uri string = vault.properties.vaultUri
