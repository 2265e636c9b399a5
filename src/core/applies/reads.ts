import type { UpstreamRead } from '../graph/upstream-read.js';

/**
 * The Graph reads "what applies" makes of its own (docs/finding-rules.md, "What applies"): each
 * about the one device, user or group a question names, never a list of the whole tenant. It also
 * makes report 2's assignment reads, which report 2's folder declares, and looks groups up by id
 * (`/v1.0/groups/{id}`), which report 2 declares too.
 */

/** The managed device fields read: who the device is, its primary user, its platform, and what filter rules read. */
export const APPLIES_DEVICE_FIELDS = [
  'id',
  'deviceName',
  'userId',
  'userPrincipalName',
  'azureADDeviceId',
  'operatingSystem',
  'manufacturer',
  'model',
  'osVersion',
  'managedDeviceOwnerType',
  'enrollmentProfileName',
] as const;

/** A device's fields and its scope tags (`roleScopeTagIds`, beta only), as a viewer limited to scope tags is answered about it. */
const APPLIES_TAGGED_DEVICE_FIELDS = [...APPLIES_DEVICE_FIELDS, 'roleScopeTagIds'] as const;

/** Found by `$filter=deviceName eq '…'` (a device's name) or `userPrincipalName eq '…'` (a user's devices): a page or two, whatever the tenant's size. */
export const APPLIES_DEVICES_READ = {
  path: '/v1.0/deviceManagement/managedDevices',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-list',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: APPLIES_DEVICE_FIELDS,
  optional: false,
  betaTwin: true,
  // For a viewer limited to scope tags the device is found on beta with its tags in the same request,
  // so that whether they may see it is decided before anything that depends on its existence is read
  // (docs/finding-rules.md, "What applies", "For a viewer limited to scope tags").
  scopeTagsSelect: APPLIES_TAGGED_DEVICE_FIELDS,
  why: 'The device a question names (by name, or its primary user by UPN), its primary user, its platform, and the properties assignment filters read.',
} as const satisfies UpstreamRead;

/** `GET /deviceManagement/managedDevices/{id}` (learn.microsoft.com/graph/api/intune-devices-manageddevice-get): a device named by its id. */
export const APPLIES_DEVICE_READ = {
  path: '/v1.0/deviceManagement/managedDevices/{id}',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-get',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: APPLIES_DEVICE_FIELDS,
  optional: false,
  why: 'The device a question names by its managed device id.',
} as const satisfies UpstreamRead;

/** `GET /groups?$filter=displayName eq '…'` (learn.microsoft.com/graph/api/group-list): a group named in a question. */
export const APPLIES_GROUPS_BY_NAME_READ = {
  path: '/v1.0/groups',
  permissionsPage: 'https://learn.microsoft.com/graph/api/group-list',
  permissions: ['Group.Read.All'],
  select: ['id', 'displayName'],
  optional: false,
  why: 'The group a question names by its display name.',
} as const satisfies UpstreamRead;

/**
 * `GET /users/{id}/transitiveMemberOf` (learn.microsoft.com/graph/api/user-list-transitivememberof):
 * every group the user is in, nested ones included. For another user's memberships the page lists
 * Group.Read.All among the application permissions that allow it.
 */
export const APPLIES_USER_GROUPS_READ = {
  path: '/v1.0/users/{id}/transitiveMemberOf',
  permissionsPage: 'https://learn.microsoft.com/graph/api/user-list-transitivememberof',
  permissions: ['Group.Read.All'],
  select: ['id', 'displayName'],
  optional: true,
  why: "Every group a user (asked about, or a device's primary user) is in, directly or through nested groups; also tells whether the user exists.",
} as const satisfies UpstreamRead;

/**
 * `GET /groups/{id}/memberOf` (learn.microsoft.com/graph/api/group-list-memberof): the groups a group
 * is directly in, read upwards from the subject's own groups to tell the path to an assigned group.
 * (A group's `transitiveMemberOf` needs Directory.Read.All for an application, which this app does not ask for.)
 */
