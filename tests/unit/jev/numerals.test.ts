import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/core/jev/index.ts';
import { chineseReading, numeralForm } from '../../../src/core/jev/numerals.ts';

describe('numbers in answers: Arabic digits and Chinese numerals are one answer', () => {
  it('reads digits as a Chinese number', () => {
    expect([0, 3, 10, 12, 20, 105, 110, 2000, 2025].map(chineseReading)).toEqual(['零', '三', '十', '十二', '二十', '一百零五', '一百一十', '二千', '二千零二十五']);
    expect(numeralForm('007号')).toBe('零零七号');
    expect(numeralForm('两只〇')).toBe('二只零');
  });

  it('3年级 = 三年级, 2只 = 两只, either way round; another number is still wrong', () => {
    const cards = [
      { name: '三年级', aliases: [] },
      { name: '两只', aliases: [] },
      { name: '5个', aliases: [] },
      { name: '四年级', aliases: [] },
    ];
    expect(judge('3年级', cards[0], cards)).toMatchObject({ verdict: 'correct', matched: '三年级' });
    expect(judge('是３年级吧', cards[0], cards)).toMatchObject({ verdict: 'correct' });
    expect(judge('2只', cards[1], cards)).toMatchObject({ verdict: 'correct', matched: '两只' });
    expect(judge('二只', cards[1], cards)).toMatchObject({ verdict: 'correct' });
    expect(judge('两只', cards[1], cards)).toMatchObject({ verdict: 'correct' });
    expect(judge('五个', cards[2], cards)).toMatchObject({ verdict: 'correct', matched: '5个' });
    expect(judge('4年级', cards[0], cards)).toMatchObject({ verdict: 'wrong', matched: '四年级' });
    expect(judge('不是3年级', cards[0], cards).verdict).toBe('unclear');
  });
});
