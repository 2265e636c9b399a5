export type FindingSeverity = 'high' | 'medium' | 'low';

export interface FindingKind {
  /** What the finding is, in words an admin uses; plural form for counts. */
  label: string;
  severity: FindingSeverity;
}

/**
 * The finding kinds (docs/contract.md, "Finding kinds"), with how bad each is. "High" is what leaves devices or
 * the tenant exposed now (no recovery key, a firewall off, a dead connector, no approval on wipes);
 * "medium" weakens a control or makes it unpredictable; "low" is clutter or slowness.
 */
export const FINDING_KINDS: Readonly<Record<string, FindingKind>> = {
  'connector-unhealthy': { label: 'Connectors not working', severity: 'high' },
  'missing-recovery-key': { label: 'Devices without an escrowed BitLocker key', severity: 'high' },
  'firewall-profile-off': { label: 'Policies switching a firewall profile off', severity: 'high' },
  'area-unprotected': { label: 'High-impact areas without approval', severity: 'high' },
  'blue-screens': { label: 'Devices with blue screens', severity: 'high' },
  'missing-laps-password': { label: 'Devices without an escrowed LAPS password', severity: 'medium' },
  'recovery-key-not-in-entra': { label: 'Hybrid-joined devices without a BitLocker key in Entra ID', severity: 'medium' },
  'asr-rule-audit': { label: 'Policies with ASR rules in audit', severity: 'medium' },
  'baseline-outdated': { label: 'Outdated security baselines', severity: 'medium' },
  'assigned-to-missing-or-empty-groups': { label: 'Assigned only to deleted or empty groups', severity: 'medium' },
  'all-users-and-all-devices': { label: 'Assigned to All users and All devices', severity: 'medium' },
  'unreliable-app': { label: 'Unreliable applications', severity: 'medium' },
  unassigned: { label: 'Not assigned to anyone', severity: 'low' },
  'exclusions-only': { label: 'Assigned with exclusions only', severity: 'low' },
  'slow-startup': { label: 'Devices slow to start', severity: 'low' },
};

const SEVERITY_RANK: Record<FindingSeverity, number> = { high: 0, medium: 1, low: 2 };

export function findingKind(kind: string): FindingKind {
  return FINDING_KINDS[kind] ?? { label: kind, severity: 'medium' };
}

export interface FindingCount extends FindingKind {
  kind: string;
  count: number;
}

/** Findings counted by kind, worst first: by severity, then by how many. */
export function countFindingsByKind(findings: readonly { kind: string }[]): FindingCount[] {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + 1);
  return [...counts]
    .map(([kind, count]) => ({ kind, count, ...findingKind(kind) }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || a.kind.localeCompare(b.kind));
}

/** Findings worst first: by the severity of their kind; stable otherwise, so a report's own order holds. */
export function findingsWorstFirst<T extends { kind: string }>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[findingKind(a.kind).severity] - SEVERITY_RANK[findingKind(b.kind).severity]);
}
