import { findingFingerprint } from '../findings/fingerprint.js';
import type { Sha256Hex } from '../findings/fingerprint.js';
import type { GraphReader } from '../graph/graph-reader.js';
import { GraphError } from '../graph/graph-error.js';
import { adminApprovalReport } from './admin-approval/definition.js';
import { assignmentHygieneReport } from './assignment-hygiene/definition.js';
import { connectorHealthReport } from './connector-health/definition.js';
import { escrowGapsReport } from './escrow-gaps/definition.js';
import { uncheckedSubjectKey } from './report-model.js';
import { notCheckedSources } from './not-checked.js';
import type {
  ApprovedBaselineSource,
  Finding,
  FindingDraft,
  LoadContext,
  LoadMemory,
  LoadProgress,
  ReportColumn,
  ReportDefinition,
  ReportId,
  ReportLoadError,
  ReportPresentation,
  ReportResult,
  UncheckedSubject,
} from './report-model.js';
import { securityPostureReport } from './security-posture/definition.js';
import { settingConflictsReport } from './setting-conflicts/definition.js';
import { baselineDriftReport } from './baseline-drift/definition.js';
import { startupReliabilityReport } from './startup-reliability/definition.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';
import type { ReportThresholds } from './thresholds.js';
import type { UpstreamRead } from '../graph/upstream-read.js';
import type { AuditLogSource } from '../audit-story/audit-story.js';

