import type { GraphError } from './graph-error.js';

/**
 * The Graph port: what the core needs of Microsoft Graph, declared here so that report loads and
 * group look-ups know nothing of how the requests are sent (`src/graph` is the client behind it).
 */

/** How this service names itself upstream: User-Agent here, `ocp-client-name` / `-version` where asked. */
export const CLIENT_NAME = 'Device Management Health';
export const CLIENT_VERSION = '0.1';

export interface GraphPage<T> {
  items: T[];
  /** 0 for the first page. */
  index: number;
}

export interface BatchSubRequest {
  /** Unique within one `batchGet` call. */
  id: string;
  /** Relative to the version segment, as `$batch` wants it: `/groups/{id}?$select=id`. */
  url: string;
  headers?: Record<string, string>;
}

export type BatchOutcome = { ok: true; status: number; body: unknown } | { ok: false; error: GraphError };

/** Graph's documented limit: "JSON batch requests are currently limited to 20 individual requests". */
export const MAX_BATCH_SIZE = 20;

/**
 * The users from which a tenant is of a larger size in Graph's identity limits
 * (learn.microsoft.com/graph/throttling-limits, "Identity and access service limits": "S - under 50
 * users, M - between 50 and 500 users, and L - above 500 users"), each size with a higher limit. A
 * load that proves one tells its reader (`tenantUsersAtLeast`).
 */
export const TENANT_SIZE_FROM = { medium: 50, large: 501 } as const;

export type QueryOptions = Record<string, string>;

export interface RequestOptions {
  query?: QueryOptions;
  /** Extra request headers, e.g. `Prefer: include-unknown-enum-members`. */
  headers?: Record<string, string>;
  /** Stops paging between pages (a report whose other source failed needs no more). */
  signal?: AbortSignal;
}

export interface PagesOptions extends RequestOptions {
  /**
   * Start at this `@odata.nextLink` of the collection at `path` rather than at its first page: the
   * rest of a list whose first page came another way (inside a `$batch` answer). The link is held
   * to what any next link is: the same origin and the same collection.
   */
  after?: string;
}

export interface BatchOptions {
  signal?: AbortSignal;
  /** The version the sub-requests' URLs are relative to: `POST /v1.0/$batch` (the default) or `POST /beta/$batch`. */
  version?: 'v1.0' | 'beta';
}

/**
 * What the reports and the group look-ups read Graph through: reads only, with nothing of how the
 * requests are sent, so a caller can be given any reader (the client, or a stand-in in a test).
 */
export interface GraphReader {
  /** Whether this reader reads the beta twins of the collections `/v1.0` cuts short. */
  readonly betaCoverage: boolean;
  /**
   * Whether this reader reads the objects' Intune scope tags where only `/beta` gives them (the viewer
   * scope is on, `VIEWER_SCOPE=intune-rbac`): a read declaring `scopeTagsSelect` is then made on its
   * beta twin with that `$select`. Absent is false.
   */
  readonly scopeTags?: boolean;
  /** The path this reader reads for a specification path: its beta twin under complete coverage. */
  coveragePath(path: string): string;
  /** One entity or singleton, e.g. `/beta/deviceManagement/windowsAutopilotSettings`. */
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** The pages of a collection, in order; an aborted `signal` stops the paging with its reason. */
  pages<T>(path: string, options?: PagesOptions): AsyncGenerator<GraphPage<T>>;
  /** Every item of a collection, each passed through `project` as its page arrives. */
  getAll<T, R = T>(path: string, options?: RequestOptions, project?: (item: T) => R): Promise<R[]>;
  /** GET sub-requests through `$batch`; each ends as its own outcome, keyed by its id. */
  batchGet(requests: readonly BatchSubRequest[], options?: BatchOptions): Promise<Map<string, BatchOutcome>>;
  /**
   * What a load has proved of the tenant's size: it has seen at least `count` distinct users. A
   * client pacing under the directory's limits, which grow with the tenant's users, may pace faster.
   */
  tenantUsersAtLeast?(count: number): void;
}
