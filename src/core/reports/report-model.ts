import type { GraphReader } from '../graph/graph-reader.js';
import type { ReportThresholds } from './thresholds.js';
import type { GraphApplicationPermission } from '../graph/graph-permissions.js';
import type { UpstreamRead } from '../graph/upstream-read.js';
import type { FindingKindTable, FindingSeverity } from '../findings/finding-kinds.js';
import type { DemoStep } from './report-demo.js';
import type { OptionalRead } from './optional-read.js';
import type { NotCheckedSource, OptionalSource } from './not-checked.js';
import type { ReadArea, TenantWideArea } from '../viewer-scope/areas.js';

/**
 * A report's id, e.g. `escrow-gaps` (docs/contract.md, "Report ids and the JSON contract"): the
 * registry knows which exist; the CLI, the tab's API and the bot all take these.
 */
export type ReportId = string;

/**
 * The `error.code` of a 403 that refuses what lies outside the viewer's Intune scope
 * (`VIEWER_SCOPE=intune-rbac`; docs/contract.md, "The server's endpoints"): its message says why, in
 * plain words, and the tab shows it as it is.
 */
export const OUTSIDE_VIEWER_SCOPE_CODE = 'outsideViewerScope';

export type CellValue = string | number | boolean | null;

/**
 * How a column's cells read (docs/contract.md, "Columns"): `text` as it is; `date` an ISO 8601
 * timestamp (or a word where there is none, e.g. `missing`); `duration` a number in the column's
 * `unit`; `count` a whole number; `number` a decimal; `status` a short verdict whose tone the row
 * carries.
 */
export type ColumnFormat = 'text' | 'date' | 'duration' | 'count' | 'number' | 'status';

/**
 * What a column is to its row beyond its cells (docs/contract.md, "Columns"): `name`, the cell that
 * says what the row is, which the tab shows first and pinned and names the row's links, charts and
 * pane by (a table's first column where none is); `wide`, long free text (a reason, a list of
 * groups), which the tab gives twice a cell's room and cuts at two lines, whole in the row's pane.
 */
export type ColumnRole = 'name' | 'wide' | 'address';

/** How a cell's verdict should look: fine, worth a look, a gap to close, or no verdict. */
export type CellTone = 'ok' | 'warning' | 'danger' | 'neutral';

/**
 * One column of a report table. `available: false` is the specification's "n/a": the source behind
 * the column was not granted, so its cells are empty and no finding comes from it. A report with
 * several tables (report 5, report 6) names the table a column belongs to in `section`; rows of
 * those reports carry the same `section`.
 */
export interface ReportColumn {
  key: string;
  label: string;
  available: boolean;
  section?: string;
  format: ColumnFormat;
  /**
   * What the column is to its row, where it is more than a cell: one `name` column a table at most;
   * `wide` for long free text; `address` for a user principal name or mail address, one long word
   * the tab gives room for on one or two lines (docs/contract.md, "Columns").
   */
  role?: ColumnRole;
  /** A `duration` column's unit. */
  unit?: 'seconds' | 'minutes';
  /** The row cell that holds each cell's `CellTone`: for verdicts worded row by row (`Outdated: …`). */
  toneKey?: string;
  /**
   * The tones of a column whose verdicts are a few fixed words (report 4's `missing`): by the cell's
   * text, and `otherwise` for any other value (an escrow date). A 100,000-row table then carries no
   * tone cell per row, which would cost the tab time to parse and sort. A column with neither this
   * nor `toneKey` has no verdicts.
   */
  tones?: { byValue: Readonly<Record<string, CellTone>>; otherwise: CellTone | null };
}

const CELL_TONES: ReadonlySet<string> = new Set<CellTone>(['ok', 'warning', 'danger', 'neutral']);

/** A cell's tone as its column says (its row's tone cell, or its word), or null: no verdict. */
export function cellTone(row: ReportRow, column: Pick<ReportColumn, 'key' | 'toneKey' | 'tones'>): CellTone | null {
  if (column.toneKey) {
    const tone = row[column.toneKey];
    return typeof tone === 'string' && CELL_TONES.has(tone) ? (tone as CellTone) : null;
  }
  const value = row[column.key];
  if (!column.tones || value === null || value === undefined) return null;
  const word = String(value);
  return Object.hasOwn(column.tones.byValue, word) ? column.tones.byValue[word]! : column.tones.otherwise;
}

/** The columns of one of a report's tables (report 5 and 6 have several), every one available. */
export function sectionColumns(section: string, columns: ReadonlyArray<Omit<ReportColumn, 'available' | 'section'>>): ReportColumn[] {
  return columns.map((column) => ({ ...column, available: true, section }));
}

