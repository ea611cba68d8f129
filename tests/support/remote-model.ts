/** A ChatModel on a remote OpenAI-compatible server alone, as the model controller builds one for a fixed output mode. */
import { createChatModel, type ChatModelOptions } from '../../src/llm/decide-step.ts';
import { createRemoteProvider, remoteStepOptions, type RemoteConfig, type RemoteDeps } from '../../src/llm/remote-openai.ts';
import type { ChatModel } from '../../src/core/llm/types.ts';

export function createRemoteModel(config: RemoteConfig, opts?: ChatModelOptions, deps?: RemoteDeps): ChatModel {
  return createChatModel(createRemoteProvider(config, deps), remoteStepOptions(opts));
}
