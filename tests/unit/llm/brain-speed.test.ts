/**
 * A local brain measured on the device: the expected wait of an in-game turn from measured rates,
 * the verdict against T2, the words a parent reads, the thread count chosen by measurement, and
 * the engine service's calibration step reading the engine's own counts (WebLLM's usage chunk,
 * llama.cpp's timings) or, without them, the wall clock.
 */
import { describe, expect, it } from 'vitest';
import { brainSpeed, chooseThreads, rejudge, secondsText, speedText, threadCandidates, turnWaitS, TURN_DECODE_TOKENS, TURN_PREFILL_TOKENS } from '../../../src/core/llm/brain-speed.ts';
import { createEngineService, type EngineChunk, type EngineLike } from '../../../src/llm/engine-service.ts';

describe('expected wait per turn', () => {
  it('is the in-place prefill plus one reply step at the measured rates', () => {
    expect(turnWaitS({ prefillPerS: 100, decodePerS: 24 })).toBeCloseTo(TURN_PREFILL_TOKENS / 100 + TURN_DECODE_TOKENS / 24);
    expect(turnWaitS({ prefillPerS: 0, decodePerS: 5 })).toBe(Infinity);
  });
  it('fits T2 only with the margin kept for the line to be spoken; a longer T2 judged again', () => {
    const cpu = brainSpeed({ prefillPerS: 11, decodePerS: 7.8 }, 20_000, 2);
    expect(cpu.fits).toBe(false);
    expect(rejudge(cpu, 30_000).fits).toBe(true);
    expect(brainSpeed({ prefillPerS: 200, decodePerS: 48 }, 3500).fits).toBe(true); // 2 s ≤ 3.5 − 1.2
    expect(brainSpeed({ prefillPerS: 200, decodePerS: 48 }, 3000).fits).toBe(false);
  });
  it('in plain words', () => {
    expect(secondsText(0.4)).toBe('不到 1 秒');
    expect(secondsText(23.6)).toBe('约 24 秒');
    expect(secondsText(Infinity)).toBe('超过 3 分钟');
    expect(speedText(brainSpeed({ prefillPerS: 11, decodePerS: 7.8 }, 20_000))).toBe('在这台设备上测过：孩子说完话后，每轮要等约 24 秒才有回答，超过了每轮 20 秒的时限：玩游戏时不用它，由游戏规则马上回答；游戏外的聊天常常会来不及回答。');
  });
});

describe('threads by measurement', () => {
  it('the fastest measured count; more threads only when clearly faster (noisy devices)', () => {
    expect(chooseThreads([{ threads: 1, prefillPerS: 5.5, decodePerS: 4.3 }, { threads: 2, prefillPerS: 11, decodePerS: 7.8 }])).toBe(2);
    expect(chooseThreads([{ threads: 2, prefillPerS: 5.6, decodePerS: 4.35 }, { threads: 1, prefillPerS: 5.5, decodePerS: 4.3 }])).toBe(1);
    expect(chooseThreads([{ threads: 4, prefillPerS: 3, decodePerS: 2 }, { threads: 1, prefillPerS: 5.5, decodePerS: 4.3 }])).toBe(1);
    expect(chooseThreads([])).toBeUndefined();
  });
  it('candidates: one thread without cross-origin isolation; else one and the most that can help (at most 4)', () => {
    expect(threadCandidates(false, 8)).toEqual([1]);
    expect(threadCandidates(true, 1)).toEqual([1]);
    expect(threadCandidates(true, 2)).toEqual([1, 2]);
    expect(threadCandidates(true, 12)).toEqual([1, 4]);
  });
});

describe("the engine service's calibration step", () => {
  function serviceWith(chunks: EngineChunk[], clock: number[]) {
    const engine: EngineLike = {
      async reload() {},
      async unload() {},
      interruptGenerate() {},
      async chatCompletion() {
        return (async function* () {
          for (const c of chunks) yield c;
        })();
      },
    };
    let i = 0;
    return createEngineService({ prepareEngine: async () => engine, grammar: async () => 'root ::= "x"', isQwen3: () => false, now: () => clock[Math.min(i++, clock.length - 1)] });
  }
  const step = { id: '1', agent: 'calibration', messages: [{ role: 'user' as const, content: 'x' }], schema: {}, maxTokens: 16, temperature: 0 };

  it("takes WebLLM's usage chunk (prefill and decode rates)", async () => {
    const s = serviceWith([{ choices: [{ delta: { content: '{"re' } }] }, { choices: [], usage: { prompt_tokens: 150, completion_tokens: 16, extra: { prefill_tokens_per_s: 320, decode_tokens_per_s: 21 } } }], [0, 500, 1200]);
    await s.load({ modelId: 'm' });
    expect(await s.measure(step)).toMatchObject({ ok: true, value: { promptTokens: 150, decodeTokens: 16, prefillPerS: 320, decodePerS: 21 } });
  });
  it("takes llama.cpp's timings (the CPU engine)", async () => {
    const s = serviceWith([{ choices: [{ delta: { content: '{"re' } }], timings: { prompt_n: 140, prompt_per_second: 11, predicted_n: 16, predicted_per_second: 7.8 } }], [0, 1, 2]);
    await s.load({ modelId: 'm' });
    expect(await s.measure(step)).toMatchObject({ ok: true, value: { prefillPerS: 11, decodePerS: 7.8 } });
  });
  it('without rates from the engine: counts over the wall clock (first piece = prefill, the rest = decode)', async () => {
    const s = serviceWith(
      [{ choices: [{ delta: { content: 'a' } }] }, { choices: [{ delta: { content: 'b' } }], usage: { prompt_tokens: 100, completion_tokens: 11 } }],
      [0, 2000, 4000],
    );
    await s.load({ modelId: 'm' });
    expect(await s.measure(step)).toMatchObject({ ok: true, value: { firstPieceMs: 2000, decodeMs: 2000, prefillPerS: 50, decodePerS: 5 } });
  });
});
