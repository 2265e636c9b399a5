import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import restify from 'restify';
import type { Request, Response, Server } from 'restify';
import type { AppServices } from '../app/create-services.js';
import { registerNotify } from './notify-route.js';
import { EncodedReports } from './report-encoding.js';
import type { ReportWindows } from '../core/reports/window/report-window.js';
import { registerReportRoutes } from './report-routes.js';
import { registerTriageRoutes } from './triage-routes.js';
import { registerAppliesRoute } from './applies-route.js';
import { registerBaselineRoutes } from './baseline-routes.js';
import { registerChangesRoute } from './changes-route.js';
import type { TabAccess, TabUser } from './tab-access.js';
import { handleServerErrors, sealedResponse } from './server-errors.js';
import { serveTab } from './tab-files.js';
import { registerHealthRoutes } from './health-routes.js';
import type { Readiness } from './health-routes.js';
import { registerStartupGate } from './startup-gate.js';
import { registerLegalPages } from './legal-pages.js';
import type { StoreOpening } from '../app/opening-state-store.js';
import { isLoopback, isLoopbackHost } from '../core/net/loopback.js';
import { DEMO_PERSONA_ENTRA_ROLES, isDemoPersona } from '../core/viewer-scope/demo.js';
import type { DemoAdministrator } from '../core/viewer-scope/demo.js';
import type { TeamsBot } from '../bot/teams-bot.js';

/** The `Strict-Transport-Security` every answer carries (docs/contract.md, "The server's endpoints"). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export interface AppServerOptions {
  /** The application floor (create-services.ts): its registry is the API's list and ids and the tab's navigation. */
  services: Pick<AppServices, 'registry' | 'reports' | 'tenant' | 'applies' | 'viewerScopes'>;
  /** The reports' bytes, made once per result for all viewers; the server's own unless a test reads its count. */
  encodings?: EncodedReports;
  /** The windows over each result (`GET /api/reports/:id/rows`); the server's own unless a test counts their sorts. */
  windows?: ReportWindows;
  /** The built tab (Vite's output); without it, /tab answers 404. */
  tabDirectory?: string;
  /** Serve the tab's source maps too (development only: they reveal its source). */
  serveSourceMaps?: boolean;
  checkAccess: (authorization: string | undefined) => Promise<TabAccess>;
  /** Demo mode only: a user token for a browser on this machine, so the tab works outside Teams. */
  demoToken?: (userId: string, entraRoleIds?: readonly string[]) => Promise<{ token: string; expiresIn: number }>;
  /**
   * The demo tenant's people: `/api/demo/token?as=central` (or `regional`, `no-role`,
   * `intune-administrator`) signs in as one of them, with the Entra roles (`wids`) that person holds
   * (DEMO_PERSONA_ENTRA_ROLES), to see the viewer scope's difference (docs/finding-rules.md, "Viewer scope").
   */
  demoAdministrators?: Readonly<Record<DemoAdministrator, string>>;
  /** The Teams bot, at /api/messages. */
  bot?: TeamsBot;
  /** `POST /api/notify`'s bearer key; without it the route answers 404. */
  notifyApiKey?: string;
  /** Notify requests with a wrong key a caller may make a minute (default 10); ten times that from all callers together. */
  notifyRateLimit?: number;
  /** The reverse proxy whose X-Forwarded-For names the caller (`TRUSTED_PROXY`). */
  trustedProxy?: string;
  /** Explicit refreshes (`?refresh=true`) one user may ask for a minute; 6 by default. */
  refreshesPerMinute?: number;
  /** Window requests (`/rows`) one user may make a minute (report-routes.ts, `WINDOW_REQUESTS_PER_MINUTE`, by default). */
  windowRequestsPerMinute?: number;
  /** "What applies" questions one user may ask a minute (applies-route.ts, `APPLIES_QUESTIONS_PER_MINUTE`, by default). */
  questionsPerMinute?: number;
  /** CSV exports one user may start a minute (report-routes.ts, `EXPORTS_PER_MINUTE`, by default). */
  exportsPerMinute?: number;
  /** CSV exports this instance writes at once (report-routes.ts, `EXPORTS_AT_ONCE`, by default). */
  exportsAtOnce?: number;
  /** The clock the per-minute limits (refreshes, windows, exports, triage changes) count by, in milliseconds: `Date.now` unless a test holds it. */
  limitClock?: () => number;
  /** Sees each request once answered, by its route template (telemetry): never its path or query. */
  onRequest?: (request: { method: string; route: string; status: number; durationMs: number }) => void;
  /** What /readyz checks; without it, /readyz answers ready whenever the process answers. */
  readiness?: Readiness;
  /** A state store opened in the background: until it is open, the requests that need it are 503 (startup-gate.ts). */
  storeOpening?: StoreOpening;
  log?: (line: string) => void;
  /** Where restify's own warnings go (JSON lines, requests reduced to method, path and caller): stderr by default. */
  logStream?: NodeJS.WritableStream;
}

