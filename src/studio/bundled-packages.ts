/**
 * The Studio packages shipped under `skills/` (a folder with an orchestrator.md), found by the
 * build's glob and parsed once: the files are part of the build and cannot change while the app
 * runs, and every studio game start asks for them.
 */
import { loadPackagesFromFiles, type LoadResult } from '../core/studio/package-loader.ts';

let discovered: readonly LoadResult[] | undefined;

export function discoverPackages(): LoadResult[] {
  if (!discovered) {
    const manifests = import.meta.glob('/skills/*/orchestrator.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const helpers = import.meta.glob('/skills/*/helpers/*/SKILL.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    discovered = loadPackagesFromFiles({ ...manifests, ...helpers });
  }
  return [...discovered];
}
