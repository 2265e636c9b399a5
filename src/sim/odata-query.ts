import type { SimNestedResource, SimResource, VersionSegment } from './resources/resource-model.js';
import type { GraphRecord } from './tenants/sim-tenant.js';

/**
 * The OData query options the simulator reads, as Graph reads them (learn.microsoft.com/graph/query-parameters):
 * which it takes on a resource and which it refuses, `$filter`'s forms, `$select` against the entity
 * type, and the `$skiptoken` of a next page.
 */

const SUPPORTED_QUERY_OPTIONS = new Set(['$select', '$expand', '$top', '$skiptoken', '$filter']);

/** A query option the resource does not take, or a value it refuses: Graph's 400 message; nothing when the query is fine. */
export function checkQueryOptions(query: URLSearchParams, resource: SimResource | SimNestedResource): string | undefined {
  for (const name of query.keys()) {
    if (name.startsWith('$') && !SUPPORTED_QUERY_OPTIONS.has(name)) return `Query option '${name}' is not supported on ${resource.path} by this look-alike.`;
  }
  const filter = query.get('$filter');
  if (filter !== null) {
    const range = dateRange(filter, resource);
    const equality = FILTER_EQUALS.exec(filter.trim());
    if (range === null) return `Invalid filter clause: '${filter}' is not a date range ${resource.path} answers.`;
    if (range === undefined && (!equality || !resource.filterable?.includes(equality[1]!)))
      return `Invalid filter clause: '${filter}' is not supported on ${resource.path} by this look-alike.`;
  }
  const top = query.get('$top');
  if (top !== null) {
    if (resource.rejectsTop) return "The query parameter '$top' is not supported on this resource.";
    const value = Number(top);
    if (!Number.isInteger(value) || value < 1 || value > 999) return `Invalid value '${top}' for $top: it must be between 1 and 999.`;
  }
  for (const navigation of listOption(query.get('$expand'))) {
    if (!resource.navigation.includes(navigation)) return `Could not find a navigation property named '${navigation}' on ${resource.path}.`;
  }
  return undefined;
}

/**
 * Graph's answer to a `$select` naming a property the entity type does not have in this version's
 * schema (entity-properties.ts), a beta-only property on `/v1.0` among them (v1-schema.ts). A type-cast
 * item (`microsoft.graph.win32LobApp/displayVersion`) is not modelled, so it is refused as unsupported
 * rather than answered without the property.
 */
export function unknownSelected(query: URLSearchParams, resource: SimResource | SimNestedResource, version: VersionSegment): string | undefined {
  const known = resource.properties?.[version];
  const betaOnly = version === 'v1.0' ? (resource.v1Omits?.properties ?? []) : [];
  for (const name of listOption(query.get('$select'))) {
    if (name.includes('/')) return `Select item '${name}' is not supported on ${resource.path} by this look-alike.`;
    if ((known && !known.includes(name)) || betaOnly.includes(name)) {
      return `Parsing OData Select and Expand failed: Could not find a property named '${name}' on type 'microsoft.graph.${resource.properties?.type ?? resource.source}'.`;
    }
  }
  return undefined;
}

/** `$filter=<property> eq '<value>'`, the one filter form the look-alike answers. */
const FILTER_EQUALS = /^(\w+) eq '((?:[^']|'')*)'$/;

/** `<property> ge|gt <DateTimeOffset>`, optionally `and <property> le|lt <DateTimeOffset>`: a date range. */
const FILTER_RANGE = /^(\w+) (ge|gt) (\S+)(?: and (\w+) (le|lt) (\S+))?$/;

interface DateRange {
  property: string;
  from: number;
  fromInclusive: boolean;
  to?: number;
  toInclusive?: boolean;
}

/**
 * The date range a `$filter` asks of a resource that takes one: undefined when the filter is not
 * a range (or the resource takes none), null when it is one the resource refuses (another
 * property, two properties, a value that is no DateTimeOffset).
 */
function dateRange(filter: string, resource: SimResource | SimNestedResource): DateRange | null | undefined {
  const match = FILTER_RANGE.exec(filter.trim());
  if (!match || !resource.rangeFilterable) return undefined;
  const [, property, lower, fromText, toProperty, upper, toText] = match;
  const date = (text: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : Number.NaN);
  const from = date(fromText!);
  if (!resource.rangeFilterable.includes(property!) || Number.isNaN(from)) return null;
  if (toProperty === undefined) return { property: property!, from, fromInclusive: lower === 'ge' };
  const to = date(toText!);
  if (toProperty !== property || Number.isNaN(to)) return null;
  return { property: property!, from, fromInclusive: lower === 'ge', to, toInclusive: upper === 'le' };
}

