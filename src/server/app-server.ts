import { pino } from 'pino';
import restify from 'restify';
import type { Next, Request, RequestHandler, Response, Server } from 'restify';
import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import { reportToCsv } from '../core/reports/report-csv.js';
import type { ReportId } from '../core/reports/report-model.js';
import { FixedWindowRateLimit, createNotifyKeyCheck } from './notify-access.js';
import type { ReportCache } from './report-cache.js';
import type { TabAccess } from './tab-access.js';
import { handleServerErrors, sealedResponse } from './server-errors.js';
import { serveTab } from './tab-files.js';
import { isLoopback } from '../core/net/loopback.js';
import type { TeamsBot } from '../bot/teams-bot.js';

export interface AppServerOptions {
  reports: ReportCache;
  /** The reports offered: the API's list and ids, and the tab's navigation. The six by default. */
  registry?: ReportRegistry;
  /** Whose data this is: shown by the tab, so a demo tenant is never mistaken for a real one. */
  tenant: { label: string; demo: boolean };
  /** The built tab (Vite's output); without it, /tab answers 404. */
  tabDirectory?: string;
  /** Serve the tab's source maps too (development only: they reveal its source). */
  serveSourceMaps?: boolean;
  checkAccess: (authorization: string | undefined) => Promise<TabAccess>;
  /** Demo mode only: a user token for a browser on this machine, so the tab works outside Teams. */
  demoToken?: () => Promise<{ token: string; expiresIn: number }>;
  /** The Teams bot, at /api/messages. */
  bot?: TeamsBot;
  /** `POST /api/notify`'s bearer key; without it the route answers 404. */
  notifyApiKey?: string;
  /** Notify requests with a wrong key a caller may make a minute (default 10); ten times that from all callers together. */
  notifyRateLimit?: number;
  /** The reverse proxy whose X-Forwarded-For names the caller (`TRUSTED_PROXY`). */
  trustedProxy?: string;
  log?: (line: string) => void;
  /** Where restify's own warnings go (JSON lines, requests reduced to method, path and caller): stderr by default. */
  logStream?: NodeJS.WritableStream;
}

/** A Teams activity is small; 256 KB leaves room for the largest card submit. */
const MAX_ACTIVITY_BYTES = 256 * 1024;

/**
 * The server's HTTP surface for the tab: the report list, one report as the JSON contract or as
 * CSV, every route behind the tab's SSO token. Answers are never cached by a browser or proxy.
 */
