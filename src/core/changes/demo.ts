/**
 * A week of changes in the demo tenant, so the change feed shows every kind it lists (docs/finding-rules.md,
 * "The change feed"): a settings catalog setting switched, a policy created, a classic profile's
 * property changed and another profile deleted, a compliance policy changed by an app, an app
 * assigned with its intent and filter and another's assignment removed, a script's content (logged
 * whole, so cut short), a remediation's schedule, a macOS script created, a baseline changed, an
 * assignment filter's rule, a Wi-Fi key the log masks; beside them a failed attempt (no change) and
 * a device wipe (not configuration). By four people and one app. Every object is one no report
 * finds anything about, so no finding's last change moves.
 */

import type { DemoGroup, DemoTenantBuilder } from '../reports/report-demo.js';
import { plantAuditEvent } from '../audit-story/demo-records.js';
import type { AuditActorSpec, AuditEventSpec } from '../audit-story/demo-records.js';

export interface ChangeFeedDemoBuilder {
  readonly now: Date;
  guid(): string;
  readonly groups: Readonly<Record<DemoGroup, string>>;
  add: DemoTenantBuilder['add'];
  records: DemoTenantBuilder['records'];
}

const DANA: AuditActorSpec = { user: 'dana.lopez@contoso-demo.example' };
const LEE: AuditActorSpec = { user: 'lee.gu@contoso-demo.example' };
const MEGAN: AuditActorSpec = { user: 'megan.bowen@contoso-demo.example' };
const ALEX: AuditActorSpec = { user: 'alex.wilber@contoso-demo.example' };
const COMPLIANCE_SYNC: AuditActorSpec = { app: 'Contoso Compliance Sync', appId: '3d2b6f9e-8a41-4c07-b5e2-71f0c9d8a3b6' };

/** The demo's changes as the feed lists them, newest first: what its tests and the tab's demo read. */
export const DEMO_CHANGES = [
  { object: 'Firewall - Datacenter', action: 'changed', by: DANA, hoursAgo: 3 },
  { object: 'Windows - Wi-Fi (Corp)', action: 'changed', by: LEE, hoursAgo: 9 },
  { object: '7-Zip', action: 'assignments-changed', by: MEGAN, hoursAgo: 20 },
  { object: 'Windows - Device restrictions', action: 'changed', by: MEGAN, hoursAgo: 26 },
  { object: 'Windows - Compliance', action: 'changed', by: COMPLIANCE_SYNC, hoursAgo: 30 },
  { object: 'Contoso CAD', action: 'assignment-removed', by: ALEX, hoursAgo: 44 },
  { object: 'Set time zone', action: 'changed', by: LEE, hoursAgo: 52 },
  { object: 'Restart stopped services', action: 'changed', by: DANA, hoursAgo: 70 },
  { object: 'Windows baseline (2019)', action: 'changed', by: ALEX, hoursAgo: 80 },
  { object: 'Lab devices', action: 'changed', by: MEGAN, hoursAgo: 96 },
  { object: 'Mac onboarding script', action: 'created', by: LEE, hoursAgo: 110 },
  { object: 'Windows - Legacy Wi-Fi (retired)', action: 'deleted', by: ALEX, hoursAgo: 130 },
  { object: 'Defender - cloud protection on (Engineering)', action: 'created', by: DANA, hoursAgo: 150 },
] as const;

