/**
 * The panel of each first-run brain choice (src/core/llm/brain-choices.ts), by the choice's id:
 * another engine is one more choice there and one more panel here.
 */
import type { Component } from 'svelte';
import type { BrainChoiceId } from '../../core/llm/brain-choices.ts';
import type { ModelController } from '../../llm/model-controller.ts';
import type { AppStatus } from '../app-status.svelte.ts';
import CpuBrainPanel from './CpuBrainPanel.svelte';
import DemoBrainPanel from './DemoBrainPanel.svelte';
import LocalBrainPanel from './LocalBrainPanel.svelte';
import RemoteGuide from './RemoteGuide.svelte';

export interface BrainPanelProps {
  controller: ModelController;
  status: AppStatus;
  /** The brain chosen in this panel is ready to play. */
  onReady: () => void;
}

export const BRAIN_PANELS: Record<BrainChoiceId, Component<BrainPanelProps>> = {
  local: LocalBrainPanel,
  cpu: CpuBrainPanel,
  remote: RemoteGuide,
  demo: DemoBrainPanel,
};
