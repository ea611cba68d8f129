/**
 * Source files over a line limit and functions over a length limit, for keeping files along their
 * seams: `npx tsx scripts/sizes.ts [--files 400] [--functions 80] [--check]` (`--check`, run by npm test, fails on any). Data tables (JSON, generated
 * drawings and corpora) are not counted. Svelte files count whole (markup and style included);
 * their script's functions are measured like a TypeScript file's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const limit = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FILE_LIMIT = limit('--files', 400);
const FUNCTION_LIMIT = limit('--functions', 80);
const ROOTS = ['src', 'skills', 'workers'];
/** Files that are data, not code: tables a tool generated or a corpus. */
const DATA = [/animals-(drawings|shapes)\.ts$/, /\.json$/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|svelte)$/.test(name) && !DATA.some((d) => d.test(path)) ? [path] : [];
  });
}

function scriptOf(path: string, text: string): { code: string; offset: number } {
  if (!path.endsWith('.svelte')) return { code: text, offset: 0 };
  const m = /<script[^>]*>([\s\S]*?)<\/script>/.exec(text);
  if (!m) return { code: '', offset: 0 };
  return { code: m[1], offset: text.slice(0, m.index).split('\n').length - 1 };
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sf);
  return '(anonymous)';
}

const longFiles: Array<[string, number]> = [];
const longFunctions: Array<[string, string, number]> = [];
for (const path of ROOTS.flatMap(files)) {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const rel = relative('.', path);
  if (lines > FILE_LIMIT) longFiles.push([rel, lines]);
  const { code } = scriptOf(path, text);
  const sf = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isGetAccessor(node) || ts.isConstructorDeclaration(node)) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const n = end - start + 1;
      if (n > FUNCTION_LIMIT) longFunctions.push([rel, nameOf(node, sf), n]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

longFiles.sort((a, b) => b[1] - a[1]);
longFunctions.sort((a, b) => b[2] - a[2]);
console.log(`files over ${FILE_LIMIT} lines: ${longFiles.length}`);
for (const [f, n] of longFiles) console.log(`  ${n}\t${f}`);
console.log(`functions over ${FUNCTION_LIMIT} lines: ${longFunctions.length}`);
for (const [f, name, n] of longFunctions) console.log(`  ${n}\t${name}\t${f}`);
// `--check` (npm test): any file or function over its limit fails.
if (args.includes('--check') && longFiles.length + longFunctions.length > 0) {
  console.error('split these along their seams (or list a generated data table in DATA)');
  process.exit(1);
}
