/**
 * "What applies to this device, this user or this group, and why?" (docs/contract.md, "What
 * applies"): each question's own reads (src/core/applies/load.ts: the subject found by what Graph
 * filters on, and the groups it is in), kept per question for as long as a report is kept fresh,
 * and answered by the pure rules (src/core/applies/answer.ts). The assignments are report 2's
 * records, taken from report 2's load in the report cache where one is at hand, so that report 2
 * and "what applies" make one upstream assignment load between them; a question asked before it
 * reads report 2's lists itself, without the audit log no answer shows. A device's setting conflicts
 * are judged on what its policies set: report 3's records where a load of them is at hand, else the
 * settings of only the policies that may reach the device (src/core/applies/settings-read.ts), so
 * that a question asked first does not read every policy's (docs/architecture.md, "Loading once for
 * everyone"). Each answer counts the Graph requests it made.
 */

import { answerApplies, withSettings } from '../core/applies/answer.js';
import type { AppliesOutcome } from '../core/applies/answer.js';
import type { AppliesResult } from '../core/applies/applies-result.js';
import { conflictSettingsOf } from '../core/applies/conflicts.js';
import type { ConflictSettings } from '../core/applies/conflicts.js';
import { findTaggedDevices, loadAppliesReads } from '../core/applies/load.js';
import type { TaggedDevice } from '../core/applies/load.js';
import { questionWords } from '../core/applies/resolve.js';
import { policiesThatMayApply, readSettingsOf } from '../core/applies/settings-read.js';
import { loadAssignments } from '../core/reports/assignment-hygiene/load.js';
import type { SettingsRead } from '../core/policy-settings/settings-read.js';
import { APPLIES_NOT_READ_BY_ROLE, appliesOpensTo, objectScopeTags, objectsInScope, outsideScopeWords, scopedAnswer } from '../core/applies/scope.js';
import { visibleTo } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import type { AppliesReads } from '../core/applies/load.js';
import { errorText } from '../core/error-text.js';
import type { GraphReader } from '../core/graph/graph-reader.js';
import { assignmentHygieneReport } from '../core/reports/assignment-hygiene/definition.js';
import type { AssignmentRecords } from '../core/reports/assignment-hygiene/records.js';
import type { LoadContext, LoadProgress, ReportId } from '../core/reports/report-model.js';
import { REPORTS } from '../core/reports/registry.js';
import { securityPostureReport } from '../core/reports/security-posture/definition.js';
import type { SecurityPostureRecords } from '../core/reports/security-posture/records.js';
import { DEFAULT_CACHE_MAX_AGE_MS, ReportCache } from './report-cache.js';
import { countedReader, countingRequests } from './request-count.js';
import type { RequestCount } from './request-count.js';

/** Questions whose reads are kept at once; past it the oldest is dropped (a question is a few requests to read again). */
export const MAX_KEPT_QUESTIONS = 500;

/** One question's reads, the assignment load they were made against, and when: the older of report 2's load and its own reads. */
interface Kept {
  reads: Promise<AppliesReads>;
  /**
   * The answer derived from `reads` and the settings it was judged with, once for those settings: the
   * rules are pure, so the same reads answer the same way (on the large tenant, a few hundred
   * milliseconds of work).
   */
  outcome?: { settings: ConflictSettings | null; outcome: AppliesOutcome };
  /** The answer without its conflicts judged: which policies may reach the device, whose settings a question then reads (`policySettings`). */
  base?: AppliesOutcome;
  /** The settings of the policies that may reach the device, as this question read them, and when the oldest was read. */
  policySettings?: { value: ConflictSettings; at: number };
  assignments: AssignmentRecords;
  at: number;
}

export interface AppliesServiceOptions {
  /** What it reads Graph through: wrapped with `countedReader` (request-count.ts) when it is not already. */
  graph: GraphReader;
  /**
   * The cache the reports are kept in (createServices gives its own): report 2's records are taken
   * from it, and report 3's for a device's conflicts. Without one (a test, the bench) it makes one
   * of its own over the registry's reports, `graph`, `maxAgeMs` and `clock`.
   */
  cache?: ReportCache;
  /**
   * Whether the cache's loads of reports 2 and 3 read their records through the registry and hand
   * them over (`ReportLoader`'s `onRecords`): false when the reports are loaded some other way, and
   * then the assignments and the policies' settings are read here. True by default.
   */
  sharesReportLoads?: boolean;
  /** How long one question's reads answer it again (the reports' freshness, five minutes by default). */
  maxAgeMs?: number;
  clock?: () => number;
  log: (line: string) => void;
}

