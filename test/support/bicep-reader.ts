/**
 * A plain reader of the Bicep files in infra/, for tests on a machine without the Bicep compiler
 * (the Toolkit fetches one when it provisions). It reads as far as text allows: comments and
 * string literals set apart (an interpolation `${…}` inside a string is code), delimiters
 * balanced, and the top-level declarations with their bodies. It is not a Bicep parser: a
 * template it accepts can still fail to compile.
 */

export interface BicepDeclaration {
  kind: 'param' | 'var' | 'resource' | 'module' | 'output';
  name: string;
  /** The type of a param or output, the `'Type@version'` of a resource, the path of a module. */
  type: string;
  /** The text after `=` up to the end of the declaration (a body in braces included), code only. */
  value: string;
  /** The decorators above it, e.g. `@description('…')`, as written. */
  decorators: string[];
  /** The declaration's text as written, from its keyword to its end. */
  source: string;
}

export interface BicepFile {
  declarations: BicepDeclaration[];
  /** The file with comments removed and every string literal's characters (not its interpolations) blanked. */
  code: string;
}

/** Comments and strings blanked with spaces (newlines kept), so that positions match the source. */
export function codeOnly(text: string): string {
  if (text.includes("'''")) throw new Error('Multi-line strings are not read by this reader.');
  let out = '';
  let index = 0;
  // A stack of what the reader is inside: code (at an interpolation's depth) or a string.
  const modes: Array<{ kind: 'code'; depth: number } | { kind: 'string' }> = [{ kind: 'code', depth: 0 }];
  while (index < text.length) {
    const mode = modes[modes.length - 1]!;
    const char = text[index]!;
    const next = text[index + 1];
    if (mode.kind === 'string') {
      if (char === '\\') {
        out += '  ';
        index += 2;
      } else if (char === "'") {
        out += "'";
        modes.pop();
        index += 1;
      } else if (char === '$' && next === '{') {
        out += '${';
        modes.push({ kind: 'code', depth: 0 });
        index += 2;
      } else {
        out += char === '\n' ? '\n' : ' ';
        index += 1;
      }
      continue;
    }
    if (char === '/' && next === '/') {
      while (index < text.length && text[index] !== '\n') {
        out += ' ';
        index += 1;
      }
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      if (end < 0) throw new Error('A block comment is not closed.');
      out += text.slice(index, end + 2).replace(/[^\n]/g, ' ');
      index = end + 2;
    } else if (char === "'") {
      out += "'";
      modes.push({ kind: 'string' });
      index += 1;
    } else if (char === '{') {
      mode.depth += 1;
      out += char;
      index += 1;
    } else if (char === '}' && mode.depth === 0 && modes.length > 1) {
      // The end of an interpolation: back into its string.
      out += '}';
      modes.pop();
      index += 1;
    } else {
      if (char === '}') mode.depth -= 1;
      out += char;
      index += 1;
    }
  }
  if (modes.length !== 1) throw new Error('A string or an interpolation is not closed.');
  return out;
}

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Every (, [ and { closed in order; throws naming the line of the first that is not. */
export function assertBalanced(code: string): void {
  const stack: Array<{ char: string; line: number }> = [];
  let line = 1;
  for (const char of code) {
    if (char === '\n') line += 1;
    else if (char === '(' || char === '[' || char === '{') stack.push({ char, line });
    else if (char in PAIRS) {
      const open = stack.pop();
      if (!open || open.char !== PAIRS[char]) throw new Error(`Unbalanced '${char}' on line ${line}.`);
    }
  }
  if (stack.length > 0) throw new Error(`'${stack[stack.length - 1]!.char}' opened on line ${stack[stack.length - 1]!.line} is not closed.`);
}

const DECLARATION = /^(param|var|resource|module|output)\s+([A-Za-z_][A-Za-z0-9_]*)\s*([^=\n]*?)\s*(?:=|$)/;

/** Reads a Bicep file's top-level declarations. */
export function readBicep(text: string): BicepFile {
  const code = codeOnly(text);
  assertBalanced(code);
  const declarations: BicepDeclaration[] = [];
  const lines = code.split('\n');
  const sourceLines = text.split('\n');
  let depth = 0;
  let decorators: string[] = [];
  let lineIndex = 0;
  while (lineIndex < lines.length) {
    const line = lines[lineIndex]!;
    const trimmed = line.trim();
    if (depth === 0 && trimmed.startsWith('@')) {
      // A decorator may span lines (an @allowed list): take it to where its brackets close.
      let end = lineIndex;
      let text = sourceLines[lineIndex]!;
      while (!balancedSoFar(lines.slice(lineIndex, end + 1).join('\n'))) {
        end += 1;
        text += `\n${sourceLines[end]!}`;
      }
      decorators.push(text.trim());
      lineIndex = end + 1;
      continue;
    }
    const match = depth === 0 ? DECLARATION.exec(trimmed) : null;
    if (match) {
      let end = lineIndex;
      while (!balancedSoFar(lines.slice(lineIndex, end + 1).join('\n'))) end += 1;
      const body = lines.slice(lineIndex, end + 1).join('\n');
      const equals = body.indexOf('=');
      const rawType = sourceLines[lineIndex]!.trim().slice(match[1]!.length).trim().slice(match[2]!.length).trim();
      declarations.push({
        kind: match[1] as BicepDeclaration['kind'],
        name: match[2]!,
        type: (rawType.split('=')[0] ?? '').trim().replace(/^'|'$/g, ''),
        value: equals < 0 ? '' : body.slice(equals + 1).trim(),
        decorators,
        source: sourceLines.slice(lineIndex, end + 1).join('\n'),
      });
      decorators = [];
      lineIndex = end + 1;
      continue;
    }
    if (trimmed !== '') decorators = [];
    for (const char of line) {
      if (char === '{' || char === '[' || char === '(') depth += 1;
      else if (char === '}' || char === ']' || char === ')') depth -= 1;
    }
    lineIndex += 1;
  }
  return { declarations, code };
}

function balancedSoFar(code: string): boolean {
  let depth = 0;
  for (const char of code) {
    if (char === '{' || char === '[' || char === '(') depth += 1;
    else if (char === '}' || char === ']' || char === ')') depth -= 1;
  }
  return depth === 0;
}

/** The declarations of one kind, by name. */
export function declared(file: BicepFile, kind: BicepDeclaration['kind']): Map<string, BicepDeclaration> {
  return new Map(file.declarations.filter((declaration) => declaration.kind === kind).map((declaration) => [declaration.name, declaration]));
}

/**
 * The text of `key: { … }` (or `key: [ … ]`) inside `body`, the first at any depth, without its
 * delimiters; undefined if there is none.
 */
export function block(body: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s{])${key}\\s*:\\s*([{[])`).exec(body);
  if (!match) return undefined;
  const start = match.index + match[0].length;
  let depth = 1;
  for (let index = start; index < body.length; index += 1) {
    const char = body[index];
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    if (depth === 0) return body.slice(start, index);
  }
  return undefined;
}

/** The keys of an object's text at its own level (not those of objects nested in it). */
export function keysAtTopLevel(objectText: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (const line of objectText.split('\n')) {
    const match = depth === 0 ? /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(line) : null;
    if (match) keys.push(match[1]!);
    for (const char of line) {
      if (char === '{' || char === '[' || char === '(') depth += 1;
      else if (char === '}' || char === ']' || char === ')') depth -= 1;
    }
  }
  return keys;
}

/**
 * The value written after `key:` at an object's own level, as written in the source (strings
 * with their quotes), to the end of its line.
 */
export function valueAtTopLevel(sourceObjectText: string, key: string): string | undefined {
  const code = codeOnly(sourceObjectText);
  const codeLines = code.split('\n');
  const sourceLines = sourceObjectText.split('\n');
  let depth = 0;
  for (const [index, line] of codeLines.entries()) {
    if (depth === 0 && new RegExp(`^\\s*${key}\\s*:`).test(line)) return sourceLines[index]!.replace(new RegExp(`^\\s*${key}\\s*:\\s*`), '').trim();
    for (const char of line) {
      if (char === '{' || char === '[' || char === '(') depth += 1;
      else if (char === '}' || char === ']' || char === ')') depth -= 1;
    }
  }
  return undefined;
}

/** How often `name` appears as an identifier in code (strings' literal text and comments left out). */
export function references(code: string, name: string): number {
  return [...code.matchAll(new RegExp(`(?<![A-Za-z0-9_.])${name}(?![A-Za-z0-9_])`, 'g'))].length;
}