export function createAppServer(options: AppServerOptions): Server {
  const log = options.log ?? ((line: string) => console.error(line));
  const registry = options.registry ?? REPORTS;
  // restify 9+ logs with pino; @types/restify still names bunyan's Logger.
  const restifyLog = restifyLogger(options.logStream ?? process.stderr) as unknown as restify.ServerOptions['log'];
  const server = restify.createServer({ name: 'device-management-health', log: restifyLog });
  handleServerErrors(server, log);
  server.use(restify.plugins.queryParser({ mapParams: false }));
  server.pre((_req, res, next) => {
    res.header('cache-control', 'no-store');
    res.header('x-content-type-options', 'nosniff');
    next();
  });

  const authorised = async (req: Request, res: Response): Promise<boolean> => {
    const access = await options.checkAccess(req.header('authorization'));
    if (access.ok) return true;
    if (access.status === 401) res.header('www-authenticate', 'Bearer error="invalid_token"');
    res.send(access.status, { error: { status: access.status, message: access.reason } });
    return false;
  };

  server.get('/api/reports', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, registry.catalogue());
  });

  server.get('/api/tenant', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    res.send(200, options.tenant);
  });

  server.get('/api/reports/:id/progress', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const id = String(req.params.id ?? '');
    if (!registry.has(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    res.send(200, options.reports.progress(id));
  });

  server.get('/api/reports/:name', async (req: Request, res: Response) => {
    if (!(await authorised(req, res))) return;
    const name = String(req.params.name ?? '');
    const csv = name.endsWith('.csv');
    const id = csv ? name.slice(0, -'.csv'.length) : name;
    if (!registry.has(id)) {
      res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
      return;
    }
    const refresh = (req.query as Record<string, unknown> | undefined)?.refresh === 'true';
    const report = await options.reports.get(id, { refresh });
    options.log?.(`report ${id}: ${report.state}${report.error ? ` (${report.error.status ?? report.error.code})` : ''}`);
    if (!csv) {
      res.send(200, report);
      return;
    }
    if (report.state === 'load-error') {
      res.send(502, { error: report.error });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${id}.csv"` });
    res.end(reportToCsv(report));
  });

  const bot = options.bot;
  if (bot) {
    server.post('/api/messages', restify.plugins.bodyParser({ maxBodySize: MAX_ACTIVITY_BYTES, mapParams: false, rejectUnknown: true }), async (req: Request, res: Response) => {
      await bot.handle(req, sealedResponse(res, log));
    });
    if (options.notifyApiKey) registerNotify(server, bot, { apiKey: options.notifyApiKey, perMinute: options.notifyRateLimit ?? 10, trustedProxy: options.trustedProxy, registry, log: options.log });
  }

  const demoToken = options.demoToken;
  if (demoToken) {
    server.get('/api/demo/token', async (req: Request, res: Response) => {
      // The demo tenant's sign-in stands in for Teams SSO, for this machine only.
      if (!isLoopback(req.socket.remoteAddress)) {
        res.send(403, { error: { status: 403, message: 'The demo sign-in answers this machine only.' } });
        return;
      }
      res.send(200, await demoToken());
    });
  }
  if (options.tabDirectory) serveTab(server, options.tabDirectory, { serveSourceMaps: options.serveSourceMaps ?? false, catalogue: registry.catalogue() });
  return server;
}

/**
 * restify logs whole requests on some paths ("error in formatter"), headers and all: its logger
 * here keeps a request's method, path and caller alone, and censors credential headers wherever
 * else they appear.
 */
function restifyLogger(stream: NodeJS.WritableStream): pino.Logger {
  return pino(
    {
      name: 'device-management-health',
      level: 'warn',
      serializers: {
        req: (req: Request) => ({ method: req.method, path: req.url?.split('?')[0], caller: req.socket?.remoteAddress }),
        err: pino.stdSerializers.err,
      },
      redact: { paths: ['*.headers.authorization', '*.headers.cookie', '*.headers["x-ms-token-aad-access-token"]', 'headers.authorization', 'headers.cookie'], censor: '[redacted]' },
    },
    stream,
  );
}

/**
 * `POST /api/notify` with `{ "reports": ["escrow-gaps"], "target": "<channel id>" }` (both optional;
 * no body at all means the defaults): posts what is new to the channels where the app is installed,
 * or to the one target. The bearer key is checked in constant time. Wrong keys are limited per
 * caller and across all callers together, so neither many addresses nor one can guess at speed;
 * the right key has a budget of its own, so a scheduler is never locked out by someone else's
 * guessing (the key's length, 16 characters at least, is what makes guessing hopeless).
 */
function registerNotify(
  server: Server,
  bot: TeamsBot,
  options: { apiKey: string; perMinute: number; trustedProxy: string | undefined; registry: ReportRegistry; log: ((line: string) => void) | undefined },
): void {
  const keyMatches = createNotifyKeyCheck(options.apiKey);
  const wrongKeysPerCaller = new FixedWindowRateLimit(options.perMinute, 60_000);
  const wrongKeysOverall = new FixedWindowRateLimit(options.perMinute * 10, 60_000);
  const rightKey = new FixedWindowRateLimit(options.perMinute, 60_000);
  const parseBody = restify.plugins.bodyParser({ maxBodySize: 16 * 1024, mapParams: false, rejectUnknown: true });
  const tooMany = (res: Response, retryAfter: number) => {
    res.header('retry-after', String(retryAfter));
    res.send(429, { error: { status: 429, message: `Too many notify requests; try again in ${retryAfter} s.` } });
  };
  server.post('/api/notify', async (req: Request, res: Response) => {
    if (!keyMatches(req.header('authorization'))) {
      const caller = callerAddress(req, options.trustedProxy);
      const retryAfter = Math.max(wrongKeysPerCaller.take(caller), wrongKeysOverall.take('all callers'));
      if (retryAfter > 0) return tooMany(res, retryAfter);
      res.header('www-authenticate', 'Bearer');
      res.send(401, { error: { status: 401, message: 'The notify key is missing or wrong.' } });
      return;
    }
    const retryAfter = rightKey.take('the key');
    if (retryAfter > 0) return tooMany(res, retryAfter);
    const body = await readBody(req, res, parseBody);
    if (!body.ok) return;
    const request = readNotifyRequest(body.value, options.registry);
    if (!request.ok) {
      res.send(400, { error: { status: 400, message: request.message } });
      return;
    }
    const result = await bot.notify(request.value);
    if (!result.ok) {
      res.send(result.status, { error: { status: result.status, message: result.message } });
      return;
    }
    options.log?.(`notify: ${result.outcomes.length} target(s), ${result.outcomes.filter((outcome) => outcome.status === 'posted').length} posted`);
    res.send(200, { targets: result.outcomes });
  });
}

/** The body, parsed as JSON once the key has been checked; a request without one has `undefined`. */
async function readBody(req: Request, res: Response, parse: RequestHandler[]): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const hasBody = Number(req.header('content-length') || 0) > 0 || req.header('transfer-encoding') !== undefined;
  if (!hasBody) return { ok: true, value: undefined };
  for (const handler of parse) {
    const error = await new Promise<unknown>((resolve) => handler(req, res, resolve as Next));
    if (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      res.send(status, { error: { status, message: status === 415 ? 'The body must be JSON (Content-Type: application/json).' : 'The body could not be read as JSON.' } });
      return { ok: false };
    }
  }
  return { ok: true, value: req.body };
}

