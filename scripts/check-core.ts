/**
 * The pure core bundles for a neutral platform: every pure file (src/core/**, the games' rules
 * files) is bundled by esbuild with `platform: 'neutral'`, which resolves no browser and no Node
 * built-ins. The check fails when
 * - anything cannot be resolved on a neutral platform (a Node built-in, a browser-only entry point),
 * - an input is neither a pure file nor one of the few plain-JavaScript packages the core may use,
 * - evaluating the bundle in a context that has only what every JavaScript host has (ECMAScript,
 *   plus timers, console, TextEncoder/TextDecoder, URL and structuredClone — no window, document,
 *   navigator, fetch, storage, workers or process) throws: a dependency that touches a browser or
 *   Node global when it is loaded. (pinyin-pro, for one, schedules its dictionary build with a
 *   timer at load time; that is allowed.)
 *
 * `npx tsx scripts/check-core.ts` (run by `npm test`); `--json` prints the inputs.
 */
import { build, type Metafile } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { isPurePath, PURE_DIR, PURE_GAME_FILE } from './pure-files.js';

const ROOT = resolve(import.meta.dirname, '..');
/** Packages the core may use: plain JavaScript with no I/O. */
export const CORE_PACKAGES = ['ajv', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'require-from-string', 'yaml', 'pinyin-pro', 'opencc-js'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

export function pureEntryPoints(root = ROOT): string[] {
  const core = walk(join(root, PURE_DIR)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const games = walk(join(root, 'skills')).filter((f) => PURE_GAME_FILE.test(relative(root, f).split('\\').join('/')));
  return [...core, ...games].sort();
}

function packageOf(input: string): string | null {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? m[1] : null;
}

export interface CoreCheck {
  ok: boolean;
  problems: string[];
  inputs: string[];
  packages: string[];
}

/** Bundles the given entry points for a neutral platform and checks what came in. */
export async function checkCore(entryPoints: string[], root = ROOT): Promise<CoreCheck> {
  const problems: string[] = [];
  let metafile: Metafile | undefined;
  let code: string;
  try {
    const contents = entryPoints.map((f) => `export * as m${entryPoints.indexOf(f)} from ${JSON.stringify(f)};`).join('\n');
    const result = await build({
      stdin: { contents, resolveDir: root, sourcefile: 'core-entry.ts', loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'iife',
      globalName: 'core',
      mainFields: ['module', 'main'],
      loader: { '.json': 'json', '.md': 'text' },
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: root,
    });
    metafile = result.metafile;
    code = result.outputFiles[0].text;
  } catch (e) {
    const errors = (e as { errors?: Array<{ text: string; location?: { file: string; line: number } }> }).errors;
    if (errors?.length) for (const err of errors) problems.push(`${err.location ? `${err.location.file}:${err.location.line}: ` : ''}${err.text}`);
    else problems.push(String(e));
    return { ok: false, problems, inputs: [], packages: [] };
  }
  const inputs = Object.keys(metafile.inputs).filter((i) => i !== 'core-entry.ts');
  const packages = [...new Set(inputs.map(packageOf).filter((p): p is string => p !== null))].sort();
  for (const pkg of packages) if (!CORE_PACKAGES.includes(pkg)) problems.push(`the core pulls in the package "${pkg}", which is not one of the allowed plain-JavaScript packages (${CORE_PACKAGES.join(', ')})`);
  for (const input of inputs) {
    if (packageOf(input)) continue;
    const path = input.split('?')[0];
    if (!isPurePath(path)) problems.push(`the core pulls in ${input}, which is not a pure file`);
  }
  // Only what every JavaScript host defines; nothing of a browser or of Node.
  const hostNeutral = { setTimeout: () => 0, clearTimeout: () => undefined, queueMicrotask: () => undefined, console, TextEncoder, TextDecoder, URL, structuredClone };
  const sandbox = createContext({ ...hostNeutral });
  try {
    runInContext(code, sandbox, { filename: 'core-bundle.js' });
  } catch (e) {
    problems.push(`loading the core bundle in a context without browser or Node globals failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { ok: problems.length === 0, problems, inputs, packages };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const entries = pureEntryPoints();
  const r = await checkCore(entries);
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else if (r.ok) console.log(`pure core: ${entries.length} files, ${r.inputs.length} inputs, packages ${r.packages.join(', ') || 'none'}: bundles for a neutral platform and loads without browser or Node globals`);
  for (const p of r.problems) console.error(`core check: ${p}`);
  process.exit(r.ok ? 0 : 1);
}
