import type { ReportId } from '../../core/reports/report-model.js';
import type { DemoAdministrator } from '../../core/viewer-scope/demo.js';
import { SIM_RESOURCES } from '../resources/index.js';
import type { SimResourceEntry } from '../resources/resource-model.js';

/** A Graph record as the simulator stores it: the entity's JSON, navigation properties inline. */
export type GraphRecord = { id: string } & Record<string, unknown>;

/** The lists the simulator serves (src/sim/resources/), each a collection of records in a tenant. */
type CollectionResource = Extract<(typeof SIM_RESOURCES)[number], { kind: 'collection' }>;
export type CollectionName = CollectionResource['source'];

/** Every collection a tenant holds, in the order the resources are listed (the large tenant's pinned hash reads them in it). */
export const COLLECTION_NAMES: readonly CollectionName[] = SIM_RESOURCES.flatMap((resource) => (resource.kind === 'collection' ? [resource.source] : []));

export type SingletonName = Extract<(typeof SIM_RESOURCES)[number], { kind: 'singleton' }>['source'];

/** Every singleton the simulator serves. */
export const SINGLETON_NAMES: readonly SingletonName[] = SIM_RESOURCES.flatMap((resource) => (resource.kind === 'singleton' ? [resource.source] : []));

/**
 * A collection too large to hold as records (the large tenant's devices and what hangs off them):
 * its length, and its record at an index made when asked for, the same record every time. The
 * simulator serves it exactly as it serves a stored list; only the memory differs (a few bytes a
 * record instead of about a kilobyte).
 */
export interface GeneratedRecords {
  readonly length: number;
  at(index: number): GraphRecord;
  /**
   * The positions of the records whose `property` equals `value`, found without making every record,
   * or undefined where the list keeps no such index. The same records a scan would find: it only
   * spares the simulator a scan of 500,000 generated records for `$filter=deviceName eq '…'`.
   */
  indexOf?(property: string, value: string): number[] | undefined;
  /**
   * Properties the list is in ascending order of (a generated audit log, by `activityDateTime`): a
   * date range's scan starts at the first record in it, found by halving, rather than make every
   * record before it. The same records a scan from the start would keep.
   */
  sortedBy?: readonly string[];
}

/** What the simulator reads a collection from: the stored records, or the generated ones. */
export type RecordList = readonly GraphRecord[] | GeneratedRecords;

/**
 * A group in the directory's deleted items (`GET /directory/deletedItems/{id}`): deleted, still
 * restorable for 30 days (learn.microsoft.com/graph/api/resources/directory), and no longer served
 * by `GET /groups/{id}` (404).
 */
export interface SimDeletedGroup {
  id: string;
  displayName: string;
  deletedDateTime: string;
  kind?: SimGroup['kind'];
}

export interface SimGroup {
  id: string;
  displayName: string;
  /** Member object ids with their kind, as `$expand=members` returns them. */
  members: Array<{ id: string; type: 'user' | 'device' | 'group' }>;
  /** `HiddenMembership`: members are shown only to an app holding Member.Read.Hidden. */
  visibility?: 'HiddenMembership' | 'Private' | 'Public';
  /** A dynamic group (`groupTypes` DynamicMembership): its members follow a rule, and may come. */
  dynamic?: boolean;
  /** What kind of group it is (learn.microsoft.com/graph/api/resources/groups-overview); a security group unless said. */
  kind?: 'security' | 'microsoft365' | 'mailEnabledSecurity' | 'distribution';
  /** `GET /groups/{id}/members` answers this status: a group whose members the app cannot read. */
  membersFault?: 403 | 500;
}

/** A user the directory knows beyond the group members and managed devices that name them (the large tenant's primary users). */
export interface SimUser {
  id: string;
  userPrincipalName?: string;
}

/**
 * An Entra device object (learn.microsoft.com/graph/api/resources/device): its object `id`, which
 * group member lists name, and its `deviceId`, which a managed device carries as `azureADDeviceId`.
 */
export interface SimEntraDevice {
  id: string;
  deviceId: string;
  displayName: string;
}

