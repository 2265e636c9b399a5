/**
 * Which assignment filter decides whether an object reaches a device (docs/finding-rules.md, "What
 * applies", "Filters"): how each assignment's filter reads for the subject, and Intune's precedence
 * between the filters of the assignments that reach it. The rule itself is evaluated in filter-rule.ts.
 */

import { noFilterInTenant } from '../reports/assignment-hygiene/records.js';
import type { AssignableObject, AssignmentFilterInfo, AssignmentTarget } from '../reports/assignment-hygiene/records.js';
import type { OptionalRead } from '../reports/optional-read.js';
import type { AppliedFilter, AppliesSubject } from './entry-types.js';
import { evaluateFilterRule } from './filter-rule.js';

/** The tenant's assignment filters as "what applies" reads them (its records' `filters`). */
interface FilterRecords {
  filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo & { rule?: string | null }>>;
}

/** How a filter on an assignment reads for the subject; `mode` is the assignment's filter mode, `none` when it has none. */
export interface FilterReading {
  mode: 'exclude' | 'none' | 'include' | 'unrecognised';
  filter?: AppliedFilter;
  caveat?: string;
}

export function filterOf(target: AssignmentTarget, subject: AppliesSubject, records: FilterRecords, object: AssignableObject): FilterReading {
  if (target.filter === undefined) {
    if (noFilterInTenant(records.filters)) return { mode: 'none' };
    // Its assignments were to be read again on /beta to see their filters, and could not be: unknown, never "no filter".
    if (object.betaAssignmentsFailure) {
      const name = 'a filter /v1.0 does not show';
      return {
        mode: 'unrecognised',
        filter: { mode: 'include', id: null, name, verdict: 'depends', words: `depends on whether ${name} keeps it out: ${object.betaAssignmentsFailure}` },
      };
    }
    return {
      mode: 'none',
      caveat:
        object.readOnV1 === true
          ? 'Read on /v1.0, which does not show assignment filters: a filter could still keep it out.'
          : 'Graph sent this assignment without its filter fields: a filter could still keep it out.',
    };
  }
  if (target.filter.mode === 'none') return { mode: 'none' };
  if (target.filter.mode === 'unrecognised') {
    const name = `a filter of type "${target.filter.value}"`;
    return { mode: 'unrecognised', filter: { mode: 'include', id: null, name, verdict: 'depends', words: `depends on ${name}, a filter mode this app does not know` } };
  }
  const { mode, id } = target.filter;
  const info = id && records.filters.ok ? records.filters.value.get(id) : undefined;
  // Named by its display name where Graph gave it; an id alone is not a name anyone recognises.
  const how = mode === 'include' ? 'include filter' : 'exclude filter';
  // Named by its display name where Graph gave it; a bare id is not a name anyone recognises (the id stays in `id`).
  const name = info?.displayName ?? 'an assignment filter not in the filter list';
  const label = info ? `the ${how} "${info.displayName}"` : records.filters.ok ? `an ${how} that is not in the tenant's filter list` : `an ${how}`;
  const rule =
    subject.kind !== 'device'
      ? { kind: 'depends' as const, reason: 'a filter is evaluated on each device' }
      : !records.filters.ok
        ? { kind: 'depends' as const, reason: `the assignment filters could not be read: ${records.filters.reason}` }
        : !info
          ? { kind: 'depends' as const, reason: 'its rule could not be read' }
          : evaluateFilterRule(info.rule, subject.properties);
  // Include mode: in when the rule matches. Exclude mode: in when it does not
  // (learn.microsoft.com/mem/intune/fundamentals/filters, "Include filtered devices / Exclude filtered devices").
  const verdict = rule.kind === 'depends' ? 'depends' : (rule.kind === 'match') === (mode === 'include') ? 'in' : 'out';
  const words = verdict === 'in' ? `${label} lets it in` : verdict === 'out' ? `${label} keeps it out` : `depends on ${label} (${rule.kind === 'depends' ? rule.reason : ''})`;
  return { mode, filter: { mode, id, name, verdict, words } };
}

/**
 * Intune's precedence between the filters of the assignments that reach the subject (Microsoft
 * Learn, "Filter reports and troubleshooting", "Filter mode"): exclude mode wins over no filter
 * and over include mode, no filter wins over include mode; between filters of one mode "OR logic
 * is used" (one match is enough to include, or to exclude). A filter of a mode not known leaves it
 * undecided unless an exclude filter already keeps the object out.
 */
export function decideFilters<T extends { reading: FilterReading }>(candidates: readonly T[]): { verdict: 'in' | 'out' | 'depends'; decider: T } {
  const of = (mode: FilterReading['mode']) => candidates.filter((candidate) => candidate.reading.mode === mode);
  const excludes = of('exclude');
  const keepsOut = excludes.find((candidate) => candidate.reading.filter?.verdict === 'out');
  if (keepsOut) return { verdict: 'out', decider: keepsOut };
  const unrecognised = of('unrecognised')[0];
  if (unrecognised) return { verdict: 'depends', decider: unrecognised };
  if (excludes.length > 0) {
    const depends = excludes.find((candidate) => candidate.reading.filter?.verdict === 'depends');
    return depends ? { verdict: 'depends', decider: depends } : { verdict: 'in', decider: excludes[0]! };
  }
  const unfiltered = of('none')[0];
  if (unfiltered) return { verdict: 'in', decider: unfiltered };
  const includes = of('include');
  const letsIn = includes.find((candidate) => candidate.reading.filter?.verdict === 'in');
  if (letsIn) return { verdict: 'in', decider: letsIn };
  const depends = includes.find((candidate) => candidate.reading.filter?.verdict === 'depends');
  return depends ? { verdict: 'depends', decider: depends } : { verdict: 'out', decider: includes[0]! };
}
