/**
 * Harness for the Studio screen: the real StudioScreen and its controller, Book (IndexedDB) and
 * package loader, with the scripted demo model "演示脚本（无模型）" and no mic or reading aloud.
 */
import { mount } from 'svelte';
import StudioScreen from '../../src/ui/studio/StudioScreen.svelte';
import { loadSafetyCheck } from '../../src/arcade/safety-screen.ts';
import { builtinGames } from '../../src/games/catalog.ts';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import { Book } from '../../src/studio/book.ts';
import { discoverPackages } from '../../src/studio/bundled-packages.ts';
import { studioDemoPolicies } from '../../src/studio/studio-demo-policies.ts';
import { StudioController } from '../../src/studio/studio-controller.ts';

const controller = new StudioController({ model: createScriptedModel(studioDemoPolicies), openBook: () => Book.open(), packages: discoverPackages(), games: builtinGames, safetyCheck: loadSafetyCheck });
mount(StudioScreen, { target: document.getElementById('app')!, props: { controller } });