/** The tone of a cell that shows a finding: as loud as the finding is bad. */
export function severityTone(severity: FindingSeverity): CellTone {
  return severity === 'high' ? 'danger' : 'warning';
}

/**
 * A table row: cells keyed by column key, plus `id`, `link` (the Intune admin center page, or null)
 * and, where that page is a list rather than the row's own page, `linkLabel` naming it ("the
 * security baselines list"), for the link's words.
 */
export type ReportRow = Record<string, CellValue>;

/** One property a change set in Intune's audit log (audit-story.ts), as the log words it (`oldValue` and `newValue` are Graph's strings). */
export interface ChangedProperty {
  name: string;
  oldValue: string | null;
  newValue: string | null;
}

/** A successful change of one object: when, who (a user principal name or an app's name), what. */
export interface AuditChange {
  at: string;
  by: string;
  activity: string;
  /** The properties the log says changed, at most ten (audit-story.ts); empty when it says none. */
  properties: ChangedProperty[];
}

/** What a finding carries in the JSON contract (docs/contract.md, "Report ids and the JSON contract"): its object's last successful change. */
export type LastChange = Pick<AuditChange, 'at' | 'by' | 'activity'>;

/**
 * What a report's JSON says of its findings' stories (docs/contract.md, "Report ids and the JSON contract"): each finding's
 * object's recent changes, newest first, keyed by the finding's `subjectId`, or why the log could
 * not be read.
 */
export type AuditStories = { state: 'read'; since: string; changes: Record<string, AuditChange[]> } | { state: 'unreadable'; reason: string };

/** A finding as `derive` states it; the registry adds the fingerprint. */
export interface FindingDraft<Kind extends string = string> {
  kind: Kind;
  subjectId: string;
  subjectName: string;
  detail: string;
  /**
   * What makes this finding this finding besides its kind and subject (the ASR rules in audit, the
   * firewall profiles that are off): part of the fingerprint, unlike names and timestamps.
   */
  ruleKey?: string;
  /** The object's last successful change in Intune's audit log, when it holds one (audit-story.ts). */
  lastChange?: LastChange;
}

export interface Finding {
  kind: string;
  subjectId: string;
  subjectName: string;
  detail: string;
  fingerprint: string;
  /** Since when, and who: the object's last successful change in Intune's audit log, when it holds one (docs/contract.md, "Report ids and the JSON contract"). */
  lastChange?: LastChange;
}

/** What `derive` makes of the records: a table (possibly empty, with the spec's notice) and findings. */
export interface DerivedReport<Kind extends string = string> {
  state: 'loaded' | 'empty';
  /** Empty: the specification's empty-notice text. Loaded: a prerequisite hint or the report's caveat, else null. */
  notice: string | null;
  /**
   * One line the report says of itself after its rows and on its overview tile, whatever its state
   * (report 7: its predicted conflicts beside what devices reported); absent or null for none.
   */
  headline?: string | null;
  columns: ReportColumn[];
  rows: ReportRow[];
  findings: FindingDraft<Kind>[];
  /**
   * What this load could not check for one subject although every source answered (report 3: a
   * policy whose settings could not be read in full; report 2: an object whose groups, assignments,
   * filters or Win32 relationships could not be read): an earlier finding of that kind about that subject stays open
   * rather than counting as resolved. The row says why.
   */
  uncheckedSubjects?: Array<UncheckedSubject<Kind>>;
  /** The findings' objects' recent changes, or why the audit log could not be read; absent when the report read no log. */
  auditLog?: AuditStories;
}

/** A finding kind that could not be checked for one subject (a policy, an app, a device), by its id. */
export interface UncheckedSubject<Kind extends string = string> {
  kind: Kind;
  subjectId: string;
  /**
   * The rule key the finding would have (`FindingDraft.ruleKey`, '' for none), when it does not
   * depend on what could not be read: the finding's fingerprint is then known, and the history
   * keeps exactly that finding open. Without it, the history keeps the whole kind open.
   */
  ruleKey?: string;
}

/** `UncheckedSubject` in a result: the fingerprint the finding would have, or null when it depends on what could not be read. */
export interface UncheckedFinding {
  kind: string;
  subjectId: string;
  fingerprint: string | null;
}

/** How an unchecked subject and a finding's kind and subject are matched: ids without case, as Graph compares them. */
export function uncheckedSubjectKey(kind: string, subjectId: string): string {
  return `${kind}\u0000${subjectId.toLowerCase()}`;
}

