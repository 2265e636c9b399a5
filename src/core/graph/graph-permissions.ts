/**
 * The Microsoft Graph application permissions this app may ask for, by Entra's exact value and its
 * app role id. Entra and the Teams Toolkit resolve a permission's name as written, case included
 * (`BitlockerKey`, not `BitLockerKey`), so every name in the code, the Entra manifest and the README
 * comes from this table, and the manifest names each permission by its id (the Teams Toolkit takes
 * a permission's id in place of its name for Microsoft Graph: "Edit Microsoft Entra manifest",
 * Teams platform docs). Ids: the application permission ids of the Microsoft Graph permissions
 * reference, https://learn.microsoft.com/graph/permissions-reference.
 */
export const GRAPH_APPLICATION_PERMISSIONS = {
  'DeviceManagementServiceConfig.Read.All': '06a5fe6d-c49d-46a7-b082-56b1b14103c7',
  'DeviceManagementConfiguration.Read.All': 'dc377aa6-52d8-4e23-b271-2a7ae04cedf3',
  'DeviceManagementApps.Read.All': '7a6ee1e7-141e-4cec-ae74-d9db155731ff',
  'DeviceManagementScripts.Read.All': 'c7a5be92-2b3d-4540-8a67-c96dcaae8b43',
  'Group.Read.All': '5b567255-7703-4780-807c-7be8301ae99b',
  'DeviceLocalCredential.ReadBasic.All': 'db51be59-e728-414b-b800-e0f010df1a79',
  'BitlockerKey.ReadBasic.All': 'f690d423-6b29-4d04-98c6-694c42282419',
  'DeviceManagementManagedDevices.Read.All': '2f51be20-0bb4-4fed-bf7b-db946066c75e',
  'DeviceManagementRBAC.Read.All': '58ca0d9a-1575-47e1-a3cb-007ef2e4583b',
} as const;

/** A permission this app may ask for: a misspelt one does not compile. */
export type GraphApplicationPermission = keyof typeof GRAPH_APPLICATION_PERMISSIONS;

/**
 * Permissions a read may use when the tenant's administrator chose to grant them, which the app
 * registration does not ask for (aad.manifest.json leaves them out; the README says how and why to
 * add one). A read of this kind is `optional`: without the permission Graph answers 403 and what the
 * read would have decided stays unknown, with the permission named. Id: the application permission
 * id in the Microsoft Graph permissions reference, https://learn.microsoft.com/graph/permissions-reference.
 */
export const OPTIONAL_GRAPH_APPLICATION_PERMISSIONS = {
  /** Reads Entra device objects: which groups a managed device's Entra device is in ("what applies", device groups). */
  'Device.Read.All': '7438b122-aefc-4978-80ed-43db9fcc7715',
} as const;

export type OptionalGraphPermission = keyof typeof OPTIONAL_GRAPH_APPLICATION_PERMISSIONS;