export function plantChangeFeedDemo(tenant: ChangeFeedDemoBuilder): void {
  const at = (hours: number) => new Date(tenant.now.getTime() - hours * 3_600_000).toISOString();
  const object = (collection: string, name: string, resourceType: string) => {
    const found = tenant.records(collection).find((record) => (record.displayName ?? record.name) === name);
    if (!found) throw new Error(`the demo has no ${collection} record "${name}"`);
    return { resourceId: found.id, resourceName: name, resourceType };
  };
  const plant = (spec: AuditEventSpec) => plantAuditEvent(tenant, spec);
  const filter = object('assignmentFilters', 'Lab devices', 'DeviceAndAppManagementAssignmentFilter');
  const corporateWindows = object('assignmentFilters', 'Corporate Windows', 'DeviceAndAppManagementAssignmentFilter');

  // A settings catalog setting switched off: the option ids are named by report 3's settings.
  plant({
    ...object('configurationPolicies', 'Firewall - Datacenter', 'DeviceManagementConfigurationPolicy'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(3),
    actor: DANA,
    result: 'Success',
    properties: [
      { name: 'DeviceManagementAPIVersion', oldValue: '', newValue: '5023-05-01' },
      {
        name: 'Settings[0].SettingInstance.ChoiceSettingValue.Value',
        oldValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_true',
        newValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false',
      },
    ],
  });
  // A failed attempt just before: it changed nothing and is not listed.
  plant({
    ...object('configurationPolicies', 'Firewall - Datacenter', 'DeviceManagementConfigurationPolicy'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(4),
    actor: MEGAN,
    result: 'Failure',
  });
  // A key the log does not show.
  plant({
    ...object('deviceConfigurations', 'Windows - Wi-Fi (Corp)', 'DeviceConfiguration'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(9),
    actor: LEE,
    result: 'Success',
    properties: [{ name: 'PreSharedKey', oldValue: '********', newValue: '********' }],
  });
  // An app made required for All Staff, Corporate Windows devices only.
  plant({
    ...object('mobileApps', '7-Zip', 'MobileApp'),
    operation: 'Action',
    verb: 'Assign',
    at: at(20),
    actor: MEGAN,
    result: 'Success',
    properties: [
      { name: 'Assignments[0].Intent', oldValue: '', newValue: 'required' },
      { name: 'Assignments[0].Target.GroupId', oldValue: '', newValue: tenant.groups.allStaff },
      { name: 'Assignments[0].Target.DeviceAndAppManagementAssignmentFilterId', oldValue: '', newValue: corporateWindows.resourceId },
      { name: 'Assignments[0].Target.DeviceAndAppManagementAssignmentFilterType', oldValue: '', newValue: 'include' },
    ],
  });
  plant({
    ...object('deviceConfigurations', 'Windows - Device restrictions', 'DeviceConfiguration'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(26),
    actor: MEGAN,
    result: 'Success',
    properties: [
      { name: 'PasswordMinimumLength', oldValue: '8', newValue: '12' },
      { name: 'PasswordRequired', oldValue: 'false', newValue: 'true' },
    ],
  });
  plant({
    ...object('deviceCompliancePolicies', 'Windows - Compliance', 'DeviceCompliancePolicy'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(30),
    actor: COMPLIANCE_SYNC,
    result: 'Success',
    properties: [{ name: 'OsMinimumVersion', oldValue: '10.0.19045', newValue: '10.0.22631' }],
  });
  // An assignment logged as a resource of its own.
  plant({
    ...object('mobileApps', 'Contoso CAD', 'MobileAppAssignment'),
    operation: 'Delete',
    verb: 'Delete',
    at: at(44),
    actor: ALEX,
    result: 'Success',
    properties: [{ name: 'Target.GroupId', oldValue: tenant.groups.allStaff, newValue: '' }],
  });
  // A script's content is logged whole: longer than the feed keeps, so it is said to be cut short.
  plant({
    ...object('deviceManagementScripts', 'Set time zone', 'DeviceManagementScript'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(52),
    actor: LEE,
    result: 'Success',
    properties: [{ name: 'ScriptContent', oldValue: `U2V0LVRpbWVab25lIC1JZCAiVVRDIg==${'A'.repeat(240)}`, newValue: `U2V0LVRpbWVab25lIC1JZCAiVy4gRXVyb3BlIg==${'B'.repeat(240)}` }],
  });
  plant({
    ...object('deviceHealthScripts', 'Restart stopped services', 'DeviceHealthScript'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(70),
    actor: DANA,
    result: 'Success',
    properties: [{ name: 'RunSchedule.Interval', oldValue: '1', newValue: '4' }],
  });
  plant({
    ...object('intents', 'Windows baseline (2019)', 'DeviceManagementIntent'),
    operation: 'Patch',
    verb: 'Patch',
    at: at(80),
    actor: ALEX,
    result: 'Success',
    properties: [{ name: 'Description', oldValue: '', newValue: 'Kept for the old kiosks until March' }],
  });
  plant({
    ...filter,
    operation: 'Patch',
    verb: 'Patch',
    at: at(96),
    actor: MEGAN,
    result: 'Success',
    properties: [{ name: 'Rule', oldValue: '(device.deviceName -startsWith "LAB")', newValue: '(device.deviceName -startsWith "LAB") or (device.deviceName -startsWith "TEST")' }],
  });
  plant({ ...object('deviceShellScripts', 'Mac onboarding script', 'DeviceShellScript'), operation: 'Create', verb: 'Create', at: at(110), actor: LEE, result: 'Success' });
  // A profile deleted: it is no longer in the tenant, only in the log.
  plant({
    resourceId: tenant.guid(),
    resourceName: 'Windows - Legacy Wi-Fi (retired)',
    resourceType: 'DeviceConfiguration',
    operation: 'Delete',
    verb: 'Delete',
    at: at(130),
    actor: ALEX,
    result: 'Success',
  });
  plant({
    ...object('configurationPolicies', 'Defender - cloud protection on (Engineering)', 'DeviceManagementConfigurationPolicy'),
    operation: 'Create',
    verb: 'Create',
    at: at(150),
    actor: DANA,
    result: 'Success',
  });
  // Not device configuration: counted, not listed.
  plant({
    resourceId: tenant.guid(),
    resourceName: 'DESKTOP-LOBBY-07',
    resourceType: 'ManagedDevice',
    operation: 'Action',
    verb: 'Wipe',
    at: at(60),
    actor: ALEX,
    result: 'Success',
  });
}
