import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * A stable identity for a finding: report, kind, subject and the rule detail that makes it what it
 * is, never a display name or a timestamp, so "new since the last post" survives renames and
 * restarts. Ids are compared case-insensitively, as Graph does. SHA-256 from `@noble/hashes`, not
 * Node's crypto, so that the core stays browser-safe; the digest is the same, so fingerprints kept
 * in ledgers and triage decisions still match whichever digest made them.
 */
export function findingFingerprint(report: string, kind: string, subjectId: string, ruleKey = '', digest: Sha256Hex = sha256Hex): string {
  return digest(JSON.stringify([report, kind, subjectId.toLowerCase(), ruleKey])).slice(0, 32);
}

/** SHA-256 of a text's UTF-8 bytes, in lower-case hex. */
export type Sha256Hex = (text: string) => string;

/**
 * The browser-safe digest. Where the code runs on Node, the application floor hands the registry
 * Node's own (`nodeSha256Hex`), about four times faster over a large report's findings
 * (docs/performance.md); the digests are the same.
 */
export const sha256Hex: Sha256Hex = (text) => bytesToHex(sha256(utf8ToBytes(text)));
