import { GRAPH_APPLICATION_PERMISSIONS } from './graph-permissions.js';
import type { GraphApplicationPermission, OptionalGraphPermission } from './graph-permissions.js';

/**
 * One Graph read a report (or "what applies") makes, declared in its own folder. The Graph client's
 * allow-list, the permissions the product asks for, the demo tenant's grants, the `--deny` and
 * `--fault` switches and the simulator's coverage test are all derived from these declarations, so a
 * new read is declared once, beside the code that makes it (CONTRIBUTING.md, "Adding a Graph read").
 */
export interface UpstreamRead {
  /** The path as the client sends it, on its version segment: `/v1.0/...` or `/beta/...`; `{id}` stands for one Graph id. */
  readonly path: string;
  /**
   * The application permissions that allow it, any one of them enough; the first is the one the
   * product asks for (least privileged, as Graph's page for the call lists it), unless it is one of the
   * permissions the product never asks for (`OPTIONAL_GRAPH_APPLICATION_PERMISSIONS`): such a read is
   * `optional`, and made only to see whether the administrator granted it.
   */
  readonly permissions: readonly [GraphApplicationPermission | OptionalGraphPermission, ...(GraphApplicationPermission | OptionalGraphPermission)[]];
  /**
   * Microsoft's page for the call, whose Permissions table lists the application permissions that
   * allow it: `permissions` are held to that table by test/graph/permission-pages.test.ts.
   */
  readonly permissionsPage: string;
  /** The fields its `$select` names, when it selects. */
  readonly select?: readonly string[];
  /** Whether the reader can do without it: a 403 then shows as n/a or "not checked", not as a load error. */
  readonly optional: boolean;
  /**
   * Only for a `/v1.0` path: its `/beta` twin is read instead when complete coverage is asked for
   * (`GRAPH_BETA_COVERAGE`), because `/v1.0` leaves out types or properties only beta declares.
   */
  readonly betaTwin?: boolean;
  /** The twin's `$select`, where it names fields only the beta schema declares (`/v1.0` answers 400 to them). */
  readonly betaSelect?: readonly string[];
  /**
   * Only for a `/v1.0` path whose objects carry their Intune scope tags (`roleScopeTagIds`) on beta
   * only: the `$select` of its `/beta` twin when the viewer scope is on (`VIEWER_SCOPE=intune-rbac`)
   * and complete coverage is not, its `select` and the tags, nothing else, so that each object carries
   * its tags and the report covers what the `/v1.0` read covers (docs/finding-rules.md, "Viewer scope").
   */
  readonly scopeTagsSelect?: readonly string[];
  /**
   * Fields that hold a secret (a key, a password, a token): never selected or expanded, by the
   * reader or by a next link, whoever wrote the URL (src/graph/upstream-allow-list.ts).
   */
  readonly secretFields?: readonly string[];
  /** Graph sends `secretFields` unless `$select` leaves them out: a read of this path without a `$select` is refused too. */
  readonly secretUnlessSelected?: boolean;
  /** Why it is read, in a line: what the report needs it for. */
  readonly why: string;
}

/** The `$select` value of a read that selects: its declared fields, comma-separated. */
export function selectOf(read: Pick<UpstreamRead, 'select' | 'path'>): string {
  if (!read.select) throw new Error(`${read.path} is declared without a $select`);
  return read.select.join(',');
}

/** A read of one object's path (`{id}` in it) for that object's id; the caller has checked the id (`isGraphId`). */
export function pathFor(read: Pick<UpstreamRead, 'path'>, id: string): string {
  return read.path.replace('{id}', id);
}

/** The version segment a read's path is on. */
export function versionOf(read: Pick<UpstreamRead, 'path'>): 'v1.0' | 'beta' {
  return read.path.startsWith('/beta/') ? 'beta' : 'v1.0';
}

/** The path after its version segment, as a `$batch` sub-request names it (`/groups/{id}`). */
export function pathInBatch(read: Pick<UpstreamRead, 'path'>, id?: string): string {
  const path = id === undefined ? read.path : pathFor(read, id);
  return path.slice(path.indexOf('/', 1));
}

/** The `/beta` twin of a `/v1.0` path. */
export function betaTwinOf(path: string): string {
  return path.replace(/^\/v1\.0\//, '/beta/');
}

/**
 * The permissions the reads ask for (each read's first), each once, in the order of the permissions
 * table (graph-permissions.ts): the app registration's, the demo tenant's grants, `--deny`'s choices.
 */
export function askedPermissions(reads: readonly UpstreamRead[]): GraphApplicationPermission[] {
  const asked = new Set(reads.map((read) => read.permissions[0]));
  return (Object.keys(GRAPH_APPLICATION_PERMISSIONS) as GraphApplicationPermission[]).filter((permission) => asked.has(permission));
}
