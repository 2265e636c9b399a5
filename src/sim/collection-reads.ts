import { errorAnswer } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { decodeSkipToken, filterEquality, filterTest, listOption, nextPageLink, rangeStart } from './odata-query.js';
import type { RecordTest } from './odata-query.js';
import { capExpanded, prefersUnknownEnumMembers, schemaTest, shape, shaper } from './odata-shaping.js';
import type { SimResourceTable } from './resources/resource-table.js';
import type { SimNestedResource, SimResource, VersionSegment } from './resources/resource-model.js';
import { recordsOf } from './tenants/sim-tenant.js';
import type { GeneratedRecords, GraphRecord, RecordList, SimTenant } from './tenants/sim-tenant.js';

const GENERATED_SCANS_KEPT = 16;

export interface SimCollectionReadsOptions {
  origin: string;
  tenant: () => SimTenant;
  resources: SimResourceTable;
  /** A test's own page sizes, by collection (`managedDevices`) or nested list (`configurationPolicies/settings`). */
  pageSizes: Partial<Record<string, number>>;
}

/**
 * The tenant's records as Graph serves them, once a request is let through (graph-access.ts): a
 * list page by page, a record by id, a record's navigation list as a list of its own, a singleton.
 */
export class SimCollectionReads {
  /** Which records of a generated collection a version's schema and a `$filter` keep, by index, as far as pages have asked: found once, not per page. */
  private readonly generatedScans = new WeakMap<GeneratedRecords, Map<string, GeneratedScan>>();

  constructor(private readonly options: SimCollectionReadsOptions) {}

  /** A singleton's record; 404 when the tenant never set it up. */
  singleton(context: RequestContext, version: VersionSegment, resource: SimResource & { kind: 'singleton' }): SimAnswer {
    const record = this.options.tenant().singletons[resource.source];
    if (!record) return errorAnswer(context, 404, 'ResourceNotFound', `The ${resource.source} of this tenant has not been set up.`);
    return {
      status: 200,
      body: { '@odata.context': `${this.options.origin}/${version}/$metadata#${resource.entitySet}/$entity`, ...shape(record, resource, context, version) },
    };
  }

  /**
   * The records of a list that a version's schema (none checked when `version` is null) and a
   * `$filter` keep. A stored list is filtered per request, since a test may change it between two.
   * A generated one never changes: which of its records pass is found as far as the pages asked for
   * need (so the first page of 500,000 generated devices does not wait for all of them to be made)
   * and kept for the next pages.
   */
  private selected(list: RecordList, resource: SimResource | SimNestedResource, version: VersionSegment | null, filter: string | null): Selection {
    const inSchema = version === null ? null : schemaTest(resource, version);
    const passes = filterTest(filter, resource);
    const keep: RecordTest | null = inSchema && passes ? (record) => inSchema(record) && passes(record) : (inSchema ?? passes);
    if (!isGenerated(list)) return storedSelection(keep ? list.filter(keep) : list);
    if (!keep) return generatedSelection(list, null);
    // An equality the generated list indexes: the records a scan would keep, found without making the others.
    const equality = filterEquality(filter);
    const positions = equality ? list.indexOf?.(equality.property, equality.value) : undefined;
    if (positions) return storedSelection(positions.map((position) => list.at(position)).filter(keep));
    const scans = this.generatedScans.get(list) ?? new Map<string, GeneratedScan>();
    this.generatedScans.set(list, scans);
    const key = `${resource.path}|${version}|${filter ?? ''}`;
    let scan = scans.get(key);
    if (!scan) {
      scan = { keep, kept: [], scanned: firstInRange(list, filter, resource) };
      // A client may ask any number of filters: the last few are kept.
      if (scans.size >= GENERATED_SCANS_KEPT) scans.delete(scans.keys().next().value!);
      scans.set(key, scan);
    }
    return generatedSelection(list, scan);
  }

