import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { SimEntra } from './entra.js';
import type { FaultEffect, FaultInjector } from './faults.js';
import { DELETED_ITEM_READ_PERMISSIONS, GROUP_READ_PERMISSIONS, findEntity, findNestedResource, findResource, hasAnyRole } from './graph-resources.js';
import type { SimNestedResource, SimResource, VersionSegment, Workload } from './graph-resources.js';
import { JSON_CONTENT_TYPE, graphErrorBody, sendJsonText } from './http-helpers.js';
import type { Throttle } from './throttling.js';
import { recordsOf } from './tenants/sim-tenant.js';
import type { GeneratedRecords, GraphRecord, RecordList, SimGroup, SimTenant } from './tenants/sim-tenant.js';

/** One request the simulator answered; sub-requests of a `$batch` are logged one by one. */
export interface SimRequestRecord {
  seq: number;
  method: string;
  /** Versioned path, e.g. `/v1.0/deviceManagement/managedDevices`. */
  path: string;
  /** The raw query string without the leading `?`. */
  query: string;
  status: number;
  inBatch: boolean;
  appId: string | undefined;
  requestId: string;
}

export interface SimViolation {
  method: string;
  path: string;
  reason: string;
}

interface SimAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is instead of `body` (a malformed answer). */
  rawBody?: string;
  /** A collection page's records as JSON, sent as `value` after the properties of `body`; made only when sent. */
  valueJson?: () => string[];
  /** Identifies a collection page for the compressed-page cache: the stored collection and the request. */
  pageKey?: { collection: RecordList; key: string };
  reset?: boolean;
}

interface RequestContext {
  method: string;
  versionedPath: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders | Record<string, string>;
  requestId: string;
  clientRequestId: string | undefined;
  appId: string | undefined;
  roles: string[];
  inBatch: boolean;
  logGeneration: number;
}

export interface SimGraphOptions {
  origin: string;
  tenant: () => SimTenant;
  entra: SimEntra;
  faults: FaultInjector;
  throttle: Throttle | undefined;
  /** Added to every Graph exchange (a `$batch` counts once). */
  latencyMs: () => number;
  pageSizes: Partial<Record<string, number>>;
  random: () => number;
}

const MAX_BATCH_REQUESTS = 20;
const MAX_EXPANDED_MEMBERS = 20;
const GENERATED_SCANS_KEPT = 16;
/**
 * The compressed pages the simulator keeps, at most (bytes, counted as they are kept): every page of
 * the 100,000-device tenant's reports (about 14 MB), so the benchmark's simulator takes little CPU
 * from the client it shares the machine with, but not the 60 MB and more of the largest tenants, whose
 * records are generated precisely not to be held.
 */
const COMPRESSED_PAGES_BUDGET = 32 * 2 ** 20;
const SUPPORTED_QUERY_OPTIONS = new Set(['$select', '$expand', '$top', '$skiptoken', '$filter']);

/** The Microsoft Graph look-alike: answers the specification's resources the way Graph does. */
export class SimGraph {
  readonly requests: SimRequestRecord[] = [];
  readonly violations: SimViolation[] = [];
  inFlight = 0;
  peakInFlight = 0;
  private seq = 0;
  private readonly compressedPages = new WeakMap<RecordList, Map<string, Buffer>>();
  /** Bytes ever put in `compressedPages`: past COMPRESSED_PAGES_BUDGET, pages are compressed anew each time. */
  private compressedBytes = 0;
  /** Which records of a generated collection a version's schema and a `$filter` keep, by index, as far as pages have asked: found once, not per page. */
  private readonly generatedScans = new WeakMap<GeneratedRecords, Map<string, GeneratedScan>>();
  /** Bumped by clearLog, so a request still in flight from before is not logged after it. */
  private logGeneration = 0;

  constructor(private readonly options: SimGraphOptions) {}

