import type { InstallIntent } from '@microsoft/microsoft-graph-types';
import { plantConfigurationPolicy } from '../demo-records.js';
import type { Target } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { AssignmentFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

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
];
