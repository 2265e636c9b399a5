import type { Request, Response, Server } from 'restify';

/**
 * The Teams manifest's `privacyUrl` and `termsOfUseUrl` (`https://<TAB_DOMAIN>/privacy`, `/terms`):
 * Teams shows both links on the app's details and the store requires them ("App manifest
 * reference", Teams platform docs). Plain pages, the same for every organization: what the app
 * reads, what it keeps and where, and on what terms it runs. They say nothing of the tenant.
 */
const PAGES: Record<string, { title: string; body: string }> = {
  '/privacy': {
    title: 'Privacy',
    body: `
<p>Device Management Health runs in your organization's own Azure subscription and reads your own
Microsoft Intune tenant. Nothing it reads or keeps is sent to the app's authors or to any other party.</p>
<h2>What it reads</h2>
<p>Microsoft Graph, with read-only application permissions your administrator granted, and GET
requests only: Intune's connectors, policies, assignments, scripts, managed devices and their
startup and app reliability figures, the groups assignments name, whether BitLocker recovery keys
and Windows LAPS passwords were backed up (never the keys or passwords themselves), Intune's
audit log and its multi admin approval settings.</p>
<h2>What it keeps, and where</h2>
<p>In your organization's storage account only: the reports' results shared between instances,
each report's history (counts and fingerprints of findings, kept 90 days), the triage decisions and
their audit list (who accepted or snoozed which finding, when and why), the channels' posting
schedules, what it has posted in each channel, and where the bot is installed. Deleting the app's
resource group deletes all of it.</p>
<h2>Who sees it</h2>
<p>Only people your administrator assigned one of the app's roles (reader or triager), signed in
with Microsoft Entra ID through Teams, and the channels the bot is added to. Logs and telemetry go to
your own Log Analytics and Application Insights, and hold no device, user or group names.</p>`,
  },
  '/terms': {
    title: 'Terms of use',
    body: `
<p>Device Management Health is provided as it is, without warranty of any kind. Your organization
runs it in its own Azure subscription, under its own agreements with Microsoft, and is responsible
for who may use it and for the permissions it grants it.</p>
<p>The app reads and reports; it changes nothing in your tenant. Its findings are hints for people
who know the tenant: check a finding in the Intune admin center before you act on it.</p>
<p>See the privacy page (/privacy) for what the app reads and keeps.</p>`,
  },
};

/** Nothing runs on these pages: no script, no frame, no form. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

export function registerLegalPages(server: Server): void {
  for (const [path, page] of Object.entries(PAGES)) {
    const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Device Management Health: ${page.title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>
</head>
<body>
<h1>Device Management Health: ${page.title}</h1>${page.body}
</body>
</html>
`;
    server.get(path, async (_req: Request, res: Response) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONTENT_SECURITY_POLICY, 'content-length': Buffer.byteLength(html) });
      res.end(html);
    });
  }
}
