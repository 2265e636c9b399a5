import { promisify } from 'node:util';
import { constants as bufferConstants } from 'node:buffer';
import { gunzip, gzip } from 'node:zlib';
import type { StoredReference } from '../core/conversation-reference.js';
import type { ChannelLedger } from '../core/ledger/channel-ledger.js';
import { errorText } from '../core/error-text.js';

/**
 * The app's small state (docs/architecture.md): where the bot is installed, what it has already
 * posted in each channel, and the app's own documents (triage decisions, report history). One
 * interface, two homes: files under `.data/` (the embedded default) and Azure Blob Storage for a
 * deployment with several instances.
 */
export interface StateStore {
  /** `file` or `azure-blob`, for logs and the README. */
  readonly kind: StateStoreKind;
  /**
   * The tenant whose state this is (`tenantKeyOf`): everything below is kept under it, apart from
   * every other tenant's, so no tenant's history, triage, ledgers, schedules or installations are
   * ever read as another's (docs/contract.md, "State").
   */
  readonly tenant: TenantKey;

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

  /** One of the app's documents by name (`triage`, `history-escrow-gaps`): its text, or null when it was never written. */
  readDocument(name: DocumentName): Promise<string | null>;
  /** Replaces a document as a whole: a reader sees the old or the new text, never a mix. */
  writeDocument(name: DocumentName, text: string): Promise<void>;
  /** A large document kept gzip-compressed (`documents/<name>.json.gz`), such as a shared report result; null when never written. */
  readCompressed(name: DocumentName): Promise<string | null>;
  writeCompressed(name: DocumentName, text: string): Promise<void>;

  /**
   * Runs `work` while holding the lock of that name (a channel's posting lock, a document's writing
   * lock such as `document:triage`, a shared load's `load:<id>`, a schedule's run
   * `schedule:<channel>`), across processes and instances that share the store,
   * so that two triggers at once post once and two writers never lose each other's change. Waits
   * for a lock held elsewhere up to `waitMs`, then answers `busy` without running `work`. A lock
   * whose holder died is taken over after its lease lapses.
   */
  withLock<T>(name: string, work: () => Promise<T>, options?: { waitMs?: number }): Promise<LockOutcome<T>>;

  close(): Promise<void>;
}

export type StateStoreKind = 'file' | 'azure-blob';

/**
 * Whose state a store keeps: a tenant id in lower case, or `demo-<tenant id>` for a simulated tenant,
 * so that a demo never shares state with a real tenant. Both stores use it as a folder name.
 */
export type TenantKey = string;

/** The folder (file store) or blob prefix (Azure Blob) under which each tenant's state is kept. */
const TENANTS_FOLDER = 'tenants';

/** A tenant's own folder or blob prefix, `tenants/<tenant>`: everything a store opened for it reads and writes is below it. */
export function tenantFolder(tenant: TenantKey): string {
  return `${TENANTS_FOLDER}/${tenant}`;
}

/** The folders of the layout before state was kept per tenant: what is found in them is left alone and never read. */
export const UNSCOPED_FOLDERS = ['installations', 'ledgers', 'documents'] as const;

export function checkTenantKey(tenant: TenantKey): void {
  // Keys are made by tenantKeyOf from a configured tenant id; a wrong one is a bug or a bad id, checked before it names a folder.
  if (!/^[a-z0-9]+([.-][a-z0-9]+)*$/.test(tenant)) throw new Error(`Not a tenant key: ${JSON.stringify(tenant)}`);
}

/** Where a document is kept, for a message that tells an operator to move it aside: the same path in a folder or a container. */
export function documentPath(store: Pick<StateStore, 'tenant'>, name: DocumentName): string {
  return `${tenantFolder(store.tenant)}/documents/${name}.json`;
}

/** What a store says once at opening when it holds state written before it was kept per tenant. */
export function unscopedStateWarning(where: string): string {
  return (
    `state store: ${where} holds state written before it was kept per tenant (history, triage, ledgers, installations); ` +
    'it is not shown for any tenant and can be deleted (docs/contract.md, "State").'
  );
}

/** A document's name: lower-case words and digits joined by hyphens, which both stores use as a file or blob name as it is. */
export type DocumentName = string;

