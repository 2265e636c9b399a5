import { GraphRequestRefusedError } from '../core/graph/graph-error.js';
import { betaTwinOf } from '../core/graph/upstream-read.js';
import type { UpstreamRead } from '../core/graph/upstream-read.js';

/**
 * The JSON batching endpoints: the one POST the service makes, and only with GET sub-requests
 * inside, each of an allowed path on the endpoint's version (a policy's beta `/settings` goes
 * through `/beta/$batch`, as `$batch` runs its sub-requests on its own version).
 */
export const BATCH_PATHS: Readonly<Record<'v1.0' | 'beta', string>> = { 'v1.0': '/v1.0/$batch', beta: '/beta/$batch' };

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const toPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{id}', GUID)}$`);

/** Which paths a client may read: the declared ones, plus the beta twins when coverage asks for them. */
export interface AllowListOptions {
  betaCoverage?: boolean;
  /** The viewer scope is on: the beta twins read only for their objects' scope tags are taken too. */
  scopeTags?: boolean;
}

/**
 * The only Graph paths this service may read, derived from the reads the reports and "what applies"
 * declare in their folders (src/core/graph/upstream-read.ts; docs/architecture.md, "Declared
 * reads"), each on its version segment, `{id}` standing for one GUID. The composition root hands
 * the declarations in; this floor knows no report. A test pins the derived list, so a new path
 * shows in review (test/graph/upstream-allow-list.test.ts).
 */
export class UpstreamAllowList {
  /** Every declared path, each once, in the order declared. */
  readonly paths: readonly string[];
  /**
   * The `/beta` twins read instead of `/v1.0` paths when complete coverage is asked for
   * (`GRAPH_BETA_COVERAGE`, docs/using.md, "What /v1.0 cannot show"): `/v1.0` silently leaves out policy,
   * profile and app types that only the beta schema declares, and a device's join type. The same
   * permissions read them; nothing else is added.
   */
  readonly betaCoveragePaths: readonly string[];
  /**
   * The `/beta` twins read with the viewer scope on (`VIEWER_SCOPE=intune-rbac`) for their objects'
   * scope tags, which `/v1.0` does not give (a read's `scopeTagsSelect`); the same permissions read them.
   */
  readonly scopeTagPaths: readonly string[];
  private readonly cutShortOnV1: ReadonlySet<string>;
  private readonly patterns: readonly RegExp[];
  private readonly betaCoveragePatterns: readonly RegExp[];
  private readonly scopeTagPatterns: readonly RegExp[];
  /** By exact path: the fields a read of it must never select, and whether leaving `$select` out sends them. */
  private readonly secrets: ReadonlyMap<string, { fields: ReadonlySet<string>; unlessSelected: boolean }>;

  constructor(reads: readonly UpstreamRead[]) {
    this.paths = [...new Set(reads.map((read) => read.path))];
    this.cutShortOnV1 = new Set(reads.filter((read) => read.betaTwin === true && read.path.startsWith('/v1.0/')).map((read) => read.path));
    this.betaCoveragePaths = [...this.cutShortOnV1].map(betaTwinOf);
    this.patterns = this.paths.map(toPattern);
    this.betaCoveragePatterns = this.betaCoveragePaths.map(toPattern);
    this.scopeTagPaths = [...new Set(reads.filter((read) => read.scopeTagsSelect !== undefined && read.path.startsWith('/v1.0/')).map((read) => betaTwinOf(read.path)))];
    this.scopeTagPatterns = this.scopeTagPaths.map(toPattern);
    const secrets = new Map<string, { fields: Set<string>; unlessSelected: boolean }>();
    for (const read of reads) {
      if (!read.secretFields?.length) continue;
      const entry = secrets.get(read.path) ?? { fields: new Set<string>(), unlessSelected: false };
      for (const field of read.secretFields) entry.fields.add(field.toLowerCase());
      entry.unlessSelected ||= read.secretUnlessSelected === true;
      secrets.set(read.path, entry);
    }
    this.secrets = secrets;
  }

  /** The path to read for a declared path: its beta twin when complete coverage is on and it has one. */
  coveragePath(path: string, options: AllowListOptions = {}): string {
    return options.betaCoverage === true && this.cutShortOnV1.has(path) ? betaTwinOf(path) : path;
  }

  isAllowed(pathname: string, options: AllowListOptions = {}): boolean {
    return (
      this.patterns.some((pattern) => pattern.test(pathname)) ||
      (options.betaCoverage === true && this.betaCoveragePatterns.some((pattern) => pattern.test(pathname))) ||
      (options.scopeTags === true && this.scopeTagPatterns.some((pattern) => pattern.test(pathname)))
    );
  }

  /** Refuses anything but a GET of an allow-listed path (or the batch POST) before it is sent. */
  assertAllowed(method: string, pathname: string, url?: URL, options: AllowListOptions = {}): void {
    if (url && this.selectsSecretFields(url)) {
      throw new GraphRequestRefusedError(`Refused GET ${pathname}: escrow lists and VPP tokens are read for metadata only, never their key, credentials or token.`);
    }
    if (method === 'POST' && (pathname === BATCH_PATHS['v1.0'] || pathname === BATCH_PATHS.beta)) return;
    if (method !== 'GET') {
      throw new GraphRequestRefusedError(`Refused ${method} ${pathname}: this service only reads (GET) from Microsoft Graph.`);
    }
    if (!this.isAllowed(pathname, options)) {
      throw new GraphRequestRefusedError(`Refused GET ${pathname}: the path is not one this service is allowed to read.`);
    }
  }

  /**
   * Whether a URL asks a list for the secret fields its declaration names, whoever wrote the URL (our
   * code or a nextLink). BitLocker's `key` and LAPS's `credentials` come back only when selected
   * (learn.microsoft.com/graph/api/resources/bitlockerrecoverykey, .../devicelocalcredentialinfo);
   * a VPP token's `token` is the Apple token itself (learn.microsoft.com/graph/api/resources/intune-onboarding-vpptoken),
   * and Graph returns it unless `$select` leaves it out, so a read of that list without a `$select`
   * is refused as well.
   */
  selectsSecretFields(url: URL): boolean {
    const secret = this.secrets.get(url.pathname);
    if (!secret) return false;
    let selected = false;
    for (const [name, value] of url.searchParams) {
      if (!/^\$?(select|expand)$/i.test(name)) continue;
      if (/^\$?select$/i.test(name)) selected = true;
      if (value.split(/[,()]/).some((field) => secret.fields.has(field.trim().toLowerCase()))) return true;
    }
    return secret.unlessSelected && !selected;
  }
}
