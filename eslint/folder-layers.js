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
    if (!filename.startsWith('src/')) return {};
    const rowName = rowFor(table, filename);
    if (!rowName) {
      // A new folder is a new floor or part of one: the table must say what it may import.
      return { Program: (node) => context.report({ node, message: `${filename} is in no row of the folder table (eslint.config.js, FOLDERS): give its folder a row.` }) };
    }
    const row = table[rowName];
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (source.startsWith('.') || source.startsWith('/')) {
        const target = relative(root, resolve(dirname(resolve(root, filename)), source))
          .split(sep)
          .join('/');
        // Within src/ the row says which folders; out of it (node_modules by path, the tests) nothing is allowed.
        const within = (path) => [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')].some((name) => name === path || name.startsWith(`${path}/`));
        const allowed = target.startsWith('src/') && row.may.some(within) && !(row.mayNot ?? []).some(within);
        if (!allowed) context.report({ node, message: `${rowName} may not import ${target}: ${row.why}` });
        return;
      }
      const refused = (row.notPackages && matchesPackage(source, row.notPackages)) || (row.packages && !matchesPackage(source, row.packages));
      if (refused) context.report({ node, message: `${rowName} may not import the package ${source}: ${row.why}` });
    };
    /** A module name written as a string, or as a template with nothing in it. */
    const written = (node) => {
      if (node?.type === 'Literal') return node.value;
      if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
      return undefined;
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, written(node.source)),
      // `type T = import('../server/x.js').T`
      TSImportType: (node) => check(node, written(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
      // `import x = require('../server/x.js')`
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node, written(node.moduleReference.expression)),
    };
  },
};
