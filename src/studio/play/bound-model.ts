/**
 * The Studio runtime calls its model without an AbortSignal; a play turn must still stop when the
 * A2A turn is cancelled (CancelTask, or an `end` arriving). This wraps the model so every step
 * carries the signal of the turn running now and rejects at once when it aborts — even when the
 * model underneath ignores the signal — so a cancelled turn settles promptly.
 */
import type { ChatModel, Step, StepRequest } from '../../core/llm/types.ts';

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('这一轮已取消', 'AbortError');
}

export function signalBoundModel(model: ChatModel, current: () => AbortSignal | null): ChatModel {
  return {
    get label() {
      return model.label;
    },
    step(req: StepRequest): Promise<Step> {
      const signal = current();
      if (!signal) return model.step(req);
      if (signal.aborted) return Promise.reject(abortReason(signal));
      return new Promise<Step>((resolve, reject) => {
        const onAbort = () => reject(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        model
          .step({ ...req, signal: req.signal ?? signal })
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
  };
}
