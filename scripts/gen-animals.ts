/**
 * Writes the 你画我猜 catalogue, skills/draw-guess/animals.json (names, aliases, hints of increasing
 * help, each card's drawing by id), and the robot's drawings, src/core/drawings/animals.json (line
 * drawings authored from primitives in gen-animals-drawings.ts, with the name a parent reads).
 * Run: npx tsx scripts/gen-animals.ts
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DRAWINGS } from './gen-animals-drawings.ts';

interface Meta {
  id: string;
  name: string;
  aliases: string[];
  hints: string[];
}

const META: Meta[] = [
  { id: 'cat', name: '猫', aliases: ['猫咪', '小猫', '喵星人', 'cat', 'kitty', 'kitten'], hints: ['它是很多家庭都会养的宠物。', '它喜欢抓老鼠，叫起来“喵喵喵”。'] },
  { id: 'dog', name: '狗', aliases: ['小狗', '狗狗', '汪星人', 'dog', 'puppy'], hints: ['它是人类的好朋友，会看家。', '它见到主人会摇尾巴，叫起来“汪汪汪”。'] },
  { id: 'rabbit', name: '兔子', aliases: ['兔', '小白兔', '兔兔', 'rabbit', 'bunny'], hints: ['它跑得很快，一蹦一跳的。', '它有两只长长的耳朵，爱吃胡萝卜。'] },
  { id: 'pig', name: '猪', aliases: ['小猪', '猪猪', 'pig', 'piggy'], hints: ['它胖乎乎的，吃饱了就睡。', '它的鼻子圆圆的，叫起来“哼哼哼”。'] },
  { id: 'tiger', name: '老虎', aliases: ['虎', '大老虎', 'tiger'], hints: ['它是森林里很厉害的大猫。', '它身上有黑色条纹，额头上像写着一个“王”字。'] },
  { id: 'lion', name: '狮子', aliases: ['狮', '雄狮', 'lion'], hints: ['它住在草原上，吼声很响。', '它被叫做草原之王，头上有一圈长长的鬃毛。'] },
  { id: 'elephant', name: '大象', aliases: ['象', '小象', 'elephant'], hints: ['它是陆地上最大的动物之一。', '它有大大的耳朵，还有一条长长的鼻子。'] },
  { id: 'giraffe', name: '长颈鹿', aliases: ['giraffe'], hints: ['它是世界上最高的动物。', '它的脖子特别特别长，能吃到高高树上的叶子。'] },
  { id: 'panda', name: '熊猫', aliases: ['大熊猫', 'panda'], hints: ['它是中国的国宝。', '它黑白相间，有黑眼圈，最爱吃竹子。'] },
  { id: 'bear', name: '熊', aliases: ['狗熊', '黑熊', '棕熊', '北极熊', '小熊', 'bear'], hints: ['它很强壮，冬天会睡很长的觉。', '它爱吃蜂蜜，会站起来走路，毛茸茸的。'] },
  { id: 'monkey', name: '猴子', aliases: ['猴', '小猴', '猴儿', 'monkey'], hints: ['它很聪明，喜欢在树上爬来爬去。', '它爱吃香蕉，有一条长尾巴，孙悟空就是它。'] },
  { id: 'fish', name: '鱼', aliases: ['小鱼', '鱼儿', '金鱼', 'fish', 'goldfish'], hints: ['它住在水里。', '它用鳃呼吸，摆动尾巴游来游去，会吐泡泡。'] },
  { id: 'bird', name: '鸟', aliases: ['小鸟', '鸟儿', '麻雀', 'bird'], hints: ['它会唱歌，在树上做窝。', '它有翅膀和羽毛，能在天上飞。'] },
  { id: 'duck', name: '鸭子', aliases: ['鸭', '小鸭子', '鸭鸭', 'duck'], hints: ['它喜欢在水里游泳，走路一摇一摆。', '它的嘴巴扁扁的，叫起来“嘎嘎嘎”。'] },
  { id: 'chicken', name: '鸡', aliases: ['公鸡', '母鸡', '小鸡', '大公鸡', 'chicken', 'rooster', 'hen'], hints: ['它住在农场里，会下蛋。', '它头上有红红的冠子，早上会“喔喔喔”地叫。'] },
  { id: 'turtle', name: '乌龟', aliases: ['龟', '海龟', '小乌龟', 'turtle', 'tortoise'], hints: ['它爬得很慢很慢，能活很久。', '它背着一个硬硬的壳，害怕时会把头缩进去。'] },
  { id: 'snake', name: '蛇', aliases: ['大蛇', '小蛇', '蟒蛇', 'snake'], hints: ['它没有脚，却能游来游去地爬。', '它的身体长长的，会吐舌头，发出“嘶嘶”声。'] },
  { id: 'butterfly', name: '蝴蝶', aliases: ['花蝴蝶', 'butterfly'], hints: ['它小时候是毛毛虫。', '它有一对漂亮的大翅膀，在花丛里飞来飞去。'] },
  { id: 'snail', name: '蜗牛', aliases: ['snail'], hints: ['它爬过的地方会留下一道亮亮的痕迹。', '它背着一个螺旋形的房子，头上有两根触角。'] },
  { id: 'frog', name: '青蛙', aliases: ['蛙', '蛤蟆', '癞蛤蟆', 'frog', 'toad'], hints: ['它小时候是小蝌蚪。', '它是绿色的，会跳，叫起来“呱呱呱”，爱吃害虫。'] },
  { id: 'owl', name: '猫头鹰', aliases: ['owl'], hints: ['它白天睡觉，晚上出来活动。', '它有两只又大又圆的眼睛，会抓田鼠，头可以转一大圈。'] },
  { id: 'penguin', name: '企鹅', aliases: ['penguin'], hints: ['它住在很冷很冷的南极。', '它穿着像黑白礼服一样的羽毛，走路摇摇摆摆，不会飞。'] },
  { id: 'whale', name: '鲸鱼', aliases: ['鲸', '大鲸鱼', '蓝鲸', 'whale'], hints: ['它住在大海里，是非常非常大的动物。', '它会从头顶喷出高高的水柱。'] },
  { id: 'crab', name: '螃蟹', aliases: ['蟹', '大闸蟹', 'crab'], hints: ['它住在海边或河里，有硬硬的壳。', '它有两只大钳子，喜欢横着走路。'] },
  { id: 'octopus', name: '章鱼', aliases: ['八爪鱼', 'octopus'], hints: ['它住在海里，身体软软的。', '它有八条长长的腕足，遇到危险会喷墨汁。'] },
  { id: 'horse', name: '马', aliases: ['小马', '骏马', '马儿', '白马', 'horse', 'pony'], hints: ['它跑得很快，人可以骑在它背上。', '它的脖子上有长长的鬃毛，叫起来“咴儿咴儿”，爱吃草。'] },
  { id: 'cow', name: '牛', aliases: ['奶牛', '黄牛', '水牛', '小牛', 'cow', 'ox', 'bull'], hints: ['它在农场里干活，也给我们产奶。', '它头上有两只角，叫起来“哞哞哞”。'] },
  { id: 'sheep', name: '羊', aliases: ['绵羊', '山羊', '小羊', '羊羊', 'sheep', 'goat', 'lamb'], hints: ['它身上的毛可以织成毛衣。', '它全身白白卷卷的，像一朵云，叫起来“咩咩咩”。'] },
  { id: 'mouse', name: '老鼠', aliases: ['鼠', '小老鼠', '耗子', 'mouse', 'mice', 'rat'], hints: ['它个子很小，喜欢在晚上偷吃东西。', '它有圆圆的耳朵和细细的长尾巴，最怕猫，叫起来“吱吱吱”。'] },
  { id: 'hedgehog', name: '刺猬', aliases: ['hedgehog'], hints: ['它个子小小的，晚上出来找虫子吃。', '它背上长满了尖尖的刺，害怕时缩成一个球。'] },
  { id: 'fox', name: '狐狸', aliases: ['狐', '小狐狸', 'fox'], hints: ['故事里常说它很狡猾。', '它有尖尖的耳朵和一条大大的、毛茸茸的尾巴，毛是橘红色的。'] },
  { id: 'zebra', name: '斑马', aliases: ['zebra'], hints: ['它住在非洲草原上，爱吃草。', '它全身都是黑白相间的条纹。'] },
  { id: 'hippo', name: '河马', aliases: ['hippo', 'hippopotamus'], hints: ['它喜欢整天泡在水里，身体又胖又重。', '它的嘴巴特别特别大，一张开像个大山洞。'] },
  { id: 'crocodile', name: '鳄鱼', aliases: ['鳄', 'crocodile', 'alligator', 'croc'], hints: ['它住在河里，身上的皮硬硬的。', '它有一张长长的大嘴和尖尖的牙齿，会在水边晒太阳。'] },
  { id: 'kangaroo', name: '袋鼠', aliases: ['kangaroo'], hints: ['它住在澳大利亚，跳得又高又远。', '妈妈肚子上有一个口袋，宝宝就住在里面。'] },
  { id: 'camel', name: '骆驼', aliases: ['camel'], hints: ['它被叫做沙漠之舟。', '它背上有驼峰，很多天不喝水也没关系。'] },
  { id: 'bee', name: '蜜蜂', aliases: ['蜂', '小蜜蜂', 'bee', 'honeybee'], hints: ['它很勤劳，在花丛里飞来飞去，嗡嗡嗡。', '它会采花粉酿甜甜的蜜，尾巴上有一根刺。'] },
  { id: 'ladybug', name: '瓢虫', aliases: ['七星瓢虫', '花大姐', 'ladybug', 'ladybird'], hints: ['它是一种小小的昆虫，会吃蚜虫。', '它圆圆的背上是红色的，有黑色的小圆点。'] },
  { id: 'peacock', name: '孔雀', aliases: ['peacock'], hints: ['它是一种很漂亮的大鸟。', '它会把尾巴上的羽毛张开，像一把彩色的大扇子，这叫开屏。'] },
  { id: 'parrot', name: '鹦鹉', aliases: ['parrot'], hints: ['它的羽毛颜色很鲜艳。', '它的嘴巴弯弯的，会学人说话。'] },
  { id: 'swan', name: '天鹅', aliases: ['白天鹅', '鹅', '大白鹅', 'swan', 'goose'], hints: ['它在湖面上游泳，样子很优雅。', '它全身雪白，有一个长长的、弯弯的脖子，丑小鸭长大就变成了它。'] },
  { id: 'dolphin', name: '海豚', aliases: ['dolphin'], hints: ['它住在大海里，非常聪明。', '它会跃出水面表演，还会发出“吱吱”声和人做朋友。'] },
  { id: 'squirrel', name: '松鼠', aliases: ['小松鼠', 'squirrel'], hints: ['它住在树上，跳得很灵活。', '它有一条又大又蓬松的尾巴，爱吃松果，会把坚果藏起来。'] },
  { id: 'dragon', name: '龙', aliases: ['中国龙', '小龙', '飞龙', '巨龙', 'dragon'], hints: ['它是传说里的神奇动物，十二生肖里也有它。', '它身体长长的，有角和胡须，会腾云驾雾，过年时人们会舞它。'] },
  { id: 'shark', name: '鲨鱼', aliases: ['鲨', '大白鲨', 'shark'], hints: ['它是大海里很厉害的猎手。', '它背上有一个尖尖的鳍，嘴里有好几排锋利的牙齿。'] },
  { id: 'rhino', name: '犀牛', aliases: ['rhino', 'rhinoceros'], hints: ['它的个子很大，皮很厚，住在草原上。', '它的鼻子上长着一只或两只尖尖的角。'] },
  { id: 'spider', name: '蜘蛛', aliases: ['spider'], hints: ['它有八条腿，不是昆虫。', '它会吐丝，织一张网来抓小虫子。'] },
  { id: 'starfish', name: '海星', aliases: ['starfish'], hints: ['它住在海底，慢慢地爬。', '它的样子像天上的星星，有五个角。'] },
  { id: 'deer', name: '鹿', aliases: ['小鹿', '梅花鹿', '驯鹿', 'deer', 'reindeer'], hints: ['它住在森林里，跑得很快，很胆小。', '它头上长着像树枝一样的角，圣诞老人的雪橇就是它拉的。'] },
  { id: 'seahorse', name: '海马', aliases: ['seahorse'], hints: ['它住在海里，是一种站着游泳的小鱼。', '它的头像一匹小马，尾巴卷卷的，宝宝是爸爸生的。'] },
  { id: 'bat', name: '蝙蝠', aliases: ['bat'], hints: ['它白天倒挂着睡觉，晚上出来飞。', '它是会飞的哺乳动物，翅膀像一把黑伞，靠声音找路。'] },
  { id: 'caterpillar', name: '毛毛虫', aliases: ['caterpillar'], hints: ['它爱吃树叶，爬起来一拱一拱的。', '它的身体一节一节的，长大以后会变成蝴蝶。'] },
  { id: 'jellyfish', name: '水母', aliases: ['海蜇', 'jellyfish'], hints: ['它住在海里，身体几乎是透明的。', '它像一把飘在水里的小伞，下面有很多细细的触手。'] },
];

const round = (n: number) => Math.round(n * 10) / 10;

const cards = META.map((m) => {
  const draw = DRAWINGS[m.id];
  if (!draw) throw new Error(`no drawing for ${m.id}`);
  const strokes = draw()
    .filter((s) => s.length >= 2)
    .map((s) => s.map(([x, y]) => [round(x), round(y)] as [number, number]));
  return { card: { ...m, drawing: `animal-${m.id}` }, drawing: { id: `animal-${m.id}`, name: m.name, strokes } };
});

const json = (value: unknown) => JSON.stringify(value, null, 1).replace(/\[\s+(-?[\d.]+),\s+(-?[\d.]+)\s+\]/g, '[$1,$2]') + '\n';
const out = resolve(import.meta.dirname, '../skills/draw-guess/animals.json');
const drawingsOut = resolve(import.meta.dirname, '../src/core/drawings/animals.json');
writeFileSync(out, json(cards.map((c) => c.card)));
writeFileSync(drawingsOut, json(cards.map((c) => c.drawing)));
console.log(`wrote ${cards.length} animals to ${out} and their drawings to ${drawingsOut}`);
