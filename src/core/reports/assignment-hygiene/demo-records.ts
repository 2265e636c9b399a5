/** Report 2's records in the demo tenant (settings catalog policies: ../demo-records.ts), typed against the Graph type packages. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, assignmentTarget as plainTarget, daysAgo } from '../demo-records.js';
import type { Target as PlainTarget } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

/** A target with its assignment filter: none unless given. */
export type Target = PlainTarget & { filter?: { mode: 'include' | 'exclude'; id: string } };

/**
 * A target as `/beta` returns it: with `deviceAndAppManagementAssignmentFilterId` and `…FilterType`
 * (`none` when no filter is set), declared on every target type in the beta schema
 * (learn.microsoft.com/graph/api/resources/intune-shared-groupassignmenttarget?view=graph-rest-beta).
 * `/v1.0` leaves both out (src/sim/v1-schema.ts).
 */
function assignmentTarget(target: Target): Graph.DeviceAndAppManagementAssignmentTarget {
  const filter: Pick<Beta.DeviceAndAppManagementAssignmentTarget, 'deviceAndAppManagementAssignmentFilterId' | 'deviceAndAppManagementAssignmentFilterType'> = {
    deviceAndAppManagementAssignmentFilterId: target.filter?.id ?? null,
    deviceAndAppManagementAssignmentFilterType: target.filter?.mode ?? 'none',
  };
  return { ...plainTarget(target), ...filter } as Graph.DeviceAndAppManagementAssignmentTarget;
}

function assignments(ownerId: string, targets: readonly Target[]): Array<{ id: string; target: Graph.DeviceAndAppManagementAssignmentTarget }> {
  return targets.map((target, index) => ({ id: `${ownerId}_${index}`, target: assignmentTarget(target) }));
}

export function deviceConfiguration(value: { id: string; displayName: string; odataType?: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    '@odata.type': value.odataType ?? '#microsoft.graph.windows10GeneralConfiguration',
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 300),
    lastModifiedDateTime: daysAgo(value.now, 20),
    version: 3,
    // Beta only (v1-schema.ts): Intune adds Default to every object that supports scope tags.
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceConfiguration & Pick<Beta.DeviceConfiguration, 'roleScopeTagIds'> & { '@odata.type': string });
}

export function deviceCompliancePolicy(value: { id: string; displayName: string; odataType?: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    '@odata.type': value.odataType ?? '#microsoft.graph.windows10CompliancePolicy',
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 300),
    lastModifiedDateTime: daysAgo(value.now, 40),
    version: 2,
    // Beta only (v1-schema.ts): Intune adds Default to every object that supports scope tags.
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceCompliancePolicy & Pick<Beta.DeviceCompliancePolicy, 'roleScopeTagIds'> & { '@odata.type': string });
}

export function mobileApp(value: {
  id: string;
  displayName: string;
  publisher: string;
  odataType?: string;
  /** Managed (app protection) apps only: `global` for Microsoft's catalogue apps, in every tenant. */
  appAvailability?: Graph.ManagedAppAvailability;
  targets: ReadonlyArray<Target & { intent?: Graph.InstallIntent }>;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': value.odataType ?? '#microsoft.graph.win32LobApp',
    ...(value.appAvailability ? { appAvailability: value.appAvailability } : {}),
    id: value.id,
    displayName: value.displayName,
    publisher: value.publisher,
    description: '',
    createdDateTime: daysAgo(value.now, 200),
    lastModifiedDateTime: daysAgo(value.now, 10),
    isFeatured: false,
    publishingState: 'published',
    // Beta only (v1-schema.ts): Intune adds Default to every object that supports scope tags.
    roleScopeTagIds: ['0'],
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      intent: target.intent ?? 'required',
      target: assignmentTarget(target),
      settings: null,
    })),
  } satisfies Graph.MobileApp & Pick<Beta.MobileApp, 'roleScopeTagIds'> & { '@odata.type': string });
}

export function deviceManagementScript(value: { id: string; displayName: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    fileName: `${value.displayName.replace(/\W+/g, '-').toLowerCase()}.ps1`,
    runAsAccount: 'system',
    enforceSignatureCheck: false,
    runAs32Bit: false,
    createdDateTime: daysAgo(value.now, 150),
    lastModifiedDateTime: daysAgo(value.now, 15),
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets),
  } satisfies Beta.DeviceManagementScript);
}

export function deviceHealthScript(value: { id: string; displayName: string; targets: readonly Target[]; now: Date; isGlobalScript?: boolean }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    publisher: value.isGlobalScript ? 'Microsoft' : 'Contoso IT',
    version: '1.0',
    description: '',
    runAsAccount: 'system',
    enforceSignatureCheck: false,
    runAs32Bit: false,
    isGlobalScript: value.isGlobalScript ?? false,
    deviceHealthScriptType: 'deviceHealthScript',
    createdDateTime: daysAgo(value.now, 90),
    lastModifiedDateTime: daysAgo(value.now, 9),
    roleScopeTagIds: ['0'],
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      target: assignmentTarget(target) as Beta.DeviceAndAppManagementAssignmentTarget,
      runRemediationScript: true,
      runSchedule: {
        '@odata.type': '#microsoft.graph.deviceHealthScriptDailySchedule',
        interval: 1,
        useUtc: false,
        time: '09:00:00.0000000',
      } as Beta.DeviceHealthScriptRunSchedule,
    })),
  } satisfies Beta.DeviceHealthScript);
}

