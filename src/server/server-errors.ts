import type { Request, Response, Server } from 'restify';

/** What a caller is told when something failed on our side: never the internal detail. */
export const INTERNAL_ERROR_MESSAGE = 'The server could not answer this request; the reason is in its log.';

/** Answers 404 for a report id the registry does not hold (a route's `:id`); true when it did. */
export function refuseUnknownReport(res: Response, registry: { has(id: string): boolean }, id: string): boolean {
  if (registry.has(id)) return false;
  res.send(404, { error: { status: 404, message: `There is no report "${id}".` } });
  return true;
}

/** Text with anything that looks like a credential (a header echoed, a JWT, a key in a URL or connection string) replaced by a marker, for a log line. */
export function redactCredentials(text: string): string {
  return text
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, '[redacted token]')
    .replace(/\b(AccountKey|SharedAccessSignature|sig|client_secret|client_assertion|password)=[^;&\s"']+/gi, '$1=[redacted]');
}

function describe(error: unknown): string {
  return redactCredentials(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/**
 * The server's one error handler: an error no route meant to answer (a bug, a key endpoint that is
 * down, a malformed request a library choked on) goes to the log, redacted, and the caller gets
 * a 500 with a generic message; errors restify raises on purpose (404, 405, 415, …) keep theirs.
 */
export function handleServerErrors(server: Server, log: (line: string) => void): void {
  server.on('restifyError', (req: Request, res: Response, error: Error & { statusCode?: unknown }, callback: () => void) => {
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      log(`error: ${req.method} ${req.path()}: ${describe(error)}`);
      // Answered here, restify sends nothing more (it would send the error's own message).
      if (!res.headersSent) res.send(500, { error: { status: 500, message: INTERNAL_ERROR_MESSAGE } });
    }
    callback();
  });
}

/**
 * A response for the Bot Framework adapter, which answers a failed turn with the exception's own
 * message (botbuilder's CloudAdapter): a 5xx body goes to the log instead, and the caller reads the
 * generic message.
 */
export function sealedResponse(res: Response, log: (line: string) => void): Response {
  let status = 200;
  return new Proxy(res, {
    get(target, property, receiver) {
      if (property === 'status') {
        return (code: number) => {
          status = code;
          return target.status(code);
        };
      }
      if (property === 'send') {
        return (body?: unknown) => {
          if (status < 500) return target.send(body);
          log(`error: the bot's adapter answered ${status}: ${describe(body)}`);
          return target.send({ error: { status, message: INTERNAL_ERROR_MESSAGE } });
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
