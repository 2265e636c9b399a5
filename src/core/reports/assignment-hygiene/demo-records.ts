/** Report 2's records in the demo tenant (settings catalog policies: ../demo-records.ts), typed against the Graph type packages. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, assignmentTarget, assignments, daysAgo } from '../demo-records.js';
import type { Target } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

export function deviceConfiguration(value: { id: string; displayName: string; odataType?: string; targets: readonly Target[]; now: Date }): DemoRecord {
  return asDemoRecord({
    '@odata.type': value.odataType ?? '#microsoft.graph.windows10GeneralConfiguration',
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 300),
    lastModifiedDateTime: daysAgo(value.now, 20),
    version: 3,
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceConfiguration & { '@odata.type': string });
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
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceCompliancePolicy & { '@odata.type': string });
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
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      intent: target.intent ?? 'required',
      target: assignmentTarget(target),
      settings: null,
    })),
  } satisfies Graph.MobileApp & { '@odata.type': string });
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
