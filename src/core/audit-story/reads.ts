import type { UpstreamRead } from '../graph/upstream-read.js';

/**
 * List auditEvents (learn.microsoft.com/graph/api/intune-auditing-auditevent-list): on `/v1.0` as on
 * `/beta`, read with DeviceManagementApps.Read.All, a permission the product already asks for report
 * 2. Optional: a log that cannot be read leaves the findings without their stories, never a load error.
 */
export const AUDIT_EVENTS_READ = {
  path: '/v1.0/deviceManagement/auditEvents',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-auditing-auditevent-list',
  permissions: ['DeviceManagementApps.Read.All'],
  optional: true,
  why: 'Who last changed a finding\'s object, and when (docs/finding-rules.md, "A finding\'s last change").',
} as const satisfies UpstreamRead;
