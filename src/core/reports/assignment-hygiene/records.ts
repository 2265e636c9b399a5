/**
 * Report 2's records: every assignable kind of object with its assignment targets, the groups they
 * name and the tenant's filters, as its load (load.ts) reads them. Report 7 and "what applies" judge
 * the same records, so they import them from here, never report 2's load.
 */

import type { GroupLookup } from '../../directory/group-lookup.js';
import type { OptionalRead } from '../optional-read.js';
import type { AuditLog } from '../../audit-story/audit-story.js';

export type AssignableKind =
  | 'deviceConfiguration'
  | 'compliancePolicy'
  | 'settingsCatalogPolicy'
  | 'mobileApp'
  | 'platformScript'
  | 'remediation'
  | 'administrativeTemplate'
  | 'macOSShellScript'
  | 'featureUpdateProfile'
  | 'qualityUpdateProfile'
  | 'qualityUpdatePolicy'
  | 'driverUpdateProfile'
  | 'settingsCompliancePolicy'
  | 'intent';

/**
 * An assignment's filter (`deviceAndAppManagementAssignmentFilterId` and `…FilterType`, declared on
 * `deviceAndAppManagementAssignmentTarget` in the beta schema only; docs/finding-rules.md, report 2).
 * `none` is no filter whatever the id says; `unrecognised` is a type the schema does not declare.
 */
export type TargetFilter = { mode: 'none' } | { mode: 'include' | 'exclude'; id: string | null } | { mode: 'unrecognised'; value: string };

interface TargetCommon {
  intent: string | null;
  /** Absent when Graph's answer did not carry the filter fields (every `/v1.0` read): unknown, not "no filter". */
  filter?: TargetFilter;
}

/** One assignment target, reduced to what the rules read. */
export type AssignmentTarget =
  | ({ type: 'allUsers' } & TargetCommon)
  | ({ type: 'allDevices' } & TargetCommon)
  | ({ type: 'include'; groupId: string } & TargetCommon)
  | ({ type: 'exclude'; groupId: string } & TargetCommon)
  | ({ type: 'configMgrCollection'; collectionId: string } & TargetCommon)
  | ({ type: 'other'; odataType: string } & TargetCommon);

export interface AssignableObject {
  kind: AssignableKind;
  id: string;
  name: string;
  /** null when Graph's answer had no `assignments` to read: unknown, never "unassigned". */
  targets: AssignmentTarget[] | null;
  /** For the settings catalog deep link. */
  link: string;
  /** What `link` opens when it is a list rather than the object's own page (docs/contract.md, "Columns"). */
  linkLabel?: string;
  /** An app's `@odata.type` without the namespace (`win32LobApp`): only Win32 apps can be dependencies. */
  odataType?: string;
  /** Read on `/v1.0`, whose schema has no assignment filter fields: their absence there proves nothing. */
  readOnV1?: boolean;
  /**
   * The object's scope tags (`roleScopeTagIds`), for the viewer scope: null when Graph did not send
   * them, as on `/v1.0`, whose schema of these types has none (reads.ts). Not known is never Default.
   */
  roleScopeTagIds?: readonly string[] | null;
  /** Why its assignments could not be read again on `/beta` to see their filters (see `needsBetaAssignments`). */
  betaAssignmentsFailure?: string;
  /** A configuration policy's `templateReference.templateFamily`: endpoint security policies are told by it. */
  templateFamily?: string | null;
  /** A configuration or compliance policy's `platforms` (deviceManagementConfigurationPlatforms): "what applies" tells its platform by it. */
  platforms?: string | null;
  /**
   * A settings catalog policy's `technologies` and `settingCount`, for "what applies" to read the
   * settings of only the policies that reach a device (src/core/applies/settings-read.ts): an
   * audit-only baseline sets nothing, and a policy of no settings needs no read. Absent when Graph
   * did not send them.
   */
  technologies?: string;
  settingCount?: number;
  /**
   * An intent's template's `platformType` (policyPlatformType), or why it could not be told: the
   * intent itself carries only its `templateId`.
   */
  templatePlatform?: { ok: true; value: string | null } | { ok: false; reason: string };
}

/** One Win32 app relationship as an edge: for supersedence the parent is the superseding (newer) app. */
export interface AppRelationship {
  kind: 'dependency' | 'supersedence';
  parentId: string;
  childId: string;
  /** `dependencyType` (`detect`, `autoInstall`) or `supersedenceType` (`update`, `replace`); null when absent or `unknownFutureValue`. */
  type: string | null;
  /** Display names as the record gives them, for an app the lists did not return. */
  parentName: string | null;
  childName: string | null;
}

export interface AssignmentFilterInfo {
  id: string;
  displayName: string;
  /** `assignmentFilterManagementType`: `devices` (the default) or `apps` (managed-app filters). */
  managementType: string;
  platform: string | null;
  /** The filter's rule, for "what applies" (src/core/applies): evaluated where the device's properties are known. */
  rule?: string | null;
}

export interface AssignmentRecords {
  objects: AssignableObject[];
  /** Whether the collections `/v1.0` cuts short were read on `/beta`; if not, the report says what it cannot show. */
  betaCoverage: boolean;
  /** Objects left out as the Intune admin center leaves them out (Microsoft's own), by kind. */
  leftOut: { catalogueApps: number; builtInScripts: number };
  /** Every group an assignment references, by lower-case id. */
  groups: Map<string, GroupLookup>;
  /** `GET /beta/deviceAppManagement/mobileAppRelationships`, as edges, or why it could not be read. */
  relationships: OptionalRead<AppRelationship[]>;
  /** `GET /beta/deviceManagement/assignmentFilters`, by lower-case id, or why it could not be read. */
  filters: OptionalRead<Map<string, AssignmentFilterInfo>>;
  /** Intune's audit log for the findings' stories; absent when there was nothing to tell of. */
  auditLog?: AuditLog;
}

/**
 * Whether the tenant's filter list was read and is empty: then no assignment has a filter, since a
 * filter in use cannot be deleted (docs/finding-rules.md, report 2, "Assignment filters"), though an
 * object read on `/v1.0` carries no filter fields. Report 2, "what applies" and report 7 all decide so.
 */
export function noFilterInTenant(filters: OptionalRead<ReadonlyMap<string, unknown>>): boolean {
  return filters.ok && filters.value.size === 0;
}
