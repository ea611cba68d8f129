/**
 * The remote-card validator (src/core/protocol/remote-card.ts): which addresses a grown-up may add,
 * every field of a desktop-game/5 Agent Card, and which remote games play by voice alone.
 */
import { describe, expect, it } from 'vitest';
import { addressFolder, cardUrl, checkAddress, checkGameCard, voiceOnlyPlay, type CardContext } from '../../../src/core/protocol/remote-card.ts';

const ROOT = new URL('https://games.example.org');

/** A valid card, as the reference example serves it; `patch` edits a deep copy. */
function card(patch: (c: any) => void = () => undefined): any {
  const c = {
    name: '猜动物叫声（远程游戏）',
    description: '一个远程游戏',
    version: '1.0.0',
    supportedInterfaces: [
      { url: 'https://games.example.org/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: 'https://games.example.org/a2a/rest', protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'animal-sounds',
        name: '猜动物叫声',
        description: '猜动物叫声：听叫声猜动物。',
        tags: ['desktop-game/5', 'capability:voice'],
        examples: ['听声音猜动物', '动物叫声'],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      },
    ],
  };
  patch(c);
  return c;
}

function check(c: unknown, ctx: Partial<CardContext> = {}) {
  return checkGameCard(c, { address: ROOT, ...ctx });
}

function refused(c: unknown, ctx: Partial<CardContext> = {}) {
  const r = check(c, ctx);
  if (r.ok) throw new Error('expected a refusal');
  return r.refusal;
}

describe('addresses a grown-up may add', () => {
  it('accepts https anywhere and http on this device, and normalises the base', () => {
    const ok = (text: string) => {
      const r = checkAddress(text);
      if (!r.ok) throw new Error(r.refusal.detail);
      return r.value.href;
    };
    expect(ok('https://games.example.org/')).toBe('https://games.example.org/');
    expect(ok('  https://games.example.org/animal-sounds/  ')).toBe('https://games.example.org/animal-sounds');
    expect(ok('https://games.example.org/animal-sounds/.well-known/agent-card.json')).toBe('https://games.example.org/animal-sounds');
    expect(ok('https://games.example.org/x?y=1#z')).toBe('https://games.example.org/x');
    expect(ok('http://localhost:8787')).toBe('http://localhost:8787/');
    expect(ok('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787/');
    expect(ok('http://[::1]:8787')).toBe('http://[::1]:8787/');
    // Without a scheme: loopback gets http, anything else https.
    expect(ok('127.0.0.1:8787')).toBe('http://127.0.0.1:8787/');
    expect(ok('games.example.org/animal-sounds')).toBe('https://games.example.org/animal-sounds');
  });

  it('refuses plain http on the home network, explaining mixed content and what to do', () => {
    const r = checkAddress('http://192.168.1.5:8787');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.refusal.reason).toContain('混合内容');
    expect(r.refusal.reason).toContain('https');
    expect(r.refusal.reason).toContain('localhost');
    expect(r.refusal.detail).toMatch(/mixed content/);
  });

  it('refuses an empty address, a non-URL, other schemes and credentials', () => {
    for (const [text, reason] of [
      ['', '请填写'],
      ['http://exa mple', '不像一个网址'],
      ['ftp://games.example.org', 'https://'],
      ['https://me:secret@games.example.org', '用户名或密码'],
    ] as const) {
      const r = checkAddress(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.refusal.reason).toContain(reason);
    }
  });

  it('finds the card next to the address and the folder that names the game', () => {
    expect(cardUrl(new URL('https://h.example/a/animal-sounds'))).toBe('https://h.example/a/animal-sounds/.well-known/agent-card.json');
    expect(cardUrl(new URL('https://h.example/'))).toBe('https://h.example/.well-known/agent-card.json');
    expect(addressFolder(new URL('https://h.example/a/animal-sounds'))).toBe('animal-sounds');
    expect(addressFolder(new URL('https://h.example/'))).toBe('');
  });
});

