import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { BOT_COMMANDS } from '../../src/bot/commands/index.js';
import { TAB_ENTITY_ID } from '../../src/bot/tab-links.js';
import { PackageError, buildAppPackage, parseEnvFile, substitutePlaceholders, validateManifest } from '../../src/cli/teams-package.js';
import { REPO_ROOT } from '../support/browser.js';

const VALUES = {
  TEAMS_APP_ID: '3f1c2b7a-5d4e-4c8b-9a6f-1e2d3c4b5a69',
  TAB_DOMAIN: 'health.contoso.com',
  BOT_ID: '2c7d9b4e-8f1a-4e3b-9c6d-5a4b3c2d1e0f',
  AAD_APP_CLIENT_ID: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
};
const manifestText = readFileSync(join(REPO_ROOT, 'appPackage', 'manifest.json'), 'utf8');
const manifest = JSON.parse(substitutePlaceholders(manifestText, VALUES)) as {
  staticTabs: Array<{ entityId: string; contentUrl: string; scopes: string[] }>;
  bots: Array<{ botId: string; scopes: string[]; commandLists: Array<{ scopes: string[]; commands: Array<{ title: string }> }> }>;
  validDomains: string[];
  webApplicationInfo: { id: string; resource: string };
};

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('the Teams manifest', () => {
  it('passes the current Teams schema once the environment is filled in', () => {
    expect(validateManifest(manifest)).toEqual([]);
  });

  it('is refused, readably, without a name or with a bot id that is not a GUID', () => {
    const { name: _name, ...nameless } = manifest as unknown as Record<string, unknown>;
    expect(validateManifest(nameless)).toContain("/: must have required property 'name'");
    const badBot = { ...manifest, bots: [{ ...manifest.bots[0], botId: 'not-a-guid' }] };
    expect(validateManifest(badBot).some((problem) => problem.startsWith('/bots/0/botId'))).toBe(true);
  });

  it('offers the bot in personal, team and group chats with the commands the bot understands, in every scope', () => {
    const [bot] = manifest.bots;
    expect(bot!.scopes).toEqual(['personal', 'team', 'groupChat']);
    expect(bot!.commandLists.flatMap((list) => list.scopes).sort()).toEqual(['groupChat', 'personal', 'team']);
    for (const list of bot!.commandLists) expect(list.commands).toEqual(BOT_COMMANDS.map(({ command, description }) => ({ title: command, description })));
  });

  it('has the static tab the bot links to, SSO and only the tab domain as a valid domain', () => {
    expect(manifest.staticTabs).toEqual([expect.objectContaining({ entityId: TAB_ENTITY_ID, contentUrl: 'https://health.contoso.com/tab/index.html', scopes: ['personal'] })]);
    expect(manifest.webApplicationInfo).toEqual({ id: VALUES.AAD_APP_CLIENT_ID, resource: `api://health.contoso.com/${VALUES.AAD_APP_CLIENT_ID}` });
    expect(manifest.validDomains).toEqual(['health.contoso.com']);
  });
});

describe('npm run package', () => {
  function project(env: string): string {
    const root = mkdtempSync(join(tmpdir(), 'dmhealth-package-'));
    directories.push(root);
    mkdirSync(join(root, 'appPackage'));
    mkdirSync(join(root, 'env'));
    for (const file of ['manifest.json', 'color.png', 'outline.png']) copyFileSync(join(REPO_ROOT, 'appPackage', file), join(root, 'appPackage', file));
    writeFileSync(join(root, 'env', '.env.test'), env);
    return root;
  }

  it('writes a zip with the filled-in manifest and both icons at its root', () => {
    const root = project(
      Object.entries(VALUES)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    const output = join(root, 'out', 'app.zip');
    buildAppPackage({ root, environment: 'test', output });
    const entries = unzipSync(readFileSync(output));
    expect(Object.keys(entries).sort()).toEqual(['color.png', 'manifest.json', 'outline.png']);
    const packaged = new TextDecoder().decode(entries['manifest.json']);
    expect(packaged).not.toContain('${{');
    expect(validateManifest(JSON.parse(packaged))).toEqual([]);
  });

  it('names every variable that has no value', () => {
    const root = project('TEAMS_APP_ID=3f1c2b7a-5d4e-4c8b-9a6f-1e2d3c4b5a69\nBOT_ID=\n');
    expect(() => buildAppPackage({ root, environment: 'test', output: join(root, 'app.zip') })).toThrow(
      new PackageError('No value for TAB_DOMAIN, BOT_ID, AAD_APP_CLIENT_ID: set them in the environment file or the environment.'),
    );
  });

  it('refuses an icon of the wrong size', () => {
    const root = project(
      Object.entries(VALUES)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    copyFileSync(join(REPO_ROOT, 'appPackage', 'outline.png'), join(root, 'appPackage', 'color.png'));
    expect(() => buildAppPackage({ root, environment: 'test', output: join(root, 'app.zip') })).toThrow('The color icon must be a 192×192 PNG; color.png is 32×32.');
  });

  it('reads env files as Teams Toolkit writes them', () => {
    expect(parseEnvFile('# comment\nA=1\n B = "two words" \nSECRET_X=\n')).toEqual({ A: '1', B: 'two words', SECRET_X: '' });
  });
});
