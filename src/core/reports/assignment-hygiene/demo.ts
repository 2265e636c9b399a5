import type { InstallIntent } from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { plantConfigurationPolicy } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { AssignmentFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';
import { daysAgo } from '../demo-records.js';
import { plantAuditEvent } from '../../audit-story/demo-records.js';
import type { Target } from './demo-records.js';

type Tenant = DemoTenantBuilder<AssignmentFindingKind>;

function configuration(tenant: Tenant, displayName: string, targets: Target[], odataType?: string): string {
  const item = records.deviceConfiguration({ id: tenant.guid(), displayName, targets, now: tenant.now, ...(odataType ? { odataType } : {}) });
  tenant.add('deviceConfigurations', item);
  return item.id;
}

function compliance(tenant: Tenant, displayName: string, targets: Target[], odataType?: string): string {
  const item = records.deviceCompliancePolicy({ id: tenant.guid(), displayName, targets, now: tenant.now, ...(odataType ? { odataType } : {}) });
  tenant.add('deviceCompliancePolicies', item);
  return item.id;
}

function app(tenant: Tenant, displayName: string, publisher: string, targets: Array<Target & { intent?: InstallIntent }>, odataType?: string): string {
  const item = records.mobileApp({ id: tenant.guid(), displayName, publisher, targets, now: tenant.now, ...(odataType ? { odataType } : {}) });
  tenant.add('mobileApps', item);
  return item.id;
}

function script(tenant: Tenant, displayName: string, targets: Target[]): string {
  const item = records.deviceManagementScript({ id: tenant.guid(), displayName, targets, now: tenant.now });
  tenant.add('deviceManagementScripts', item);
  return item.id;
}

function remediation(tenant: Tenant, displayName: string, targets: Target[]): string {
  const item = records.deviceHealthScript({ id: tenant.guid(), displayName, targets, now: tenant.now });
  tenant.add('deviceHealthScripts', item);
  return item.id;
}

/**
 * Report 2 in the demo tenant: objects of every assignable kind that apply to nobody (never
 * assigned, exclusions only, only a deleted or empty group) or to both All users and All devices,
 * beside look-alikes that are not findings (a deleted group next to a live one, a ConfigMgr
 * collection, Microsoft's own catalogue apps and scripts). A finding declared `beta` is on an object
 * of a type `/v1.0` leaves out (src/sim/v1-schema.ts), found only on `/beta`. The settings catalog
 * policies of report 3 (step 3) are assignable objects too, all assigned.
 */
export const assignmentHygieneDemo: readonly DemoStep<AssignmentFindingKind>[] = [
  {
    step: 2,
    plant(tenant) {
      const { allStaff, pilot, finance, kioskExclusions, emptyGroup, deletedGroup } = tenant.groups;
      configuration(tenant, 'Windows - Wi-Fi (Corp)', [{ kind: 'include', groupId: allStaff }], '#microsoft.graph.windowsWifiConfiguration');
      tenant.declare('unassigned', configuration(tenant, 'Windows - Legacy VPN', [], '#microsoft.graph.windows10VpnConfiguration'), 'beta');
      tenant.declare(
        'assigned-to-missing-or-empty-groups',
        configuration(tenant, 'iOS - Exchange email', [{ kind: 'include', groupId: deletedGroup }], '#microsoft.graph.iosEasEmailProfileConfiguration'),
        'beta',
      );
      tenant.declare('exclusions-only', configuration(tenant, 'Windows - Kiosk lockdown', [{ kind: 'exclude', groupId: kioskExclusions }]));
      // No filter on either target, but /v1.0 does not show filters and the tenant has some (step
      // 13): on /v1.0 coverage its assignments are read again on /beta, so found on both.
      tenant.declare(
        'all-users-and-all-devices',
        configuration(
          tenant,
          'Windows - Endpoint protection (legacy)',
          [{ kind: 'allUsers' }, { kind: 'allDevices' }],
          '#microsoft.graph.windows10EndpointProtectionConfiguration',
        ),
      );
      // One deleted group beside one live group still reaches people: not a finding.
      configuration(tenant, 'Windows - Finance printers', [
        { kind: 'include', groupId: deletedGroup },
        { kind: 'include', groupId: finance },
      ]);
      // A ConfigMgr collection cannot be resolved, so it never makes a finding.
      configuration(tenant, 'Windows - Co-managed update ring', [{ kind: 'configMgrCollection', collectionId: 'SMS00001' }]);
      for (const name of ['Windows - Device restrictions', 'Windows - Delivery optimisation', 'macOS - FileVault', 'iOS - Device restrictions', 'Android - Work profile']) {
        configuration(tenant, name, [
          { kind: 'include', groupId: tenant.pick([allStaff, pilot, finance]) },
          { kind: 'exclude', groupId: kioskExclusions },
        ]);
      }

      compliance(tenant, 'Windows - Compliance', [{ kind: 'allDevices' }]);
      tenant.declare(
        'assigned-to-missing-or-empty-groups',
        compliance(tenant, 'Android - Compliance (legacy)', [{ kind: 'include', groupId: emptyGroup }], '#microsoft.graph.androidCompliancePolicy'),
      );
      tenant.declare('unassigned', compliance(tenant, 'macOS - Compliance', [], '#microsoft.graph.macOSCompliancePolicy'));
      compliance(tenant, 'iOS - Compliance', [{ kind: 'allUsers' }], '#microsoft.graph.iosCompliancePolicy');
    },
  },
  {
    step: 4,
    plant(tenant) {
      const { allStaff, pilot, finance, kioskExclusions, retiredGroup } = tenant.groups;
      tenant.declare('unassigned', plantConfigurationPolicy(tenant, { name: 'Edge - Sync settings', templateFamily: 'none', settings: [], targets: [] }));
      plantConfigurationPolicy(tenant, { name: 'OneDrive - Known folder move', templateFamily: 'none', settings: [], targets: [{ kind: 'include', groupId: allStaff }] });

      app(tenant, 'Company Portal', 'Microsoft Corporation', [{ kind: 'allUsers', intent: 'required' }], '#microsoft.graph.winGetApp');
      tenant.declare('exclusions-only', app(tenant, 'Contoso Expenses', 'Contoso', [{ kind: 'exclude', groupId: kioskExclusions, intent: 'available' }]));
      tenant.declare(
        'all-users-and-all-devices',
        app(
          tenant,
          'Microsoft Teams',
          'Microsoft Corporation',
          [
            { kind: 'allDevices', intent: 'required' },
            { kind: 'allUsers', intent: 'available' },
          ],
          '#microsoft.graph.winGetApp',
        ),
        'beta',
      );
      tenant.declare('unassigned', app(tenant, 'Legacy PDF Reader', 'Example Software', []));
      app(tenant, '7-Zip', 'Igor Pavlov', [{ kind: 'include', groupId: pilot, intent: 'available' }]);
      app(tenant, 'Finance Reporting Add-in', 'Contoso', [{ kind: 'include', groupId: finance, intent: 'required' }]);

      script(tenant, 'Set time zone', [{ kind: 'include', groupId: allStaff }]);
      tenant.declare('assigned-to-missing-or-empty-groups', script(tenant, 'Clean up temp folders', [{ kind: 'include', groupId: retiredGroup }]));

      remediation(tenant, 'Restart stopped services', [{ kind: 'allDevices' }]);
      tenant.declare('unassigned', remediation(tenant, 'Clear Teams cache', []));
    },
  },
  {
    step: 9,
    plant(tenant) {
      const { now } = tenant;
      // Microsoft's catalogue apps are in every tenant and unassigned by nature: not findings.
      for (const [displayName, odataType] of [
        ['Microsoft Outlook', '#microsoft.graph.managedAndroidStoreApp'],
        ['Microsoft Edge', '#microsoft.graph.managedIOSStoreApp'],
      ] as const) {
        tenant.add('mobileApps', records.mobileApp({ id: tenant.guid(), displayName, publisher: 'Microsoft Corporation', odataType, appAvailability: 'global', targets: [], now }));
      }
      // Microsoft's own remediation scripts are read-only and unassigned until someone assigns them: not findings.
      tenant.add(
        'deviceHealthScripts',
        records.deviceHealthScript({ id: tenant.guid(), displayName: 'Restart Office Click-to-Run service', targets: [], now, isGlobalScript: true }),
      );

      // What /v1.0 cannot show (issue 11, point 3): types only the beta schema has, which /v1.0
      // lists leave out, so their findings need /beta.
      tenant.declare(
        'assigned-to-missing-or-empty-groups',
        compliance(tenant, 'AOSP - Compliance (RealWear)', [{ kind: 'include', groupId: tenant.groups.retiredGroup }], '#microsoft.graph.aospDeviceOwnerCompliancePolicy'),
        'beta',
      );
      app(tenant, 'Microsoft 365 Apps for enterprise', 'Microsoft Corporation', [{ kind: 'allUsers', intent: 'required' }], '#microsoft.graph.officeSuiteApp');
    },
  },
  {
    // Win32 dependencies and supersedence, and assignment filters (docs/finding-rules.md,
    // report 2). A step of its own, after the highest in use, so no earlier id changes.
    step: 13,
    plant(tenant) {
      const { allStaff, pilot, finance } = tenant.groups;
      const win32 = (displayName: string, targets: Array<Target & { intent?: InstallIntent }>) => ({ id: app(tenant, displayName, 'Contoso', targets), displayName });
      const relate = (...relationships: Parameters<typeof records.appRelationship>[0][]) =>
        tenant.add('mobileAppRelationships', ...relationships.map((relationship) => records.appRelationship(relationship)));

      // 1. An automatic-install dependency of an app required by a live group: installed, not a finding.
      // Listed both ways (targetType child and parent), which the report counts once.
      const vpn = win32('Contoso VPN Client', [{ kind: 'include', groupId: finance, intent: 'required' }]);
      const vcRedist = win32('Microsoft Visual C++ 2015-2022 Redistributable', []);
      relate(
        { kind: 'dependency', parent: vpn, child: vcRedist, dependencyType: 'autoInstall' },
        { kind: 'dependency', parent: vpn, child: vcRedist, dependencyType: 'autoInstall', targetType: 'parent' },
      );
      // 2. A detection-only dependency of an assigned app: Intune never installs it, not a finding.
      const cad = win32('Contoso CAD', [{ kind: 'include', groupId: pilot, intent: 'available' }]);
      relate({ kind: 'dependency', parent: cad, child: win32('Contoso Licence Agent', []), dependencyType: 'detect' });
      // 3. The only parent is assigned to uninstall, which installs no dependency: still unassigned.
      const scanner = win32('Legacy Scanner Utility', [{ kind: 'include', groupId: allStaff, intent: 'uninstall' }]);
      const driver = win32('Legacy Scanner Driver', []);
      relate({ kind: 'dependency', parent: scanner, child: driver, dependencyType: 'autoInstall' });
      tenant.declare('unassigned', driver.id);
      // 4. A chain P -> C1 -> C2, all automatic, only P assigned: no findings.
      const studio = win32('Contoso Data Studio', [{ kind: 'include', groupId: allStaff, intent: 'required' }]);
      const runtime = win32('Contoso Data Runtime', []);
      const drivers = win32('Contoso Data Drivers', []);
      relate(
        { kind: 'dependency', parent: studio, child: runtime, dependencyType: 'autoInstall' },
        { kind: 'dependency', parent: runtime, child: drivers, dependencyType: 'autoInstall' },
      );
      // 5. A superseded app, unassigned, whose superseder is assigned: replaced on devices, not a finding.
      const notepadNew = win32('Notepad++ 8.6', [{ kind: 'include', groupId: allStaff, intent: 'required' }]);
      relate({ kind: 'supersedence', parent: notepadNew, child: win32('Notepad++ 7.9', []), supersedenceType: 'update' });
      // 6. A superseding app nobody is assigned, replacing an assigned app: Intune ignores it, a finding.
      const readerOld = win32('Adobe Acrobat Reader (2020)', [{ kind: 'include', groupId: allStaff, intent: 'required' }]);
      const readerNew = win32('Adobe Acrobat Reader (2024)', []);
      relate({ kind: 'supersedence', parent: readerNew, child: readerOld, supersedenceType: 'replace' });
      tenant.declare('unassigned', readerNew.id);
      // 7. A dependency whose type Graph sends as unknownFutureValue: taken as installed, not a finding.
      const field = win32('Contoso Field App', [{ kind: 'include', groupId: finance, intent: 'required' }]);
      relate({ kind: 'dependency', parent: field, child: win32('Contoso Field Runtime', []), dependencyType: 'unknownFutureValue' });

      // Assignment filters: two device filters, a managed-app filter, and one whose platform is the
      // member after unknownFutureValue (windowsMobileApplicationManagement).
      const filter = (displayName: string, platform: Beta.DevicePlatformType, rule: string, managementType?: Beta.AssignmentFilterManagementType) => {
        const item = records.assignmentFilter({ id: tenant.guid(), displayName, platform, rule, now: tenant.now, ...(managementType ? { managementType } : {}) });
        tenant.add('assignmentFilters', item);
        return item.id;
      };
      const corporate = filter('Corporate Windows', 'windows10AndLater', '(device.deviceOwnership -eq "Corporate")');
      const windows11 = filter('Windows 11 only', 'windows10AndLater', '(device.osVersion -startsWith "10.0.22")');
      filter('Android personal apps', 'androidMobileApplicationManagement', '(app.deviceManagementType -eq "Unmanaged")', 'apps');
      filter('Windows MAM (Edge)', 'windowsMobileApplicationManagement', '(app.appVersion -ge "120.0")', 'apps');
      const missingFilter = tenant.guid();
      const users = (mode: 'include' | 'exclude', id: string): Target => ({ kind: 'allUsers', filter: { mode, id } });
      const devices = (mode: 'include' | 'exclude', id: string): Target => ({ kind: 'allDevices', filter: { mode, id } });

      // Remediations are read on /beta, where filters show, and take filters (filters-supported-workloads).
      // 1. The same filter, include on one target and exclude on the other: kept apart, not a finding.
      remediation(tenant, 'Detect stale VPN profiles', [users('include', corporate), devices('exclude', corporate)]);
      // 2. The same filter in the same mode on both: they overlap, a finding.
      tenant.declare('all-users-and-all-devices', remediation(tenant, 'Collect Defender logs', [users('include', corporate), devices('include', corporate)]));
      // 3. No filter on one side: they overlap, a finding.
      tenant.declare('all-users-and-all-devices', remediation(tenant, 'Reset Windows Update components', [{ kind: 'allUsers' }, devices('include', corporate)]));
      // 4. Different filters: could not check, no finding.
      remediation(tenant, 'Repair OneDrive sync', [users('include', corporate), devices('include', windows11)]);
      // 5. A filter id the list does not hold: could not check, never "deleted".
      remediation(tenant, 'Check free disk space', [users('include', missingFilter), devices('exclude', missingFilter)]);
      // 6. An app with different intents on the two targets: a finding whatever the filters, even on /v1.0.
      tenant.declare(
        'all-users-and-all-devices',
        app(tenant, 'Contoso Travel', 'Contoso', [
          { ...users('include', corporate), intent: 'required' },
          { ...devices('exclude', corporate), intent: 'uninstall' },
        ]),
      );
      // 7. Profiles /v1.0 lists without their filters: on /v1.0 coverage their assignments are read
      // again on /beta, so judged alike on both.
      tenant.declare('all-users-and-all-devices', configuration(tenant, 'Windows - BitLocker (legacy)', [users('include', corporate), devices('include', corporate)]));
      compliance(tenant, 'Windows - Compliance (corporate split)', [users('include', corporate), devices('exclude', corporate)]);
    },
  },
  {
    // Soft-deleted groups (docs/finding-rules.md, report 2, "Soft-deleted groups"): restorable for
    // 30 days, a finding of their own; the hard-deleted groups of steps 2 and 4 stay as they are.
    step: 14,
    plant(tenant) {
      const { finance, emptyGroup } = tenant.groups;
      const salesIpads = tenant.addDeletedGroup({ displayName: 'Sales iPads', deletedDaysAgo: 5 });
      const contractors = tenant.addDeletedGroup({ displayName: 'Contractor Laptops', deletedDaysAgo: 26 });
      // Only a soft-deleted group: restorable, a finding.
      tenant.declare(
        'assigned-to-restorable-deleted-groups',
        compliance(tenant, 'iOS - Compliance (Sales)', [{ kind: 'include', groupId: salesIpads }], '#microsoft.graph.iosCompliancePolicy'),
      );
      // A soft-deleted group beside an empty one: still restorable, a finding of the same kind.
      tenant.declare(
        'assigned-to-restorable-deleted-groups',
        script(tenant, 'Map contractor drives', [
          { kind: 'include', groupId: contractors },
          { kind: 'include', groupId: emptyGroup },
        ]),
      );
      // A soft-deleted group beside a live one still reaches people: not a finding.
      configuration(tenant, 'Windows - Sales printers', [
        { kind: 'include', groupId: salesIpads },
        { kind: 'include', groupId: finance },
      ]);
    },
  },
  {
    step: 15,
    plant(tenant) {
      plantStories(tenant);
    },
  },
  {
    // The object types only beta has (docs/finding-rules.md, report 2, "Object types"), each with
    // its filters on its targets as beta shows them: a step of its own, after the highest in use.
    step: 16,
    plant(tenant) {
      const { allStaff, kioskExclusions } = tenant.groups;
      const { now } = tenant;
      const admx = (displayName: string, targets: Target[]) => {
        const item = records.groupPolicyConfiguration({ id: tenant.guid(), displayName, targets, now });
        tenant.add('groupPolicyConfigurations', item);
        return item.id;
      };
      admx('Windows - Edge ADMX (home page)', [{ kind: 'include', groupId: allStaff }]);
      tenant.declare('unassigned', admx('Windows - Office ADMX (draft)', []));
      const shell = (displayName: string, targets: Target[]) => {
        const item = records.deviceShellScript({ id: tenant.guid(), displayName, targets, now });
        tenant.add('deviceShellScripts', item);
        return item.id;
      };
      shell('macOS - Install Rosetta', [{ kind: 'allDevices' }]);
      tenant.declare('all-users-and-all-devices', shell('macOS - Set dock items', [{ kind: 'allUsers' }, { kind: 'allDevices' }]));
      const feature = records.windowsFeatureUpdateProfile({
        id: tenant.guid(),
        displayName: 'Windows 11 24H2 rollout',
        featureUpdateVersion: 'Windows 11, version 24H2',
        targets: [{ kind: 'exclude', groupId: kioskExclusions }],
        now,
      });
      tenant.add('windowsFeatureUpdateProfiles', feature);
      tenant.declare('exclusions-only', feature.id);
      const linux = records.deviceManagementCompliancePolicy({ id: tenant.guid(), name: 'Linux - Compliance', platforms: 'linux', targets: [], now });
      tenant.add('compliancePolicies', linux);
      tenant.declare('unassigned', linux.id);
      // Intents, as `$expand=assignments` gives them: those report 3 marks assigned go to All
      // devices unless it gave them assignments of their own, the one it marks unassigned has none
      // (isAssigned, the deviceManagementIntent resource).
      for (const intent of tenant.records('intents')) {
        const record = intent as Record<string, unknown>;
        if (record.assignments !== undefined) continue;
        record.assignments = records.intentAssignments(String(intent.id), record.isAssigned === false ? [] : [{ kind: 'allDevices' }]);
        if (record.isAssigned === false) tenant.declare('unassigned', String(intent.id));
      }
    },
  },
];

/**
 * What the demo's audit log must tell of report 2's findings, by the finding's object's name (as
 * report 3's demo declares its own): the last successful change's actor and activity.
 */
export const ASSIGNMENT_HYGIENE_STORIES: ReadonlyArray<{ objectName: string; lastChange: { by: string; activity: string } }> = [
  { objectName: 'Legacy PDF Reader', lastChange: { by: 'megan.bowen@contoso-demo.example', activity: 'Patch MobileApp' } },
  { objectName: 'Clean up temp folders', lastChange: { by: 'Contoso Script Publisher', activity: 'Assign DeviceManagementScript' } },
  { objectName: 'Windows - Kiosk lockdown', lastChange: { by: 'lee.gu@contoso-demo.example', activity: 'Patch DeviceConfiguration' } },
];

/**
 * Report 2's findings in Intune's audit log (docs/finding-rules.md, "A finding's last change"): an
 * app whose assignments a person removed, a script an app assigned to a group since retired, and a
 * profile whose last successful change came before a failed one.
 */
function plantStories(tenant: Tenant): void {
  const { now } = tenant;
  const named = (collection: string, name: string, resourceType: string) => {
    const found = tenant.records(collection).find((record) => record.displayName === name);
    if (!found) throw new Error(`the demo has no ${collection} record "${name}"`);
    return { resourceId: found.id, resourceName: name, resourceType };
  };
  const app = named('mobileApps', 'Legacy PDF Reader', 'MobileApp');
  plantAuditEvent(tenant, { ...app, operation: 'Create', verb: 'Create', at: daysAgo(now, 300), actor: { user: 'alex.wilber@contoso-demo.example' }, result: 'Success' });
  plantAuditEvent(tenant, {
    ...app,
    operation: 'Patch',
    verb: 'Patch',
    at: daysAgo(now, 9),
    actor: { user: 'megan.bowen@contoso-demo.example' },
    result: 'Success',
    properties: [{ name: 'Assignments', oldValue: 'All users (required)', newValue: '' }],
  });
  const script = named('deviceManagementScripts', 'Clean up temp folders', 'DeviceManagementScript');
  plantAuditEvent(tenant, {
    ...script,
    operation: 'Action',
    verb: 'Assign',
    at: daysAgo(now, 90),
    actor: { app: 'Contoso Script Publisher', appId: '0b6a8f2e-4d1c-4e7a-8a3b-9c5d2e1f7a64' },
    result: 'Success',
  });
  const profile = named('deviceConfigurations', 'Windows - Kiosk lockdown', 'DeviceConfiguration');
  plantAuditEvent(tenant, { ...profile, operation: 'Patch', verb: 'Patch', at: daysAgo(now, 2), actor: { user: 'dana.lopez@contoso-demo.example' }, result: 'Failure' });
  plantAuditEvent(tenant, { ...profile, operation: 'Patch', verb: 'Patch', at: daysAgo(now, 30), actor: { user: 'lee.gu@contoso-demo.example' }, result: 'Success' });
}
