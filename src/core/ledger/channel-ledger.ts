import type { ReportId } from '../reports/report-model.js';

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
  /**
   * Written just before a card is sent and cleared by the write that records it. Found set when the
   * ledger is read again, a post was cut off between the two (the process died): whether that card
   * reached the channel cannot be known, so the next post says it may repeat it.
   */
  postStartedAt?: string;
}

export function emptyLedger(channel: string): ChannelLedger {
  return { channel, entries: [], updatedAt: null };
}