  clearLog(): void {
    this.logGeneration += 1;
    this.requests.length = 0;
    this.violations.length = 0;
    this.inFlight = 0;
    this.peakInFlight = 0;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string | undefined): Promise<void> {
    const generation = this.logGeneration;
    this.inFlight += 1;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    res.once('close', () => {
      if (generation === this.logGeneration) this.inFlight -= 1;
    });

    const method = req.method ?? 'GET';
    const requestId = randomUUID();
    const clientRequestId = headerValue(req.headers, 'client-request-id');
    const context: RequestContext = {
      method,
      versionedPath: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      requestId,
      clientRequestId,
      appId: undefined,
      roles: [],
      inBatch: false,
      logGeneration: generation,
    };

    // The simulated latency is the time Graph takes to answer, measured from arrival: the look-alike's
    // own work (finding, shaping and serialising a page) happens inside it, not on top of it.
    const arrived = performance.now();
    const latency = this.options.latencyMs();
    const fault = this.options.faults.take(url.pathname);
    const delay = latency + (fault?.latencyMs ?? 0);

    let answer: SimAnswer;
    if (fault?.reset) {
      answer = { status: 0, reset: true };
    } else if (fault?.rawBody) {
      answer = { status: 200, rawBody: fault.rawBody() };
    } else if (fault && (fault.status !== undefined || fault.malformed)) {
      answer = this.faultAnswer(fault, context);
    } else if (method === 'POST' && /^\/(v1\.0|beta)\/\$batch$/.test(url.pathname)) {
      answer = await this.answerBatch(context, body);
    } else {
      answer = await this.answer(context);
    }
    if (fault?.nextLinkOrigin || fault?.nextLinkPath) redirectNextLink(answer, fault);
    if (fault?.nextLinkSelf && answer.body && typeof answer.body === 'object') (answer.body as Record<string, unknown>)['@odata.nextLink'] = url.href;
    let text = '';
    let compressed: Buffer | undefined;
    if (!answer.reset) {
      // A page is the same bytes every time it is asked for, until its collection is replaced; a
      // fault may rewrite the answer, so faulted requests are never served from or into the cache.
      const pageKey = answer.pageKey && !fault && acceptsGzip(req.headers) ? answer.pageKey : undefined;
      compressed = pageKey ? this.compressedPages.get(pageKey.collection)?.get(pageKey.key) : undefined;
      if (!compressed) {
        text = serialise(answer);
        // Like Graph, compress when the client accepts gzip and the body is worth it.
        if (Buffer.byteLength(text) > 1024 && acceptsGzip(req.headers) && !fault?.rawBody) compressed = gzipSync(text, { level: 1 });
        if (pageKey && compressed && this.compressedBytes + compressed.length <= COMPRESSED_PAGES_BUDGET) {
          this.compressedBytes += compressed.length;
          const pages = this.compressedPages.get(pageKey.collection) ?? new Map<string, Buffer>();
          pages.set(pageKey.key, compressed);
          this.compressedPages.set(pageKey.collection, pages);
        }
      }
    }
    const remaining = delay - (performance.now() - arrived);
    if (remaining > 0) await sleep(remaining);
    this.log(context, answer.reset ? 0 : answer.status);

    if (answer.reset) {
      req.socket.destroy();
      return;
    }
    const headers = { 'request-id': requestId, 'client-request-id': clientRequestId ?? requestId, ...answer.headers };
    if (compressed) {
      res.writeHead(answer.status, { 'content-type': JSON_CONTENT_TYPE, 'content-encoding': 'gzip', 'content-length': compressed.length, vary: 'Accept-Encoding', ...headers });
      res.end(compressed);
    } else {
      // A body large enough to be compressed varies with Accept-Encoding, compressed or not.
      sendJsonText(res, answer.status, text, Buffer.byteLength(text) > 1024 ? { ...headers, vary: 'Accept-Encoding' } : headers);
    }
  }

  private log(context: RequestContext, status: number): void {
    if (context.logGeneration !== this.logGeneration) return;
    this.seq += 1;
    this.requests.push({
      seq: this.seq,
      method: context.method,
      path: context.versionedPath,
      query: context.query.toString(),
      status,
      inBatch: context.inBatch,
      appId: context.appId,
      requestId: context.requestId,
    });
  }

