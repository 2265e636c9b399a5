/**
 * Report 7's own Graph read. Its policies and their settings are report 3's reads, and its targets
 * report 2's (definition.ts lists them with this one); this is what devices already reported.
 */

import type { UpstreamRead } from '../../graph/upstream-read.js';

/**
 * The conflicts devices reported between device configuration profiles
 * (intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta: beta only,
 * DeviceManagementConfiguration.Read.All). Optional: its failure leaves that part unchecked, never
 * the report unloaded.
 */
export const CONFLICT_SUMMARY_READ = {
  path: '/beta/deviceManagement/deviceConfigurationConflictSummary',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'The conflicts between device configuration profiles that devices have reported to Intune.',
} as const satisfies UpstreamRead;

export const SETTING_CONFLICT_READS: readonly UpstreamRead[] = [CONFLICT_SUMMARY_READ];
