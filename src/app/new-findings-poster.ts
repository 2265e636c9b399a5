import { digestNewFindings } from '../core/ledger/new-findings.js';
import type { NewFindingsDigest } from '../core/ledger/new-findings.js';
import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import { scopeReport } from '../core/viewer-scope/scope-report.js';
import { describeScope } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import { StateStoreError } from '../store/state-store.js';
import type { ChannelLedger, LockOutcome, StateStore } from '../store/state-store.js';
import type { TriageRecords } from './triage-records.js';
import { errorText } from '../core/error-text.js';

/** What a post says, before it is drawn for its channel (the bot draws it as an Adaptive Card). */
export interface NewFindingsPost {
  digest: NewFindingsDigest;
  /** Each report's rows, which the post's findings name their subjects from. */
  rowsByReport: ReadonlyMap<string, ReportResult['rows']>;
  /** When a post to this channel was cut off before its ledger recorded it: this post may repeat what that one said. */
  interruptedPostAt?: string;
  /** The scope the post holds, in words ("scope tag Europe"), when it is one scope tag's (docs/finding-rules.md, "Viewer scope"). */
  scope?: string;
}

/** Somewhere a post can go: a team channel, a group chat, a personal chat. */
export interface PostTarget<Message> {
  /** The ledger's key: the channel (or chat) id, never a thread's. */
  channel: string;
  /** For people reading the outcome: "My Team › General". */
  name: string;
  send(message: Message): Promise<void>;
}

export type PostStatus = 'posted' | 'nothing-new' | 'busy' | 'failed';

export interface PostOutcome {
  channel: string;
  name: string;
  status: PostStatus;
  /** New and reopened findings in the post (or that would have been, for `failed`). */
  fresh: number;
  resolved: number;
  /** Reports that could not load, with the upstream status. */
  loadErrors: Array<{ report: ReportId; status: number | null }>;
  /** Why a post failed; never a token or a secret. */
  message?: string;
}

export interface NewFindingsPosterOptions<Message> {
  store: StateStore;
  /** Accepted and snoozed findings: a post leaves them out, and they are not resolved by being left out. */
  triage?: TriageRecords;
  /** The reports as loaded now (fresh, not an old cached copy: a post speaks of the present). */
  loadReports: (reports: readonly ReportId[]) => Promise<ReportResult[]>;
  /** Draws a post for its channel. */
  render: (post: NewFindingsPost) => Message;
  now?: () => Date;
  /** How long a trigger waits for another one posting to the same channel. */
  lockWaitMs?: number;
}

/**
 * Posts what is new in a channel since its last post (docs/contract.md, "The server's endpoints"). Under the channel's lock:
 * read the ledger, compare it with the reports as loaded now, post one message (drawn by `render`:
 * the bot's card) with only the new and reopened findings and how many were resolved, and only
 * once the post went out, record them. Two
 * triggers at once post once (the second finds nothing new); a post that fails records nothing, so
 * the next trigger posts it again.
 */
export class NewFindingsPoster<Message> {
  private readonly now: () => Date;

  constructor(private readonly options: NewFindingsPosterOptions<Message>) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * `results`, when given, are the reports already loaded for this trigger (one load serves every
   * target). With `alwaysAnswer`, a "nothing new" card is sent too (someone asked in the channel);
   * it records nothing. With `scope` (a schedule for one scope tag), the post holds only the findings
   * of that scope, filtered as the tab's API filters a viewer's report (`scopeReport`): a report whose
   * objects carry no scope tags is left out of the post and its ledger entries kept as they are, and a
   * finding the tenant's load still shows outside the scope is not resolved.
   */
  async post(
    target: PostTarget<Message>,
    reports: readonly ReportId[],
    options: { results?: ReportResult[]; alwaysAnswer?: boolean; scope?: ViewerScope } = {},
  ): Promise<PostOutcome> {
    const loaded = options.results ?? (await this.options.loadReports(reports));
    const { results, elsewhere } = options.scope ? inScope(loaded, options.scope) : { results: loaded, elsewhere: new Set<string>() };
    const scope = options.scope ? describeScope(options.scope) : undefined;
    const loadErrors = results.filter((result) => result.state === 'load-error').map((result) => ({ report: result.report, status: result.error?.status ?? null }));
    const base = { channel: target.channel, name: target.name, loadErrors };
    let locked: LockOutcome<PostOutcome>;
    try {
      locked = await this.options.store.withLock(target.channel, () => this.postUnderLock(target, results, base, options.alwaysAnswer ?? false, elsewhere, scope), {
        waitMs: this.options.lockWaitMs ?? 60_000,
      });
    } catch (error) {
      // A torn ledger fails its own channel, with the reason; the other channels are still posted to.
      if (!(error instanceof StateStoreError)) throw error;
      return { ...base, fresh: 0, resolved: 0, status: 'failed', message: `Nothing was posted: ${error.message}` };
    }
    return locked.ok ? locked.value : { ...base, fresh: 0, resolved: 0, status: 'busy', message: 'Another post to this channel is still under way.' };
  }

