// A small ESLint plugin for the pure core: a pure file may import another file only when that
// file is pure too (under src/core/, or a pure file of the same game folder). Packages are
// checked by `no-restricted-imports`; this rule looks at relative paths.
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const PURE_GAME_FILES = /^skills\/[^/]+\/(rules|numbers|animals|summary|truth|reader)\.ts$/;

function repoPath(abs) {
  return relative(ROOT, abs).split(sep).join('/');
}

/** Whether a repository path is a pure module (a data file such as JSON or `?raw` text is data). */
export function isPurePath(path) {
  if (path.startsWith('src/core/')) return true;
  if (PURE_GAME_FILES.test(path)) return true;
  return /\.(json|md)$/.test(path);
}

const importsStayPure = {
  meta: {
    type: 'problem',
    docs: { description: 'A pure core file imports only pure files.' },
    schema: [],
    messages: { impure: 'The pure core may not import "{{spec}}" ({{target}} is outside src/core): move it into the core or pass it in.' },
  },
  create(context) {
    const from = dirname(context.filename);
    function check(node, spec) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = repoPath(resolve(from, spec.split('?')[0]));
      if (!isPurePath(target)) context.report({ node, messageId: 'impure', data: { spec, target } });
    }
    const withSource = (node) => check(node, node.source?.value);
    return {
      ImportDeclaration: withSource,
      ExportNamedDeclaration: withSource,
      ExportAllDeclaration: withSource,
      ImportExpression: (node) => check(node, node.source?.value),
    };
  },
};

export const pureBoundary = { meta: { name: 'agentcade-pure-boundary' }, rules: { 'imports-stay-pure': importsStayPure } };
