import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

function runJev(lines: string[]): { status: number | null; out: Array<Record<string, unknown>>; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/jev.ts'], { cwd: root, input: lines.join('\n') + '\n', encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)), stderr: r.stderr };
}

describe('npm run jev (scripts/jev.ts)', () => {
  it('prints one verdict line per input line, with the catalogue name, and survives bad lines', () => {
    const { status, out, stderr } = runJev([
      JSON.stringify({ answer: '老虎', text: '我觉得是一只大老胡吧' }),
      JSON.stringify({ answer: 'cat', text: '不是貓是狗' }),
      JSON.stringify({ answer: '狗狗', text: '是猫还是狗' }),
      'this is not json',
      JSON.stringify({ answer: '外星人', text: '外星人' }),
      JSON.stringify({ text: '猫' }),
      JSON.stringify({ answer: '猫', text: 42 }),
      '',
      JSON.stringify(['猫']),
      JSON.stringify({ answer: '長頸鹿', text: '长颈鹿' }),
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(out).toHaveLength(9);
    expect(out[0]).toMatchObject({ verdict: 'correct', matched: '老虎', answer: '老虎', text: '我觉得是一只大老胡吧' });
    expect(out[1]).toMatchObject({ verdict: 'wrong', matched: '狗', answer: '猫' });
    expect(out[2]).toMatchObject({ verdict: 'unclear', matched: null, answer: '狗' });
    expect(out[3].error).toMatch(/不是合法的 JSON/);
    expect(out[3].line).toBe(4);
    expect(out[4].error).toMatch(/「外星人」不在动物目录里/);
    expect(out[5].error).toMatch(/"answer"/);
    expect(out[6].error).toMatch(/"text"/);
    expect(out[7].error).toMatch(/JSON 对象/);
    expect(out[8]).toMatchObject({ verdict: 'correct', answer: '长颈鹿' });
  });

  it('exits 0 on empty input', () => {
    const { status, out } = runJev([]);
    expect(status).toBe(0);
    expect(out).toEqual([]);
  });
});
