/** The whole safety check in Node, as the app loads it (src/arcade/safety-screen.ts): the rules and the learned classifier. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkLine, type CheckLine } from '../../src/core/safety/classify.ts';
import { loadModel, withLearned, type LearnedModel, type LoadedModel } from '../../src/core/safety/learned.ts';

export const MODEL_PATH = join(import.meta.dirname, '../../src/arcade/safety-model.json');

export function loadedModel(): LoadedModel {
  return loadModel(JSON.parse(readFileSync(MODEL_PATH, 'utf8')) as LearnedModel);
}

export function fullCheck(): CheckLine {
  return withLearned(checkLine, loadedModel());
}
