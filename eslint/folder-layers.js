// An ESLint rule that keeps the house's floors apart (docs/architecture.md, "The parts"): each
// folder of src/ names the folders it may import, and the packages it must not, in one table
// (eslint.config.js). An import is resolved against the importing file, so `src/core/graph` (the
// core's Graph port) and `src/graph` (the client behind it) are told apart, which a pattern over
// the import's text cannot do. VS Code's own layering rule works the same way.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const NODE_BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** The row whose folder (or file) holds `path` most closely: rows name paths relative to the project root. */
function rowFor(table, path) {
  let best = null;
  for (const key of Object.keys(table)) {
    if ((path === key || path.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

function isNodeBuiltin(source) {
  return source.startsWith('node:') || NODE_BUILTINS.has(source.split('/')[0]);
}

/** Whether a package import is one of the names given: `name` itself, `name/...`, or `scope/*` for a whole scope. */
function matchesPackage(source, names) {
  return names.some((name) => {
    if (name === 'node:*') return isNodeBuiltin(source);
    if (name.endsWith('/*')) return source.startsWith(name.slice(0, -1));
    if (name.endsWith('-*')) return source.startsWith(name.slice(0, -1));
    return source === name || source.startsWith(`${name}/`);
  });
}

export const folderLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder of src/ imports only what its row of the folder table allows.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' }, table: { type: 'object' } }, required: ['root', 'table'], additionalProperties: false }],
  },
  create(context) {
    const { root, table } = context.options[0];
    const filename = relative(root, context.physicalFilename ?? context.filename)
      .split(sep)
      .join('/');
    const rowName = rowFor(table, filename);
    if (!rowName) return {};
    const row = table[rowName];
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (source.startsWith('.')) {
        const target = relative(root, resolve(dirname(resolve(root, filename)), source))
          .split(sep)
          .join('/');
        // Imports that stay in the importing row, or leave src/ (a test helper), are not the table's business.
        if (!target.startsWith('src/')) return;
        const within = (path) => [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')].some((name) => name === path || name.startsWith(`${path}/`));
        const allowed = row.may.some(within) && !(row.mayNot ?? []).some(within);
        if (!allowed) context.report({ node, message: `${rowName} may not import ${target}: ${row.why}` });
        return;
      }
      if (row.notPackages && matchesPackage(source, row.notPackages)) context.report({ node, message: `${rowName} may not import the package ${source}: ${row.why}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
