export type FindingSeverity = 'high' | 'medium' | 'low';

/**
 * How bad a finding kind is (docs/contract.md, "Finding kinds"). "High" is what leaves devices or the
 * tenant exposed now (no recovery key, a firewall off, a dead connector, no approval on wipes);
 * "medium" weakens a control or makes it unpredictable; "low" is clutter or slowness.
 */
export interface FindingKind {
  /** What the finding is, in words an admin uses; plural form for counts. */
  label: string;
  /** The label for a count of one, where it differs from `label` ("Policy switching a firewall profile off"); words.ts `kindLabel` picks. */
  one?: string;
  severity: FindingSeverity;
  /** What an administrator does about it, for the tab's details pane, the bot's cards and the CLI. */
  remediation: Remediation;
}

/**
 * Guidance for one finding kind (docs/finding-rules.md, "Remediation guidance"). It never asks anyone
 * to read or show a secret (a BitLocker key, a LAPS password) through this app, which reads metadata only.
 */
export interface Remediation {
  /** Why it matters: one or two sentences, concrete (what breaks, for whom, when). */
  why: string;
  /** How to fix it, step by step, in the Intune admin center or Entra admin center words (menu paths as the portal names them: "Devices > Windows > ..."). 2–6 steps. */
  steps: readonly string[];
  /** Microsoft Learn pages (https://learn.microsoft.com/...) that back the why and the steps; at least one. */
  sources: ReadonlyArray<{ title: string; url: string }>;
}

/**
 * The finding kinds one report can state, by kind. Each report declares its own table; its kinds are
 * the keys, so a misspelt kind in the report does not compile.
 */
export type FindingKindTable<Kind extends string = string> = Readonly<Record<Kind, FindingKind>>;

const SEVERITY_RANK: Record<FindingSeverity, number> = { high: 0, medium: 1, low: 2 };

/** 0 for the worst severity: sorts worst first. */
export function severityRank(severity: FindingSeverity): number {
  return SEVERITY_RANK[severity];
}

/** A severity as people read it, the same word in the tab, the bot's cards and the CLI. */
export const SEVERITY_LABEL: Readonly<Record<FindingSeverity, string>> = { high: 'High', medium: 'Medium', low: 'Low' };

/**
 * A kind as a reader looks it up by name. A kind its table lacks has no guidance, and neither has one
 * from a table sent by a server older than remediation guidance: `remediation` is null for both.
 */
export interface FindingKindLookup extends Omit<FindingKind, 'remediation'> {
  remediation: Remediation | null;
}

/**
 * A kind as its table has it. A kind the table lacks (a result from a newer server) is counted
 * under its own name rather than dropped.
 */
export function findingKind(kinds: FindingKindTable, kind: string): FindingKindLookup {
  if (!Object.hasOwn(kinds, kind)) return { label: kind, severity: 'medium', remediation: null };
  const entry = kinds[kind]!;
  // The table's own object when it is complete: sorting 100,000 rows looks kinds up often.
  return entry.remediation ? entry : { label: entry.label, ...(entry.one ? { one: entry.one } : {}), severity: entry.severity, remediation: null };
}

export interface FindingCount extends FindingKindLookup {
  kind: string;
  count: number;
}

/** Findings counted by kind, worst first: by severity, then by how many. */
export function countFindingsByKind(findings: readonly { kind: string }[], kinds: FindingKindTable): FindingCount[] {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + 1);
  return [...counts]
    .map(([kind, count]) => ({ kind, count, ...findingKind(kinds, kind) }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || a.kind.localeCompare(b.kind));
}

/** Findings worst first: by the severity of their kind; stable otherwise, so a report's own order holds. */
export function findingsWorstFirst<T extends { kind: string }>(findings: readonly T[], kinds: FindingKindTable): T[] {
  // One pass per severity, each keeping the report's order: what a stable sort by severity gives,
  // without looking each finding's kind up at every comparison (1.7 s for 150,000 findings, held
  // by a CSV export before its first line).
  const bySeverity: T[][] = [[], [], []];
  const rankOf = new Map<string, number>();
  for (const finding of findings) {
    let rank = rankOf.get(finding.kind);
    if (rank === undefined) rankOf.set(finding.kind, (rank = SEVERITY_RANK[findingKind(kinds, finding.kind).severity]));
    bySeverity[rank]!.push(finding);
  }
  return bySeverity.flat();
}

/** Findings by the subject they are about (a table row's \`id\`), each subject's worst first. */
export function findingsBySubject<T extends { kind: string; subjectId: string }>(findings: readonly T[], kinds: FindingKindTable): Map<string, T[]> {
  const bySubject = new Map<string, T[]>();
  for (const finding of findingsWorstFirst(findings, kinds)) {
    const found = bySubject.get(finding.subjectId);
    if (found) found.push(finding);
    else bySubject.set(finding.subjectId, [finding]);
  }
  return bySubject;
}