export class AppliesService {
  private readonly graph: GraphReader;
  private readonly cache: ReportCache;
  private readonly sharesReportLoads: boolean;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  /** Each question's reads, by the words it was looked up by (`questionWords`), oldest first. */
  private readonly kept = new Map<string, Kept>();
  /** Report 3's records made into what the conflict rules read, once per load of them. */
  private readonly settingsOf = new WeakMap<SecurityPostureRecords, ConflictSettings>();
  /** Each policy's settings as a question read them (`policySettings`), by id, for the next question's policies, while fresh. */
  private readonly readSettings = new Map<string, { read: SettingsRead; at: number }>();

  constructor(private readonly options: AppliesServiceOptions) {
    this.now = options.clock ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS;
    this.graph = countedReader(options.graph);
    if (options.cache) {
      this.cache = options.cache;
      this.sharesReportLoads = options.sharesReportLoads ?? true;
    } else {
      const graph = this.graph;
      this.cache = new ReportCache(
        (id, onProgress, request) => REPORTS.load(id, graph, { onProgress, ...(request?.onRecords ? { onRecords: request.onRecords } : {}) }),
        this.maxAgeMs,
        this.now,
      );
      this.sharesReportLoads = true;
    }
    if (this.sharesReportLoads) {
      this.cache.keepRecordsOf(assignmentHygieneReport.id);
      this.cache.keepRecordsOf(securityPostureReport.id);
    }
  }

  /**
   * What applies to what `query` names. With `scope` limited to scope tags (the viewer scope on,
   * docs/finding-rules.md "What applies", "For a viewer limited to scope tags"), only a device the
   * viewer may see is answered, listing only the objects carrying one of their tags; without it, or
   * for the whole tenant, the answer is the tenant's (the command line has no viewer).
   */
  async applies(query: string, options: { refresh?: boolean; scope?: ViewerScope; onProgress?: AppliesProgress } = {}): Promise<AppliesResult> {
    const refresh = options.refresh === true;
    const { scope, onProgress } = options;
    // Roles first: the answer lists report 2's objects and the device, so a viewer whose Intune roles
    // do not read them (docs/finding-rules.md, "Which role permissions open reports 2, 3 and 4") is
    // answered nothing, before any read and in the same words whatever they asked.
    if (scope && scope.kind !== 'none' && !appliesOpensTo(scope)) {
      return { kind: 'notFound', query, words: APPLIES_NOT_READ_BY_ROLE, requests: 0 };
    }
    // Scope first: a viewer limited to scope tags is told whether they may see the device before any
    // read that depends on its existence (`scoped`).
    if (scope && scope.kind !== 'tenant') return this.scoped(query, scope, refresh);
    const count: RequestCount = { requests: 0 };
    const whole = await this.whole(query, refresh, count, onProgress);
    if ('kind' in whole) return whole;
    const { kept, settings } = whole;
    const { outcome } = whole;
    if (outcome.kind !== 'found') return { ...outcome, requests: count.requests };
    // As old as its oldest read: the question's own, report 2's or report 3's.
    const at = Math.min(kept.at, settings?.at ?? kept.at);
    return { kind: 'found', answer: outcome.answer, requests: count.requests, loadedAt: new Date(at).toISOString() };
  }

  /** The question answered for the whole tenant: its reads, report 2's and (for a device) report 3's records, counted into `count`. */
  private async whole(
    query: string,
    refresh: boolean,
    count: RequestCount,
    onProgress?: AppliesProgress,
  ): Promise<{ kept: Kept; reads: AppliesReads; outcome: AppliesOutcome; settings: { value: ConflictSettings; at: number } | null } | Extract<AppliesResult, { kind: 'failed' }>> {
    let kept: Kept;
    let reads: AppliesReads;
    try {
      ({ kept, reads } = await countingRequests(count, async () => {
        const assignments = await this.assignments(refresh, onProgress && ((source, records) => onProgress({ step: 'assignments', source, records })));
        onProgress?.({ step: 'question' });
        const entry = this.question(query, assignments, refresh);
        return { kept: entry, reads: await entry.reads };
      }));
    } catch (error) {
      return { kind: 'failed', query, words: `The tenant could not be read: ${errorText(error)}`, requests: count.requests };
    }
    // Only a device's answer shows conflicts (conflicts.ts), so only a device's question reads the settings:
    // report 3's records where a load of them is at hand, else only the policies that may reach the device.
    const device = reads.resolution.kind === 'found' && reads.resolution.subject.kind === 'device';
    const settings = device
      ? await countingRequests(
          count,
          async () =>
            (await this.reportSettings(refresh, onProgress && ((source, records) => onProgress({ step: 'settings', source, records })))) ??
            // Where report 3's records are not at hand, or its load failed, only the policies the device needs.
            this.policySettings(kept, reads, refresh, onProgress),
        )
      : null;
    if (kept.outcome?.settings !== (settings?.value ?? null)) {
      kept.outcome = { settings: settings?.value ?? null, outcome: settings && kept.base ? withSettings(kept.base, settings.value) : answerApplies(reads, settings?.value) };
    }
    return { kept, reads, outcome: kept.outcome.outcome, settings };
  }