export type RecordTest = (record: GraphRecord) => boolean;

/** The property and lower bound of a `$filter` that is a date range the resource takes; undefined for any other filter. */
export function rangeStart(filter: string | null, resource: SimResource | SimNestedResource): { property: string; from: number } | undefined {
  const range = filter === null ? undefined : dateRange(filter, resource);
  return range ? { property: range.property, from: range.from } : undefined;
}

/** The property and value of a `$filter=<property> eq '<value>'`; null for any other filter. */
export function filterEquality(filter: string | null): { property: string; value: string } | null {
  const match = filter === null ? null : FILTER_EQUALS.exec(filter.trim());
  return match ? { property: match[1]!, value: match[2]!.replace(/''/g, "'") } : null;
}

/** What a checked `$filter` keeps; null without one. */
export function filterTest(filter: string | null, resource: SimResource | SimNestedResource): RecordTest | null {
  if (filter === null) return null;
  const range = dateRange(filter, resource);
  if (range) {
    return (record) => {
      const at = Date.parse(String(record[range.property]));
      if (Number.isNaN(at) || (range.fromInclusive ? at < range.from : at <= range.from)) return false;
      return range.to === undefined || (range.toInclusive ? at <= range.to : at < range.to);
    };
  }
  const [, property, quoted] = FILTER_EQUALS.exec(filter.trim())!;
  const value = quoted!.replace(/''/g, "'");
  if (resource.filterIgnoresCase?.includes(property!)) return (record) => sameFilterString(record[property!], value);
  return (record) => record[property!] === value;
}

/**
 * How the look-alike's `eq` compares a name (a group's `displayName`, a managed device's `deviceName`
 * and `userPrincipalName`: `filterIgnoresCase`): without case, as Graph compares the names it is
 * asked for. For directory objects: "Is $filter eq case sensitive or not?" on Microsoft Q&A
 * (learn.microsoft.com/answers/questions/1274766), where the asker found `eq` on user records
 * case-insensitive and Microsoft's answer did not say otherwise; Learn's "Use the $filter query
 * parameter" and "Advanced query capabilities" pages (learn.microsoft.com/graph/filter-query-parameter,
 * learn.microsoft.com/graph/aad-advanced-queries) state no case rule either way. For Intune's
 * managed devices nothing is documented (the list page has no filter table,
 * learn.microsoft.com/graph/api/intune-devices-manageddevice-list), and what people see is looser
 * than equality, not stricter: `userPrincipalName eq 'abcd@none.com'` also returns
 * `1234abcd@none.com`'s devices (microsoft/Intune-PowerShell-SDK#39), so the app compares what
 * comes back again itself (src/core/applies/resolve.ts) and asks with the words as typed
 * (`questionWords`, src/core/applies/resolve.ts), which no rule of Graph's can make worse.
 */
export function sameFilterString(stored: unknown, asked: string): boolean {
  return typeof stored === 'string' && stored.toLowerCase() === asked.toLowerCase();
}

/** `a,b(c)` → `['a', 'b']`: option names at the top level, nested options ignored. */
export function listOption(value: string | null): string[] {
  if (!value) return [];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current.trim());
      current = '';
    } else if (depth === 0 && char !== ')') {
      current += char;
    }
  }
  if (current.trim()) names.push(current.trim());
  return names;
}

export function encodeSkipToken(offset: number, source: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: source })).toString('base64url');
}

export function decodeSkipToken(token: string, source: string): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    return typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.s === source ? parsed.o : undefined;
  } catch {
    return undefined;
  }
}

function encodeODataValue(value: string): string {
  return encodeURIComponent(value).replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%3D/gi, '=');
}

/** The next page's link: the request's own query with the `$skiptoken` of the page after `offset`. */
export function nextPageLink(origin: string, version: VersionSegment, listPath: string, query: URLSearchParams, offset: number): string {
  const kept = [...query.entries()].filter(([name]) => name !== '$skiptoken');
  kept.push(['$skiptoken', encodeSkipToken(offset, listPath)]);
  return `${origin}/${version}${listPath}?${kept.map(([name, value]) => `${name}=${encodeODataValue(value)}`).join('&')}`;
}
