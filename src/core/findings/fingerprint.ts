import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * A stable identity for a finding: report, kind, subject and the rule detail that makes it what it
 * is, never a display name or a timestamp, so "new since the last post" survives renames and
 * restarts. Ids are compared case-insensitively, as Graph does. SHA-256 from `@noble/hashes`, not
 * Node's crypto, so that the core stays browser-safe; the digest is the same, so fingerprints kept
 * in ledgers and triage decisions still match.
 */
export function findingFingerprint(report: string, kind: string, subjectId: string, ruleKey = ''): string {
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify([report, kind, subjectId.toLowerCase(), ruleKey])))).slice(0, 32);
}
