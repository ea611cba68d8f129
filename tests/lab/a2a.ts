/**
 * Lab page for the A2A transport (tests/e2e/a2a.spec.ts): a real module Web Worker hosts the echo
 * test game; the page talks to it through createGameClient (SDK Client + MessagePort transport)
 * and shows every reply.
 */
import { agentCardFor } from '../../src/a2a/card.ts';
import { describeAny } from '../../src/core/errors/catalogue.ts';
import { createGameClient } from '../../src/a2a/game-host.ts';
import { ECHO_GAME } from '../support/a2a/echo-game.ts';
import { GameRequestError, type GameRequest } from '../../src/a2a/types.ts';
import { gameInput, type GameInputKind } from '../../src/core/protocol/game-protocol.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const card = agentCardFor(ECHO_GAME);
const client = createGameClient({
  spawn: () => new Worker(new URL('../support/a2a/test-echo-agent.ts', import.meta.url), { type: 'module' }),
  cards: (id) => (id === ECHO_GAME.id ? card : undefined),
  engineOf: () => 'skill',
  seed: () => 1,
});

let contextId = crypto.randomUUID();
let current: GameRequest | undefined;
let open = 0;

function log(text: string, cls: string): void {
  const li = document.createElement('li');
  li.className = cls;
  li.textContent = text;
  $('log').append(li);
}

function setStatus(): void {
  $('status').textContent = open > 0 ? `处理中（${open}）` : '空闲';
}

async function send(kind: GameInputKind): Promise<void> {
  const text = kind === 'end' ? '' : $<HTMLInputElement>('text').value;
  if (kind === 'start') contextId = crypto.randomUUID();
  let input;
  try {
    input = gameInput(kind, text);
  } catch (e) {
    log(`输入无效：${(e as Error).message}`, 'error');
    return;
  }
  log(`→ ${kind}${text ? `：${text}` : ''}`, 'input');
  const req = client.request(ECHO_GAME.id, contextId, input);
  current = req;
  open++;
  setStatus();
  try {
    for await (const ev of req.replies) log(`${ev.final ? '最终回复' : '中间回复'}：${ev.reply.text}（${ev.reply.session}）`, ev.final ? 'final' : 'reply');
  } catch (e) {
    const code = e instanceof GameRequestError ? e.code : 'unknown';
    log(`${code === 'game_cancelled' ? '已取消' : '出错'}：${describeAny(code).child}（${code}）`, 'error');
  } finally {
    open--;
    setStatus();
  }
}

$('start').addEventListener('click', () => void send('start'));
$('send').addEventListener('click', () => void send('message'));
$('end').addEventListener('click', () => void send('end'));
$('cancel').addEventListener('click', () => void current?.cancel());
setStatus();