export interface ReportLoadError {
  /** The upstream HTTP status; null when none arrived (network failure, time-out). */
  status: number | null;
  code: string | null;
  message: string;
}

/** The JSON contract (docs/contract.md, "Report ids and the JSON contract"), shared by the CLI, the tab's API and the bot. */
export interface ReportResult {
  report: ReportId;
  title: string;
  state: 'loaded' | 'empty' | 'load-error';
  error: ReportLoadError | null;
  notice: string | null;
  /** `DerivedReport.headline`: one line after the rows and on the overview tile; absent where the report has none. */
  headline?: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  findings: Finding[];
  /** The report's finding kinds with their labels and severities: every kind in `findings` is here. */
  findingKinds: FindingKindTable;
  /** Finding kinds the report could not check at all: a source not granted (an n/a column). */
  unchecked: string[];
  /** Finding kinds it could not check for one subject each (`DerivedReport.uncheckedSubjects`). */
  uncheckedSubjects: UncheckedFinding[];
  /** The sources behind `unchecked`: which checks did not run, which permission Graph wanted, at worst how bad (not-checked.ts). */
  notChecked: NotCheckedSource[];
  /** The thresholds the findings were derived with (the configured ones), so a view can draw them; absent when the report did not load. */
  thresholds?: ReportThresholds;
  /**
   * The findings' objects' recent changes from Intune's audit log, newest first, by `subjectId`
   * (at most 5 each), or why the log could not be read; absent for a report about devices or
   * connectors, which reads no log (docs/contract.md, "Report ids and the JSON contract").
   */
  auditLog?: AuditStories;
  generatedAt: string;
}

export interface LoadProgress {
  report: ReportId;
  /** The upstream collection, e.g. `managedDevices`. */
  source: string;
  /** Records read from that source so far. */
  records: number;
}

/**
 * A source whose read failed and is being tried again, as a load's progress shows it (docs/contract.md,
 * "The server's endpoints", the progress): so a viewer sees a retry, not a stall.
 */
export interface SourceRetry {
  /** The attempt to come, counted from 1 (2 is the first retry). */
  attempt: number;
  /** The status of the attempt that failed; null when no answer came (a network failure, a time-out). */
  status: number | null;
  /** How long the wait before that attempt is, in milliseconds. */
  waitMs: number;
  /** When that attempt is made: an ISO 8601 instant. */
  at: string;
}

/** An audit event kept to what a story needs, as its page arrives. */
export interface AuditEntry {
  /** The event's id, which tells an event read twice (windows that overlap) from two events; '' when Graph gave none. */
  id: string;
  at: string;
  /** The user principal name, or the app's display name for a change made by an app (`UNNAMED_ACTOR` when the log names neither). */
  by: string;
  activity: string;
  /** Whether the log says the change succeeded (`activityResult`); a failed attempt changed nothing. */
  succeeded: boolean;
  /** The HTTP operation the log names (`activityOperationType`: `Create`, `Patch`, `Delete`, `Action`); absent where it named none. */
  operation?: string;
  resources: AuditEntryResource[];
}

/** One object an audit event names, with the properties it lists (at most `MAX_PROPERTIES`, audit-story.ts). */
export interface AuditEntryResource {
  id: string;
  properties: ChangedProperty[];
  /** The object's display name as the log wrote it at the time; absent where it wrote none. */
  name?: string;
  /** The resource type the log names (`auditResourceType`, e.g. `DeviceManagementConfigurationPolicy`); absent where it named none. */
  type?: string;
  /** How many properties the event listed, where it listed more than were kept. */
  propertyCount?: number;
}

/** The audit log as one load read it: the events since `since`, or why it could not be read. */
export type AuditLog = OptionalRead<{ since: string; entries: AuditEntry[] }>;

/** Where a load reads the log when the tenant's reports share it (shared-audit-log.ts). */
export interface AuditLogSource {
  read(context: LoadContext, since: Date, signal: AbortSignal): Promise<AuditLog>;
}

