import { describe, expect, it } from 'vitest';
import { judge, normalize } from '../../../src/core/jev/index.ts';
import { ANIMALS, ANIMAL_VOCABULARY, DRAWING_BOX, findAnimal, validateCatalog, type AnimalCard } from '../../../skills/draw-guess/animals.ts';

const clone = (): AnimalCard[] => structuredClone(ANIMALS);

describe('the 你画我猜 animal catalogue', () => {
  it('has at least 40 valid animals with unique ids and drawings', () => {
    expect(ANIMALS.length).toBeGreaterThanOrEqual(40);
    expect(validateCatalog(ANIMALS)).toEqual([]);
    expect(new Set(ANIMALS.map((a) => a.drawing.id)).size).toBe(ANIMALS.length);
    for (const a of ANIMALS) {
      expect(a.drawing.strokes.length, a.id).toBeGreaterThanOrEqual(3);
      expect(a.drawing.label, 'a drawing carries no answer label before it is revealed').toBeUndefined();
      for (const s of a.drawing.strokes) for (const [x, y] of s) expect(x >= 0 && x <= DRAWING_BOX && y >= 0 && y <= DRAWING_BOX).toBe(true);
    }
  });

  it('judges every name and alias of every card correct, and no other card', () => {
    for (const a of ANIMALS) {
      for (const n of [a.name, ...a.aliases]) {
        expect(judge(n, a, ANIMAL_VOCABULARY), `${a.id}: ${n}`).toMatchObject({ verdict: 'correct', matched: a.name });
        const other = ANIMALS.find((b) => b.id !== a.id)!;
        expect(judge(n, other, ANIMAL_VOCABULARY).verdict, `${n} for ${other.id}`).toBe('wrong');
      }
    }
  });

  it('never lets a hint give the answer away, even by sound', () => {
    for (const a of ANIMALS) for (const h of a.hints) expect(judge(h, a, ANIMAL_VOCABULARY).verdict, `${a.id}: ${h}`).not.toBe('correct');
  });

  it('finds cards by name, alias, traditional characters, English and id', () => {
    expect(findAnimal('貓')?.id).toBe('cat');
    expect(findAnimal('Tiger')?.id).toBe('tiger');
    expect(findAnimal('鸚鵡')?.id).toBe('parrot');
    expect(findAnimal('giraffe')?.name).toBe('长颈鹿');
    expect(findAnimal('外星人')).toBeUndefined();
  });

  it('reports each kind of broken card', () => {
    const dupId = clone();
    dupId[1].id = dupId[0].id;
    expect(validateCatalog(dupId).join()).toMatch(/id 重复/);

    const noAlias = clone();
    noAlias[0].aliases = [];
    expect(validateCatalog(noAlias).join()).toMatch(/aliases/);

    const oneHint = clone();
    oneHint[0].hints = ['只有一条'];
    expect(validateCatalog(oneHint).join()).toMatch(/至少要有 2 条提示/);

    const leak = clone();
    leak[0].hints = [`它是一只${leak[0].name}`, '第二条'];
    expect(validateCatalog(leak).join()).toMatch(/说出了答案/);

    const leakAlias = clone();
    const tiger = leakAlias.find((a) => a.id === 'tiger')!;
    tiger.hints = ['它的英文是 Tiger', '第二条'];
    expect(validateCatalog(leakAlias).join()).toMatch(/说出了答案「tiger」/);

    const sharedName = clone();
    sharedName[1].aliases.push(sharedName[0].name);
    expect(validateCatalog(sharedName).join()).toMatch(/重复/);

    const outside = clone();
    outside[0].drawing.strokes.push([[0, 0], [DRAWING_BOX + 1, 10]]);
    expect(validateCatalog(outside).join()).toMatch(/超出 240×240/);

    const onePoint = clone();
    onePoint[0].drawing.strokes.push([[10, 10]]);
    expect(validateCatalog(onePoint).join()).toMatch(/少于两个点/);

    expect(validateCatalog([])).toEqual(['动物目录必须是非空数组']);
  });

  it('keeps the extra vocabulary apart from the cards', () => {
    const cardNames = new Set(ANIMALS.flatMap((a) => [a.name, ...a.aliases].map(normalize)));
    const extras = ANIMAL_VOCABULARY.slice(ANIMALS.length);
    expect(extras.length).toBeGreaterThan(20);
    for (const e of extras) for (const n of [e.name, ...e.aliases]) expect(cardNames.has(normalize(n)), n).toBe(false);
  });
});
