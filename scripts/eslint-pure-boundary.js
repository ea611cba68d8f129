// A small ESLint plugin for the pure core: a pure file may import another file only when that
// file is pure too (the one list: scripts/pure-files.js). Packages are
// checked by `no-restricted-imports`; this rule looks at relative paths.
import { dirname, relative, resolve, sep } from 'node:path';
import { isPurePath } from './pure-files.js';

const ROOT = resolve(import.meta.dirname, '..');

function repoPath(abs) {
  return relative(ROOT, abs).split(sep).join('/');
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
