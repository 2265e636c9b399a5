import { createHash } from 'node:crypto';

/**
 * A stable identity for a finding: report, kind, subject and the rule detail that makes it what it
 * is, never a display name or a timestamp, so "new since the last post" survives renames and
 * restarts. Ids are compared case-insensitively, as Graph does.
 */
export function findingFingerprint(report: string, kind: string, subjectId: string, ruleKey = ''): string {
  return createHash('sha256')
    .update(JSON.stringify([report, kind, subjectId.toLowerCase(), ruleKey]))
    .digest('hex')
    .slice(0, 32);
}
