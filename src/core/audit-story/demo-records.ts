import type * as Graph from '@microsoft/microsoft-graph-types';
import type { DemoRecord, DemoTenantBuilder } from '../reports/report-demo.js';
import { asDemoRecord } from '../reports/demo-records.js';

/**
 * Intune audit events as the demo tenant serves them, shaped as the auditEvent resource documents
 * them (learn.microsoft.com/graph/api/resources/intune-auditing-auditevent) and as the log writes
 * a change made in the admin center: the activity `<verb> <resource type>`, the HTTP operation, the
 * result `Success` or `Failure`, the user with the portal's app beside them
 * (learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs: "if you run the
 * activity in Intune in the Azure portal, then Application always lists Microsoft Intune portal
 * extension"), or an app alone.
 */

/** The admin center's app, as the log names it beside the user who made a change there. */
export const PORTAL_APP = { applicationDisplayName: 'Microsoft Intune portal extension', applicationId: '5926fc8e-304e-4f59-8bed-58ca97cc39a4' } as const;

export type AuditActorSpec = { user: string } | { app: string; appId: string };

export interface AuditEventSpec {
  /** The object changed. */
  resourceId: string;
  resourceName: string;
  /** The resource type the log names (`DeviceManagementConfigurationPolicy`, `DeviceManagementIntent`). */
  resourceType: string;
  operation: 'Create' | 'Patch' | 'Delete' | 'Action';
  /** The activity's verb as the log words it (`Create`, `Patch`, `Assign`). */
  verb: string;
  at: string;
  actor: AuditActorSpec;
  result: 'Success' | 'Failure';
  properties?: Array<{ name: string; oldValue: string; newValue: string }>;
}

function actor(spec: AuditActorSpec): Graph.AuditActor {
  if ('user' in spec) {
    return { auditActorType: 'ItPro', userPrincipalName: spec.user, userPermissions: ['*'], ...PORTAL_APP, servicePrincipalName: null, ipAddress: '203.0.113.24' };
  }
  return {
    auditActorType: 'Application',
    userPrincipalName: null,
    userPermissions: [],
    applicationDisplayName: spec.app,
    applicationId: spec.appId,
    servicePrincipalName: spec.appId,
  };
}

export function auditEvent(id: string, correlationId: string, spec: AuditEventSpec): DemoRecord {
  const activity = `${spec.verb} ${spec.resourceType}`;
  return asDemoRecord({
    id,
    displayName: activity,
    componentName: 'DeviceConfiguration',
    category: 'DeviceConfiguration',
    activity,
    activityType: activity,
    activityOperationType: spec.operation,
    activityResult: spec.result,
    activityDateTime: spec.at,
    correlationId,
    actor: actor(spec.actor),
    resources: [
      {
        resourceId: spec.resourceId,
        displayName: spec.resourceName,
        auditResourceType: spec.resourceType,
        modifiedProperties: (spec.properties ?? []).map(({ name, oldValue, newValue }) => ({ displayName: name, oldValue, newValue })),
      },
    ],
  } satisfies Graph.AuditEvent & { id: string });
}

/** Adds one audit event to the demo tenant's log, its ids drawn from the tenant's sequence. */
export function plantAuditEvent(tenant: Pick<DemoTenantBuilder, 'guid' | 'add'>, spec: AuditEventSpec): void {
  tenant.add('auditEvents', auditEvent(tenant.guid(), tenant.guid(), spec));
}
