import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every TypeScript source file under `folder`, as paths relative to `root`. */
export function sourceFiles(root: string, folder: string): string[] {
  const absolute = join(root, folder);
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name);
    if (statSync(path).isDirectory()) return sourceFiles(root, join(folder, name));
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative(root, path)] : [];
  });
}

/** The source files a file imports by a relative path (`./x.js` is `./x.ts` or `./x.tsx`), as paths relative to `root`. */
export function relativeImports(root: string, file: string, text = readFileSync(join(root, file), 'utf8')): string[] {
  const found = new Set<string>();
  // TypeScript's own reading of a file's imports: every form (`import`, `export … from`, `import()`,
  // `import x = require()`), type-only ones too, since a circle of types is still a circle to read.
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith('.')) continue;
    const base = resolve(root, dirname(file), specifier).replace(/\.js$/, '');
    for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) {
          found.add(relative(root, candidate));
          break;
        }
      } catch {
        // Not this one: the next candidate, or a specifier that names no source file (a JSON file, say).
      }
    }
  }
  return [...found];
}

/** The import circles among `files`: each a strongly connected set of two files or more (or one that imports itself), sorted. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    lowLink.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          lowLink.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || edges.includes(frame.node)) circles.push(members.sort());
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
