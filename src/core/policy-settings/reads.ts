/** The Graph read of one settings catalog policy's settings, declared once for every report that reads them (report 3's reads.ts lists it). */

import type { UpstreamRead } from '../graph/upstream-read.js';

/** One policy's settings (intune-deviceconfigv2-devicemanagementconfigurationsetting-list?view=graph-rest-beta), through `POST /beta/$batch`. */
export const POLICY_SETTINGS_READ = {
  path: '/beta/deviceManagement/configurationPolicies/{id}/settings',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationsetting-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'What a policy sets: its ASR rules and firewall profiles. A policy whose settings are not read is not judged on them.',
} as const satisfies UpstreamRead;
