import type { ReportId } from '../reports/report-model.js';

/**
 * The bot's small state (design section 1): where the app is installed, and what it has already
 * posted in each channel. One interface, two homes: files under `.data/` (the embedded default)
 * and Azure Blob Storage for a deployment with several instances.
 */
export interface StateStore {
  /** `file` or `azure-blob`, for logs and the README. */
  readonly kind: StateStoreKind;

  /**
   * Records where the bot is installed (a Bot Framework conversation reference, kept as JSON).
   * Without `overwrite`, an existing record is kept and `false` returned.
   */
  putInstallation(key: string, reference: StoredReference, options: { overwrite: boolean }): Promise<boolean>;
  /** Forgets an installation (uninstall, team deleted); `false` when there was none. */
  removeInstallation(key: string): Promise<boolean>;
  /** Every installation, in key order. */
  listInstallations(): Promise<StoredInstallation[]>;

  /** A channel's ledger; an empty one (version null) for a channel that was never posted to. */
  readLedger(channel: string): Promise<ChannelLedger>;
  /** Replaces a channel's ledger as a whole: a reader sees the old or the new one, never a mix. */
  writeLedger(ledger: ChannelLedger): Promise<void>;

  /**
   * Runs `work` while holding the channel's posting lock, across processes and instances that
   * share the store, so that two triggers at once post once. Waits for a lock held elsewhere up to
   * `waitMs`, then answers `busy` without running `work`. A lock whose holder died is taken over
   * after its lease lapses.
   */
  withChannelLock<T>(channel: string, work: () => Promise<T>, options?: { waitMs?: number }): Promise<LockOutcome<T>>;

  close(): Promise<void>;
}

export type StateStoreKind = 'file' | 'azure-blob';

export type LockOutcome<T> = { ok: true; value: T } | { ok: false; reason: 'busy' };

/** A conversation reference as Bot Framework defines it, stored as plain JSON. */
export type StoredReference = Record<string, unknown>;

export interface StoredInstallation {
  key: string;
  reference: StoredReference;
}

/** One finding as a channel last heard of it. */
export interface LedgerEntry {
  fingerprint: string;
  report: ReportId;
  kind: string;
  subjectId: string;
  subjectName: string;
  /** `open`: posted as new (or reopened) and not yet seen resolved; `resolved`: counted as resolved in a post. */
  status: 'open' | 'resolved';
  /** When this status was posted. */
  changedAt: string;
}

/** What a channel has been told, by fingerprint. */
export interface ChannelLedger {
  channel: string;
  entries: LedgerEntry[];
  /** When the ledger was last written; null for a channel never posted to. */
  updatedAt: string | null;
}

export function emptyLedger(channel: string): ChannelLedger {
  return { channel, entries: [], updatedAt: null };
}