  /** One record of a collection by id, shaped as its list shapes it; 404 when it is not there (or not in this version's schema). */
  entity(context: RequestContext, version: VersionSegment, resource: SimResource & { kind: 'collection' }, id: string): SimAnswer {
    if (context.query.has('$top') || context.query.has('$skiptoken') || context.query.has('$filter')) {
      return errorAnswer(context, 400, 'BadRequest', 'Query options $top, $skiptoken and $filter apply to collections, not to a single entity.');
    }
    const record = this.selected(recordsOf(this.options.tenant(), resource.source), resource, version, null).find((candidate) => candidate.id.toLowerCase() === id.toLowerCase());
    if (!record) return errorAnswer(context, 404, 'ResourceNotFound', `No ${resource.source} record with the id '${id}'.`);
    const shaped = { ...shape(record, resource, context, version) };
    capExpanded(shaped, resource, `${this.options.origin}/${version}${resource.path}/${record.id}`);
    return { status: 200, body: { '@odata.context': `${this.options.origin}/${version}/$metadata#${resource.entitySet}/$entity`, ...shaped } };
  }

  /** A parent record's navigation collection as a list of its own; 404 when the parent is not there, as Graph answers for an unknown id. */
  nested(context: RequestContext, version: VersionSegment, resource: SimNestedResource, parentId: string): SimAnswer {
    // A parent of a type this version's schema does not declare is not there (resources/resource-model.ts, v1Omits).
    const parentList = this.options.resources.findResource(version, resource.path.slice(0, resource.path.indexOf('/{id}')));
    const parents = recordsOf(this.options.tenant(), resource.source);
    const parent = this.selected(parents, parentList ?? resource, parentList ? version : null, null).find((record) => record.id.toLowerCase() === parentId.toLowerCase());
    if (!parent) return errorAnswer(context, 404, 'ResourceNotFound', `No ${resource.source} record with the id '${parentId}'.`);
    const records = parent[resource.property];
    const path = resource.path.replace('{id}', parent.id);
    return this.collection(context, version, resource, {
      records: Array.isArray(records) ? (records as GraphRecord[]) : [],
      path,
      entitySet: resource.entitySet.replace('{id}', parent.id),
    });
  }

  /** A page of a list: its own page size, or `$top` under the service's cap; a next link while records remain. */
  collection(
    context: RequestContext,
    version: VersionSegment,
    resource: (SimResource & { kind: 'collection' }) | SimNestedResource,
    list: { records: RecordList; path: string; entitySet: string } = {
      records: recordsOf(this.options.tenant(), resource.source),
      path: resource.path,
      entitySet: resource.entitySet,
    },
  ): SimAnswer {
    const stored = list.records;
    const records = this.selected(stored, resource, version, context.query.get('$filter'));
    const top = context.query.get('$top');
    const serviceCap = Math.min(
      resource.maxPageSize ?? Number.POSITIVE_INFINITY,
      ...listOption(context.query.get('$expand')).map((navigation) => resource.expandedPageSize?.[navigation] ?? Number.POSITIVE_INFINITY),
    );
    // `$top` may lower the service's page size but not raise it; a test may set its own.
    const sizeKey = resource.kind === 'nested' ? `${resource.source}/${resource.property}` : resource.source;
    const pageSize = top ? Math.min(Number(top), serviceCap) : (this.options.pageSizes[sizeKey] ?? Math.min(resource.defaultPageSize, serviceCap));
    const skipToken = context.query.get('$skiptoken');
    const offset = skipToken === null ? 0 : decodeSkipToken(skipToken, list.path);
    if (offset === undefined) return errorAnswer(context, 400, 'BadRequest', 'The $skiptoken is not valid for this collection.');

    const page = records.slice(offset, offset + pageSize);
    const body: Record<string, unknown> = { '@odata.context': `${this.options.origin}/${version}/$metadata#${list.entitySet}` };
    if (records.exceeds(offset + pageSize)) {
      body['@odata.nextLink'] = nextPageLink(this.options.origin, version, list.path, context.query, offset + pageSize);
    }
    // Graph writes the page's metadata ahead of `value`, each record serialised on its own and joined.
    const onlyV1Omissions = version === 'v1.0' && !context.query.get('$select') && !context.query.get('$expand') && !resource.evolvableEnums;
    const shapeRecord = shaper(resource, context, version);
    const valueJson = () =>
      page.map((record) => {
        const shaped = shapeRecord(record);
        if (shaped === record) return this.recordJson(record);
        capExpanded(shaped, resource, `${this.options.origin}/${version}${list.path}/${record.id}`);
        return onlyV1Omissions ? this.recordJson(record, shaped) : JSON.stringify(shaped);
      });
    const prefer = resource.evolvableEnums && prefersUnknownEnumMembers(context.headers) ? 'prefer' : '';
    return { status: 200, body, valueJson, pageKey: { collection: stored, key: `${context.versionedPath}?${context.query.toString()}|${prefer}` } };
  }