  private async postUnderLock(
    target: PostTarget<Message>,
    results: ReportResult[],
    base: Pick<PostOutcome, 'channel' | 'name' | 'loadErrors'>,
    alwaysAnswer: boolean,
    elsewhere: ReadonlySet<string>,
    scope: string | undefined,
  ): Promise<PostOutcome> {
    const { store } = this.options;
    const ledger = await store.readLedger(target.channel);
    const triaged = new Set(this.options.triage ? (await this.options.triage.inForce()).keys() : []);
    const digest = digestNewFindings(ledger, results, this.now(), triaged, elsewhere);
    const counts = { fresh: digest.freshCount, resolved: digest.resolvedCount };
    if (digest.freshCount === 0 && !alwaysAnswer) {
      // What an interrupted post held has resolved since: nothing is left that it may repeat.
      if (ledger.postStartedAt !== undefined) await store.writeLedger(withoutPostMarker(ledger));
      return { ...base, ...counts, status: 'nothing-new' };
    }
    const message = this.options.render({
      digest,
      rowsByReport: new Map(results.map((result) => [result.report, result.rows])),
      ...(ledger.postStartedAt !== undefined ? { interruptedPostAt: ledger.postStartedAt } : {}),
      ...(scope !== undefined ? { scope } : {}),
    });
    // The channel will be told of what resolved too, so the ledger records it.
    const records = digest.freshCount > 0 || digest.resolvedCount > 0;
    // At least once: a process killed after Teams took the card and before the ledger recorded it
    // posts the card again on the next trigger. The marker lets that card say so.
    if (records) await store.writeLedger({ ...ledger, postStartedAt: this.now().toISOString() });
    try {
      await target.send(message);
    } catch (error) {
      // Teams answered, and refused: nothing arrived, so the ledger is as it was.
      if (records) await store.writeLedger(ledger);
      return { ...base, ...counts, status: 'failed', message: errorText(error) };
    }
    if (records) await store.writeLedger(digest.nextLedger);
    return { ...base, ...counts, status: digest.freshCount > 0 ? 'posted' : 'nothing-new' };
  }
}

/**
 * The results as a post for `scope` holds them: each filtered by the viewer scope's own rule, those
 * refused (a report whose objects carry no scope tags) left out; and the fingerprints the loads show
 * outside the scope.
 */
function inScope(loaded: readonly ReportResult[], scope: ViewerScope): { results: ReportResult[]; elsewhere: Set<string> } {
  const results: ReportResult[] = [];
  const elsewhere = new Set<string>();
  for (const result of loaded) {
    const view = scopeReport(result, scope);
    if (view.ok) results.push(view.result);
    const seen = new Set(view.ok ? view.result.findings.map((finding) => finding.fingerprint) : []);
    for (const finding of result.findings) if (!seen.has(finding.fingerprint)) elsewhere.add(finding.fingerprint);
  }
  return { results, elsewhere };
}

function withoutPostMarker(ledger: ChannelLedger): ChannelLedger {
  const { postStartedAt: _dropped, ...rest } = ledger;
  return rest;
}
