// The Teams manifest's privacy and terms links (appPackage/manifest.json) answer with plain pages.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import restify from 'restify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerLegalPages } from '../../src/server/legal-pages.js';

describe('the privacy and terms pages', () => {
  const server = restify.createServer();
  let base: string;
  beforeAll(async () => {
    registerLegalPages(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('answer the paths the Teams manifest links to, 200, as HTML that runs nothing', async () => {
    const manifest = JSON.parse(readFileSync('appPackage/manifest.json', 'utf8')) as { developer: { privacyUrl: string; termsOfUseUrl: string } };
    const paths = [manifest.developer.privacyUrl, manifest.developer.termsOfUseUrl].map((url) => url.replace('https://${{TAB_DOMAIN}}', ''));
    expect(paths).toEqual(['/privacy', '/terms']);
    for (const path of paths) {
      const page = await fetch(`${base}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toMatch(/<h1>Device Management Health: (Privacy|Terms of use)<\/h1>/);
      expect(html).not.toMatch(/<script/i);
    }
  });

  it('say what the app reads and keeps, and that it changes nothing', async () => {
    const privacy = await (await fetch(`${base}/privacy`)).text();
    expect(privacy).toContain('read-only application permissions');
    expect(privacy).toContain('never the keys or passwords themselves');
    expect(privacy).toContain('triage decisions');
    expect(await (await fetch(`${base}/terms`)).text()).toContain('it changes nothing in your tenant');
  });
});
