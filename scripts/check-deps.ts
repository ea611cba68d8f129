/**
 * The walls between folders, checked on the import graph (dependency-cruiser): no import circle,
 * and which top folder may import which (docs/ARCHITECTURE.md §Walls lists the rules and why).
 * Type-only imports count: a circle of types still ties the modules together.
 *
 * `npx tsx scripts/check-deps.ts` (`npm run check:deps`, run by `npm test`); `--json` prints the
 * violations. Screens that still read a service directly are listed in
 * scripts/deps-known-violations.json: they pass, any new one fails.
 */
import { cruise, type ICruiseOptions, type IForbiddenRuleType, type IViolation } from 'dependency-cruiser';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PURE_DATA_FILE, PURE_DIR, PURE_GAME_FILE } from './pure-files.js';

const ROOT = resolve(import.meta.dirname, '..');
const KNOWN = join(ROOT, 'scripts/deps-known-violations.json');

/** The folders the app is made of (what is cruised). */
export const SOURCE_FOLDERS = ['src', 'workers', 'skills'];

/** A regex (as text) for the pure files of scripts/pure-files.js. */
const PURE = `^${PURE_DIR}|${PURE_GAME_FILE.source}|${PURE_DATA_FILE.source}`;
/** The platform services: each talks to one part of the world (a worker, the model, the robot, speech, storage). */
const SERVICES = 'src/(a2a|llm|robot|speech|trace|parental)/';

export const RULES: IForbiddenRuleType[] = [
  {
    name: 'no-circular',
    comment: 'No import circle (a recursive Svelte component importing itself is not one).',
    severity: 'error',
    from: { path: '(.+)' },
    to: { circular: true, pathNot: '^$1$' },
  },
  {
    name: 'pure-imports-pure',
    comment: 'A pure file (scripts/pure-files.js: the core and the games\' rules files) imports only pure files and packages.',
    severity: 'error',
    from: { path: PURE },
    to: { pathNot: `${PURE}|(^|/)node_modules/`, dependencyTypesNot: ['core'] },
  },
  {
    name: 'core-imports-no-node',
    comment: 'The core runs on any JavaScript host: no Node built-in.',
    severity: 'error',
    from: { path: `^${PURE_DIR}` },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'skills-import-core-and-own-folder',
    comment: 'A game folder imports the core, its own files and the game base class (src/games/skill-agent.ts) only.',
    severity: 'error',
    from: { path: '^skills/([^/]+)/' },
    to: { pathNot: ['^skills/$1/', `^${PURE_DIR}`, '^src/games/skill-agent\\.ts$', '(^|/)node_modules/'] },
  },
  {
    name: 'services-stay-below',
    comment: 'The platform services do not import the games runtime, the arcade, the Studio, the screens or a game folder.',
    severity: 'error',
    from: { path: `^${SERVICES}` },
    to: { path: '^(src/(games|arcade|studio|ui)/|skills/|workers/)' },
  },
  {
    name: 'games-do-not-import-studio-or-arcade',
    comment: 'The games runtime (src/games) sits below the arcade and the Studio: it imports neither, nor the screens; engines are registered by the composition roots.',
    severity: 'error',
    from: { path: '^src/games/' },
    to: { path: '^(src/(arcade|studio|ui)/|skills/|workers/)' },
  },
  {
    name: 'arcade-does-not-import-studio',
    comment: 'The arcade and the Studio are siblings: the arcade does not import the Studio, the screens or a game folder.',
    severity: 'error',
    from: { path: '^src/arcade/' },
    to: { path: '^(src/(studio|ui)/|skills/|workers/)' },
  },
  {
    name: 'studio-does-not-import-arcade',
    comment: 'The Studio does not import the arcade, the screens or a game folder (only a Studio package\'s pure reader, which its demo brain plays).',
    severity: 'error',
    from: { path: '^src/studio/' },
    to: { path: '^(src/(arcade|ui)/|skills/|workers/)', pathNot: '^skills/[^/]+/reader\\.ts$' },
  },
  {
    name: 'ui-is-the-top',
    comment: 'Only the app entry (src/main.ts) imports the screens; nothing imports a worker entry.',
    severity: 'error',
    from: { path: '^(src|skills|workers)/', pathNot: ['^src/ui/', '^src/main\\.ts$'] },
    to: { path: '^src/ui/' },
  },
  {
    name: 'nothing-imports-worker-entries',
    comment: 'A worker entry (workers/*.ts) is loaded as a worker, never imported; its composition (workers/game-engines.ts) is imported by the entry only.',
    severity: 'error',
    from: { pathNot: '^workers/' },
    to: { path: '^workers/' },
  },
  {
    name: 'workers-reach-no-screens',
    comment: 'A worker chunk never pulls in the screens or Svelte (they need a document).',
    severity: 'error',
    from: { path: '^workers/' },
    to: { path: ['^src/ui/', '(^|/)node_modules/svelte/', '\\.svelte$'], reachable: true },
  },
  {
    name: 'screens-call-the-runtime',
    comment: 'A screen (.svelte) imports components, the runtime\'s façade (src/ui/*.ts) and the core; services are reached through the runtime.',
    severity: 'error',
    from: { path: '^src/ui/.+\\.svelte$' },
    to: { pathNot: ['^src/(ui|core)/', '(^|/)node_modules/', '^virtual:'] },
  },
  {
    name: 'src-imports-no-tests',
    comment: 'Nothing that ships imports a test double (they live in tests/support).',
    severity: 'error',
    from: { path: '^(src|skills|workers)/' },
    to: { path: '^tests/' },
  },
];