/**
 * Who is calling: the socket's address, or, for a request from the trusted proxy, the address that
 * proxy appended last to X-Forwarded-For (earlier entries are the client's to write, so not trusted).
 */
function callerAddress(req: Request, trustedProxy: string | undefined): string {
  const socketAddress = normaliseAddress(req.socket.remoteAddress ?? 'unknown');
  if (!trustedProxy || socketAddress !== normaliseAddress(trustedProxy)) return socketAddress;
  const forwarded = req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded ? normaliseAddress(forwarded) : socketAddress;
}

function normaliseAddress(address: string): string {
  return address.replace(/^::ffff:/i, '').toLowerCase();
}

function readNotifyRequest(body: unknown, registry: ReportRegistry): { ok: true; value: { reports?: ReportId[]; target?: string } } | { ok: false; message: string } {
  if (body === undefined || body === null || body === '') return { ok: true, value: {} };
  if (typeof body !== 'object' || Array.isArray(body)) return { ok: false, message: 'The body must be a JSON object: { "reports": [...], "target": "..." }.' };
  const { reports, target, ...rest } = body as Record<string, unknown>;
  const unknownFields = Object.keys(rest);
  if (unknownFields.length > 0) return { ok: false, message: `Unknown field(s): ${unknownFields.join(', ')}. Accepted: reports, target.` };
  if (reports !== undefined && (!Array.isArray(reports) || reports.some((id) => typeof id !== 'string' || !registry.has(id)))) {
    return { ok: false, message: `reports must be a list of report ids: ${registry.ids.join(', ')}.` };
  }
  if (target !== undefined && (typeof target !== 'string' || target.length === 0 || target.length > 512)) return { ok: false, message: 'target must be a channel or conversation id.' };
  return { ok: true, value: { ...(reports ? { reports: [...new Set(reports as ReportId[])] } : {}), ...(target ? { target } : {}) } };
}