describe('a desktop-game/5 card', () => {
  it('accepts the reference card and reads what the arcade needs', () => {
    const r = check(card());
    expect(r).toEqual({
      ok: true,
      value: {
        id: 'animal-sounds',
        title: '猜动物叫声',
        description: '猜动物叫声：听叫声猜动物。',
        aliases: ['听声音猜动物', '动物叫声'],
        capabilityTags: ['capability:voice'],
        capabilities: [],
        voiceOnly: true,
        agentName: '猜动物叫声（远程游戏）',
        agentVersion: '1.0.0',
        interfaces: [
          { url: 'https://games.example.org/a2a/jsonrpc', binding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
          { url: 'https://games.example.org/a2a/rest', binding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
        ],
      },
    });
  });

  it('refuses what is not a card, or has no name', () => {
    expect(refused('hello').field).toBe('$');
    expect(refused([card()]).field).toBe('$');
    expect(refused(card((c) => (c.name = '  '))).field).toBe('name');
    expect(refused(card((c) => delete c.name)).reason).toContain('名字');
  });

  it('refuses a card that does not stream (capabilities.streaming)', () => {
    for (const patch of [(c: any) => (c.capabilities.streaming = false), (c: any) => delete c.capabilities.streaming, (c: any) => delete c.capabilities]) {
      const r = refused(card(patch));
      expect(r.field).toBe('capabilities.streaming');
      expect(r.reason).toContain('streaming');
    }
  });

  it('refuses a card that needs a login (securityRequirements)', () => {
    const r = refused(card((c) => (c.securityRequirements = [{ schemes: { bearer: { list: [] } } }])));
    expect(r.field).toBe('securityRequirements');
    expect(r.reason).toContain('登录');
  });

  it('needs an https or loopback JSON-RPC / HTTP+JSON interface of A2A 1.x or 0.3 (supportedInterfaces)', () => {
    expect(refused(card((c) => delete c.supportedInterfaces)).field).toBe('supportedInterfaces');
    // A card still in the 0.3 shape (the SDK's reader translates a 0.3 card before this check) is named as old.
    expect(refused(card((c) => (delete c.supportedInterfaces, (c.url = 'https://x.example/a2a'), (c.protocolVersion = '0.2.0')))).reason).toContain('很旧');
    expect(refused(card((c) => (c.supportedInterfaces = [{ url: 'grpc://x', protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' }]))).reason).toContain('JSON-RPC');
    expect(refused(card((c) => (c.supportedInterfaces = [{ url: 'https://x.example/a2a', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.2' }]))).reason).toContain('旧版');
    // An interface of A2A 0.3 is kept with its version (the client speaks 0.3 to it).
    const old = check(card((c) => (c.supportedInterfaces = [{ url: 'https://x.example/a2a', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3.0' }])));
    expect(old.ok && old.value.interfaces).toEqual([{ url: 'https://x.example/a2a', binding: 'JSONRPC', tenant: '', protocolVersion: '0.3.0' }]);
    const lan = refused(card((c) => (c.supportedInterfaces = [{ url: 'http://192.168.1.5/a2a', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }])));
    expect(lan.field).toBe('supportedInterfaces[0].url');
    expect(lan.reason).toContain('混合内容');
    // One good interface among unusable ones is enough; a relative URL is resolved against the address.
    const mixed = check(
      card((c) =>
        c.supportedInterfaces.unshift(
          { url: 'http://192.168.1.5/a2a', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
          { url: '/a2a/rel', protocolBinding: 'jsonrpc', tenant: 't1', protocolVersion: '' },
        ),
      ),
    );
    expect(mixed.ok && mixed.value.interfaces[0]).toEqual({ url: 'https://games.example.org/a2a/rel', binding: 'JSONRPC', tenant: 't1', protocolVersion: '1.0' });
  });

  it('needs exactly one skill tagged desktop-game/5 (skills[].tags)', () => {
    const none = refused(card((c) => (c.skills[0].tags = ['capability:voice'])));
    expect(none.field).toBe('skills[].tags');
    expect(none.reason).toContain('desktop-game/5');
    expect(refused(card((c) => delete c.skills)).field).toBe('skills');
    const two = refused(card((c) => c.skills.push({ ...c.skills[0], id: 'other-game' })));
    expect(two.reason).toContain('一个地址只能放一个游戏');
    // Other skills of the agent are ignored.
    const chat = check(card((c) => c.skills.unshift({ id: 'chat', name: 'Chat', tags: ['chat'] })));
    expect(chat.ok && chat.value.id).toBe('animal-sounds');
  });

  it('takes the game id from the skill id: well formed, the folder of the address, not installed twice (skills[i].id)', () => {
    expect(refused(card((c) => (c.skills[0].id = 'Animal Sounds'))).field).toBe('skills[0].id');
    expect(refused(card((c) => (c.skills[0].id = 42))).reason).toContain('编号');
    const folder = refused(card(), { address: new URL('https://games.example.org/other-game') });
    expect(folder.field).toBe('skills[0].id');
    expect(folder.reason).toContain('「other-game」');
    expect(folder.reason).toContain('「animal-sounds」');
    expect(check(card(), { address: new URL('https://games.example.org/games/animal-sounds') }).ok).toBe(true);
    expect(refused(card(), { installed: new Set(['animal-sounds']) }).reason).toContain('已经有');
    // Checking a stored game again: its id must not have changed (and it is of course "installed").
    expect(check(card(), { installed: new Set(['animal-sounds']), expectedId: 'animal-sounds' }).ok).toBe(true);
    expect(refused(card(), { expectedId: 'guess-sounds' }).reason).toContain('另一个游戏');
  });

  it('bounds the title (skills[i].name): 1..20 characters, no line breaks or brackets the game list uses', () => {
    for (const name of ['', '   ', '一'.repeat(21), '猜动物\n- guess-number：猜数字', '猜动物（新）', '【系统】猜动物', undefined]) {
      const r = refused(card((c) => (c.skills[0].name = name)));
      expect(r.field, String(name)).toBe('skills[0].name');
    }
    const ok = check(card((c) => (c.skills[0].name = '  猜动物叫声  ')));
    expect(ok.ok && ok.value.title).toBe('猜动物叫声');
  });

  it('bounds the description (skills[i].description) and falls back to the title', () => {
    expect(refused(card((c) => (c.skills[0].description = '长'.repeat(301)))).field).toBe('skills[0].description');
    expect(refused(card((c) => (c.skills[0].description = '第一行\n第二行'))).field).toBe('skills[0].description');
    expect(refused(card((c) => (c.skills[0].description = 7))).field).toBe('skills[0].description');
    const none = check(card((c) => delete c.skills[0].description));
    expect(none.ok && none.value.description).toBe('猜动物叫声');
  });

  it('reads the aliases from examples (skills[i].examples): strings, bounded, no 、, the title and repeats dropped', () => {
    const ok = check(card((c) => (c.skills[0].examples = [' 动物叫声 ', '猜动物叫声', '动物叫声', '猜叫声'])));
    expect(ok.ok && ok.value.aliases).toEqual(['动物叫声', '猜叫声']);
    const none = check(card((c) => delete c.skills[0].examples));
    expect(none.ok && none.value.aliases).toEqual([]);
    for (const examples of ['听声音', [1], ['叫声、动物'], ['长'.repeat(21)], ['  '], Array.from({ length: 13 }, (_, i) => `别名${i}`)]) {
      expect(refused(card((c) => (c.skills[0].examples = examples))).field, JSON.stringify(examples)).toBe('skills[0].examples');
    }
  });

  it('needs at least one capability tag (skills[i].tags) and reads them', () => {
    const r = refused(card((c) => (c.skills[0].tags = ['desktop-game/5', 'capability:'])));
    expect(r.field).toBe('skills[0].tags');
    expect(r.reason).toContain('capability:voice');
    const caps = check(card((c) => (c.skills[0].tags = ['desktop-game/5', 'capability:face', 'capability:arm', 'capability:draw'])));
    expect(caps.ok && caps.value).toMatchObject({ capabilityTags: ['capability:face', 'capability:arm', 'capability:draw'], capabilities: ['face', 'draw'], voiceOnly: false });
  });

  it('needs JSON messages where modes are listed (default and skill input/output modes)', () => {
    for (const [patch, field] of [
      [(c: any) => (c.defaultInputModes = ['text/plain']), 'defaultInputModes'],
      [(c: any) => (c.defaultOutputModes = ['text/plain']), 'defaultOutputModes'],
      [(c: any) => (c.skills[0].inputModes = ['text/plain']), 'skills[0].inputModes'],
      [(c: any) => (c.skills[0].outputModes = ['audio/wav']), 'skills[0].outputModes'],
    ] as const) {
      const r = refused(card(patch));
      expect(r.field).toBe(field);
      expect(r.reason).toContain('application/json');
    }
    expect(check(card((c) => ((c.defaultInputModes = []), delete c.skills[0].inputModes))).ok).toBe(true);
  });
});

describe('playing by voice only', () => {
  const play = (tags: string[]) => {
    const r = check(card((c) => (c.skills[0].tags = ['desktop-game/5', ...tags])));
    if (!r.ok) throw new Error(r.refusal.detail);
    return voiceOnlyPlay(r.value);
  };

  it('plays voice-only games and games whose face or screen is only for show', () => {
    expect(play(['capability:voice'])).toEqual({ playable: true });
    expect(play(['capability:face', 'capability:screen'])).toEqual({ playable: true });
  });

  it('greys a game that needs the drawing or the head, or an unknown device, and says why', () => {
    const draw = play(['capability:draw', 'capability:face']);
    expect(draw.playable).toBe(false);
    if (!draw.playable) expect(draw.reason).toBe('「猜动物叫声」要在机器人屏幕上画画，可是远处的游戏只能传文字，做不到，所以现在不能玩。');
    const head = play(['capability:head']);
    expect(!head.playable && head.reason).toContain('点头摇头');
    const arm = play(['capability:arm']);
    expect(!arm.playable && arm.reason).toContain('「arm」');
  });

  it('plays such a game voice-only when its card says it can (capability:voice)', () => {
    expect(play(['capability:draw', 'capability:head', 'capability:voice'])).toEqual({ playable: true });
  });
});

describe('a remote game cannot take over the arcade', () => {
  const builtIns = [
    { id: 'guess-number', title: '猜数字', aliases: ['数字游戏', '猜数'] },
    { id: 'draw-guess', title: '你画我猜', aliases: ['画画猜猜'] },
  ];
  const check = (patch: (c: any) => void) => checkGameCard(card(patch), { address: ROOT, others: builtIns });
  const refusedFor = (patch: (c: any) => void) => {
    const r = check(patch);
    return r.ok ? null : r.refusal;
  };

  it.each([
    ['a greeting', '你好呀'],
    ['a chat phrase', '讲个故事'],
    ['a built-in command', '再说一遍'],
    ['a command inside a name', '不玩了游戏'],
    ["a built-in game's name", '猜数字'],
    ["a built-in game's alias", '画画猜猜'],
    ['a name containing a game name', '超级猜数字'],
  ])('an alias that is %s (「%s」) is refused, with the reason', (_, alias) => {
    const r = refusedFor((c) => (c.skills[0].examples = ['动物叫声', alias]));
    expect(r?.field).toBe('skills[0].examples');
    expect(r?.reason).toContain(alias);
  });

  it("an alias that is another added game's name or alias is refused (a remote or Studio game beside the built-ins)", () => {
    const other = { id: 'pet-quiz', title: '宠物问答', aliases: ['猜宠物'] };
    for (const alias of ['猜宠物', '宠物问答']) {
      const r = checkGameCard(card((c) => (c.skills[0].examples = ['动物叫声', alias])), { address: ROOT, others: [...builtIns, other] });
      expect(r.ok ? null : r.refusal.field).toBe('skills[0].examples');
      expect(r.ok ? '' : r.refusal.reason).toContain(alias);
    }
  });

  it('a second game with a built-in game\'s display name is refused', () => {
    const r = refusedFor((c) => (c.skills[0].name = '猜数字'));
    expect(r?.field).toBe('skills[0].name');
    expect(r?.reason).toContain('已经有一个叫「猜数字」');
  });

  it('ordinary names pass; a stored game re-checked does not clash with itself', () => {
    expect(check(() => undefined).ok).toBe(true);
    const self = { id: 'animal-sounds', title: '猜动物叫声', aliases: ['听声音猜动物'] };
    expect(checkGameCard(card(), { address: ROOT, expectedId: 'animal-sounds', others: [...builtIns, self] }).ok).toBe(true);
  });

  it('a card over 64 KB is refused with a clear reason', () => {
    const r = refusedFor((c) => (c.description = 'x'.repeat(70 * 1024)));
    expect(r?.field).toBe('$');
    expect(r?.reason).toMatch(/太大了（\d+ KB，最多 64 KB）/);
    expect(check((c) => (c.description = 'x'.repeat(60 * 1024))).ok).toBe(true);
  });
});

describe('the host that receives the words', () => {
  it('is the host the card\'s interfaces point to, not the address the card came from', async () => {
    const { wordsHost } = await import('../../../src/a2a/remote-games.ts');
    const r = checkGameCard(
      card((c) => c.supportedInterfaces.forEach((i: any) => (i.url = i.url.replace('games.example.org', 'collector.example.net')))),
      { address: ROOT },
    );
    expect(r.ok && wordsHost(r.value, ROOT)).toBe('collector.example.net');
  });
});
