import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { CLOCK_SHIFT_MS, shiftDate } from './clock-shift.mjs';

/** Where the Chromium that the tests and the browser bench drive comes from. */
export interface ChromiumBuild {
  executablePath: string;
  source: 'CHROME_PATH' | 'system' | 'npm package';
  /** Environment the build needs beyond this process's (the packaged build's fonts). */
  env: Record<string, string>;
}

/** Names a system Chromium or Chrome goes by on the PATH (Debian, Ubuntu, Google's packages). */
const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/**
 * Flags for a headless browser under test: no sandbox (CI runs as root), no GPU, and nothing that
 * calls home. The packaged build needs no more than these: its own list (`--single-process`,
 * `--no-zygote`, …) is for serverless hosts that forbid new privileges, not for a machine like this.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser to drive, in this order: the build `CHROME_PATH` names (an error if it is not there,
 * never a silent fallback); a Chromium or Chrome on the PATH; otherwise the Chromium that the
 * `@sparticuz/chromium` package carries inside itself, so that a machine with only Node and npm
 * runs every browser test without downloading anything from outside the npm registry.
 */
export async function findChromium(): Promise<ChromiumBuild> {
  const named = process.env.CHROME_PATH;
  if (named) {
    if (!isExecutable(named)) throw new Error(`CHROME_PATH names ${named}, which is not an executable file.`);
    return { executablePath: named, source: 'CHROME_PATH', env: {} };
  }
  const onPath = findOnPath(SYSTEM_BROWSERS);
  if (onPath) return { executablePath: onPath, source: 'system', env: {} };
  return unpackPackagedChromium();
}

/** Headless Chromium with a fresh profile that reaches loopback alone; the caller removes `profile`. */
export async function launchHeadlessChromium(profile: string, options: { viewport: { width: number; height: number } }): Promise<BrowserContext> {
  const build = await findChromium();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: build.executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: options.viewport,
    // Dates read the same on every machine: a test's clock names an instant, and the page writes it
    // in this zone and language, not the machine's.
    timezoneId: 'UTC',
    locale: 'en-US',
    env: { ...process.env, ...build.env },
  });
  // Only loopback is ever a target; anything else (teams-js asks a CDN for its domain list) fails fast.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort('internetdisconnected'));
  // A run on another day moves the pages' clock with the servers' (clock-shift.mjs), a page whose
  // clock the test holds (`page.clock`) included: Playwright's fake clock stamps each step with this
  // process's (moved) time and, after a reload, runs the page's timers by the gap to the page's own.
  if (CLOCK_SHIFT_MS !== 0) await context.addInitScript(`(${shiftDate.toString()})(globalThis, ${CLOCK_SHIFT_MS});`);
  return context;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(names: string[]): string | undefined {
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const folder of folders) {
      const candidate = join(folder, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * `@sparticuz/chromium` (MIT) ships a chrome-headless-shell build for x64 Linux as Brotli archives
 * inside the package (about 70 MB packed, 210 MB unpacked). Its own `executablePath()` unpacks them
 * into the temporary folder, so it runs in a child whose TMPDIR is a fresh folder of ours; that
 * folder is then renamed to one per package version, outside the repository, and reused by every
 * later run. Two test workers unpacking at once both finish; the first rename wins, the other's copy
 * is dropped.
 */
async function unpackPackagedChromium(): Promise<ChromiumBuild> {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    throw new Error('No Chromium: set CHROME_PATH, install chromium, or run npm ci (it installs @sparticuz/chromium, a Chromium inside an npm package).');
  }
  const packageRoot = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const folder = join(tmpdir(), `dmhealth-chromium-${version}`);
  const build = (): ChromiumBuild => ({ executablePath: join(folder, 'chromium'), source: 'npm package', env: { FONTCONFIG_FILE: join(folder, 'fonts.conf') } });
  if (existsSync(join(folder, 'fonts.conf'))) return build();

  const staging = mkdtempSync(join(tmpdir(), `dmhealth-chromium-${version}-unpacking-`));
  try {
    const unpack = `const { default: chromium } = await import(${JSON.stringify(pathToFileURL(entry).href)}); await chromium.executablePath();`;
    await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', unpack], { env: { ...process.env, TMPDIR: staging }, timeout: 120_000 });
    // The package's own fonts.conf names folders of a serverless host; this one names the fonts it
    // unpacked (Open Sans, so text renders on a machine with no fonts at all) and the system's.
    writeFileSync(join(staging, 'fonts.conf'), fontConfig([join(folder, 'fonts', 'fonts'), '/usr/share/fonts', '/usr/local/share/fonts'], join(folder, 'fontconfig-cache')));
    try {
      renameSync(staging, folder);
    } catch (error) {
      if (!existsSync(join(folder, 'fonts.conf'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return build();
}

function fontConfig(directories: string[], cache: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    ...directories.map((directory) => `  <dir>${escape(directory)}</dir>`),
    `  <cachedir>${escape(cache)}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}