export interface LoadContext {
  graph: GraphReader;
  /** Records read from one upstream source so far; the registry adds the report's id. */
  onProgress?: (source: string, records: number) => void;
  /** What this report kept from its last load of the same tenant; absent where nothing is kept (the CLI). */
  memory?: LoadMemory;
  /** The load's clock, for what it keeps in `memory`. */
  now?: () => Date;
  /** Intune's audit log as the tenant's reports share it, read once and then only what is new; absent where each load reads its own (the CLI). */
  auditLog?: AuditLogSource;
  /**
   * The records of a report this one is built on (its definition's `builtOn`), as that report's
   * `load` gives them: shared through the application's report cache where it runs (docs/architecture.md,
   * "Loading once for everyone"), else loaded for this load. Set by the registry for every load.
   */
  recordsOfReport?: (id: ReportId) => Promise<unknown>;
  /** The approved baseline kept in the app's state, for report 8; absent where none is kept (the command line). */
  approvedBaseline?: ApprovedBaselineSource;
}

/**
 * Where report 8 reads the approved baseline from (src/app/baseline-records.ts): the book, or a
 * failure thrown (a torn book, a store out of reach), which makes the report a load error rather
 * than "nothing approved". It is handed the policies as they are now, from which the demo's
 * baseline is made where the demo keeps none yet. Typed loosely here so the model needs no report's types.
 */
export interface ApprovedBaselineSource {
  read(current: ReadonlyMap<string, unknown>): Promise<unknown>;
}

/**
 * Texts a report keeps from one load for the next, by name, in the state store of the tenant it
 * read (docs/contract.md, "Kept between loads"). Each is read and written whole; one that cannot be
 * read answers null, so a load reads Graph again rather than fail.
 */
export interface LoadMemory {
  read(name: string): Promise<string | null>;
  write(name: string, text: string): Promise<void>;
}

/** What `derive` is given besides the records; a report may ask only for its own thresholds (`DeriveContext<ConnectorThresholds>`). */
export interface DeriveContext<Thresholds = ReportThresholds> {
  now: Date;
  thresholds: Thresholds;
}

/** The words a report shows before its data is on screen (docs/contract.md, "Report states"). */
export const INITIALIZING_TEXT = 'Initializing data';
export const LOADING_TEXT = 'Loading...';
export type PendingText = typeof INITIALIZING_TEXT | typeof LOADING_TEXT;

/** Set on a report served from the server's cache while a newer load of it runs (docs/contract.md, "The server's endpoints"). */
export const REFRESHING_HEADER = 'x-report-refreshing';

/** Set, to the seconds to wait, on an answer whose refresh was over the user's limit and came from the cache. */
export const REFRESH_LIMITED_HEADER = 'x-refresh-limited';

/** The id of the element in which the tab's page carries the report catalogue (`ReportPresentation[]`). */
export const CATALOGUE_ELEMENT_ID = 'report-catalogue';

/**
 * A bar chart the tab draws from a report's rows: the largest values of one numeric cell among the
 * rows of one table, biggest first, each bar named by another cell. A report says which charts it
 * has; the tab knows only how to draw one.
 */
export interface ReportChart {
  /** Names the chart, as a column key names a column. */
  id: string;
  title: string;
  /** The table whose rows it charts: the section key its rows carry; absent for a report with one table. */
  section?: string;
  /** The cell that names each bar. */
  labelKey: string;
  /** The cell each bar measures; rows without a positive number in it are left out. */
  valueKey: string;
  /** What the values count, after each figure and under the axis: `seconds`, `crashes`. */
  unit: string;
  /** How loud the bars are: a verdict's tone. */
  tone: 'warning' | 'danger';
  /**
   * A threshold the bars are measured against, drawn across the chart: the key of its value in the
   * result's `thresholds`, and its label, in which `{value}` stands for it (`Slow: {value} s`).
   */
  threshold?: { key: keyof ReportThresholds; label: string };
}

/** What a table's rows can be asked about as (`ReportPresentation.rowSubjects`): a managed device. */
export type RowSubject = 'device';

/**
 * What a report says of itself, besides loading and deriving: enough for the API's list, the tab's
 * navigation and tables, the bot's names and help, and the CLI. All of it is product text, the same
 * for every tenant, so the tab's page may carry it.
 */
