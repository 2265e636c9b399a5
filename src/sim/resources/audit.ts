import { APPS_PERMISSIONS, BOTH } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/**
 * Intune's audit log (intune-auditing-auditevent-list, ?view=graph-rest-1.0 and
 * ?view=graph-rest-beta): on both segments, read with DeviceManagementApps.* only (not the
 * configuration permissions, though it logs configuration changes), up to one year of events
 * (learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs). The List page
 * promises no order, so events are served as they were written into the tenant, not by time;
 * the one `$filter` answered is a range on `activityDateTime`, as the admin center's audit view
 * asks it. Graph documents no page size: 50 keeps a demo's log on more than one page. Throttled
 * under Intune's auditing service limits, a table of its own (learn.microsoft.com/graph/throttling-limits,
 * "Intune auditing service limits": 1,000 requests per 20 s per app per tenant, for `auditEvent`).
 */
export const AUDIT_EVENTS = {
  kind: 'collection',
  path: '/deviceManagement/auditEvents',
  source: 'auditEvents',
  versions: BOTH,
  permissions: APPS_PERMISSIONS,
  workload: 'intune-auditing',
  entitySet: 'deviceManagement/auditEvents',
  navigation: [],
  defaultPageSize: 50,
  rangeFilterable: ['activityDateTime'],
} as const satisfies SimResource;
