import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { answerBatch } from './batch.js';
import type { BatchHost } from './batch.js';
import { SimCollectionReads } from './collection-reads.js';
import { SimDirectory } from './directory.js';
import { findUser, SimMemberships } from './memberships.js';
import { devicesOfUser, USER_DEVICES_PATH } from './user-devices.js';
import type { SimEntra } from './entra.js';
import { faultAnswer, redirectNextLink } from './faults.js';
import type { FaultInjector } from './faults.js';
import { SimGraphAccess } from './graph-access.js';
import { errorAnswer, headerValue, serialise } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { JSON_CONTENT_TYPE, sendJsonText } from './http-helpers.js';
import type { SimResourceTable } from './resources/resource-table.js';
import type { VersionSegment } from './resources/resource-model.js';
import type { Throttle } from './throttling.js';
import type { RecordList, SimTenant } from './tenants/sim-tenant.js';

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
  /** The resources served: the simulator's own and the tenant's (resources/resource-table.ts). */
  resources: SimResourceTable;
}

/**
 * The compressed pages the simulator keeps, at most (bytes, counted as they are kept): every page of
 * the 100,000-device tenant's reports (about 14 MB), so the benchmark's simulator takes little CPU
 * from the client it shares the machine with, but not the 60 MB and more of the largest tenants, whose
 * records are generated precisely not to be held.
 */
const COMPRESSED_PAGES_BUDGET = 32 * 2 ** 20;

/**
 * The Microsoft Graph look-alike: answers the specification's resources the way Graph does. This is
 * its HTTP side: each exchange faulted, delayed, answered, logged and sent (compressed as Graph
 * compresses), and each request routed to the part that answers it: the directory (directory.ts),
 * `$batch` (batch.ts) or the tenant's lists (collection-reads.ts), once its token, permissions and
 * limits let it through (graph-access.ts).
 */
export class SimGraph {
  readonly requests: SimRequestRecord[] = [];
  readonly violations: SimViolation[] = [];
  inFlight = 0;
  peakInFlight = 0;
  private seq = 0;
  private readonly compressedPages = new WeakMap<RecordList, Map<string, Buffer>>();
  /** Bytes ever put in `compressedPages`: past COMPRESSED_PAGES_BUDGET, pages are compressed anew each time. */
  private compressedBytes = 0;
  /** Bumped by clearLog, so a request still in flight from before is not logged after it. */
  private logGeneration = 0;
  private readonly access: SimGraphAccess;
  private readonly directory: SimDirectory;
  private readonly memberships: SimMemberships;
  private readonly reads: SimCollectionReads;
  private readonly batchHost: BatchHost;

  constructor(private readonly options: SimGraphOptions) {
    this.access = new SimGraphAccess(options.entra, options.throttle);
    this.directory = new SimDirectory({ origin: options.origin, tenant: options.tenant, access: this.access });
    this.memberships = new SimMemberships({ origin: options.origin, tenant: options.tenant, access: this.access });
    this.reads = new SimCollectionReads({ origin: options.origin, tenant: options.tenant, resources: options.resources, pageSizes: options.pageSizes });
    this.batchHost = {
      origin: options.origin,
      access: this.access,
      faults: options.faults,
      random: options.random,
      answer: (context) => this.answer(context),
      log: (context, status) => this.log(context, status),
    };
  }

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
      answer = faultAnswer(fault, context, this.options.origin);
    } else if (method === 'POST' && /^\/(v1\.0|beta)\/\$batch$/.test(url.pathname)) {
      answer = await answerBatch(context, body, this.batchHost);
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

  /** A plain request, or one sub-request of a batch (already authenticated then). */
  private async answer(context: RequestContext): Promise<SimAnswer> {
    if (context.method !== 'GET') {
      this.violations.push({ method: context.method, path: context.versionedPath, reason: 'write method' });
      return errorAnswer(context, 405, 'Request_BadRequest', `The HTTP method '${context.method}' is not allowed for this read-only tenant look-alike.`);
    }
    if (!context.inBatch) {
      const refusal = await this.access.authenticate(context);
      if (refusal) return refusal;
    }

    const match = context.versionedPath.match(/^\/(v1\.0|beta)(\/.*)$/);
    if (!match) return errorAnswer(context, 400, 'BadRequest', 'Invalid version: the path must start with /v1.0 or /beta.');
    const version = match[1] as VersionSegment;
    const path = match[2]!.replace(/\/$/, '');

    const directoryAnswer = this.directory.answer(context, version, path);
    if (directoryAnswer) return directoryAnswer;
    const membershipAnswer = this.memberships.answer(context, version, path);
    if (membershipAnswer) return membershipAnswer;

    const { resources } = this.options;
    const userDevices = USER_DEVICES_PATH.exec(path);
    if (userDevices) return this.userDevices(context, version, decodeURIComponent(userDevices[1]!));
    const nested = resources.findNestedResource(version, path);
    if (nested) return this.access.refuseRead(context, version, nested.resource) ?? this.reads.nested(context, version, nested.resource, nested.parentId);
    const entity = resources.findEntity(version, path);
    if (entity) return this.access.refuseRead(context, version, entity.resource) ?? this.reads.entity(context, version, entity.resource, entity.id);

    const resource = resources.findResource(version, path);
    if (!resource) {
      const segment = path.split('/').filter(Boolean).pop() ?? path;
      return errorAnswer(context, 400, 'BadRequest', `Resource not found for the segment '${segment}'.`);
    }
    const refusal = this.access.refuseRead(context, version, resource);
    if (refusal) return refusal;
    return resource.kind === 'singleton' ? this.reads.singleton(context, version, resource) : this.reads.collection(context, version, resource);
  }

  /** A user's managed devices (user-devices.ts): refused and paged as the tenant's list is; 404 for a user the directory does not hold. */
  private userDevices(context: RequestContext, version: VersionSegment, userId: string): SimAnswer {
    const resource = this.options.resources.findResource(version, '/deviceManagement/managedDevices');
    if (resource?.kind !== 'collection') throw new Error('the simulator serves no managed devices list');
    const refusal = this.access.refuseRead(context, version, resource);
    if (refusal) return refusal;
    const tenant = this.options.tenant();
    const user = findUser(tenant, userId.toLowerCase());
    if (!user)
      return errorAnswer(context, 404, 'Request_ResourceNotFound', `Resource '${userId}' does not exist or one of its queried reference-property objects are not present.`);
    return this.reads.collection(context, version, resource, {
      records: devicesOfUser(tenant, user),
      path: `/users/${userId}/managedDevices`,
      entitySet: `users('${user}')/managedDevices`,
    });
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
