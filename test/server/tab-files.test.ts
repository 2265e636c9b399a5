import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import restify from 'restify';
import type { Server } from 'restify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTab } from '../../src/server/tab-files.js';

// A build folder as Vite writes it, and what must never be served from beside or inside it.
const folder = mkdtempSync(join(tmpdir(), 'dmhealth-tab-files-'));
const build = join(folder, 'tab');
const outside = join(folder, 'outside');
mkdirSync(join(build, 'assets'), { recursive: true });
mkdirSync(join(build, '.vite'), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(build, 'index.html'), '<!doctype html><title>tab</title>');
writeFileSync(join(build, 'assets', 'index-abc123.js'), 'console.log("tab")');
writeFileSync(join(build, 'assets', 'index-abc123.js.map'), '{"sources":["../src/tab/main.tsx"]}');
writeFileSync(join(build, '.vite', 'manifest.json'), '{}');
writeFileSync(join(build, '.env.json'), '{"secret": true}');
writeFileSync(join(outside, 'secret.js'), 'const key = "outside the build"');
symlinkSync(join(outside, 'secret.js'), join(build, 'assets', 'linked-out.js'));
symlinkSync(outside, join(build, 'assets', 'linked-folder'));
symlinkSync(join(build, 'assets', 'index-abc123.js'), join(build, 'assets', 'linked-in.js'));

const servers: Server[] = [];
async function serve(options: { serveSourceMaps?: boolean } = {}): Promise<(path: string) => Promise<{ status: number; headers: Record<string, unknown>; text: string }>> {
  const server = restify.createServer();
  serveTab(server, build, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path) => {
    const response = await request(`${origin}${path}`);
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
}

let get: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  get = await serve();
});
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

describe('the tab files', () => {
  it('serves the page, revalidated, and hashed bundles for a year, under the Content-Security-Policy', async () => {
    const page = await get('/tab/');
    expect(page).toMatchObject({ status: 200, text: '<!doctype html><title>tab</title>' });
    expect(page.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'referrer-policy': 'no-referrer' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const bundle = await get('/tab/assets/index-abc123.js');
    expect(bundle).toMatchObject({ status: 200, text: 'console.log("tab")' });
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/tab/assets/linked-in.js')).status).toBe(200);
  });

  it.each([
    ['a symbolic link to a file outside the build', '/tab/assets/linked-out.js'],
    ['a file through a linked folder outside the build', '/tab/assets/linked-folder/secret.js'],
    ['a dot-folder inside the build', '/tab/.vite/manifest.json'],
    ['a dot-file inside the build', '/tab/.env.json'],
    ['a dot-folder, escaped', '/tab/%2evite/manifest.json'],
    ['a way up, escaped', '/tab/..%2foutside%2fsecret.js'],
    ['a way up by backslash', '/tab/assets%5c..%5c..%5coutside%5csecret.js'],
    ['a malformed escape', '/tab/%E0%A4%A'],
    ['a folder', '/tab/assets'],
    ['a missing file', '/tab/assets/nothing.js'],
    ['a source map, outside development', '/tab/assets/index-abc123.js.map'],
  ])('answers 404 for %s', async (_what, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('outside the build');
  });

  it('serves source maps in development only', async () => {
    const development = await serve({ serveSourceMaps: true });
    expect((await development('/tab/assets/index-abc123.js.map')).status).toBe(200);
  });
});
