import { qwenTokenizer } from '../llm/run.ts';
import { recordSessions } from './run.ts';
import { PROFILES } from './profiles.ts';
import { SimulatedEngine, firstSentenceEnd, timeTurn } from './simulate.ts';
const tok = await qwenTokenizer();
const sessions = await recordSessions();
const p = PROFILES[0];
for (const s of sessions) {
  const engine = new SimulatedEngine(tok);
  const e2 = new SimulatedEngine(tok);
  for (const turn of s.turns) {
    const costs = turn.steps.map(({ req, output }) => ({ c: e2.step(req, output), output, end: firstSentenceEnd(output, true), last: req.messages.at(-1)!.content.slice(0, 120) }));
    const t = timeTurn(engine, turn, p, { streaming: true, cue: true }, tok);
    console.log(`\n[${s.name}] inGame=${turn.inGame} first=${t.firstSentenceS.toFixed(2)} full=${t.fullReplyS.toFixed(2)}`);
    for (const c of costs) console.log(`  prefill=${c.c.prefillTokens} out=${c.c.outputTokens} end=${c.end} | IN ${JSON.stringify(c.last)}\n     OUT ${c.output}`);
  }
}
