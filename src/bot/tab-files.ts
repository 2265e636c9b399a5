import restify from 'restify';
import type { Next, Request, Response, Server } from 'restify';

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

/**
 * Serves the built tab under /tab. The page and its scripts hold no data (every report comes
 * from the API behind the SSO token), so Teams can load them without credentials. Vite names
 * bundles by content hash, so they can be kept for a year; the page itself is always revalidated.
 */
export function serveTab(server: Server, directory: string): void {
  const files = restify.plugins.serveStaticFiles(directory, {
    setHeaders: (response: Response, path: string) => {
      response.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
      response.setHeader('referrer-policy', 'no-referrer');
      response.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  server.get('/', (_req: Request, res: Response, next: Next) => res.redirect(302, '/tab/', next));
  server.get('/tab', (_req: Request, res: Response, next: Next) => res.redirect(301, '/tab/', next));
  server.get('/tab/*', files);
}
