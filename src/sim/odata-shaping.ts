import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from './graph-exchange.js';
import type { RequestContext } from './graph-exchange.js';
import { encodeSkipToken, listOption } from './odata-query.js';
import type { RecordTest } from './odata-query.js';
import type { SimNestedResource, SimResource, VersionSegment } from './resources/resource-model.js';
import type { GraphRecord } from './tenants/sim-tenant.js';

/**
 * A stored record as one request sees it: `$select` and `$expand` applied, late members of evolvable
 * enums masked, and what the `/v1.0` schema lacks left out (v1-schema.ts).
 */

/**
 * The record as Graph returns it: navigation properties only when expanded (and then always as
 * an array), `$select` keeping only what it names.
 */
export function shape(record: GraphRecord, resource: SimResource | SimNestedResource, context: RequestContext, version: VersionSegment): Record<string, unknown> {
  return shaper(resource, context, version)(record);
}

/** `shape` for every record of one request: the query read once, not once per record of a page. */
export function shaper(resource: SimResource | SimNestedResource, context: RequestContext, version: VersionSegment): (record: GraphRecord) => Record<string, unknown> {
  const expand = new Set(listOption(context.query.get('$expand')));
  const select = new Set(listOption(context.query.get('$select')));
  const navigation = new Set(resource.navigation);
  const masks = resource.evolvableEnums && !prefersUnknownEnumMembers(context.headers) ? resource.evolvableEnums : undefined;
  const v1Omits = version === 'v1.0' ? resource.v1Omits : undefined;
  return (record) => {
    const omitted = v1Omits?.properties?.filter((property) => property in record) ?? [];
    // Nothing to leave out or add: serve the stored record as it is (100,000 devices page fast).
    if (select.size === 0 && expand.size === 0 && !masks && !v1Omits?.enumMembers && omitted.length === 0 && !resource.navigation.some((name) => name in record)) {
      return record;
    }
    const result: Record<string, unknown> = {};
    for (const key in record) {
      if (navigation.has(key) || omitted.includes(key)) continue;
      if (select.size > 0 && !select.has(key) && !key.startsWith('@')) continue;
      result[key] = record[key];
    }
    for (const name of expand) result[name] = withoutNavigation((record[name] as unknown[] | undefined) ?? [], resource.expandedNavigation?.[name]);
    if (masks) {
      for (const [property, lateMembers] of Object.entries(masks)) maskLateMembers(result, property.split('.'), lateMembers);
    }
    if (v1Omits?.enumMembers) {
      for (const [property, members] of Object.entries(v1Omits.enumMembers)) maskLateMembers(result, property.split('.'), members);
    }
    // Nested omissions are inside navigation properties (`assignments`), so the shortcut above never skips them.
    for (const path of v1Omits?.nested ?? []) omitNested(result, path.split('.'));
    return result;
  };
}

/** The items of an expanded collection without their own navigation properties, each copied so the stored record is untouched. */
function withoutNavigation(items: unknown[], navigation: readonly string[] | undefined): unknown[] {
  if (!navigation?.length) return items;
  return items.map((item) => {
    if (typeof item !== 'object' || item === null || !navigation.some((name) => name in item)) return item;
    const copy = { ...(item as Record<string, unknown>) };
    for (const name of navigation) delete copy[name];
    return copy;
  });
}

/** Removes the property at `path` (`a[].b.c`) from `target`, copying each object on the way so the stored record is untouched. */
function omitNested(target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const key = head.endsWith('[]') ? head.slice(0, -2) : head;
  if (!(key in target)) return;
  if (rest.length === 0) {
    delete target[key];
    return;
  }
  const within = (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const copy = { ...(value as Record<string, unknown>) };
    omitNested(copy, rest);
    return copy;
  };
  const value = target[key];
  target[key] = head.endsWith('[]') && Array.isArray(value) ? value.map(within) : within(value);
}

/**
 * Whether a record is in the collection as one schema version sees it: `/v1.0` leaves out records
 * whose type only the beta schema declares (v1-schema.ts). Null when the version declares every
 * type the list may hold.
 */
export function schemaTest(resource: SimResource | SimNestedResource, version: VersionSegment): RecordTest | null {
  const omittedTypes = version === 'v1.0' ? resource.v1Omits?.types : undefined;
  if (!omittedTypes) return null;
  return (record) => !omittedTypes.has(String(record['@odata.type'] ?? '').replace(/^#?microsoft\.graph\./, ''));
}

export function prefersUnknownEnumMembers(headers: IncomingHttpHeaders | Record<string, string>): boolean {
  const prefer = headerValue(headers, 'prefer') ?? '';
  return prefer.split(',').some((preference) => preference.trim().toLowerCase() === 'include-unknown-enum-members');
}

/** Replaces late enum members at `path` (a value or an array of values) with `unknownFutureValue`, on a copy. */
function maskLateMembers(target: Record<string, unknown>, path: string[], lateMembers: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return;
  const value = target[head];
  if (rest.length > 0) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const copy = { ...(value as Record<string, unknown>) };
      maskLateMembers(copy, rest, lateMembers);
      target[head] = copy;
    }
    return;
  }
  const mask = (member: unknown) => (typeof member === 'string' && lateMembers.includes(member) ? 'unknownFutureValue' : member);
  target[head] = Array.isArray(value) ? value.map(mask) : mask(value);
}

/** Cuts expanded navigation collections to the resource's cap, linking on to the record's own list of the rest. */
export function capExpanded(shaped: Record<string, unknown>, resource: SimResource | SimNestedResource, recordUrl: string): void {
  for (const [navigation, cap] of Object.entries(resource.expandedItemCap ?? {})) {
    const items = shaped[navigation];
    if (!Array.isArray(items) || items.length <= cap) continue;
    shaped[navigation] = items.slice(0, cap);
    const listPath = new URL(`${recordUrl}/${navigation}`).pathname.replace(/^\/(v1\.0|beta)/, '');
    shaped[`${navigation}@odata.nextLink`] = `${recordUrl}/${navigation}?$skiptoken=${encodeSkipToken(cap, listPath)}`;
  }
}