export const APPLIES_GROUP_PARENTS_READ = {
  path: '/v1.0/groups/{id}/memberOf',
  permissionsPage: 'https://learn.microsoft.com/graph/api/group-list-memberof',
  permissions: ['Group.Read.All'],
  select: ['id', 'displayName'],
  optional: true,
  why: 'The groups a group is directly in: each step of the path from the subject up to an assigned group.',
} as const satisfies UpstreamRead;

/**
 * The managed device's Entra device object, addressed by its `deviceId` (the managed device's
 * `azureADDeviceId`; learn.microsoft.com/graph/api/device-get: "You can address the device using
 * either its id or deviceId"). Device.Read.All, which the app registration does not ask for: granted
 * by choice (README, "Optional permission: device groups").
 */
export const APPLIES_ENTRA_DEVICE_READ = {
  path: "/v1.0/devices(deviceId='{id}')",
  permissionsPage: 'https://learn.microsoft.com/graph/api/device-get',
  permissions: ['Device.Read.All'],
  select: ['id', 'displayName'],
  optional: true,
  why: "The Entra device object of the device asked about: its object id, which device groups' member lists name.",
} as const satisfies UpstreamRead;

/** `GET /devices(deviceId='{deviceId}')/transitiveMemberOf` (learn.microsoft.com/graph/api/device-list-transitivememberof): Device.Read.All. */
export const APPLIES_DEVICE_GROUPS_READ = {
  path: "/v1.0/devices(deviceId='{id}')/transitiveMemberOf",
  permissionsPage: 'https://learn.microsoft.com/graph/api/device-list-transitivememberof',
  permissions: ['Device.Read.All'],
  select: ['id', 'displayName'],
  optional: true,
  why: 'Every group the device asked about is in, nested ones included: which device-group assignments reach it.',
} as const satisfies UpstreamRead;

/** `GET /devices(deviceId='{deviceId}')/memberOf` (learn.microsoft.com/graph/api/device-list-memberof): Device.Read.All. */
export const APPLIES_DEVICE_DIRECT_GROUPS_READ = {
  path: "/v1.0/devices(deviceId='{id}')/memberOf",
  permissionsPage: 'https://learn.microsoft.com/graph/api/device-list-memberof',
  permissions: ['Device.Read.All'],
  select: ['id', 'displayName'],
  optional: true,
  why: 'The groups the device asked about is directly in: where the path to an assigned device group starts.',
} as const satisfies UpstreamRead;

/**
 * `GET /beta/deviceManagement/managedDevices/{id}` with the device's fields and `roleScopeTagIds`:
 * the device a viewer limited to scope tags names by its id, with its scope tags in the same
 * request, made only for such a viewer with the viewer scope on (docs/finding-rules.md, "What
 * applies", "For a viewer limited to scope tags").
 * Beta only: `/v1.0`'s managedDevice has no `roleScopeTagIds` (the v1.0 and beta metadata;
 * learn.microsoft.com/graph/api/resources/intune-devices-manageddevice?view=graph-rest-beta lists it,
 * "List of Scope Tag IDs for this Device instance").
 */
export const APPLIES_DEVICE_SCOPE_TAGS_READ = {
  path: '/beta/deviceManagement/managedDevices/{id}',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-get?view=graph-rest-beta',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: APPLIES_TAGGED_DEVICE_FIELDS,
  optional: true,
  why: 'The device a viewer limited to scope tags names by its id, with its scope tags: whether their Intune role assignments let them see it.',
} as const satisfies UpstreamRead;

export const APPLIES_READS: readonly UpstreamRead[] = [
  APPLIES_DEVICES_READ,
  APPLIES_DEVICE_READ,
  APPLIES_GROUPS_BY_NAME_READ,
  APPLIES_USER_GROUPS_READ,
  APPLIES_GROUP_PARENTS_READ,
  APPLIES_ENTRA_DEVICE_READ,
  APPLIES_DEVICE_GROUPS_READ,
  APPLIES_DEVICE_DIRECT_GROUPS_READ,
  APPLIES_DEVICE_SCOPE_TAGS_READ,
];