export interface ReportPresentation<Kind extends string = string> {
  id: ReportId;
  title: string;
  /** One sentence: what the report finds. */
  summary: string;
  /** Application permissions the report needs (docs/contract.md, "Upstream reads"). */
  permissions: readonly GraphApplicationPermission[];
  /** Tenant prerequisites (docs/finding-rules.md, per report), shown as prerequisites, not errors. */
  prerequisites: readonly string[];
  /** Built on beta interfaces (report 5 says so to the user). */
  beta: boolean;
  /** The short name in the tab's navigation. */
  navigationLabel: string;
  /**
   * What people call the report in the bot, first the name its help shows (`show <name>`); the id
   * with spaces for hyphens, and the report's number, work too.
   */
  botNames: readonly [string, ...string[]];
  /**
   * The subjects people name when they ask about the report in their own words ("which devices have
   * no bitlocker key"): lower-case words and phrases; a message naming one report's subjects asks for it.
   */
  botTopics: readonly string[];
  /** The help card's line for the report: what `show <name>` brings. */
  botDescription: string;
  /** Table titles: `''` for a report with one table, else by the section key its rows carry. */
  tables: Readonly<Record<string, string>>;
  /**
   * What a table's rows are about, by table key as `tables` has them, where a question can be asked
   * of it: `device`, a managed device, named by the row's `name` column, whose pane in the tab asks
   * what applies to it (docs/contract.md, "What applies"). A table not named here is about nothing
   * such a question can be asked of.
   */
  rowSubjects?: Readonly<Record<string, RowSubject>>;
  /** The status line while the application starts, and while the data is fetched. */
  pending: { starting: PendingText; fetching: PendingText };
  /** The charts the tab draws from the rows, in order. */
  charts: readonly ReportChart[];
  findingKinds: FindingKindTable<Kind>;
  /**
   * Sources that can be "n/a" (a permission not granted): the column that shows the source, the
   * finding kinds that only it can prove, which go unchecked when it is n/a, and the source and
   * permission a reader is told of then.
   */
  optionalSources: ReadonlyArray<OptionalSource<Kind>>;
}

/**
 * Who may see a report (`ReportDefinition.seenBy`; docs/finding-rules.md, "Viewer scope"):
 * - `scopeTagged`: each row carries its object's scope tags (the `roleScopeTagIds` cell), so a viewer
 *   limited to scope tags sees the rows of their tags, and only when their Intune roles read every
 *   area in `reads` (what the report shows, all of it). These are the reports a channel's posts for
 *   one scope tag hold; the rows still decide, and a load whose rows carry no tags is left out.
 * - `tenantWide`: its objects carry no scope tags; a viewer limited to scope tags sees it whole when
 *   their roles read `area`, where Microsoft documents one read permission for all it shows, and
 *   otherwise (`area` null) only with a Microsoft Entra role that reads all Intune data.
 */
export type ReportViewers = { kind: 'scopeTagged'; reads: readonly ReadArea[] } | { kind: 'tenantWide'; area: TenantWideArea | null };

/**
 * One report: what it says of itself, then `load`, which makes exactly the specification's upstream
 * GETs for it and keeps only the fields `derive` reads, and `derive`, which is pure. A `GraphError`
 * thrown by `load` becomes the report's load error.
 */
export interface ReportDefinition<Records, Kind extends string = string> extends ReportPresentation<Kind> {
  /**
   * Every Graph read `load` makes, declared in the report's folder (`reads.ts`), shared ones (groups,
   * the audit log) listed where their code declares them. The Graph client's allow-list, the
   * permissions the product asks for, the demo tenant's grants and the simulator's coverage test are
   * derived from them (docs/architecture.md, "Declared reads"); `load` reads only through them.
   */
  reads: readonly UpstreamRead[];
  /**
   * The path of the read the report cannot do without (one of `reads`, not optional), as `load`
   * reads it: `npm start -- --fault <report>:<status>` makes it answer that status, so the whole
   * report is a load error. (An optional source failing shows as n/a instead, which `--deny` shows.)
   */
  faultSource: string;
  /**
   * Set where the report's new findings are posted without being asked for by id (`post new
   * findings`, `/api/notify` without `reports`, a schedule set from then on): its place among those
   * reports, 1 first, the order a post's card lists them in (docs/contract.md, "The server's
   * endpoints", `/api/notify`). Absent: posted only when asked for by id.
   */
  postedByDefault?: number;
  /**
   * Who may see the report when the viewer scope is on, as Intune decides (docs/finding-rules.md,
   * "Viewer scope"), declared here alone and read through src/core/viewer-scope/report-access.ts.
   * Each declaration cites Microsoft's page for it.
   */
  seenBy: ReportViewers;
  /**
   * The reports whose records this one judges, by id: report 7 judges report 3's policies and
   * report 2's assignments. Its `load` takes them through `LoadContext.recordsOfReport`, never by
   * importing another report's load or definition, and its `reads` hold theirs (the registry checks).
   */
  builtOn?: readonly ReportId[];
  /** What the report plants in the demo tenant, and the findings those records must make (report-demo.ts). */
  demo: readonly DemoStep<Kind>[];
  load(context: LoadContext): Promise<Records>;
  derive(records: Records, context: DeriveContext): DerivedReport<Kind>;
}
