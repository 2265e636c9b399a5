import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run package`: the Teams app package, built offline. Teams Toolkit's own `validate` fetches
 * the schema from the internet and its `package` checks nothing, so this substitutes the
 * environment into appPackage/manifest.json, validates the result against the schema that ships in
 * `@microsoft/app-manifest`, checks the icons and zips the three files. Packaging is a development
 * step: its tools (ajv, fflate) are development dependencies.
 */

const require = createRequire(import.meta.url);
const MANIFEST_SCHEMA_VERSION = 'v1.30';

export class PackageError extends Error {
  override readonly name = 'PackageError';
}

/** Every problem the Teams manifest schema finds, as "path: message" lines; none for a valid manifest. */
export function validateManifest(manifest: unknown): string[] {
  const { default: Ajv } = require('ajv-draft-04') as { default: new (options: object) => AjvInstance };
  const { default: addFormats } = require('ajv-formats') as { default: (ajv: AjvInstance, formats: string[]) => void };
  const schemaPath = join(dirname(require.resolve('@microsoft/app-manifest')), 'json-schemas', 'teams', MANIFEST_SCHEMA_VERSION, 'MicrosoftTeams.schema.json');
  // The schema spells a bell character as "\a", which JavaScript regular expressions do not know.
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8').replace(/\\\\a/g, '\\\\x07')) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['uri', 'email', 'regex', 'uuid']);
  const validate = ajv.compile(schema);
  if (validate(manifest)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'}: ${error.message ?? 'is not valid'}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`,
  );
}

interface AjvInstance {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null };
}

/** `KEY=value` lines of a Teams Toolkit env file; `#` starts a comment. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    values[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

/** Replaces every `${{NAME}}`; names without a value are an error that lists them all. */
export function substitutePlaceholders(text: string, values: Record<string, string | undefined>): string {
  const missing = new Set<string>();
  const result = text.replace(/\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (!value) {
      missing.add(name);
      return '';
    }
    return JSON.stringify(value).slice(1, -1);
  });
  if (missing.size > 0) throw new PackageError(`No value for ${[...missing].join(', ')}: set ${missing.size === 1 ? 'it' : 'them'} in the environment file or the environment.`);
  return result;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((byte, index) => bytes[index] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The icon sizes Teams requires: a 192×192 colour icon and a 32×32 outline
 * (learn.microsoft.com/microsoftteams/platform/concepts/build-and-test/apps-package, "App icons").
 */
const ICON_SIZES = { color: 192, outline: 32 } as const;

export interface AppPackageOptions {
  /** The folder holding appPackage/ and env/. */
  root: string;
  /** Teams Toolkit environment name: reads env/.env.<name> and env/.env.<name>.user. */
  environment: string;
  /** Overrides, usually process.env. */
  variables?: Record<string, string | undefined>;
  output: string;
}

export function buildAppPackage(options: AppPackageOptions): { output: string; manifest: Record<string, unknown> } {
  const envFile = join(options.root, 'env', `.env.${options.environment}`);
  if (!existsSync(envFile)) throw new PackageError(`There is no environment file ${join('env', `.env.${options.environment}`)}.`);
  const values: Record<string, string | undefined> = { ...parseEnvFile(readFileSync(envFile, 'utf8')) };
  const userFile = `${envFile}.user`;
  if (existsSync(userFile)) Object.assign(values, parseEnvFile(readFileSync(userFile, 'utf8')));
  for (const [name, value] of Object.entries(options.variables ?? {})) if (value) values[name] = value;

  const appPackage = join(options.root, 'appPackage');
  const manifest = JSON.parse(substitutePlaceholders(readFileSync(join(appPackage, 'manifest.json'), 'utf8'), values)) as Record<string, unknown>;
  const problems = validateManifest(manifest);
  if (problems.length > 0) throw new PackageError(`The manifest does not match the Teams schema ${MANIFEST_SCHEMA_VERSION}:\n  ${problems.join('\n  ')}`);

  const icons = manifest.icons as { color: string; outline: string };
  const files: Record<string, Uint8Array> = { 'manifest.json': new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`) };
  for (const kind of ['color', 'outline'] as const) {
    const path = join(appPackage, icons[kind]);
    if (!existsSync(path)) throw new PackageError(`The ${kind} icon ${icons[kind]} is missing from appPackage/.`);
    const bytes = readFileSync(path);
    const size = pngSize(bytes);
    const wanted = ICON_SIZES[kind];
    if (!size || size.width !== wanted || size.height !== wanted) {
      throw new PackageError(`The ${kind} icon must be a ${wanted}×${wanted} PNG; ${icons[kind]} is ${size ? `${size.width}×${size.height}` : 'not a PNG'}.`);
    }
    files[icons[kind]] = bytes;
  }
  const { zipSync } = require('fflate') as { zipSync: (files: Record<string, Uint8Array>) => Uint8Array };
  mkdirSync(dirname(options.output), { recursive: true });
  writeFileSync(options.output, zipSync(files));
  return { output: options.output, manifest };
}

function main(argv: string[]): number {
  let environment = 'dev';
  let output: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--env' && argv[index + 1]) environment = argv[++index]!;
    else if (argument === '--output' && argv[index + 1]) output = argv[++index]!;
    else {
      console.error('usage: npm run package -- [--env dev] [--output appPackage/build/appPackage.dev.zip]');
      return 2;
    }
  }
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  try {
    const built = buildAppPackage({ root, environment, variables: process.env, output: resolve(output ?? join(root, 'appPackage', 'build', `appPackage.${environment}.zip`)) });
    console.log(`Teams app package: ${built.output}`);
    return 0;
  } catch (error) {
    if (!(error instanceof PackageError)) throw error;
    console.error(`Cannot package the Teams app: ${error.message}`);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