export type { ReportId } from '../../core/reports/report-model.js';

/**
 * A finding the scenario was built to contain: what the reports must find on this tenant, no
 * more and no less. Tests compare the reports' findings with this list.
 */
export interface DeclaredFinding {
  report: ReportId;
  kind: string;
  subjectId: string;
  /**
   * Found only when the report reads that way: `beta` for an object that `/v1.0` leaves out (or a
   * device whose join type only `/beta` shows), `v1.0` for what is found only without it.
   */
  coverage?: 'v1.0' | 'beta';
}

export interface SimTenant {
  tenantId: string;
  /** Shown wherever the app names the tenant, e.g. "Contoso (demo)". */
  displayName: string;
  /** The verified domain, accepted in place of the tenant id in authority URLs. */
  domain: string;
  collections: SimCollections;
  /** Collections made on demand, served in place of `collections` of the same name (which stay empty). */
  generated?: Partial<Record<CollectionName, GeneratedRecords>>;
  /** An absent singleton answers 404, as Graph does for a tenant that never configured it. */
  singletons: SimSingletons;
  /** Keyed by lower-case id. */
  groups: Map<string, SimGroup>;
  /** Users besides those group members and stored managed devices name, keyed by lower-case id. */
  users?: Map<string, SimUser>;
  /** Entra device objects, keyed by lower-case `deviceId`; none when absent. */
  entraDevices?: Map<string, SimEntraDevice>;
  /** Soft-deleted groups, keyed by lower-case id; none when absent. */
  deletedGroups?: Map<string, SimDeletedGroup>;
  /** Application permissions the scenario's app registration is granted (the token's `roles`). */
  grantedRoles: string[];
  declaredFindings: DeclaredFinding[];
  /**
   * The demo tenant's administrators by Intune role (src/core/viewer-scope/demo.ts): the object ids
   * the demo sign-in uses for a central and a regional administrator. Absent in other tenants.
   */
  demoAdministrators?: Readonly<Record<DemoAdministrator, string>>;
  /**
   * Resources the simulator serves besides its own (src/sim/resources/index.ts): a report that
   * exists only in a test brings its Graph resource this way, its records in `collections` (or
   * `singletons`) under the resource's `source`.
   */
  resources?: readonly SimResourceEntry[];
}

/** A tenant's collections: one per list the simulator serves, and any its own `resources` read. */
export type SimCollections = Record<CollectionName, GraphRecord[]> & { [source: string]: GraphRecord[] | undefined };

/** A tenant's singletons, by name; an absent one answers 404. */
export type SimSingletons = Partial<Record<SingletonName, GraphRecord>> & { [source: string]: GraphRecord | undefined };

const NO_RECORDS: readonly GraphRecord[] = [];

export function emptyCollections(): SimCollections {
  return Object.fromEntries(COLLECTION_NAMES.map((name) => [name, []])) as unknown as SimCollections;
}

/** A collection's records as the simulator serves them: generated where the tenant generates them. */
export function recordsOf(tenant: Pick<SimTenant, 'collections' | 'generated'>, name: string): RecordList {
  return tenant.generated?.[name as CollectionName] ?? tenant.collections[name] ?? NO_RECORDS;
}

/** The findings a tenant plants for a client that reads the spec's `/v1.0` paths, or their beta twins. */
export function declaredFindingsFor(tenant: Pick<SimTenant, 'declaredFindings'>, options: { betaCoverage?: boolean } = {}): DeclaredFinding[] {
  const coverage = options.betaCoverage ? 'beta' : 'v1.0';
  return tenant.declaredFindings.filter((finding) => finding.coverage === undefined || finding.coverage === coverage);
}

/** How many users the tenant's directory holds: the group members that are users, and the users known besides. */
export function tenantUserCount(tenant: Pick<SimTenant, 'groups' | 'users'>): number {
  const users = new Set<string>(tenant.users?.keys() ?? []);
  for (const group of tenant.groups.values()) for (const member of group.members) if (member.type === 'user') users.add(member.id.toLowerCase());
  return users.size;
}