  /**
   * The JSON of a stored record served as it is. Not kept per record: at 500,000 devices that text
   * would outweigh the records themselves, and a page asked for again is served from
   * the service's compressed pages (graph-service.ts), serialised once.
   */
  private recordJson(record: GraphRecord, asV1?: Record<string, unknown>): string {
    return JSON.stringify(asV1 ?? record);
  }
}

/** The records of a list that a version's schema and a filter keep: what serving a page or one record needs of them. */
interface Selection {
  /** The records from `from` up to `to` (excluded), fewer where the selection ends. */
  slice(from: number, to: number): GraphRecord[];
  /** Whether it holds more than `count` records: a page that ends at `count` has a next one. */
  exceeds(count: number): boolean;
  find(test: RecordTest): GraphRecord | undefined;
}

/** Which records of a generated list a test keeps, by index, as far as it has been run. */
interface GeneratedScan {
  keep: RecordTest;
  kept: number[];
  scanned: number;
}

const isGenerated = (list: RecordList): list is GeneratedRecords => !Array.isArray(list);

function storedSelection(records: readonly GraphRecord[]): Selection {
  return { slice: (from, to) => records.slice(from, to), exceeds: (count) => records.length > count, find: (test) => records.find(test) };
}

/** The records of a generated list that `scan` keeps (all of them when null), each made as it is read. */
/**
 * Where a scan of a generated list for a date range may start: the first record at or after the
 * range's start, found by halving, where the list is in order of that property (`sortedBy`); else 0.
 * Every record before it fails the range, so the scan keeps the same records.
 */
function firstInRange(list: GeneratedRecords, filter: string | null, resource: SimResource | SimNestedResource): number {
  const range = rangeStart(filter, resource);
  if (!range || !list.sortedBy?.includes(range.property)) return 0;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (Date.parse(String(list.at(middle)[range.property])) < range.from) low = middle + 1;
    else high = middle;
  }
  return low;
}

function generatedSelection(list: GeneratedRecords, scan: GeneratedScan | null): Selection {
  // The scan run on until it has kept `count` records or reached the list's end; how many it has
  // kept. The records it makes and keeps go to `made` by position, when given, so that a page the
  // scan reaches for the first time does not make its records twice.
  const reach = (count: number, made?: Map<number, GraphRecord>): number => {
    if (!scan) return Math.min(count, list.length);
    while (scan.kept.length < count && scan.scanned < list.length) {
      const index = scan.scanned;
      scan.scanned += 1;
      const record = list.at(index);
      if (!scan.keep(record)) continue;
      made?.set(scan.kept.length, record);
      scan.kept.push(index);
    }
    return Math.min(count, scan.kept.length);
  };
  const at = (position: number) => list.at(scan ? scan.kept[position]! : position);
  return {
    slice(from, to) {
      const records: GraphRecord[] = [];
      const made = new Map<number, GraphRecord>();
      const end = reach(to, made);
      for (let position = Math.max(0, from); position < end; position += 1) records.push(made.get(position) ?? at(position));
      return records;
    },
    exceeds: (count) => reach(count + 1) > count,
    find(test) {
      const end = reach(Number.POSITIVE_INFINITY);
      for (let position = 0; position < end; position += 1) {
        const record = at(position);
        if (test(record)) return record;
      }
      return undefined;
    },
  };
}
