/**
 * Plain readers of the Teams Toolkit's files (teamsapp*.yml, env/.env.*) as this project writes
 * them, for tests: the stages and their steps, what each step writes to the environment file, the
 * `${{NAME}}` placeholders a file uses, and the names an env file sets or tells the reader to set.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ToolkitStep {
  uses: string;
  /** The step's text as written. */
  text: string;
  /** Scalar fields anywhere under the step, `key: value` (the last one wins). */
  fields: Map<string, string>;
  /** The env names the step writes (`writeToEnvironmentFile`'s values). */
  writes: string[];
  /** `file/createOrUpdateEnvironmentFile`'s `envs`: the name written to the target, and its value. */
  envs: Map<string, string>;
}

/** `provision`, `deploy` and `publish`, each a list of steps in order. */
export function readToolkitYml(text: string): Map<string, ToolkitStep[]> {
  const stages = new Map<string, ToolkitStep[]>();
  let stage: ToolkitStep[] | undefined;
  let step: string[] | undefined;
  const finish = () => {
    if (stage && step) stage.push(toStep(step));
    step = undefined;
  };
  for (const line of text.split('\n')) {
    const stageMatch = /^([A-Za-z]+):\s*$/.exec(line);
    if (stageMatch) {
      finish();
      stage = [];
      stages.set(stageMatch[1]!, stage);
      continue;
    }
    if (/^\S/.test(line)) {
      finish();
      stage = undefined;
      continue;
    }
    if (!stage) continue;
    if (/^ {2}- uses:/.test(line)) {
      finish();
      step = [line];
    } else if (step && !/^\s*#/.test(line)) step.push(line);
  }
  finish();
  return stages;
}

function toStep(lines: string[]): ToolkitStep {
  const text = lines.join('\n');
  const fields = new Map<string, string>();
  const writes: string[] = [];
  const envs = new Map<string, string>();
  let section: 'writes' | 'envs' | undefined;
  let sectionIndent = 0;
  for (const line of lines) {
    const match = /^(\s*)(?:- )?([A-Za-z][A-Za-z0-9_]*):\s*(.*)$/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    const [key, value] = [match[2]!, match[3]!.trim()];
    if (section && indent <= sectionIndent) section = undefined;
    if (section === 'writes' && value) writes.push(value);
    else if (section === 'envs' && value) envs.set(key, value);
    else if (value) fields.set(key, value.replace(/^"(.*)"$/, '$1'));
    if (key === 'writeToEnvironmentFile') [section, sectionIndent] = ['writes', indent];
    if (key === 'envs') [section, sectionIndent] = ['envs', indent];
  }
  return { uses: /- uses:\s*(\S+)/.exec(lines[0]!)![1]!, text, fields, writes, envs };
}

/** The names of the `${{NAME}}` placeholders in a text. */
export function placeholders(text: string): Set<string> {
  return new Set([...text.matchAll(/\$\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((match) => match[1]!));
}

/** The files a step hands to the Toolkit, which fills their placeholders: manifests and parameters. */
export function filesOfStep(root: string, ymlPath: string, step: ToolkitStep): string[] {
  const base = dirname(join(root, ymlPath));
  return ['manifestPath', 'parameters'].flatMap((field) => {
    const path = step.fields.get(field);
    return path ? [join(base, path)] : [];
  });
}

export interface EnvFileNames {
  /** `NAME=value` lines, with their values. */
  set: Map<string, string>;
  /** Names a comment tells the reader to set, as `#   NAME=...`. */
  suggested: Set<string>;
}

/** What an env file sets, and what its comments tell the reader to set. */
export function readEnvFile(text: string): EnvFileNames {
  const set = new Map<string, string>();
  const suggested = new Set<string>();
  for (const line of text.split('\n')) {
    const active = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (active) set.set(active[1]!, active[2]!.trim());
    for (const match of line.matchAll(/^\s*#.*?\b([A-Z][A-Z0-9_]*)=/g)) suggested.add(match[1]!);
  }
  return { set, suggested };
}

export function readText(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}
