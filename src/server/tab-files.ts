import { createReadStream, realpathSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Next, Request, Response, Server } from 'restify';
import type { ReportPresentation } from '../core/reports/report-model.js';
import { CATALOGUE_ELEMENT_ID } from '../core/reports/report-model.js';

/**
 * Hosts that may frame the tab: Teams, Microsoft 365 and Outlook on their current and their
 * cloud.microsoft domains ("Tab requirements", Microsoft Teams platform docs). 'self' lets the
 * tab open on its own, as it does in demo mode.
 */
const FRAME_ANCESTORS = [
  "'self'",
  'https://teams.microsoft.com',
  'https://*.teams.microsoft.com',
  'https://*.cloud.microsoft',
  'https://*.microsoft365.com',
  'https://*.office.com',
  'https://outlook.office.com',
  'https://outlook.office365.com',
];

/**
 * The tab's scripts come from here alone. Styles are inline because Fluent UI's Griffel inserts
 * them at run time; teams-js fetches the list of Teams domains from the Office CDN.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' https://res.cdn.office.net",
  "object-src 'none'",
  "base-uri 'none'",
  `frame-ancestors ${FRAME_ANCESTORS.join(' ')}`,
].join('; ');

/** Content types of what Vite writes; anything else is not served. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface TabFilesOptions {
  /** Source maps reveal the tab's source; they are served in development only. */
  serveSourceMaps?: boolean;
  /**
   * The reports the server offers, written into the page: the tab draws its navigation and each
   * report's pending state from it before it has signed in. It is product text, the same for every
   * tenant; tenant data stays behind the API.
   */
  catalogue?: readonly ReportPresentation[];
}

/**
 * Serves the built tab under /tab. The page and its scripts hold no data (every report comes
 * from the API behind the SSO token), so Teams can load them without credentials. Only regular
 * files whose real path lies inside the build are served: no symbolic link out of it, no dot-file
 * or dot-folder, no type Vite does not write, and no source map unless asked for. Vite names
 * bundles by content hash, so they can be kept for a year; the page itself is always revalidated.
 */
export function serveTab(server: Server, directory: string, options: TabFilesOptions = {}): void {
  const root = realpathSync(directory);
  const catalogueElement = options.catalogue ? catalogueScript(options.catalogue) : '';
  server.get('/', (_req: Request, res: Response, next: Next) => res.redirect(302, '/tab/', next));
  server.get('/tab', (_req: Request, res: Response, next: Next) => res.redirect(301, '/tab/', next));
  server.get('/tab/*', async (req: Request, res: Response) => {
    const file = await tabFile(root, req.path(), options);
    if (!file) {
      res.send(404, { error: { status: 404, message: 'There is no such file.' } });
      return;
    }
    const page = file.relative === 'index.html' && catalogueElement ? withCatalogue(await readFile(file.path, 'utf8'), catalogueElement) : null;
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': String(page ? page.length : file.size),
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'referrer-policy': 'no-referrer',
      'cache-control': file.relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (page) res.end(page);
    else await pipeline(createReadStream(file.path), res).catch(() => undefined); // the caller hung up
  });
}

/**
 * A JSON data block, which the page's content security policy lets through because it is never
 * run. `<` is escaped so that no text in it can close the element.
 */
function catalogueScript(catalogue: readonly ReportPresentation[]): string {
  const json = JSON.stringify(catalogue).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${CATALOGUE_ELEMENT_ID}">${json}</script>`;
}

function withCatalogue(html: string, element: string): Buffer {
  const at = html.indexOf('</head>');
  return Buffer.from(at === -1 ? `${element}${html}` : `${html.slice(0, at)}${element}${html.slice(at)}`, 'utf8');
}

/** The file a request path names inside the build, or null for anything that must not be served. */
async function tabFile(root: string, requestPath: string, options: TabFilesOptions): Promise<{ path: string; relative: string; size: number; contentType: string } | null> {
  let relative: string;
  try {
    relative = decodeURIComponent(requestPath.slice('/tab/'.length)) || 'index.html';
  } catch {
    return null; // a malformed escape
  }
  const segments = relative.split('/');
  if (relative.includes('\\') || relative.includes('\0') || segments.some((segment) => segment === '' || segment.startsWith('.'))) return null;
  const contentType = CONTENT_TYPES[extname(relative).toLowerCase()];
  if (!contentType || (relative.endsWith('.map') && !options.serveSourceMaps)) return null;
  const path = await realpath(join(root, ...segments)).catch(() => null);
  if (!path || !path.startsWith(`${root}${sep}`)) return null;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return { path, relative, size: info.size, contentType };
}
