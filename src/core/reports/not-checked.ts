/**
 * What a load could not check, in one shape for every reader (docs/contract.md, "Not checked"): the
 * tab's report and tile, the bot's cards and the CLI all render these, and none words it alone.
 * Browser-safe, like the report model.
 */

import { SEVERITY_LABEL, findingKind, severityRank } from '../findings/finding-kinds.js';
import type { FindingKindTable, FindingSeverity } from '../findings/finding-kinds.js';
import type { GraphApplicationPermission } from '../graph/graph-permissions.js';
import { plural } from '../text/words.js';

/**
 * One source a load could not read because Graph refused it (403: the permission is not granted),
 * and the checks that therefore did not run. "Not checked" is never "clean": a reader must not take
 * the findings shown for all there is.
 */
export interface NotCheckedSource {
  /** The source in the reader's words ("BitLocker recovery keys"). */
  source: string;
  /** The column shown as n/a because of it. */
  column: string;
  /** The application permission Graph wanted for it. */
  permission: GraphApplicationPermission;
  /** The checks that did not run, worst first: the finding kinds only this source proves. */
  checks: Array<{ kind: string; label: string; severity: FindingSeverity }>;
  /** The worst of those checks: what the report could be hiding at worst. */
  worst: FindingSeverity;
}

/** A report's source that can be n/a (`ReportPresentation.optionalSources`). */
export interface OptionalSource<Kind extends string = string> {
  column: string;
  findingKinds: readonly Kind[];
  /** The source in the reader's words. */
  source: string;
  /** The permission that reads it; a 403 from it is what makes its column n/a. */
  permission: GraphApplicationPermission;
}

/** What of a report column (report-model.ts, `ReportColumn`) tells whether its source was read; named here so the model can import this file without a circle. */
interface ColumnAvailability {
  key: string;
  label: string;
  available: boolean;
}

/** The optional sources whose column came back n/a, with what they would have checked. */
export function notCheckedSources(optionalSources: readonly OptionalSource[], columns: readonly ColumnAvailability[], kinds: FindingKindTable): NotCheckedSource[] {
  const unavailable = new Map(columns.filter((column) => !column.available).map((column) => [column.key, column.label]));
  return optionalSources
    .filter((optional) => unavailable.has(optional.column))
    .map((optional) => {
      const checks = optional.findingKinds
        .map((kind) => {
          const { label, severity } = findingKind(kinds, kind);
          return { kind, label, severity };
        })
        .sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
      return {
        source: optional.source,
        column: unavailable.get(optional.column)!,
        permission: optional.permission,
        checks,
        worst: checks[0]?.severity ?? 'low',
      };
    });
}

/** The worst check that did not run among a report's sources; null when everything was checked. */
export function worstNotChecked(sources: readonly NotCheckedSource[]): FindingSeverity | null {
  let worst: FindingSeverity | null = null;
  for (const source of sources) if (worst === null || severityRank(source.worst) < severityRank(worst)) worst = source.worst;
  return worst;
}

/** The headline: how much was not checked, and how bad it could be ("Not checked: 2 checks, up to High"). */
export function notCheckedHeadline(sources: readonly NotCheckedSource[]): string {
  const checks = sources.reduce((sum, source) => sum + source.checks.length, 0);
  const worst = worstNotChecked(sources);
  return `Not checked: ${plural(checks, 'check')}${worst ? `, up to ${SEVERITY_LABEL[worst]}` : ''}`;
}

/** Which checks did not run, for one source: "Devices without an escrowed BitLocker key (High)". */
export function notCheckedChecksText(source: NotCheckedSource): string {
  return source.checks.map((check) => `${check.label} (${SEVERITY_LABEL[check.severity]})`).join('; ');
}

/** Why, and what to grant: "Graph refused to read BitLocker recovery keys (n/a column: Recovery key). Grant the app …". */
export function notCheckedReasonText(source: NotCheckedSource): string {
  return `Graph refused to read ${source.source} (n/a column: ${source.column}). Grant the app ${source.permission}, with admin consent, then load the report again.`;
}

/** In one line, for a tile or a card's report line: "Not checked: 2 checks, up to High. Needs BitlockerKey.ReadBasic.All, not granted." */
export function notCheckedLine(sources: readonly NotCheckedSource[]): string {
  const permissions = [...new Set(sources.map((source) => source.permission))];
  return `${notCheckedHeadline(sources)}. Needs ${permissions.join(' and ')}, not granted.`;
}