/** An assignment filter (intune-policyset-deviceandappmanagementassignmentfilter, beta). */
export function assignmentFilter(value: {
  id: string;
  displayName: string;
  platform: Beta.DevicePlatformType;
  rule: string;
  managementType?: Beta.AssignmentFilterManagementType;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    platform: value.platform,
    rule: value.rule,
    assignmentFilterManagementType: value.managementType ?? 'devices',
    createdDateTime: daysAgo(value.now, 180),
    lastModifiedDateTime: daysAgo(value.now, 30),
    roleScopeTags: ['0'],
    payloads: [],
  } satisfies Beta.DeviceAndAppManagementAssignmentFilter);
}

type RelatedApp = { id: string; displayName: string };

/**
 * A Win32 app relationship as `GET /beta/deviceAppManagement/mobileAppRelationships` lists it
 * (intune-apps-mobileappdependency and intune-apps-mobileappsupersedence, beta): the id is
 * `<id>_<id>`; with `targetType` `child` the source is the parent (the app that depends, or the
 * superseding app), with `parent` the target is.
 */
export function appRelationship(
  value:
    | { kind: 'dependency'; parent: RelatedApp; child: RelatedApp; dependencyType: Beta.MobileAppDependencyType; targetType?: Beta.MobileAppRelationshipType }
    | { kind: 'supersedence'; parent: RelatedApp; child: RelatedApp; supersedenceType: Beta.MobileAppSupersedenceType; targetType?: Beta.MobileAppRelationshipType },
): DemoRecord {
  const targetType = value.targetType ?? 'child';
  const [source, target] = targetType === 'parent' ? [value.child, value.parent] : [value.parent, value.child];
  const base = {
    id: `${source.id}_${target.id}`,
    sourceId: source.id,
    sourceDisplayName: source.displayName,
    sourceDisplayVersion: '1.0',
    sourcePublisherDisplayName: 'Contoso',
    targetId: target.id,
    targetDisplayName: target.displayName,
    targetDisplayVersion: '1.0',
    targetPublisher: 'Contoso',
    targetPublisherDisplayName: 'Contoso',
    targetType,
  };
  if (value.kind === 'dependency')
    return asDemoRecord({
      '@odata.type': '#microsoft.graph.mobileAppDependency',
      ...base,
      dependencyType: value.dependencyType,
    } satisfies Beta.MobileAppDependency & { '@odata.type': string });
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.mobileAppSupersedence',
    ...base,
    supersedenceType: value.supersedenceType,
  } satisfies Beta.MobileAppSupersedence & { '@odata.type': string });
}

/**
 * An Administrative Template (groupPolicyConfiguration, beta only;
 * learn.microsoft.com/graph/api/resources/intune-grouppolicy-grouppolicyconfiguration?view=graph-rest-beta):
 * its settings (`definitionValues`) are not read here.
 */
export function groupPolicyConfiguration(value: { id: string; displayName: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 120),
    lastModifiedDateTime: daysAgo(value.now, 12),
    policyConfigurationIngestionType: 'builtIn',
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets) as Beta.GroupPolicyConfigurationAssignment[],
  } satisfies Beta.GroupPolicyConfiguration);
}

/** A macOS shell script (deviceShellScript, beta only; learn.microsoft.com/graph/api/resources/intune-devices-deviceshellscript?view=graph-rest-beta). */
export function deviceShellScript(value: { id: string; displayName: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    fileName: `${value.displayName.replace(/\W+/g, '-').toLowerCase()}.sh`,
    runAsAccount: 'system',
    retryCount: 3,
    blockExecutionNotifications: true,
    createdDateTime: daysAgo(value.now, 100),
    lastModifiedDateTime: daysAgo(value.now, 8),
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets) as Beta.DeviceManagementScriptAssignment[],
  } satisfies Beta.DeviceShellScript);
}

/**
 * A Windows feature update profile (windowsFeatureUpdateProfile, beta only;
 * learn.microsoft.com/graph/api/resources/intune-softwareupdate-windowsfeatureupdateprofile?view=graph-rest-beta).
 */
export function windowsFeatureUpdateProfile(value: { id: string; displayName: string; featureUpdateVersion: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    featureUpdateVersion: value.featureUpdateVersion,
    installFeatureUpdatesOptional: false,
    createdDateTime: daysAgo(value.now, 60),
    lastModifiedDateTime: daysAgo(value.now, 6),
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets) as Beta.WindowsFeatureUpdateProfileAssignment[],
  } satisfies Beta.WindowsFeatureUpdateProfile);
}

/**
 * A settings catalog compliance policy (deviceManagementCompliancePolicy, beta only;
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementcompliancepolicy?view=graph-rest-beta):
 * `platforms` says which platform it is for.
 */
export function deviceManagementCompliancePolicy(value: {
  id: string;
  name: string;
  platforms: Beta.DeviceManagementConfigurationPlatforms;
  targets: readonly Target[];
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    name: value.name,
    description: '',
    platforms: value.platforms,
    technologies: 'linuxMdm' as Beta.DeviceManagementConfigurationTechnologies,
    createdDateTime: daysAgo(value.now, 45),
    lastModifiedDateTime: daysAgo(value.now, 4),
    settingCount: 0,
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets) as Beta.DeviceManagementConfigurationPolicyAssignment[],
  } satisfies Beta.DeviceManagementCompliancePolicy);
}

/**
 * An intent's assignments (deviceManagementIntentAssignment, beta only;
 * learn.microsoft.com/graph/api/resources/intune-deviceintent-devicemanagementintentassignment?view=graph-rest-beta),
 * as `$expand=assignments` gives them on an intent.
 */
export function intentAssignments(intentId: string, targets: readonly Target[]): Beta.DeviceManagementIntentAssignment[] {
  return assignments(intentId, targets) as Beta.DeviceManagementIntentAssignment[];
}
