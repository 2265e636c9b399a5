import type { DeclaredProperties } from '../declared-properties.js';

/**
 * What the simulator knows of one Graph resource it serves: its path, versions, permissions, page
 * sizes and the strictness Graph shows on it. Each area's resources are in a file of their own in
 * this folder, listed once in `index.ts` (CONTRIBUTING.md, "Adding a simulator behaviour").
 */

/**
 * Throttling scopes, after Microsoft's published limits (learn.microsoft.com/graph/throttling-limits):
 * Intune "device configuration" and "applications" 1,000 requests per 20 s per app per tenant,
 * Intune "devices" 2,000 per 20 s, Intune "auditing" (the audit log alone) 1,000 per 20 s, each
 * counted apart; identity (groups) by resource units per 10 s.
 */
export type Workload = 'intune' | 'intune-devices' | 'intune-auditing' | 'directory' | 'identity';

export type VersionSegment = 'v1.0' | 'beta';

/**
 * A list (`kind: 'collection'`) whose records are the tenant's collection named `source`, or a
 * singleton whose record is the tenant's singleton named `source`.
 */
export type SimResource = (ResourceBase & { kind: 'collection' }) | (ResourceBase & { kind: 'singleton' });

/**
 * A navigation collection of one record served as a list of its own, `<parent path>/{id}/<property>`
 * (a settings catalog policy's `/settings`): the records are the parent's `property` array.
 */
export type SimNestedResource = ResourceBase & { kind: 'nested'; property: string };

/** Any resource the simulator serves, as an area's file declares it. */
export type SimResourceEntry = SimResource | SimNestedResource;

interface ResourceBase {
  /** Path after the version segment. */
  path: string;
  /** The tenant's collection (or singleton) the records are read from, by its resource name (`managedDevices`). */
  source: string;
  versions: readonly VersionSegment[];
  /** Any one of these application permissions (compared exactly, as `hasAnyRole` says) grants the read. */
  permissions: readonly string[];
  workload: Workload;
  /** Entity set name for `@odata.context`. */
  entitySet: string;
  /** Navigation properties `$expand` may name; they are never returned unexpanded. */
  navigation: readonly string[];
  defaultPageSize: number;
  /**
   * Pages the service keeps small whatever `$top` asks, per expanded navigation property: Intune
   * sends settings catalog policies one or two a page once their settings are expanded.
   */
  expandedPageSize?: Readonly<Record<string, number>>;
  /** The most records a page holds whatever `$top` asks (the service's own page size). */
  maxPageSize?: number;
  /** The LAPS and BitLocker list pages document `User-Agent` as a required header. */
  requiresUserAgent?: boolean;
  /** "This method does not support the $top query parameter" (bitlocker-list-recoverykeys). */
  rejectsTop?: boolean;
  /**
   * Evolvable enums: per property, the members declared after `unknownFutureValue`. Graph sends them
   * as `unknownFutureValue` unless the request says `Prefer: include-unknown-enum-members`
   * (learn.microsoft.com/graph/best-practices-concept#handling-future-members-in-evolvable-enumerations).
   */
  evolvableEnums?: Readonly<Record<string, readonly string[]>>;
  /** What the `/v1.0` schema lacks and so leaves out of this resource there (see v1-schema.ts). */
  v1Omits?: V1Omissions;
  /**
   * Per expanded navigation property, the most items one record carries; the rest is left behind
   * an `<property>@odata.nextLink` to the record's own list of them (OData JSON format, "Expanded
   * Navigation Property": a partial collection carries a next link).
   */
  expandedItemCap?: Readonly<Record<string, number>>;
  /**
   * Per expanded navigation property, the navigation properties of its items: left out of each item,
   * as an unexpanded navigation property is (OData: a nested `$expand` alone brings them).
   */
  expandedNavigation?: Readonly<Record<string, readonly string[]>>;
  /** Properties `$filter=<property> eq '<value>'` may name; any other `$filter` is a 400. */
  filterable?: readonly string[];
  /**
   * Of `filterable`, those whose `eq` compares without case (`sameFilterString`, src/sim/odata-query.ts,
   * which gives the sources); the others compare exactly.
   */
  filterIgnoresCase?: readonly string[];
  /**
   * Timestamp properties a date range may name: `$filter=<property> ge <DateTimeOffset>`, or `gt`,
   * optionally `and <property> le|lt <DateTimeOffset>` (the audit log's window).
   */
  rangeFilterable?: readonly string[];
  /**
   * The properties of the entity type per version, which `$select` may name (entity-properties.ts).
   * A resource without a declared list takes any `$select` unchecked.
   */
  properties?: DeclaredProperties;
}

export interface V1Omissions {
  /** Records of these types (`@odata.type` without the namespace) are not in the `/v1.0` collection. */
  types?: ReadonlySet<string>;
  /** Properties `/v1.0` does not return. */
  properties?: readonly string[];
  /** Per property, enum members `/v1.0` sends as `unknownFutureValue` whatever the request prefers. */
  enumMembers?: Readonly<Record<string, readonly string[]>>;
  /** Properties `/v1.0` does not return inside a record, by path (`assignments[].target.x`, `[]` for each item of an array). */
  nested?: readonly string[];
}

export const BOTH: readonly VersionSegment[] = ['v1.0', 'beta'];
export const BETA: readonly VersionSegment[] = ['beta'];

/** The Intune permissions several areas' resources take, each with its ReadWrite sibling. */
export const CONFIGURATION_PERMISSIONS = ['DeviceManagementConfiguration.Read.All', 'DeviceManagementConfiguration.ReadWrite.All'];
export const SERVICE_CONFIG_PERMISSIONS = ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementServiceConfig.ReadWrite.All'];
export const MANAGED_DEVICES_PERMISSIONS = ['DeviceManagementManagedDevices.Read.All', 'DeviceManagementManagedDevices.ReadWrite.All'];
export const APPS_PERMISSIONS = ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All'];
export const RBAC_PERMISSIONS = ['DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'];

/**
 * One object's assignments, with the filter fields the beta schema declares on their targets:
 * learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationassignment-list?view=graph-rest-beta and
 * …/intune-deviceconfig-devicecompliancepolicyassignment-list?view=graph-rest-beta (DeviceManagementConfiguration.*),
 * …/intune-apps-mobileappassignment-list?view=graph-rest-beta (DeviceManagementApps.*). Same permissions and
 * workload as the lists; a parent of a type beta does not declare is a 404. Graph documents no page size: the list's.
 */
export function objectAssignments(parent: SimResource & { kind: 'collection' }, properties: DeclaredProperties): SimNestedResource {
  return {
    kind: 'nested',
    path: `${parent.path}/{id}/assignments`,
    source: parent.source,
    property: 'assignments',
    versions: BETA,
    permissions: parent.permissions,
    workload: 'intune',
    entitySet: `${parent.path.slice(1)}('{id}')/assignments`,
    navigation: [],
    defaultPageSize: 100,
    properties,
  };
}