  /**
   * The answer for a viewer limited to scope tags: one device they may see (its own scope tags, read
   * on beta, carry one of theirs), with only the objects whose tags carry one of theirs; anything
   * else is told the same words, without the requests it took, so that neither says whether a
   * device outside their scope exists (src/core/applies/scope.ts). Whether they may see it is
   * decided first, from the device's own read, which carries its tags (`findTaggedDevices`): a
   * device outside their scope and one that does not exist make the same requests and nothing more,
   * so that neither the body, nor the time, nor the Graph requests tell them apart. Only a device
   * they may see is then read as the whole tenant's question is, by its id, and narrowed to their tags.
   */
  private async scoped(query: string, scope: Exclude<ViewerScope, { kind: 'tenant' }>, refresh: boolean): Promise<AppliesResult> {
    const refused: AppliesResult = { kind: 'notFound', query, words: scope.kind === 'none' ? scope.explanation : outsideScopeWords(query, scope), requests: 0 };
    if (scope.kind === 'none') return refused;
    const count: RequestCount = { requests: 0 };
    let devices: TaggedDevice[];
    try {
      devices = await countingRequests(count, () => findTaggedDevices(this.graph, query));
    } catch (error) {
      // Unknown tags are not the viewer's to see.
      this.options.log(`what applies: a device and its scope tags could not be read: ${errorText(error)}`);
      return refused;
    }
    // Devices of the same name outside their tags are not theirs to see, and do not make the question ambiguous.
    const visible = devices.filter((entry) => visibleTo(scope, entry.roleScopeTagIds));
    if (visible.length !== 1) return refused;
    const deviceId = visible[0]!.device.id;
    const whole = await this.whole(deviceId, refresh, count);
    if ('kind' in whole) return { ...whole, query };
    const { kept, reads, outcome, settings } = whole;
    if (outcome.kind !== 'found' || outcome.answer.subject.kind !== 'device' || outcome.answer.subject.id.toLowerCase() !== deviceId.toLowerCase()) return refused;
    // Report 2's beta lists carry the policies' and intents' scope tags; report 3's records, where at
    // hand, stand in for an object whose list did not send them.
    let posture: { records: SecurityPostureRecords; at: number } | null = null;
    try {
      posture = await countingRequests(count, () => this.reportRecords(securityPostureReport, refresh));
    } catch (error) {
      // Without report 3's records no object's tags are known, so none is shown, and the count says how many were not.
      this.options.log(`what applies: the policies' scope tags could not be read: ${errorText(error)}`);
    }
    const tagsOf = objectScopeTags(posture?.records ?? null);
    const shown = { ...reads, assignments: { ...reads.assignments, objects: objectsInScope(reads.assignments.objects, scope, tagsOf) } };
    const scopedOutcome = answerApplies(shown, settings?.value);
    if (scopedOutcome.kind !== 'found') return refused;
    const { answer, note } = scopedAnswer(scopedOutcome.answer, outcome.answer, scope);
    const at = Math.min(kept.at, settings?.at ?? kept.at, posture?.at ?? kept.at);
    return { kind: 'found', answer, requests: count.requests, loadedAt: new Date(at).toISOString(), scope: note };
  }

  /** The question's kept reads while they are fresh and made against the same assignment load; else new ones. */
  private question(query: string, assignments: { records: AssignmentRecords; at: number }, refresh: boolean): Kept {
    // One function makes both the key and the words looked up (resolve.ts), so that a key never holds
    // what other words found: `contoso-0027` and `CONTOSO-0027` are each their own look-up.
    const key = questionWords(query);
    const found = this.kept.get(key);
    if (found && !refresh && found.assignments === assignments.records && this.now() - found.at < this.maxAgeMs) return found;
    const at = Math.min(this.now(), assignments.at);
    const entry: Kept = { reads: loadAppliesReads(this.graph, key, assignments.records), assignments: assignments.records, at };
    // Questions kept against an older assignment load, or past their freshness, are of no more use,
    // and would keep that load's records alive: they go before the new one is kept.
    for (const [other, kept] of this.kept) if (kept.assignments !== assignments.records || this.now() - kept.at >= this.maxAgeMs) this.kept.delete(other);
    this.kept.delete(key);
    this.kept.set(key, entry);
    if (this.kept.size > MAX_KEPT_QUESTIONS) this.kept.delete(this.kept.keys().next().value!);
    entry.reads.then(
      (reads) => {
        const about = reads.resolution.kind === 'found' ? `a ${reads.resolution.subject.kind}` : `nothing (${reads.resolution.kind})`;
        this.options.log(`what applies: a question about ${about}, against ${reads.assignments.objects.length} assigned objects, ${reads.members.size} groups weighed`);
      },
      () => {
        if (this.kept.get(key) === entry) this.kept.delete(key);
      },
    );
    return entry;
  }

