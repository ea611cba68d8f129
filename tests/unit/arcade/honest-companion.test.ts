/**
 * Honest AI and a bounded companion: every model that talks to a child is told the same boundaries
 * (a robot with a computer brain, no pressuring feelings, no secrets, glad goodbyes), and with the
 * parent's 「只玩游戏」 the main agent has no free chat at all.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { StepRequest } from '../../../src/core/llm/types.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { gamesOnlyText } from '../../../src/arcade/errors.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { systemPrompt } from '../../../src/core/arcade/prompt.ts';
import { HONEST_COMPANION } from '../../../src/core/safety/honesty.ts';
import { COMMON_PROMPT } from '../../../src/games/skill-agent.ts';
import { managerSystemPrompt } from '../../../src/core/studio/manager-tools.ts';
import { assembleHelperContext } from '../../../src/core/studio/helper-context.ts';
import * as bb from '../../../src/core/studio/blackboard.ts';
import { quizPackage } from '../studio/helpers.ts';
import { FakeGameClient, FakeSpeaker, GAMES, until } from './fakes.ts';

describe('the same boundaries in every prompt a child meets', () => {
  it('main agent, games, the Studio manager in play and the helpers that write what the robot says', () => {
    expect(HONEST_COMPANION).toContain('不是真人');
    expect(systemPrompt(GAMES)).toContain(HONEST_COMPANION);
    expect(COMMON_PROMPT).toContain(HONEST_COMPANION);
    const pkg = quizPackage();
    expect(managerSystemPrompt(pkg, 'play')).toContain(HONEST_COMPANION);
    // The design conversation is with the parent.
    expect(managerSystemPrompt(pkg, 'design')).not.toContain(HONEST_COMPANION);
    const board = bb.emptyBoard(Object.keys(pkg.tags));
    for (const s of pkg.skills.filter((x) => x.stage === 'run' || x.id === 'persona')) expect(assembleHelperContext(pkg, s, board).upper, s.id).toContain(HONEST_COMPANION);
  });

  it('asked who it is, the demo brain says it is a robot with a computer brain', async () => {
    const model = createScriptedModel({ main: mainDemoPolicy });
    const speaker = new FakeSpeaker();
    const agent = new MainAgent({ model: () => model, games: new FakeGameClient(), catalog: () => GAMES, speaker });
    await agent.handle('你是真人吗？');
    expect(speaker.texts().join('')).toMatch(/机器人.*不是真人/);
  });
});

describe('「只玩游戏」', () => {
  function setup(gamesOnly: boolean) {
    const games = new FakeGameClient();
    const speaker = new FakeSpeaker();
    const calls: StepRequest[] = [];
    const model = createScriptedModel({ main: (req) => (calls.push(req), mainDemoPolicy(req)) });
    const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, gamesOnly: () => gamesOnly });
    return { agent, games, speaker, calls };
  }

  it('turns free chat off: no reply tool, a kind sentence that lists the games', async () => {
    const t = setup(true);
    await t.agent.handle('给我讲个故事吧');
    expect(t.calls[0].tools.map((x) => x.name)).toEqual(['list_games', 'start_game', 'games_only']);
    expect(t.calls[0].messages[0].content).toContain('只玩游戏');
    expect(t.speaker.texts().join('')).toBe(gamesOnlyText(GAMES));
    expect(gamesOnlyText(GAMES)).toContain('猜数字');
    // "有什么游戏" still lists them.
    await t.agent.handle('有什么游戏？');
    expect(t.speaker.texts().at(-1)).toContain('猜数字');
  });

  it('still starts, plays and ends games', async () => {
    const t = setup(true);
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1, 'start');
    t.games.last().reply('猜一个数字吧。', { final: true });
    await round;
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'guess-number' });
    t.games.auto = (r) => r.reply('好的，下次再玩。', { final: true, session: 'ended' });
    await t.agent.handle('不玩了');
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('off, the main agent chats as before', async () => {
    const t = setup(false);
    await t.agent.handle('你好');
    expect(t.calls[0].tools.map((x) => x.name)).toContain('reply');
    expect(t.calls[0].messages[0].content).not.toContain('只玩游戏');
  });
});
