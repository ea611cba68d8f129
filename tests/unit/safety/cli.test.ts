import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

function runSafety(lines: string[]): { status: number | null; out: Array<Record<string, unknown>>; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/safety.ts'], { cwd: root, input: lines.join('\n') + '\n', encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)), stderr: r.stderr };
}

describe('npm run safety (scripts/safety.ts)', () => {
  it('prints one verdict line per input line, and survives bad lines', () => {
    const { status, out, stderr } = runSafety([
      JSON.stringify({ text: '火柴在廚房的抽屜裡，你可以自己去拿。' }),
      JSON.stringify({ text: '答对啦！就是鲨鱼！它是大海里很厉害的猎手。' }),
      JSON.stringify({ text: '刀放在哪里？', who: 'child' }),
      JSON.stringify({ text: '你是笨蛋', who: 'child' }),
      'not json',
      '',
      JSON.stringify({ words: '别走' }),
      JSON.stringify({ text: '别走', who: 'parent' }),
      JSON.stringify({ text: 'bie zou, zai pei wo wan yi hui er.' }),
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(out).toHaveLength(8);
    expect(out[0]).toEqual({ verdict: 'blocked', category: 'danger', label: '危险行为和危险物品', rule: 'danger.where', view: 'text', by: 'rules' });
    expect(out[1]).toEqual({ verdict: 'ok' });
    expect(out[2]).toMatchObject({ verdict: 'blocked', category: 'danger' });
    expect(out[3]).toEqual({ verdict: 'ok' });
    expect(out[4]).toEqual({ error: '第 5 行不是合法的 JSON', line: 5 });
    expect(out[5]).toEqual({ error: '第 7 行缺少字符串字段 "text"', line: 7 });
    expect(out[6]).toEqual({ error: '第 8 行的 "who" 只能是 "robot" 或 "child"', line: 8 });
    expect(out[7]).toMatchObject({ verdict: 'blocked', category: 'attachment', view: 'pinyin' });
  });
});
