import { isIP } from 'node:net';
import type { Request, Response, Server } from 'restify';
import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId } from '../core/reports/report-model.js';
import type { TeamsBot } from '../bot/teams-bot.js';
import { createNotifyKeyCheck } from './notify-access.js';
import { FixedWindowRateLimit, refuseTooMany } from './rate-limit.js';
import { jsonBodyParser, readJsonBody } from './json-body.js';

/**
 * `POST /api/notify` with `{ "reports": ["escrow-gaps"], "target": "<channel id>" }` (both optional;
 * no body at all means the defaults): posts what is new to the channels where the app is installed,
 * or to the one target. The bearer key is checked in constant time. Wrong keys are limited per
 * caller and across all callers together, so neither many addresses nor one can guess at speed;
 * the right key has a budget of its own, so a scheduler is never locked out by someone else's
 * guessing (the key's length, 16 characters at least, is what makes guessing hopeless).
 */
export function registerNotify(
  server: Server,
  bot: TeamsBot,
  options: { apiKey: string; perMinute: number; trustedProxy: string | undefined; registry: ReportRegistry; log: ((line: string) => void) | undefined },
): void {
  const keyMatches = createNotifyKeyCheck(options.apiKey);
  const wrongKeysPerCaller = new FixedWindowRateLimit(options.perMinute, 60_000);
  const wrongKeysOverall = new FixedWindowRateLimit(options.perMinute * 10, 60_000);
  const rightKey = new FixedWindowRateLimit(options.perMinute, 60_000);
  const parseBody = jsonBodyParser(16 * 1024);
  const tooMany = (res: Response, retryAfter: number) => refuseTooMany(res, retryAfter, `Too many notify requests; try again in ${retryAfter} s.`);
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
    // Parsed once the key has been checked.
    const body = await readJsonBody(req, res, parseBody);
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

/**
 * Who is calling: the socket's address, or, for a request from the trusted proxy, the address that
 * proxy appended last to X-Forwarded-For (earlier entries are the client's to write, so not trusted).
 */
export function callerAddress(req: Request, trustedProxy: string | undefined): string {
  const socketAddress = normaliseAddress(req.socket.remoteAddress ?? 'unknown');
  if (!trustedProxy) return socketAddress;
  if (trustedProxy === 'app-service') {
    // A Web App's port is reachable only through App Service's front end, which ends TLS and forwards
    // with X-Forwarded-* headers (https://learn.microsoft.com/azure/app-service/configure-language-nodejs#detect-https-session),
    // from an address of the platform's own network, never a public one; the entry it appends to
    // X-Forwarded-For carries the client's port ("address:port").
    if (!isPlatformAddress(socketAddress)) return socketAddress;
    const forwarded = req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    return forwarded ? normaliseAddress(withoutPort(forwarded)) : socketAddress;
  }
  if (socketAddress !== normaliseAddress(trustedProxy)) return socketAddress;
  const forwarded = req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded ? normaliseAddress(forwarded) : socketAddress;
}

/** Loopback, private (RFC 1918, RFC 4193) and link-local addresses: where App Service's front end connects from. */
export function isPlatformAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (isIP(address) === 6) return address === '::1' || /^f[cd]/i.test(address) || /^fe[89ab]/i.test(address);
  return false;
}

/** "203.0.113.7:51234" or "[2001:db8::1]:51234" as App Service writes them; a bare address as it is. */
function withoutPort(entry: string): string {
  const bracketed = entry.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) return bracketed[1]!;
  const v4 = entry.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/);
  return v4 ? v4[1]! : entry;
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
  if (target !== undefined && (typeof target !== 'string' || target.length === 0 || target.length > 512))
    return { ok: false, message: 'target must be a channel or conversation id.' };
  return { ok: true, value: { ...(reports ? { reports: [...new Set(reports as ReportId[])] } : {}), ...(target ? { target } : {}) } };
}
