import { describe, expect, it } from 'vitest';
import { PRODUCT_READS } from '../../src/core/upstream-reads.js';

const PAGE = 'https://learn.microsoft.com/graph/api/';
const BETA = '?view=graph-rest-beta';
const CONFIGURATION = ['DeviceManagementConfiguration.Read.All', 'DeviceManagementConfiguration.ReadWrite.All'];
const SERVICE_CONFIG = ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementServiceConfig.ReadWrite.All'];
const MANAGED_DEVICES = ['DeviceManagementManagedDevices.Read.All', 'DeviceManagementManagedDevices.ReadWrite.All'];
const APPS = ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All'];
const SCRIPTS = ['DeviceManagementScripts.Read.All', 'DeviceManagementScripts.ReadWrite.All'];

/**
 * The application permissions each page's Permissions table lists ("Application" row, least and
 * higher privileged alike), as read on Microsoft's page (or the page's source in
 * microsoftgraph/microsoft-graph-docs-contrib, where it is the current one).
 */
const APPLICATION_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  [`${PAGE}intune-devices-manageddevice-list`]: MANAGED_DEVICES,
  [`${PAGE}intune-onboarding-vpptoken-list`]: [...SERVICE_CONFIG, ...CONFIGURATION],
  [`${PAGE}intune-deviceconfig-deviceconfiguration-list`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfig-devicecompliancepolicy-list`]: CONFIGURATION,
  [`${PAGE}intune-apps-mobileapp-list`]: APPS,
  [`${PAGE}intune-auditing-auditevent-list`]: APPS,
  [`${PAGE}intune-devices-userexperienceanalyticsdeviceperformance-list`]: MANAGED_DEVICES,
  [`${PAGE}intune-rbac-roledefinition-list`]: ['DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'],
  [`${PAGE}intune-deviceconfigv2-devicemanagementconfigurationpolicy-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-androidforwork-androidmanagedstoreaccountenterprisesettings-get${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-enrollment-windowsautopilotsettings-get${BETA}`]: SERVICE_CONFIG,
  [`${PAGE}intune-onboarding-mobilethreatdefenseconnector-list${BETA}`]: SERVICE_CONFIG,
  [`${PAGE}intune-onboarding-devicemanagementpartner-list`]: [...SERVICE_CONFIG, ...CONFIGURATION],
  // The scripts pages list DeviceManagementScripts.*; the page's older versions listed the configuration or managed devices permissions.
  [`${PAGE}intune-shared-devicemanagementscript-list${BETA}`]: [...SCRIPTS, ...CONFIGURATION],
  [`${PAGE}intune-devices-devicehealthscript-list${BETA}`]: SCRIPTS,
  [`${PAGE}intune-devices-deviceshellscript-list${BETA}`]: SCRIPTS,
  [`${PAGE}group-get`]: ['GroupMember.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All', 'Group.Read.All'],
  [`${PAGE}group-list`]: ['Directory.Read.All', 'Directory.ReadWrite.All', 'Group.ManageProtection.All', 'Group.Read.All', 'Group.ReadWrite.All', 'GroupMember.Read.All'],
  [`${PAGE}group-list-memberof`]: ['GroupMember.Read.All', 'Directory.Read.All', 'Directory.ReadWrite.All', 'Group.Read.All'],
  [`${PAGE}group-list-members`]: ['GroupMember.Read.All', 'Directory.Read.All', 'Group.Read.All', 'Group.ReadWrite.All', 'GroupMember.ReadWrite.All'],
  [`${PAGE}device-get`]: ['Device.Read.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  [`${PAGE}device-list-transitivememberof`]: ['Device.Read.All', 'Device.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  // "Permissions for another user's memberships". (user-list-memberof lists Directory.Read.All and Directory.ReadWrite.All only: not read.)
  [`${PAGE}user-list-transitivememberof`]: ['User.Read.All', 'Directory.Read.All', 'Directory.ReadWrite.All', 'Group.Read.All', 'GroupMember.Read.All'],
  [`${PAGE}bitlocker-list-recoverykeys`]: ['BitlockerKey.ReadBasic.All', 'BitlockerKey.Read.All'],
  [`${PAGE}intune-devices-manageddevice-get`]: MANAGED_DEVICES,
  [`${PAGE}intune-deviceconfig-deviceconfiguration-get`]: CONFIGURATION,
  [`${PAGE}intune-devices-manageddevice-get${BETA}`]: ['DeviceManagementConfiguration.Read.All', ...MANAGED_DEVICES],
  // The table "For groups" (the page has one per kind of deleted object; the product reads groups only).
  [`${PAGE}directory-deleteditems-get`]: ['Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  [`${PAGE}intune-rbac-roleassignment-list`]: ['DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'],
  [`${PAGE}intune-onboarding-mobilethreatdefenseconnector-list`]: SERVICE_CONFIG,
  [`${PAGE}intune-devices-userexperienceanalyticsapphealthapplicationperformance-list`]: MANAGED_DEVICES,
  [`${PAGE}intune-apps-mobileappassignment-list${BETA}`]: ['DeviceManagementConfiguration.Read.All', ...APPS],
  [`${PAGE}intune-deviceconfig-deviceconfigurationassignment-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfig-devicecompliancepolicyassignment-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-policyset-deviceandappmanagementassignmentfilter-list${BETA}`]: ['DeviceManagementServiceConfig.ReadWrite.All', ...CONFIGURATION],
  [`${PAGE}intune-rbac-deviceandappmanagementroleassignment-list${BETA}`]: [
    'DeviceManagementConfiguration.Read.All',
    'DeviceManagementRBAC.Read.All',
    'DeviceManagementRBAC.ReadWrite.All',
  ],
  [`${PAGE}intune-deviceintent-devicemanagementintent-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceintent-devicemanagementtemplate-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-grouppolicy-grouppolicyconfiguration-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-apps-mobileapprelationship-list${BETA}`]: ['DeviceManagementConfiguration.Read.All', ...APPS],
  [`${PAGE}intune-deviceconfig-deviceconfigurationconflictsummary-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfigv2-devicemanagementcompliancepolicy-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfigv2-devicemanagementconfigurationpolicytemplate-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfigv2-devicemanagementconfigurationsetting-list${BETA}`]: ['DeviceManagementServiceConfig.ReadWrite.All', 'DeviceManagementConfiguration.Read.All'],
  [`${PAGE}intune-enrollment-deponboardingsetting-list${BETA}`]: [...SERVICE_CONFIG, 'DeviceManagementConfiguration.Read.All'],
  [`${PAGE}intune-rbac-operationapprovalpolicy-list${BETA}`]: [...CONFIGURATION, 'DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'],
  [`${PAGE}intune-rbac-operationapprovalrequest-list${BETA}`]: [...CONFIGURATION, 'DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'],
  [`${PAGE}intune-softwareupdate-windowsfeatureupdateprofile-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-softwareupdate-windowsqualityupdateprofile-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-softwareupdate-windowsdriverupdateprofile-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-softwareupdate-windowsqualityupdatepolicy-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-deviceconfig-ndesconnector-list${BETA}`]: CONFIGURATION,
  [`${PAGE}intune-odj-devicemanagementdomainjoinconnector-list${BETA}`]: CONFIGURATION,
  [`${PAGE}directory-list-devicelocalcredentials`]: ['DeviceLocalCredential.ReadBasic.All', 'DeviceLocalCredential.Read.All'],
  // Least privileged Device.Read.All; higher Device.ReadWrite.All, Directory.Read.All, Directory.ReadWrite.All.
  [`${PAGE}device-list-memberof`]: ['Device.Read.All', 'Device.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  // The page's source in microsoftgraph/microsoft-graph-docs-contrib (api-reference/v1.0/api/intune-devices-applepushnotificationcertificate-get.md).
  [`${PAGE}intune-devices-applepushnotificationcertificate-get`]: ['DeviceManagementServiceConfig.ReadWrite.All', 'DeviceManagementManagedDevices.Read.All'],
  [`${PAGE}intune-rbac-rolescopetag-list${BETA}`]: ['DeviceManagementConfiguration.Read.All', ...['DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All']],
};

/**
 * Pages whose table is not yet copied above: each read citing one is held to nothing but having a
 * page. The list is pinned, so that it only shrinks: move a page up once its table is read.
 */
const NOT_YET_READ: readonly string[] = [];

describe("every Graph read's permissions, against Microsoft's page for the call", () => {
  it('cites a Microsoft Graph API page for every read', () => {
    for (const read of PRODUCT_READS) expect(read.permissionsPage, read.path).toMatch(/^https:\/\/learn\.microsoft\.com\/graph\/api\/[a-z0-9-]+(\?view=graph-rest-beta)?$/);
    // A /beta read cites the beta page, a /v1.0 read the v1.0 one: the tables differ between them.
    for (const read of PRODUCT_READS) expect(read.permissionsPage.endsWith(BETA), read.path).toBe(read.path.startsWith('/beta/'));
  });

  it.each(PRODUCT_READS.filter((read) => read.permissionsPage in APPLICATION_PERMISSIONS).map((read) => [read.path, read] as const))(
    '%s declares only permissions its page lists for an application',
    (_path, read) => {
      const listed = APPLICATION_PERMISSIONS[read.permissionsPage]!;
      for (const permission of read.permissions) expect(listed, `${read.path}: ${permission} (${read.permissionsPage})`).toContain(permission);
    },
  );

  it('has each page either read into the table or listed as not yet read, and no page of either list that no read cites', () => {
    const cited = new Set(PRODUCT_READS.map((read) => read.permissionsPage));
    expect([...cited].filter((page) => !(page in APPLICATION_PERMISSIONS)).sort()).toEqual([...NOT_YET_READ].sort());
    expect(Object.keys(APPLICATION_PERMISSIONS).filter((page) => !cited.has(page))).toEqual([]);
  });
});