/** Rules whose current violations may be kept as a baseline (`--baseline`): the others allow none. */
const BASELINED = new Set(['screens-call-the-runtime']);

export interface DepsCheck {
  ok: boolean;
  /** The violations that fail, in the raw form the baseline keeps. */
  raw: IViolation[];
  violations: string[];
  modules: number;
  dependencies: number;
  circles: number;
}

function describeViolation(v: IViolation): string {
  const via = v.cycle?.length ? ` (circle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')})` : '';
  return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
}

/** Cruises `folders` under `root` against RULES; the known violations (a baseline) pass. */
export async function checkDeps(root = ROOT, folders = SOURCE_FOLDERS, known = existsSync(KNOWN) && root === ROOT ? JSON.parse(readFileSync(KNOWN, 'utf8')) : []): Promise<DepsCheck> {
  const options: ICruiseOptions = {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: RULES },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    knownViolations: known,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'browser', 'default', 'types'], extensions: ['.ts', '.js', '.svelte', '.json'], mainFields: ['module', 'main', 'types'] },
  };
  const tsConfig = existsSync(join(root, 'tsconfig.json')) ? { fileName: join(root, 'tsconfig.json') } : undefined;
  const result = await cruise(folders.filter((f) => existsSync(join(root, f))), options, {}, tsConfig ? { tsConfig: (await import('dependency-cruiser/config-utl/extract-ts-config')).default(tsConfig.fileName) } : {});
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, expected a result');
  const { summary } = result.output;
  const failing = summary.violations.filter((v) => v.rule.severity !== 'ignore');
  return {
    ok: summary.error === 0,
    raw: failing,
    violations: failing.map(describeViolation),
    modules: summary.totalCruised,
    dependencies: summary.totalDependenciesCruised ?? 0,
    circles: summary.violations.filter((v) => v.rule.name === 'no-circular' && v.rule.severity !== 'ignore').length,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  if (process.argv.includes('--baseline')) {
    const r = await checkDeps(ROOT, SOURCE_FOLDERS, []);
    const kept = r.raw.filter((v) => BASELINED.has(v.rule.name)).map(({ type, from, to, rule }) => ({ type, from, to, rule }));
    writeFileSync(KNOWN, `${JSON.stringify(kept, null, 1)}\n`);
    console.log(`kept ${kept.length} known violations of ${[...BASELINED].join(', ')} in ${KNOWN}`);
  }
  const r = await checkDeps();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else if (r.ok) console.log(`walls: ${r.modules} modules, ${r.dependencies} imports, ${RULES.length} rules, no circle and no forbidden import`);
  for (const v of r.violations) console.error(`deps check: ${v}`);
  process.exit(r.ok ? 0 : 1);
}