function nameWords(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The reports a server, the bot and the CLI offer, in the order they show them. Each report's folder
 * says all there is to know of it (report-model.ts, `ReportDefinition`); the registry derives the
 * rest: the API's list, the ids the routes accept, the bot's names, the tab's navigation.
 */
export class ReportRegistry {
  readonly ids: readonly ReportId[];
  /** The reports whose new findings are posted when none is named, in their declared order (`postedByDefault`). */
  readonly postedByDefault: readonly ReportId[];
  /** The reports whose rows carry their objects' scope tags (`seenBy`): what a post for one scope tag holds. */
  readonly scopeTagged: readonly ReportId[];
  private readonly byId: ReadonlyMap<ReportId, ReportDefinition<unknown>>;
  private readonly byName: ReadonlyMap<string, ReportId>;

  constructor(readonly definitions: readonly ReportDefinition<unknown>[]) {
    this.ids = definitions.map((definition) => definition.id);
    this.postedByDefault = definitions
      .filter((definition) => definition.postedByDefault !== undefined)
      .sort((a, b) => a.postedByDefault! - b.postedByDefault!)
      .map((definition) => definition.id);
    this.scopeTagged = definitions.filter((definition) => definition.seenBy.kind === 'scopeTagged').map((definition) => definition.id);
    this.byId = new Map(definitions.map((definition) => [definition.id, definition]));
    if (this.byId.size !== definitions.length) throw new Error(`two reports share an id: ${this.ids.join(', ')}`);
    this.byName = new Map(
      definitions.flatMap(({ id, botNames }, index) => [[nameWords(id), id] as const, [String(index + 1), id] as const, ...botNames.map((name) => [nameWords(name), id] as const)]),
    );
    for (const definition of definitions) checkDeclaredReads(definition);
    for (const definition of definitions) checkBuiltOn(definition, this.byId);
    this.reads = [...new Set(definitions.flatMap((definition) => definition.reads))];
  }

  /** Every Graph read the reports declare, each declaration once, in the registry's order. */
  readonly reads: readonly UpstreamRead[];

  /**
   * The report a person names, as the bot and the CLI take it: its id (`escrow-gaps`, or with spaces),
   * its number in this list (`4`), or one of its names (`dead connectors`); case and punctuation aside.
   */
  find(name: string): ReportId | null {
    return this.byName.get(nameWords(name)) ?? null;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  definition(id: ReportId): ReportDefinition<unknown> {
    const definition = this.byId.get(id);
    if (!definition) throw new Error(`no report "${id}"`);
    return definition;
  }

  /** What a caller may know of each report before loading it: the CLI's `reports`, `GET /api/reports` and the tab's page. */
  catalogue(): ReportPresentation[] {
    return this.definitions.map(
      ({
        load: _load,
        derive: _derive,
        faultSource: _faultSource,
        demo: _demo,
        reads: _reads,
        postedByDefault: _postedByDefault,
        seenBy: _seenBy,
        builtOn: _builtOn,
        ...presentation
      }) => presentation,
    );
  }

  /** Loads one report through the one data path, `loadReport`. */
  load(id: ReportId, graph: GraphReader, options: LoadReportOptions = {}): Promise<ReportResult> {
    return loadDefinedReport(this.definition(id), graph, options, (other) => this.definition(other));
  }
}

/**
 * A report's declarations hold together, or the registry is not made: each permission it says it
 * needs is one its reads ask for, each read it cannot do without asks for one it says it needs
 * (an optional read may borrow one the product holds for another report, as report 3's audit log
 * does), and its fault source is the path of a read it cannot do without.
 */
function checkDeclaredReads(definition: ReportDefinition<unknown>): void {
  const asked = new Set(definition.reads.map((read) => read.permissions[0]));
  const stated = new Set<string>(definition.permissions);
  const unasked = definition.permissions.filter((permission) => !asked.has(permission));
  if (unasked.length > 0) throw new Error(`report "${definition.id}" needs ${unasked.join(', ')}, which none of its declared reads asks for`);
  const unstated = definition.reads.filter((read) => !read.optional && !stated.has(read.permissions[0]));
  if (unstated.length > 0)
    throw new Error(`report "${definition.id}" reads ${unstated.map((read) => read.path).join(', ')} without saying it needs ${unstated[0]!.permissions[0]}`);
  if (!definition.reads.some((read) => !read.optional && read.path === definition.faultSource)) {
    throw new Error(`report "${definition.id}": its fault source ${definition.faultSource} is not one of the reads it cannot do without`);
  }
}

/**
 * A report built on others names reports the registry holds, not itself, and declares their reads
 * as its own: its load may read them (`recordsOfReport` loads them where no cache shares them), so
 * the product's permissions and the Graph client's allow-list must know of them.
 */
function checkBuiltOn(definition: ReportDefinition<unknown>, byId: ReadonlyMap<ReportId, ReportDefinition<unknown>>): void {
  const declared = new Set(definition.reads);
  for (const id of definition.builtOn ?? []) {
    const other = byId.get(id);
    if (!other || id === definition.id) throw new Error(`report "${definition.id}" is built on "${id}", which is not another report of the registry`);
    const missing = other.reads.filter((read) => !declared.has(read));
    if (missing.length > 0) throw new Error(`report "${definition.id}" is built on "${id}" without declaring its reads: ${missing.map((read) => read.path).join(', ')}`);
  }
}

/**
 * Intune's audit log tells a report's findings' stories; a report loaded for another's sake (its
 * `builtOn`) tells none, so that load reads no audit log, which on a tenant with a year of events is
 * most of its requests.
 */
const NO_AUDIT_LOG: AuditLogSource = {
  read: async () => ({ ok: false, reason: "not read: a report loaded for another report's records tells no stories" }),
};

/** The six reports in the specification's order, then the setting conflicts report: adding a report is its folder (src/core/reports/<report id>/) and one line here. */
export const REPORTS = new ReportRegistry([
  connectorHealthReport,
  assignmentHygieneReport,
  securityPostureReport,
  escrowGapsReport,
  adminApprovalReport,
  startupReliabilityReport,
  settingConflictsReport,
  baselineDriftReport,
] as ReportDefinition<unknown>[]);

export const REPORT_IDS: readonly ReportId[] = REPORTS.ids;

export function reportDefinition(id: ReportId): ReportDefinition<unknown> {
  return REPORTS.definition(id);
}

export interface LoadReportOptions {
  now?: () => Date;
  thresholds?: ReportThresholds;
  onProgress?: (progress: LoadProgress) => void;
  /** Where reports keep what they may reuse at their next load of this tenant; each report's names are its own. */
  memory?: LoadMemory;
  /** Intune's audit log shared by the reports of this tenant (shared-audit-log.ts); each load reads its own without it. */
  auditLog?: AuditLogSource;
  /** The SHA-256 the findings' fingerprints are made with: Node's where the code runs on Node (fingerprint.ts). */
  digest?: Sha256Hex;
  /** Told of a failure that is not Graph's answer (data no loader expected, a bug), for the log. */
  onUnexpectedError?: (report: ReportId, error: unknown) => void;
  /**
   * Handed the records the report's `load` read, before they are derived: for a cache that shares
   * them with another reader of the same records ("what applies" reads report 2's; docs/architecture.md,
   * "Loading once for everyone"). Never called when the load fails.
   */
  onRecords?: (records: unknown) => void;
  /**
   * The records of a report another is built on (`builtOn`), shared by the cache the load runs
   * under, or null when none can be shared: the load then loads them itself.
   */
  recordsOf?: (id: ReportId) => Promise<unknown>;
  /** The approved baseline kept in the app's state (report 8); absent where none is kept (the command line). */
  approvedBaseline?: ApprovedBaselineSource;
}

/**
 * The one data path of the design: tab, bot and CLI all load a report through here. An upstream
 * failure comes back as the report's load error (the specification's red error naming the HTTP
 * status), never as an empty table. So does any other failure to build the report (a record of a
 * shape no loader expected, a bug): the caller is told to log it, and the report says it could not
 * be built rather than showing a table that the data does not prove.
 */
export function loadReport(id: ReportId, graph: GraphReader, options: LoadReportOptions = {}): Promise<ReportResult> {
  return REPORTS.load(id, graph, options);
}

async function loadDefinedReport(
  definition: ReportDefinition<unknown>,
  graph: GraphReader,
  options: LoadReportOptions,
  definitionOf: (id: ReportId) => ReportDefinition<unknown>,
): Promise<ReportResult> {
  const id = definition.id;
  const now = options.now ?? (() => new Date());
  const failed = (error: ReportLoadError): ReportResult => ({
    report: id,
    title: definition.title,
    state: 'load-error',
    error,
    notice: null,
    columns: [],
    rows: [],
    findings: [],
    findingKinds: definition.findingKinds,
    unchecked: [],
    uncheckedSubjects: [],
    notChecked: [],
    generatedAt: now().toISOString(),
  });
  try {
    const onProgress = options.onProgress;
    const memory = options.memory;
    const context: LoadContext = {
      graph,
      now,
      ...(onProgress ? { onProgress: (source, count) => onProgress({ report: id, source, records: count }) } : {}),
      ...(memory ? { memory: { read: (name) => memory.read(`${id}-${name}`), write: (name, text) => memory.write(`${id}-${name}`, text) } } : {}),
      ...(options.auditLog ? { auditLog: options.auditLog } : {}),
      ...(options.approvedBaseline ? { approvedBaseline: options.approvedBaseline } : {}),
    };
    const recordsOfReport = async (other: ReportId): Promise<unknown> => {
      if (!definition.builtOn?.includes(other)) throw new Error(`report "${id}" asked for the records of "${other}", which it is not built on`);
      return (await options.recordsOf?.(other)) ?? definitionOf(other).load({ ...context, auditLog: NO_AUDIT_LOG });
    };
    const records = await definition.load({ ...context, recordsOfReport });
    options.onRecords?.(records);
    const generatedAt = now();
    const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
    const derived = definition.derive(records, { now: generatedAt, thresholds });
    return {
      report: id,
      title: definition.title,
      state: derived.state,
      error: null,
      notice: derived.notice,
      ...(derived.headline ? { headline: derived.headline } : {}),
      columns: derived.columns,
      rows: derived.rows,
      findings: derived.findings.map((draft) => withFingerprint(draft, findingFingerprint(id, draft.kind, draft.subjectId, draft.ruleKey, options.digest))),
      findingKinds: definition.findingKinds,
      unchecked: uncheckedKinds(definition, derived.columns),
      uncheckedSubjects: distinctSubjects(derived.uncheckedSubjects ?? []).map(({ kind, subjectId, ruleKey }) => ({
        kind,
        subjectId,
        fingerprint: ruleKey === undefined ? null : findingFingerprint(id, kind, subjectId, ruleKey, options.digest),
      })),
      notChecked: notCheckedSources(definition.optionalSources, derived.columns, definition.findingKinds),
      thresholds,
      ...(derived.auditLog ? { auditLog: derived.auditLog } : {}),
      generatedAt: generatedAt.toISOString(),
    };
  } catch (error) {
    if (error instanceof GraphError) return failed(describeLoadError(error, definition));
    options.onUnexpectedError?.(id, error);
    return failed({ status: null, code: 'unreadableData', message: 'The report could not be built from what Microsoft Graph returned; the reason is in the server log.' });
  }
}

/**
 * The finding a draft makes: its properties in their order, without `ruleKey`, and its fingerprint
 * last. `Object.assign` where the draft has no rule key: a rest pattern costs several times as much
 * over a large report's findings (120,000 of report 4's at 500,000 devices; docs/performance.md).
 */
function withFingerprint(draft: FindingDraft, fingerprint: string): Finding {
  if (!Object.hasOwn(draft, 'ruleKey')) return Object.assign({}, draft, { fingerprint });
  const { ruleKey: _ruleKey, ...finding } = draft;
  return { ...finding, fingerprint };
}

/** The finding kinds that only an n/a source could prove: a load without that source did not check them. */
function uncheckedKinds(definition: ReportDefinition<unknown>, columns: readonly ReportColumn[]): string[] {
  const unavailable = new Set(columns.filter((column) => !column.available).map((column) => column.key));
  return definition.optionalSources.filter((source) => unavailable.has(source.column)).flatMap((source) => [...source.findingKinds]);
}

/** Each (kind, subject) once, ids compared as Graph compares them (without case). */
function distinctSubjects(subjects: readonly UncheckedSubject[]): UncheckedSubject[] {
  const seen = new Set<string>();
  return subjects.filter(({ kind, subjectId, ruleKey }) => {
    const key = `${uncheckedSubjectKey(kind, subjectId)}\u0000${ruleKey ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What a failed load says: the upstream status and, for a 403, which permissions the report needs. */
export function describeLoadError(error: GraphError, definition: Pick<ReportDefinition<unknown>, 'permissions'>): ReportLoadError {
  const source = error.path.split('?')[0] ?? error.path;
  const request = error.requestId ? ` (request-id ${error.requestId})` : '';
  let message: string;
  switch (error.kind) {
    case 'http':
      message =
        error.status === 403
          ? `Graph answered 403 Forbidden for GET ${source}: the app registration lacks a permission this report needs (${definition.permissions.join(', ')}), or admin consent was not granted.${request}`
          : error.status === 429
            ? `Graph answered 429 Too Many Requests for ${error.method} ${source} and kept throttling after ${error.attempts} attempts. Try again in a few minutes.${request}`
            : `Graph answered ${error.status} for ${error.method} ${source}: ${error.message}${request}`;
      break;
    case 'token':
      message = `Could not get a token for Microsoft Graph: ${error.message}`;
      break;
    case 'malformed-response':
      message = `Graph answered ${error.method} ${source} with a response that could not be read (${error.message}).${request}`;
      break;
    default:
      message = `Could not reach Microsoft Graph for ${error.method} ${source}: ${error.message}`;
  }
  return { status: error.status ?? null, code: error.code ?? (error.kind === 'http' ? null : error.kind), message };
}