/** A Teams activity is small; 256 KB leaves room for the largest card submit. */
const MAX_ACTIVITY_BYTES = 256 * 1024;

/**
 * The server's HTTP surface: the report API behind the tab's SSO token (report-routes.ts) with
 * its triage (triage-routes.ts), the bot
 * at /api/messages and its notify route (notify-route.ts), the demo sign-in on loopback, and the
 * tab's files. Answers are never cached by a browser or proxy.
 */
export function createAppServer(options: AppServerOptions): Server {
  const log = options.log ?? ((line: string) => console.error(line));
  const { services } = options;
  const { registry } = services;
  // restify 9+ logs with pino; @types/restify still names bunyan's Logger.
  const restifyLog = restifyLogger(options.logStream ?? process.stderr) as unknown as restify.ServerOptions['log'];
  const server = restify.createServer({ name: 'device-management-health', log: restifyLog });
  handleServerErrors(server, log);
  server.use(restify.plugins.queryParser({ mapParams: false }));
  // restify builds each request's URL from its Host header, so the Host must be a host and
  // nothing more: one no URL can hold (a space, an address such as 127.0.0.256) throws outside any
  // handler, which would end the process, and one holding `/`, `?`, `#` or `@` passes as a URL but
  // moves the path that routes (`Host: 127.0.0.1:3978/api/reports/x?` made `GET /tab/` a report).
  // Either is answered 400 before anything reads the request's URL.
  server.pre((req, res, next) => {
    if (hostCanBeRead(req.headers.host)) return next();
    res.send(400, { error: { status: 400, message: 'The Host header does not name a host.' } });
    return next(false);
  });
  server.pre((_req, res, next) => {
    res.header('cache-control', 'no-store');
    res.header('x-content-type-options', 'nosniff');
    // Browsers that once reached the app over HTTPS never try it over plain HTTP for a year, on any
    // subdomain: no first request in clear for a network to strip or read
    // (developer.mozilla.org/docs/Web/HTTP/Headers/Strict-Transport-Security; RFC 6797). Ignored over HTTP.
    res.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    next();
  });

  if (options.storeOpening) registerStartupGate(server, options.storeOpening);
  registerHealthRoutes(server, options.readiness, log);
  registerLegalPages(server);
  const onRequest = options.onRequest;
  if (onRequest) {
    server.on('after', (req: Request, res: Response, route: { spec?: { path?: unknown } } | null) => {
      const path = route?.spec?.path;
      onRequest({ method: req.method ?? 'GET', route: typeof path === 'string' ? path : '(no route)', status: res.statusCode, durationMs: Date.now() - req.time() });
    });
  }

  const authorised = async (req: Request, res: Response): Promise<TabUser | null> => {
    const access = await options.checkAccess(req.header('authorization'));
    if (access.ok) return access.user;
    if (access.status === 401) res.header('www-authenticate', 'Bearer error="invalid_token"');
    res.send(access.status, { error: { status: access.status, message: access.reason } });
    return null;
  };

  registerReportRoutes(server, {
    services,
    encodings: options.encodings ?? new EncodedReports(),
    ...(options.windows ? { windows: options.windows } : {}),
    authorised,
    ...(options.refreshesPerMinute !== undefined ? { refreshesPerMinute: options.refreshesPerMinute } : {}),
    ...(options.windowRequestsPerMinute !== undefined ? { windowRequestsPerMinute: options.windowRequestsPerMinute } : {}),
    ...(options.exportsPerMinute !== undefined ? { exportsPerMinute: options.exportsPerMinute } : {}),
    ...(options.exportsAtOnce !== undefined ? { exportsAtOnce: options.exportsAtOnce } : {}),
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.log ? { log: options.log } : {}),
  });

  registerTriageRoutes(server, {
    services,
    authorised,
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  registerChangesRoute(server, {
    services,
    authorised,
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
  });
  registerBaselineRoutes(server, {
    services,
    authorised,
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  registerAppliesRoute(server, {
    applies: services.applies,
    authorised,
    viewerScopes: services.viewerScopes,
    ...(options.questionsPerMinute !== undefined ? { questionsPerMinute: options.questionsPerMinute } : {}),
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
  });

  const bot = options.bot;
  if (bot) {
    server.post('/api/messages', restify.plugins.bodyParser({ maxBodySize: MAX_ACTIVITY_BYTES, mapParams: false, rejectUnknown: true }), async (req: Request, res: Response) => {
      await bot.handle(req, sealedResponse(res, log));
    });
    if (options.notifyApiKey)
      registerNotify(server, bot, { apiKey: options.notifyApiKey, perMinute: options.notifyRateLimit ?? 10, trustedProxy: options.trustedProxy, registry, log: options.log });
  }

  const demoToken = options.demoToken;
  if (demoToken) {
    server.get('/api/demo/token', async (req: Request, res: Response) => {
      // The demo tenant's sign-in stands in for Teams SSO, for this machine only, and for pages
      // served under this machine's own name (loopback.ts, isLoopbackHost).
      if (!isLoopback(req.socket.remoteAddress) || !isLoopbackHost(req.header('host'))) {
        res.send(403, { error: { status: 403, message: 'The demo sign-in answers this machine only.' } });
        return;
      }
      // One user per browser: the id is kept in a cookie the page cannot read, so per-person
      // limits and the triage log's names bind in the demo as they do for Teams users.
      const as = (req.query as Record<string, unknown> | undefined)?.as;
      const administrator = isDemoPersona(as) ? options.demoAdministrators?.[as] : undefined;
      if (administrator && isDemoPersona(as)) {
        res.send(200, await demoToken(administrator, DEMO_PERSONA_ENTRA_ROLES[as]));
        return;
      }
      const kept = demoUserOf(req.header('cookie'));
      const userId = kept ?? randomUUID();
      if (!kept) res.header('set-cookie', `${DEMO_USER_COOKIE}=${userId}; Path=/api/demo; HttpOnly; SameSite=Strict; Max-Age=31536000`);
      res.send(200, await demoToken(userId));
    });
  }
  if (options.tabDirectory) serveTab(server, options.tabDirectory, { serveSourceMaps: options.serveSourceMaps ?? false, catalogue: registry.catalogue() });
  return server;
}

/** The cookie that keeps a browser's demo user id. */
const DEMO_USER_COOKIE = 'dmhealth_demo_user';

/** The demo user id a request's cookies keep, if it is one this server would have made (a UUID). */
export function demoUserOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.split('=').map((text) => text.trim());
    if (name === DEMO_USER_COOKIE && value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) return value;
  }
  return undefined;
}

/**
 * A Host header as RFC 9110 defines it (section 7.2: `uri-host [ ":" port ]`): a name or an IPv4
 * address, or an IPv6 literal in brackets, and a port. The name is held to the characters DNS and
 * loopback names use, which leaves out every character that could start a path, a query, a fragment
 * or user information.
 */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9._~-]*)(?::[0-9]{1,5})?$/;

/**
 * Whether this Host header is a host restify can make the request's URL of (restify's
 * Request.getUrl, which falls back to localhost without one) and names the host alone.
 */
export function hostCanBeRead(host: string | undefined): boolean {
  if (host === undefined || host === '') return true;
  if (!HOST_HEADER.test(host)) return false;
  try {
    return new URL(`http://${host}/`).pathname === '/';
  } catch {
    return false;
  }
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
      redact: {
        paths: ['*.headers.authorization', '*.headers.cookie', '*.headers["x-ms-token-aad-access-token"]', 'headers.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
    },
    stream,
  );
}
