import restify from 'restify';
import type { Next, Request, RequestHandler, Response } from 'restify';

/**
 * A JSON body parser for the routes that change something (triage, notify): JSON and nothing
 * else, so that a form a page on another site submits (a "simple" request, sent without CORS
 * asking first) is refused with 415 rather than parsed.
 */
export function jsonBodyParser(maxBodyBytes: number): RequestHandler[] {
  return [restify.plugins.bodyReader({ maxBodySize: maxBodyBytes }), ...restify.plugins.jsonBodyParser({ bodyReader: true, mapParams: false })];
}

/**
 * The request's body as JSON, or an answer already sent: 415 for a body that is not
 * `application/json`, 413 past the parser's limit, 400 for text that is not JSON. A request with no
 * body at all has `undefined`.
 */
export async function readJsonBody(req: Request, res: Response, parse: RequestHandler[]): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const hasBody = Number(req.header('content-length') || 0) > 0 || req.header('transfer-encoding') !== undefined;
  if (!hasBody) return { ok: true, value: undefined };
  if (req.getContentType() !== 'application/json') {
    res.send(415, { error: { status: 415, message: 'The body must be JSON (Content-Type: application/json).' } });
    return { ok: false };
  }
  for (const handler of parse) {
    const error = await new Promise<unknown>((resolve) => handler(req, res, resolve as Next));
    if (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      res.send(status, { error: { status, message: status === 413 ? 'The body is too large.' : 'The body could not be read as JSON.' } });
      return { ok: false };
    }
  }
  return { ok: true, value: req.body };
}