const { MAX_STRING_LENGTH } = bufferConstants;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Compresses off the event loop (zlib's thread pool): a shared report result is tens of megabytes. */
export function compressText(text: string): Promise<Buffer> {
  return gzipAsync(Buffer.from(text, 'utf8'));
}

/**
 * How far a stored document may inflate: 64 times its compressed size, and at least 64 MiB, never
 * past the longest string V8 holds. The reports' JSON compresses about 5 to 9 times, so no document
 * this app wrote comes near it; a document made to inflate 1,000 times (deflate's limit) would
 * otherwise take gigabytes before it could be refused.
 */
export function inflateCap(compressedBytes: number): number {
  return Math.min(MAX_STRING_LENGTH, Math.max(64 * 1024 * 1024, compressedBytes * 64));
}

export async function decompressText(bytes: Buffer, name: DocumentName): Promise<string> {
  try {
    // zlib stops at maxOutputLength rather than allocate past it (RangeError, ERR_BUFFER_TOO_LARGE).
    return (await gunzipAsync(bytes, { maxOutputLength: inflateCap(bytes.length) })).toString('utf8');
  } catch (error) {
    const tooLarge = error instanceof RangeError || (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
    throw new StateStoreError(
      tooLarge
        ? `The compressed document ${name} in the state store inflates past ${inflateCap(bytes.length)} bytes, more than this app writes; it is discarded and written again by the next load.`
        : `The compressed document ${name} in the state store is damaged; it is written again by the next load.`,
    );
  }
}

export function checkDocumentName(name: DocumentName): void {
  // Names are ours, never a user's: a wrong one is a bug.
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`Not a document name: ${name}`);
}

// What the store keeps, declared in the core, which reads it.
export type { StoredReference } from '../core/conversation-reference.js';
export { emptyLedger } from '../core/ledger/channel-ledger.js';
export type { ChannelLedger, LedgerEntry } from '../core/ledger/channel-ledger.js';

export type LockOutcome<T> = { ok: true; value: T } | { ok: false; reason: 'busy' };

export interface StoredInstallation {
  key: string;
  reference: StoredReference;
}

/** The store could not be read as it must be (a torn or foreign ledger): posting on it would repeat everything. */
export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
}

/** A ledger as stored, checked: a wrong one is an error, never an empty ledger. */
export function parseLedger(text: string, channel: string): ChannelLedger {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StateStoreError(`The ledger of channel ${channel} is not valid JSON; move it aside to start that channel afresh.`);
  }
  const ledger = parsed as Partial<ChannelLedger> | null;
  const wellFormed =
    ledger &&
    ledger.channel === channel &&
    Array.isArray(ledger.entries) &&
    (ledger.updatedAt === null || typeof ledger.updatedAt === 'string') &&
    (ledger.postStartedAt === undefined || typeof ledger.postStartedAt === 'string');
  if (!wellFormed) {
    throw new StateStoreError(`The ledger of channel ${channel} does not have the expected shape.`);
  }
  return ledger as ChannelLedger;
}

/**
 * One of the app's documents read as what it must be: `empty` when it was never written, and a
 * `StateStoreError` saying `unreadable` when its text is not that (torn, foreign), never an empty
 * value that the next write would put over what was there.
 */
export async function readDocumentAs<T>(store: StateStore, name: DocumentName, is: (value: unknown) => value is T, empty: () => T, unreadable: string): Promise<T> {
  const text = await store.readDocument(name);
  if (text === null) return empty();
  const parsed = parseJsonOrUndefined(text);
  if (!is(parsed)) throw new StateStoreError(unreadable);
  return parsed;
}

/** JSON or, for text that is not, undefined. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isStoredInstallation(value: unknown): value is StoredInstallation {
  const candidate = value as Partial<StoredInstallation> | null | undefined;
  return typeof candidate?.key === 'string' && typeof candidate.reference === 'object' && candidate.reference !== null;
}

/**
 * The waiting, renewing and releasing around a lock (a channel's posting, a document's, a shared
 * load's, a schedule's run) that both stores share: try to take the lock with a growing pause up to
 * `waitMs`, keep the lease alive while `work` runs, release it afterwards whatever happened.
 */
export async function lockLoop<T>(steps: {
  /** The lock's name, for the log. */
  name: string;
  waitMs: number;
  tryAcquire: () => Promise<boolean>;
  renewEveryMs: number;
  renew: () => Promise<unknown>;
  release: () => Promise<unknown>;
  work: () => Promise<T>;
  warn: (line: string) => void;
}): Promise<LockOutcome<T>> {
  const deadline = Date.now() + steps.waitMs;
  let pause = 20;
  while (!(await steps.tryAcquire())) {
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false, reason: 'busy' };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, 500);
  }
  const renewal = setInterval(() => {
    steps.renew().catch((error: unknown) => steps.warn(`state store: could not renew the lock ${steps.name}: ${errorText(error)}`));
  }, steps.renewEveryMs);
  try {
    return { ok: true, value: await steps.work() };
  } finally {
    clearInterval(renewal);
    await steps.release().catch((error: unknown) => steps.warn(`state store: could not release the lock ${steps.name}: ${errorText(error)}`));
  }
}
