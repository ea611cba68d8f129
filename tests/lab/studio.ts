/**
 * Harness for the Studio screen (until the lead mounts it in the app): the real StudioScreen,
 * Book (IndexedDB) and package loader, with the scripted demo model "演示脚本（无模型）".
 */
import { mount } from 'svelte';
import StudioScreen from '../../src/ui/studio/StudioScreen.svelte';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import { studioDemoPolicies } from '../../src/studio/demo-policies.ts';

mount(StudioScreen, { target: document.getElementById('app')!, props: { model: createScriptedModel(studioDemoPolicies) } });
