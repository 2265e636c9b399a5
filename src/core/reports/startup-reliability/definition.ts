/** Report 6 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { INITIALIZING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { DEVICE_PERFORMANCE_READ, STARTUP_READS } from './reads.js';
import { SECTION_APPS, SECTION_DEVICES, SECTION_MODELS, deriveStartupReliability } from './derive.js';
import { STARTUP_FINDING_KINDS } from './finding-kinds.js';
import type { StartupFindingKind } from './finding-kinds.js';
import { loadStartup } from './load.js';
import type { StartupRecords } from './load.js';
import { startupReliabilityDemo } from './demo.js';

export const startupReliabilityReport: ReportDefinition<StartupRecords, StartupFindingKind> = {
  id: 'startup-reliability',
  title: 'Startup Performance & App Reliability',
  summary:
    'Devices with blue screens first, then those slow from power-on to a usable desktop, each slowest first; the applications that crash or hang most, the unreliable first; and a breakdown by device model, slowest first.',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  prerequisites: ['An Intune licence for the tenant.', 'Endpoint analytics enabled for the tenant. Its figures refresh about once a day.'],
  beta: false,
  navigationLabel: 'Startup & app reliability',
  botNames: ['startup', 'startup performance', 'app reliability', 'reliability', 'startup reliability', 'startup and app reliability', 'startup performance and app reliability'],
  botTopics: [
    'start up',
    'boot',
    'boots',
    'boot time',
    'slow',
    'slowest',
    'crash',
    'crashes',
    'crashing',
    'blue screen',
    'blue screens',
    'bsod',
    'performance',
    'hang',
    'hangs',
    'freezes',
    'apps crash',
  ],
  botDescription: 'Slow startups, blue screens and unreliable apps',
  tables: { [SECTION_DEVICES]: 'Devices', [SECTION_APPS]: 'Applications', [SECTION_MODELS]: 'Device models' },
  rowSubjects: { [SECTION_DEVICES]: 'device' },
  // The specification names no placeholder of its own for report 6's fetch: its status line stays.
  pending: { starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT },
  charts: [
    {
      id: 'slowest-models',
      title: 'Slowest models: mean power-on to desktop',
      section: SECTION_MODELS,
      labelKey: 'modelName',
      valueKey: 'meanTimeToDesktopSeconds',
      unit: 'seconds',
      tone: 'warning',
      threshold: { key: 'slowStartupSeconds', label: 'Slow: {value} s' },
    },
    { id: 'crashing-apps', title: 'Applications that crash most', section: SECTION_APPS, labelKey: 'app', valueKey: 'crashes', unit: 'crashes', tone: 'danger' },
  ],
  findingKinds: STARTUP_FINDING_KINDS,
  optionalSources: [],
  /**
   * Tenant-wide, opened by Endpoint Analytics/Read: the report reads only endpoint analytics, and
   * "Endpoint Analytics/Read" is to "View endpoint analytics scores and performance reports"
   * (learn.microsoft.com/intune/intune-service/fundamentals/create-custom-role, "Custom role
   * permissions"); Read Only Operator, Help Desk Operator and School Administrator hold it among the
   * built-in roles (learn.microsoft.com/intune/intune-service/fundamentals/role-based-access-control-reference).
   * In a role definition it is the resource action `Microsoft.Intune_EndpointAnalytics_Read`, the
   * `Microsoft.Intune_<category>_<permission>` form of Microsoft's Graph samples that create an
   * Intune role (`POST /beta/deviceManagement/roleDefinitions`) and of Microsoft365DSC's
   * IntuneRoleDefinition (`allowedResourceActions`).
   */
  seenBy: { kind: 'tenantWide', area: 'endpointAnalytics' },
  demo: startupReliabilityDemo,
  reads: STARTUP_READS,
  faultSource: DEVICE_PERFORMANCE_READ.path,
  load: loadStartup,
  derive: deriveStartupReliability,
};