  private faultAnswer(fault: FaultEffect, context: RequestContext): SimAnswer {
    if (fault.malformed) {
      return { status: 200, rawBody: `{"@odata.context":"${this.options.origin}/$metadata#value","value":[{"id":"` };
    }
    const status = fault.status ?? 503;
    const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
    const [code, message] =
      status === 429
        ? ['TooManyRequests', 'Too many requests from this application. Retry after the number of seconds in Retry-After.']
        : status === 504
          ? ['GatewayTimeout', 'The gateway did not receive a response from the service in time.']
          : status === 503
            ? ['ServiceUnavailable', 'The service is temporarily unavailable. Retry later.']
            : ['UnknownError', `Injected failure with status ${status}.`];
    return { status, headers, body: graphErrorBody(code, message, context.requestId, context.clientRequestId) };
  }

  private error(context: RequestContext, status: number, code: string, message: string, headers?: Record<string, string>): SimAnswer {
    return { status, ...(headers ? { headers } : {}), body: graphErrorBody(code, message, context.requestId, context.clientRequestId) };
  }

  private async authenticate(context: RequestContext): Promise<SimAnswer | undefined> {
    const authorization = headerValue(context.headers, 'authorization');
    if (!authorization?.startsWith('Bearer ') || authorization.length <= 7) {
      return this.error(context, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
    }
    const check = await this.options.entra.verifyAccessToken(authorization.slice(7));
    if (!check.ok) return this.error(context, 401, 'InvalidAuthenticationToken', check.message);
    context.appId = check.claims.appid;
    context.roles = check.claims.roles ?? [];
    return undefined;
  }

  /** A plain request, or one sub-request of a batch (already authenticated then). */
  private async answer(context: RequestContext): Promise<SimAnswer> {
    if (context.method !== 'GET') {
      this.violations.push({ method: context.method, path: context.versionedPath, reason: 'write method' });
      return this.error(context, 405, 'Request_BadRequest', `The HTTP method '${context.method}' is not allowed for this read-only tenant look-alike.`);
    }
    if (!context.inBatch) {
      const refusal = await this.authenticate(context);
      if (refusal) return refusal;
    }

    const match = context.versionedPath.match(/^\/(v1\.0|beta)(\/.*)$/);
    if (!match) return this.error(context, 400, 'BadRequest', 'Invalid version: the path must start with /v1.0 or /beta.');
    const version = match[1] as VersionSegment;
    const path = match[2]!.replace(/\/$/, '');

    const groupMatch = path.match(/^\/groups\/([^/]+)$/);
    if (groupMatch) return this.answerGroup(context, version, decodeURIComponent(groupMatch[1]!));
    const membersMatch = path.match(/^\/groups\/([^/]+)\/members$/);
    if (membersMatch) return this.answerGroupMembers(context, version, decodeURIComponent(membersMatch[1]!));
    const deletedMatch = path.match(/^\/directory\/deletedItems\/([^/]+)$/);
    if (deletedMatch) return this.answerDeletedItem(context, version, decodeURIComponent(deletedMatch[1]!));

    const nested = findNestedResource(version, path);
    if (nested) return this.answerNested(context, version, nested.resource, nested.parentId);
    const entity = findEntity(version, path);
    if (entity) return this.answerEntity(context, version, entity.resource, entity.id);

    const resource = findResource(version, path);
    if (!resource) {
      const segment = path.split('/').filter(Boolean).pop() ?? path;
      return this.error(context, 400, 'BadRequest', `Resource not found for the segment '${segment}'.`);
    }
    const refusal = this.refuseRead(context, version, resource);
    if (refusal) return refusal;

    if (resource.kind === 'singleton') {
      const record = this.options.tenant().singletons[resource.source];
      if (!record) return this.error(context, 404, 'ResourceNotFound', `The ${resource.source} of this tenant has not been set up.`);
      return {
        status: 200,
        body: { '@odata.context': `${this.options.origin}/${version}/$metadata#${resource.entitySet}/$entity`, ...shape(record, resource, context, version) },
      };
    }
    return this.answerCollection(context, version, resource);
  }

  /**
   * What Graph answers before it reads anything, in its order: throttled (429), not permitted
   * (403), a required header missing or a query option it does not take (400). The same for a
   * list, a record by id and a record's navigation list.
   */
  private refuseRead(context: RequestContext, version: VersionSegment, resource: SimResource | SimNestedResource): SimAnswer | undefined {
    const throttled = this.admit(context, resource.workload);
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, resource.permissions)) return this.forbidden(context, resource.workload, resource.permissions);
    if (resource.requiresUserAgent && !headerValue(context.headers, 'user-agent')) {
      return this.error(context, 400, 'BadRequest', 'The User-Agent header is required for this request.');
    }
    const queryProblem = checkQueryOptions(context.query, resource) ?? unknownSelected(context.query, resource, version);
    return queryProblem ? this.error(context, 400, 'BadRequest', queryProblem) : undefined;
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
    const scans = this.generatedScans.get(list) ?? new Map<string, GeneratedScan>();
    this.generatedScans.set(list, scans);
    const key = `${resource.path}|${version}|${filter ?? ''}`;
    let scan = scans.get(key);
    if (!scan) {
      scan = { keep, kept: [], scanned: 0 };
      // A client may ask any number of filters: the last few are kept.
      if (scans.size >= GENERATED_SCANS_KEPT) scans.delete(scans.keys().next().value!);
      scans.set(key, scan);
    }
    return generatedSelection(list, scan);
  }

  /** One record of a collection by id, shaped as its list shapes it; 404 when it is not there (or not in this version's schema). */
  private answerEntity(context: RequestContext, version: VersionSegment, resource: SimResource & { kind: 'collection' }, id: string): SimAnswer {
    const refusal = this.refuseRead(context, version, resource);
    if (refusal) return refusal;
    if (context.query.has('$top') || context.query.has('$skiptoken') || context.query.has('$filter')) {
      return this.error(context, 400, 'BadRequest', 'Query options $top, $skiptoken and $filter apply to collections, not to a single entity.');
    }
    const record = this.selected(recordsOf(this.options.tenant(), resource.source), resource, version, null).find((candidate) => candidate.id.toLowerCase() === id.toLowerCase());
    if (!record) return this.error(context, 404, 'ResourceNotFound', `No ${resource.source} record with the id '${id}'.`);
    const shaped = { ...shape(record, resource, context, version) };
    capExpanded(shaped, resource, `${this.options.origin}/${version}${resource.path}/${record.id}`);
    return { status: 200, body: { '@odata.context': `${this.options.origin}/${version}/$metadata#${resource.entitySet}/$entity`, ...shaped } };
  }

  /** A parent record's navigation collection as a list of its own; 404 when the parent is not there, as Graph answers for an unknown id. */
  private answerNested(context: RequestContext, version: VersionSegment, resource: SimNestedResource, parentId: string): SimAnswer {
    const refusal = this.refuseRead(context, version, resource);
    if (refusal) return refusal;
    // A parent of a type this version's schema does not declare is not there (graph-resources.ts, v1Omits).
    const parentList = findResource(version, resource.path.slice(0, resource.path.indexOf('/{id}')));
    const parents = recordsOf(this.options.tenant(), resource.source);
    const parent = this.selected(parents, parentList ?? resource, parentList ? version : null, null).find((record) => record.id.toLowerCase() === parentId.toLowerCase());
    if (!parent) return this.error(context, 404, 'ResourceNotFound', `No ${resource.source} record with the id '${parentId}'.`);
    const records = parent[resource.property];
    const path = resource.path.replace('{id}', parent.id);
    return this.answerCollection(context, version, resource, {
      records: Array.isArray(records) ? (records as GraphRecord[]) : [],
      path,
      entitySet: resource.entitySet.replace('{id}', parent.id),
    });
  }

  private answerCollection(
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
    if (offset === undefined) return this.error(context, 400, 'BadRequest', 'The $skiptoken is not valid for this collection.');

    const page = records.slice(offset, offset + pageSize);
    const body: Record<string, unknown> = { '@odata.context': `${this.options.origin}/${version}/$metadata#${list.entitySet}` };
    if (records.exceeds(offset + pageSize)) {
      const kept = [...context.query.entries()].filter(([name]) => name !== '$skiptoken');
      kept.push(['$skiptoken', encodeSkipToken(offset + pageSize, list.path)]);
      body['@odata.nextLink'] = `${this.options.origin}/${version}${list.path}?${kept.map(([name, value]) => `${name}=${encodeODataValue(value)}`).join('&')}`;
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
   * `compressedPages`, serialised once.
   */
  private recordJson(record: GraphRecord, asV1?: Record<string, unknown>): string {
    return JSON.stringify(asV1 ?? record);
  }

  /**
   * A group as `/groups/{id}` and its member list find it: throttled or refused as an identity read,
   * 404 when the directory does not have it (a soft-deleted group is in deleted items, not in
   * /groups: answerDeletedItem).
   */
  private readableGroup(context: RequestContext, id: string): { group: SimGroup } | { answer: SimAnswer } {
    const throttled = this.admit(context, 'identity');
    if (throttled) return { answer: throttled };
    if (!hasAnyRole(context.roles, GROUP_READ_PERMISSIONS)) return { answer: this.forbidden(context, 'identity', GROUP_READ_PERMISSIONS) };
    const group = this.options.tenant().deletedGroups?.has(id.toLowerCase()) ? undefined : this.options.tenant().groups.get(id.toLowerCase());
    if (!group) {
      return { answer: this.error(context, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`) };
    }
    return { group };
  }

  private answerGroup(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const found = this.readableGroup(context, id);
    if ('answer' in found) return found.answer;
    const { group } = found;
    const select = listOption(context.query.get('$select'));
    const expand = context.query.get('$expand');
    const record: Record<string, unknown> = {
      '@odata.context': `${this.options.origin}/${version}/$metadata#groups/$entity`,
      id: group.id,
      displayName: group.displayName,
      ...GROUP_KIND_FIELDS[group.kind ?? 'security'],
      groupTypes: [...(group.kind === 'microsoft365' ? ['Unified'] : []), ...(group.dynamic ? ['DynamicMembership'] : [])],
      visibility: group.visibility ?? null,
    };
    if (select.length > 0) {
      for (const key of Object.keys(record)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete record[key];
    }
    if (expand) {
      const navigation = expand.split('(')[0]!.trim();
      if (navigation !== 'members') return this.error(context, 400, 'BadRequest', `Could not find a property named '${navigation}' on type 'microsoft.graph.group'.`);
      // "$expand ... returns a maximum of 20 objects" with no nextLink (learn.microsoft.com/graph/query-parameters).
      // A hidden-membership group shows its members only to an app holding Member.Read.Hidden; to
      // any other it reads as empty (learn.microsoft.com/graph/api/group-list-members, and the
      // group resource's `visibility`).
      const hidden = group.visibility === 'HiddenMembership' && !hasAnyRole(context.roles, ['Member.Read.Hidden']);
      record.members = hidden ? [] : group.members.slice(0, MAX_EXPANDED_MEMBERS).map((member) => ({ '@odata.type': `#microsoft.graph.${member.type}`, id: member.id }));
    }
    return { status: 200, body: record };
  }

  /**
   * One deleted directory object (learn.microsoft.com/graph/api/directory-deleteditems-get): a
   * soft-deleted group with its `deletedDateTime`, restorable for 30 days
   * (learn.microsoft.com/graph/api/resources/directory). Anything else (a live group, one deleted
   * for good, an id never seen) is 404: the page documents 200 only, and an object that is not in
   * the container cannot be returned from it.
   */
  private answerDeletedItem(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const throttled = this.admit(context, 'identity');
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, DELETED_ITEM_READ_PERMISSIONS)) return this.forbidden(context, 'identity', DELETED_ITEM_READ_PERMISSIONS);
    const deleted = this.options.tenant().deletedGroups?.get(id.toLowerCase());
    if (!deleted) {
      return this.error(context, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`);
    }
    const select = listOption(context.query.get('$select'));
    const record: Record<string, unknown> = {
      '@odata.context': `${this.options.origin}/${version}/$metadata#directoryObjects/$entity`,
      '@odata.type': '#microsoft.graph.group',
      id: deleted.id,
      displayName: deleted.displayName,
      deletedDateTime: deleted.deletedDateTime,
      ...GROUP_KIND_FIELDS[deleted.kind ?? 'security'],
      groupTypes: deleted.kind === 'microsoft365' ? ['Unified'] : [],
    };
    if (select.length > 0) {
      for (const key of Object.keys(record)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete record[key];
    }
    return { status: 200, body: record };
  }

  /**
   * `GET /groups/{id}/members` (learn.microsoft.com/graph/api/group-list-members): the group's direct
   * members as `directoryObject`s with their `@odata.type`. Member types the app may not read (users
   * without User.Read.*, devices without Device.Read.All) come with `id` and `@odata.type` only,
   * every other property null ("When an application queries a relationship that returns a
   * directoryObject type collection…", same page); this app is granted neither. Pages of 100 by
   * default, `$top` up to 999, `$skiptoken` to the next. A hidden membership lists no member to an
   * app without Member.Read.Hidden. `membersFault` answers a group's member list with that status,
   * as a transient Graph failure would (learn.microsoft.com/graph/errors).
   */
  private answerGroupMembers(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const found = this.readableGroup(context, id);
    if ('answer' in found) return found.answer;
    const { group } = found;
    if (group.membersFault === 403) return this.error(context, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (group.membersFault) return this.error(context, group.membersFault, 'generalException', 'An unspecified error has occurred.');
    if (context.query.has('$filter') || context.query.has('$expand')) {
      return this.error(context, 400, 'Request_UnsupportedQuery', 'This query is not supported on group members without advanced query parameters.');
    }
    const top = context.query.get('$top');
    const topValue = top === null ? 100 : Number(top);
    if (!Number.isInteger(topValue) || topValue < 1 || topValue > 999)
      return this.error(context, 400, 'BadRequest', `Invalid value '${top}' for $top: it must be between 1 and 999.`);
    const listPath = `/groups/${group.id}/members`;
    const skipToken = context.query.get('$skiptoken');
    const offset = skipToken === null ? 0 : decodeSkipToken(skipToken, listPath);
    if (offset === undefined) return this.error(context, 400, 'BadRequest', 'The $skiptoken is not valid for this collection.');
    const hidden = group.visibility === 'HiddenMembership' && !hasAnyRole(context.roles, ['Member.Read.Hidden']);
    const all = hidden ? [] : group.members;
    const select = listOption(context.query.get('$select'));
    const value = all.slice(offset, offset + topValue).map((member) => {
      const item: Record<string, unknown> = { '@odata.type': `#microsoft.graph.${member.type}`, id: member.id };
      for (const key of select) if (key !== 'id') item[key] = null;
      return item;
    });
    const body: Record<string, unknown> = { '@odata.context': `${this.options.origin}/${version}/$metadata#directoryObjects`, value };
    if (offset + topValue < all.length) {
      const kept = [...context.query.entries()].filter(([name]) => name !== '$skiptoken');
      kept.push(['$skiptoken', encodeSkipToken(offset + topValue, listPath)]);
      body['@odata.nextLink'] = `${this.options.origin}/${version}${listPath}?${kept.map(([name, v]) => `${name}=${encodeODataValue(v)}`).join('&')}`;
    }
    return { status: 200, body };
  }

  private admit(context: RequestContext, workload: Workload): SimAnswer | undefined {
    const verdict = this.options.throttle?.admit(context.appId ?? 'anonymous', workload);
    if (!verdict || verdict.ok) return undefined;
    return this.error(context, 429, 'TooManyRequests', 'Too many requests.', { 'retry-after': String(verdict.retryAfterSeconds) });
  }

  private forbidden(context: RequestContext, workload: Workload, permissions: readonly string[]): SimAnswer {
    if (workload === 'directory' || workload === 'identity') {
      return this.error(context, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    }
    return this.error(
      context,
      403,
      'Forbidden',
      `Application is not authorized to perform this operation. Application must have one of the following scopes: ${permissions.join(', ')}`,
    );
  }

  private async answerBatch(context: RequestContext, rawBody: string | undefined): Promise<SimAnswer> {
    const refusal = await this.authenticate(context);
    if (refusal) return refusal;
    let requests: unknown;
    try {
      requests = (JSON.parse(rawBody ?? '') as { requests?: unknown }).requests;
    } catch {
      return this.error(context, 400, 'BadRequest', 'Invalid batch payload format.');
    }
    if (!Array.isArray(requests) || requests.length === 0) return this.error(context, 400, 'BadRequest', 'Invalid batch payload format.');
    if (requests.length > MAX_BATCH_REQUESTS) {
      return this.error(context, 400, 'BadRequest', `Number of batch request steps exceeds the maximum of ${MAX_BATCH_REQUESTS}.`);
    }
    const ids = new Set<string>();
    for (const request of requests as Array<Record<string, unknown>>) {
      if (typeof request?.id !== 'string' || typeof request.url !== 'string' || typeof request.method !== 'string') {
        return this.error(context, 400, 'BadRequest', 'Each batch request needs an id, a method and a url.');
      }
      if (ids.has(request.id.toLowerCase())) return this.error(context, 400, 'BadRequest', `Batch request id '${request.id}' is duplicated.`);
      ids.add(request.id.toLowerCase());
    }

    const version = context.versionedPath.startsWith('/beta') ? 'beta' : 'v1.0';
    const responses = await Promise.all(
      (requests as Array<{ id: string; method: string; url: string; headers?: Record<string, string> }>).map(async (request) => {
        const relative = request.url.startsWith('/') ? request.url : `/${request.url}`;
        const subUrl = new URL(`/${version}${relative}`, this.options.origin);
        const sub: RequestContext = {
          method: request.method.toUpperCase(),
          versionedPath: subUrl.pathname,
          query: subUrl.searchParams,
          headers: { ...lowerCaseKeys(request.headers ?? {}), 'user-agent': headerValue(context.headers, 'user-agent') ?? '' },
          requestId: randomUUID(),
          clientRequestId: context.clientRequestId,
          appId: context.appId,
          roles: context.roles,
          inBatch: true,
          logGeneration: context.logGeneration,
        };
        const fault = this.options.faults.take(sub.versionedPath);
        if (fault?.latencyMs) await sleep(fault.latencyMs);
        const answer =
          fault && (fault.status !== undefined || fault.malformed || fault.reset)
            ? this.faultAnswer({ ...fault, ...(fault.status === undefined ? { status: 503 } : {}), malformed: false }, sub)
            : await this.answer(sub);
        this.log(sub, answer.status);
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name === 'retry-after' ? 'Retry-After' : name] = value;
        // A sub-request's body is JSON inside the batch's own, a collection page with its `value` as any other.
        return { id: request.id, status: answer.status, headers, body: answer.rawBody === undefined ? JSON.parse(serialise(answer)) : answer.rawBody };
      }),
    );
    // "The order of responses is not guaranteed": shuffle so clients never rely on it.
    for (let index = responses.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.options.random() * (index + 1));
      [responses[index], responses[other]] = [responses[other]!, responses[index]!];
    }
    return { status: 200, body: { responses } };
  }
}

/** `Accept-Encoding` lists gzip with a non-zero weight (RFC 9110, section 12.5.3). */
function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  return String(headers['accept-encoding'] ?? '')
    .split(',')
    .some((entry) => {
      const [coding, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
      const weight = parameters.find((parameter) => parameter.startsWith('q='));
      return coding === 'gzip' && (weight === undefined || Number(weight.slice(2)) > 0);
    });
}

function serialise(answer: SimAnswer): string {
  if (answer.rawBody !== undefined) return answer.rawBody;
  if (answer.valueJson === undefined) return JSON.stringify(answer.body ?? {});
  const head = JSON.stringify(answer.body ?? {});
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}"value":[${answer.valueJson().join(',')}]}`;
}

function redirectNextLink(answer: SimAnswer, fault: FaultEffect): void {
  const body = answer.body as Record<string, unknown> | undefined;
  const nextLink = body?.['@odata.nextLink'];
  if (typeof nextLink !== 'string') return;
  const url = new URL(nextLink);
  body!['@odata.nextLink'] = `${fault.nextLinkOrigin ?? url.origin}${fault.nextLinkPath ?? url.pathname}${url.search}`;
}

function checkQueryOptions(query: URLSearchParams, resource: SimResource | SimNestedResource): string | undefined {
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
function unknownSelected(query: URLSearchParams, resource: SimResource | SimNestedResource, version: VersionSegment): string | undefined {
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

/** Cuts expanded navigation collections to the resource's cap, linking on to the record's own list of the rest. */
function capExpanded(shaped: Record<string, unknown>, resource: SimResource | SimNestedResource, recordUrl: string): void {
  for (const [navigation, cap] of Object.entries(resource.expandedItemCap ?? {})) {
    const items = shaped[navigation];
    if (!Array.isArray(items) || items.length <= cap) continue;
    shaped[navigation] = items.slice(0, cap);
    const listPath = new URL(`${recordUrl}/${navigation}`).pathname.replace(/^\/(v1\.0|beta)/, '');
    shaped[`${navigation}@odata.nextLink`] = `${recordUrl}/${navigation}?$skiptoken=${encodeSkipToken(cap, listPath)}`;
  }
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

type RecordTest = (record: GraphRecord) => boolean;

/** What a checked `$filter` keeps; null without one. */
function filterTest(filter: string | null, resource: SimResource | SimNestedResource): RecordTest | null {
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
  return (record) => record[property!] === value;
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

/**
 * The record as Graph returns it: navigation properties only when expanded (and then always as
 * an array), `$select` keeping only what it names.
 */
function shape(record: GraphRecord, resource: SimResource | SimNestedResource, context: RequestContext, version: VersionSegment): Record<string, unknown> {
  return shaper(resource, context, version)(record);
}

/** `shape` for every record of one request: the query read once, not once per record of a page. */
function shaper(resource: SimResource | SimNestedResource, context: RequestContext, version: VersionSegment): (record: GraphRecord) => Record<string, unknown> {
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
    for (const name of expand) result[name] = (record[name] as unknown[] | undefined) ?? [];
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
function schemaTest(resource: SimResource | SimNestedResource, version: VersionSegment): RecordTest | null {
  const omittedTypes = version === 'v1.0' ? resource.v1Omits?.types : undefined;
  if (!omittedTypes) return null;
  return (record) => !omittedTypes.has(String(record['@odata.type'] ?? '').replace(/^#?microsoft\.graph\./, ''));
}

/**
 * How each kind of group reads in `securityEnabled` and `mailEnabled`, with `groupTypes` holding
 * `Unified` for a Microsoft 365 group: the table "Group types in Microsoft Entra ID and Microsoft
 * Graph" (learn.microsoft.com/graph/api/resources/groups-overview). A Microsoft 365 group may be
 * security-enabled or not; the simulator serves the default, not security-enabled.
 */
const GROUP_KIND_FIELDS: Readonly<Record<NonNullable<SimGroup['kind']>, { securityEnabled: boolean; mailEnabled: boolean }>> = {
  security: { securityEnabled: true, mailEnabled: false },
  microsoft365: { securityEnabled: false, mailEnabled: true },
  mailEnabledSecurity: { securityEnabled: true, mailEnabled: true },
  distribution: { securityEnabled: false, mailEnabled: true },
};

function prefersUnknownEnumMembers(headers: IncomingHttpHeaders | Record<string, string>): boolean {
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

/** `a,b(c)` → `['a', 'b']`: option names at the top level, nested options ignored. */
function listOption(value: string | null): string[] {
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

function encodeSkipToken(offset: number, source: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: source })).toString('base64url');
}

function decodeSkipToken(token: string, source: string): number | undefined {
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

function headerValue(headers: IncomingHttpHeaders | Record<string, string>, name: string): string | undefined {
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