  /**
   * What each policy sets, from report 3's records where a load of them is at hand in the cache
   * (`reportRecords`), made into what the conflict rules read once per load; null where they are not.
   */
  private async reportSettings(refresh: boolean, onRead?: SourceRead): Promise<{ value: ConflictSettings; at: number } | null> {
    const posture = await this.reportRecords(securityPostureReport, refresh, onRead);
    if (!posture) return null;
    let value = this.settingsOf.get(posture.records);
    if (!value) {
      value = conflictSettingsOf(posture.records);
      this.settingsOf.set(posture.records, value);
    }
    return { value, at: posture.at };
  }

  /**
   * The settings of the policies that may reach the question's device (settings-read.ts): those read
   * for an earlier question while fresh, the others read now, twenty to a `$batch` call. Kept with the
   * question while fresh. A failed read is what the answer says instead of conflicts (each sub-request's
   * failure is its own, `batchGet`), never thrown.
   */
  private async policySettings(kept: Kept, reads: AppliesReads, refresh: boolean, onProgress?: AppliesProgress): Promise<{ value: ConflictSettings; at: number }> {
    if (kept.policySettings && !refresh && this.now() - kept.policySettings.at < this.maxAgeMs) return kept.policySettings;
    kept.base ??= answerApplies(reads);
    const policies = kept.base.kind === 'found' ? policiesThatMayApply(kept.base.answer.groups, reads.assignments.objects) : [];
    const now = this.now();
    for (const [id, entry] of this.readSettings) if (now - entry.at >= this.maxAgeMs) this.readSettings.delete(id);
    const known = (id: string) => (refresh ? undefined : this.readSettings.get(id.toLowerCase())?.read);
    // As report 3's load names the source it reads: the policies whose settings are read, counted.
    onProgress?.({ step: 'settings', source: 'configurationPolicies', records: policies.length });
    const { settings, read } = await readSettingsOf(this.graph, policies, known);
    for (const [id, entry] of read) if (entry.settingsError === null) this.readSettings.set(id.toLowerCase(), { read: entry, at: now });
    const ages = policies.map((policy) => this.readSettings.get(policy.id.toLowerCase())?.at ?? now);
    const value = { value: settings, at: Math.min(now, ...ages) };
    // A read that failed is not kept: the next question tries it again.
    if ([...read.values()].every((entry) => entry.settingsError === null)) kept.policySettings = value;
    return value;
  }

  /**
   * Report 2's records: from the cache when a load of report 2 is at hand there (`reportRecords`);
   * otherwise, or when the cache's report came without them (another instance's result) or failed,
   * read here without the audit log, which no answer shows, and kept like a report. A failed read
   * fails the question with Graph's own answer, as it always has.
   */
  private async assignments(refresh: boolean, onRead?: SourceRead): Promise<{ records: AssignmentRecords; at: number }> {
    return (
      (await this.reportRecords(assignmentHygieneReport, refresh, onRead)) ??
      this.cache.keep(
        'what-applies-assignments',
        async () => ({ records: await loadAssignments({ graph: this.graph, ...(onRead ? { onProgress: onRead } : {}) }, { stories: false }), at: this.now() }),
        { refresh, readAt: (value) => value.at },
      )
    );
  }

  /**
   * A report's records where a load of them is at hand in the cache (kept fresh, or under way,
   * `holdsRecordsOf`) and handed them; null otherwise, and where the cache does not share report
   * loads: the caller then reads only what its question needs.
   */
  private async reportRecords<Records>(
    report: { id: ReportId; load: (context: LoadContext) => Promise<Records> },
    refresh: boolean,
    onRead?: SourceRead,
  ): Promise<{ records: Records; at: number } | null> {
    if (!this.sharesReportLoads || !this.cache.holdsRecordsOf(report.id)) return null;
    const onProgress = onRead && ((progress: LoadProgress) => onRead(progress.source, progress.records));
    return this.cache.recordsOf<Records>(report.id, { refresh, ...(onProgress ? { onProgress } : {}) });
  }
}

/** A source of a report's load and how many records it has read so far. */
type SourceRead = (source: string, records: number) => void;

/**
 * What a question is doing while it waits, for the command line's progress (docs/contract.md, "The
 * command line"): reading report 2's assignments, looking up the subject and its groups, reading the
 * policies' settings (report 3's records, for a device's conflicts). Loads already kept say nothing.
 */
export type AppliesProgress = (step: { step: 'assignments' | 'settings'; source: string; records: number } | { step: 'question' }) => void;
