/**
 * A server's model list as a parent chooses from it: the models that can hold a conversation, in
 * the server's order, and apart from them the ones that cannot (embedding, reranking, speech and
 * image models, which LM Studio and Ollama list beside the chat models). Which is which is read
 * from the model's name, as the OpenAI-compatible list gives nothing else. Pure.
 */

/** Names of models that turn text into vectors or scores, speech or images, never into a reply. */
const NOT_CHAT = /(^|[-_/.:\s])(embed(ding)?s?|embedding-?\w*|bge|gte|e5|minilm|mpnet|rerank(er)?|colbert|clip|whisper|tts|moderation|dall-?e|stable-diffusion|sdxl|flux)([-_/.:\s\d]|$)|text-embedding|nomic-embed|mxbai-embed|snowflake-arctic-embed|jina-embeddings|sentence-transformers/i;

/** True when the model's name says it cannot chat (an embedding model, a reranker, speech, images). */
export function isNonChatModel(id: string): boolean {
  return NOT_CHAT.test(id);
}

export interface RemoteModelChoices {
  /** The models to choose from, in the server's order. */
  chat: string[];
  /** The models left out of the choice (they cannot chat). */
  other: string[];
}

export function remoteModelChoices(ids: readonly string[]): RemoteModelChoices {
  const chat: string[] = [];
  const other: string[] = [];
  for (const id of new Set(ids)) (isNonChatModel(id) ? other : chat).push(id);
  return { chat, other };
}
