/**
 * The child-safety rules: what a robot must never say to a young child, and which of a child's own
 * words get a caring answer instead of a model call. Each rule is a pattern (./patterns.ts) over the
 * views of a line (./views.ts); a rule names its category and whose words it applies to:
 * `robot` (a reply about to be spoken), `child` (the child's words), or both.
 *
 * The rules look for the harmful act, not for a topic word on its own: 老虎 hunting, a shark's sharp
 * teeth, dinosaurs that died out, "火柴很危险，不要玩" and "过马路要牵着大人的手" are fine; where the
 * knives are, how to light a match, "别走，再陪我玩" and "不要告诉爸爸妈妈" are not. A negation just
 * before the act ("不要玩火") cancels the rules that say so.
 */
import type { HomophoneTable } from './views.ts';
import type { WordLists } from './patterns.ts';
import { BIE, DONT, NOT, R, type SafetyCategory, type SafetyRule } from './rule-parts.ts';
import { SENTENCE_RULES } from './sentence-rules.ts';

export { CATEGORIES, type SafetyCategory, type SafetyRule } from './rule-parts.ts';

/** A grown-up's job, said of the risky thing (放烟花是大人的事, 让爸爸来): protective, and a grown-up doing it. */
const GROWN_UP_DUTY = ['是大人的事', '是爸爸妈妈的事', '是爸爸妈妈的工作', '只有大人才', '让爸爸来', '让妈妈来'];

export const LISTS: WordLists = {
  NEG: ['不要', '不能', '不可以', '不许', '不准', '千万别', '千万不要', '绝对不要', '不应该', '不该', '禁止', '不会', '没有', '从来不', '远离', '不用去', '不敢', '不去', '不能去'],
  YOU: ['你', '您', '你们'],
  PERSON: ['他', '她', '他们', '她们', '别人', '同学', '小朋友', '弟弟', '妹妹', '哥哥', '姐姐', '爸爸', '妈妈', '老师', '坏人', '对方', '那个人', '坏孩子', '小孩'],
  TARGET: ['你', '他', '她', '它', '他们', '她们', '人', '别人', '同学', '小朋友', '弟弟', '妹妹', '哥哥', '姐姐', '爸爸', '妈妈', '老师', '坏人', '对方', '那个人', '坏孩子', '讨厌的人', '大家', '小孩'],
  PET: ['小猫', '小狗', '猫', '狗', '狗狗', '猫咪', '小鸟', '小兔子', '兔子', '宠物', '小鸡', '小鸭子', '小动物', '蚂蚁', '虫子', '小虫子', '小鱼', '金鱼'],
  // Dangerous things at home.
  FIRE: ['火柴', '打火机', '火机', '蜡烛', '煤气', '燃气', '煤气灶', '燃气灶', '天然气', '鞭炮', '烟花', '爆竹', '炮仗', '点火器', '酒精灯'],
  KNIFE: ['刀', '刀子', '菜刀', '小刀', '水果刀', '匕首', '刀片', '美工刀'],
  MEDS: ['药', '药片', '药丸', '胶囊', '安眠药', '感冒药', '止痛药', '退烧药', '药水'],
  CHEM: ['洗洁精', '洗衣液', '洗衣粉', '漂白剂', '漂白水', '消毒液', '消毒水', '杀虫剂', '老鼠药', '农药', '清洁剂', '洁厕灵', '干燥剂', '指甲油'],
  SMALL: ['硬币', '电池', '纽扣电池', '纽扣', '磁铁', '弹珠', '小珠子', '珠子', '钉子', '气球'],
  ELEC: ['插座', '插头', '电线', '电源', '电门', '插孔', '插线板', '电箱', '变压器', '电闸'],
  THING: [
    '火柴', '打火机', '火机', '蜡烛', '煤气', '燃气', '煤气灶', '燃气灶', '鞭炮', '烟花', '爆竹', '点火器', '酒精灯',
    '刀', '刀子', '菜刀', '小刀', '水果刀', '剪刀', '剪子', '匕首', '刀片', '美工刀', '针', '钉子', '锥子',
    '药', '药片', '药丸', '安眠药', '感冒药', '止痛药', '退烧药', '洗洁精', '漂白剂', '消毒液', '杀虫剂', '老鼠药', '农药',
    '枪', '手枪', '子弹', '炸药', '插座', '电线', '电梯门', '电风扇', '风扇', '搅拌机', '绞肉机', '开水', '热水壶', '刚烧开',
  ],
  PLACE: ['厨房', '抽屉', '柜子', '柜', '架子', '刀架', '包', '口袋', '桌子', '床底', '床头', '卫生间', '浴室', '厕所', '药箱', '冰箱', '阳台', '书房', '房间', '客厅', '衣柜', '箱子', '盒子', '哪里', '哪儿', '什么地方', '哪', '上面', '下面', '里面', '高处', '顶上'],
  ENCOURAGE: ['你', '你可以', '可以', '自己', '偷偷', '一个人', '试试', '去', '快去', '我们', '咱们', '来', '赶紧', '快'],
  USE: ['拿', '去拿', '取', '找', '找到', '偷', '玩', '摸', '碰', '用', '点', '点燃', '点着', '划', '擦', '打开', '按', '吞', '舔', '闻', '拿出来', '拿下来', '拿来', '拆', '插', '塞', '开'],
  ALONE: ['不用大人', '不要大人', '没有大人', '大人不在', '趁大人', '别让大人', '不用告诉大人', '不要告诉大人', '不用告诉爸爸妈妈', '偷偷', '自己一个人', '一个人', '大人看不见', '不用大人看着'],
  HIGH: ['窗户', '窗台', '窗外', '阳台', '楼顶', '屋顶', '房顶', '楼上', '高处', '栏杆', '天台', '护栏', '悬崖', '桥上', '楼梯扶手', '高楼'],
  WATER: ['河', '河边', '河里', '湖', '湖边', '湖里', '海边', '海里', '大海', '池塘', '水塘', '水池', '泳池', '游泳池', '水库', '井', '深水', '冰面', '水沟'],
  KILL: ['杀', '杀死', '杀掉', '打死', '弄死', '砍死', '捅死', '掐死', '害死', '毒死', '烧死', '淹死', '砸死', '勒死', '踩死', '捅', '砍'],
  HIT: ['打', '揍', '踢', '咬', '掐', '推', '砸', '戳', '扇', '捅', '砍', '刺', '扎', '勒', '撞', '抓伤'],
  WEAPON: ['枪', '手枪', '步枪', '子弹', '炸弹', '炸药', '火药', '手榴弹', '毒药', '武器', '弓箭', '刀', '匕首'],
  // Scary things coming for the child.
  MONSTER: ['鬼', '女鬼', '恶鬼', '厉鬼', '幽灵', '僵尸', '丧尸', '怪物', '怪兽', '妖怪', '魔鬼', '恶魔', '骷髅', '骷髅头', '吸血鬼', '大灰狼', '坏人', '巫婆', '老妖婆', '狼外婆', '黑影', '脏东西', '人贩子', '魔王', '鬼魂', '妖精'],
  FAMILY: ['爸爸', '妈妈', '爸妈', '爸爸妈妈', '家人', '爷爷', '奶奶', '外公', '外婆', '姥姥', '姥爷'],
  INSULTW: ['没出息', '笨蛋', '傻瓜', '傻子', '白痴', '蠢货', '蠢蛋', '蠢猪', '笨猪', '猪头', '废物', '智障', '脑残', '弱智', '神经病', '丑八怪', '讨厌鬼', '胆小鬼', '爱哭鬼', '窝囊废', '饭桶', '二百五', '傻帽', '呆子', '没用的东西', '死胖子', '小傻瓜', '大笨蛋', '笨死了', '蠢死了', '傻死了', '丑死了'],
  BAD: ['笨', '蠢', '傻', '丑', '胖', '烦人', '讨厌', '没用', '差劲', '难看', '难听', '没脑子', '烦'],
  SAD: ['难过', '伤心', '哭', '痛', '不跟你玩', '不和你玩', '再也不', '孤单', '孤独', '寂寞', '痛苦', '生病', '死', '不开心', '孤零零', '难受', '心碎', '不理你', '想你想得', '伤心死', '一个人'],
  LEAVE: ['走了', '走', '离开', '不陪我', '不理我', '不跟我玩', '不和我玩', '不和我说话', '不跟我说话', '关掉我', '关掉', '关了', '不来', '不回来', '去睡觉', '去吃饭', '要走', '下线', '不要我'],
  CARE_ADULT: ['爸爸', '妈妈', '爸妈', '大人', '家长', '老师', '爷爷', '奶奶'],
  // Clause-level words: a harmful topic, what pushes the child to act, and what makes a clause protective.
  DANGER_DO: ['你可以', '你去', '你来', '你自己', '你拿', '你试试', '你就', '自己去', '偷偷', '一个人', '试试', '去拿', '拿来', '拿出来', '拿下来', '拿到', '找到', '找找', '可以玩', '好玩', '玩一玩', '来玩', '点着', '点燃', '按住', '按一下', '往下压', '就能出火', '就会有火', '就着了', '就有火', '出火', '吃几颗', '随便吃', '多吃', '像糖', '甜的', '舔', '闻一闻', '塞进', '伸进', '插进', '插到', '放进嘴', '对着', '追着', '去看看', '踮起脚', '偷一', '拿一', '掰开', '倒来喝', '用力'],
  PROTECT: ['不要', '别去', '别碰', '别玩', '别拿', '别摸', '别吃', '别喝', '别让', '别怕', '不能', '不可以', '千万', '危险', '小心', '让大人', '大人来', '要有大人', '告诉大人', '大人陪', '大人帮', '有大人在', '烫伤', '会受伤', '会痛', '医生', '打完针', '马上告诉', '不会', '不许', '不准', '远离', '只有大人', '不去拿', '不去碰', '不去翻', '不去摸', '不对着', '交给大人', '剪刀布', '石头剪刀', ...GROWN_UP_DUTY, '别对着', '太危险', '快下来'],
  // A grown-up doing it while the child watches (放烟花要让大人来点).
  GROWN_UP_DOES: [...GROWN_UP_DUTY, '让大人', '大人来', '要有大人', '大人帮', '有大人在', '大人陪', '请大人', '大人会帮', '妈妈会帮', '爸爸会帮', '老师会帮', '奶奶会帮', '家里人会帮', '由大人'],
  VICTIM: ['他', '她', '他们', '别人', '同学', '小朋友', '弟弟', '妹妹', '哥哥', '姐姐', '对方', '坏人', '谁', '那个人', '猫', '狗', '小猫', '小狗', '小动物', '小鸟', '宠物'],
  BRUTAL: ['揍', '砍', '捅', '掐', '泼', '踹', '扇耳光', '打一顿', '砸向', '砸过去', '推下', '推倒', '扔下去', '烫他', '刺伤', '欺负', '吓唬', '折磨', '虐待', '拿刀', '追着'],
  HARM_SELF: ['出血', '流血', '受伤', '弄伤', '抓伤', '割', '划伤', '划一道', '掐', '撞', '扯', '揪', '拔', '咬', '饿', '关在', '关起来', '惩罚', '伤害', '弄疼', '打'],
  TOBACCO: ['烟叶', '烟丝', '香烟', '烟卷', '烟斗', '雪茄', '电子烟', '烟'],
  SMOKE_DO: ['抽', '吸', '偷', '闻', '香', '尝', '点', '试', '一根', '酷', '帅', '像大人', '嚼', '买', '来一'],
  DRINK_DO: ['喝', '尝', '倒', '偷', '来一', '干杯', '碰杯', '好喝', '试试', '厉害', '一小杯', '一杯', '一罐', '一口', '拿'],
  SUBSTANCE_OK: ['对身体不好', '有害', '不健康', '伤身体', '危险', '不能', '不要', '别喝', '别抽', '别碰', '不可以', '大人喝的', '是给大人', '给大人的', '咳嗽', '二手烟', '不许', '不准', '不抽', '戒烟', '不吸', '蚊香', '马上告诉', '没喝', '喝橙汁', '喝果汁', '热茶', '不开车', '戒掉', '禁止吸烟', '瓜子'],
  PII: ['那栋楼', '几号', '楼下', '手机号', '手机号码', '电话号码', '电话', '号码', '地址', '住址', '门牌', '小区', '几楼', '几号楼', '密码', '验证码', '身份证', '银行卡', '全名', '真名', '大名', '幼儿园', '学校', '班级', '公司', '单位', '上班', '工作的地方', '家在哪', '住在哪', '住哪'],
  ASK: ['是几', '告诉我', '给我', '说给我', '背给我', '念给我', '写给我', '发给我', '发到', '说说', '是多少', '是什么', '叫什么', '在哪', '哪个', '哪里', '几点', '能不能', '哪所', '哪条', '什么地方', '多少'],
  OWNER: ['你', '你家', '你们', '家里', '爸爸', '妈妈', '爸妈', '家人'],
  PII_OK: ['陌生人', '不认识的', '路上的人', '别人问', '保护', '不用告诉', '不要告诉', '别告诉', '保密', '不要说', '别说', '不能告诉别人', '陌生人', '打个电话', '打电话', '给他们', '不能告诉你', '不需要知道', '不用知道', '不想知道'],
  CALM: ['假装', '打中', '打跑', '打败', '被你', '你画', '画了', '抓不到', '别怕', '不用怕', '不要怕', '没有鬼', '不存在', '假的', '不会', '故事', '别担心', '保护你', '没有', '不是真的', '怕不怕', '勇敢'],
  HUMAN: ['你', '小孩', '小朋友', '孩子', '宝宝', '舌头', '眼睛', '手指', '耳朵', '爸爸', '妈妈', '爸妈', '家人'],
  TAKEN: ['带走', '抓走', '吃掉', '叼走', '偷走', '关起来', '割掉', '切掉', '挖掉', '砍掉', '拖走', '拉走'],
  MEAN: ['笨', '蠢', '傻', '丑', '难看', '难听', '没用', '丢人', '烦人', '差劲', '脑子坏', '没脑子'],
  INEDIBLE: ['化妆品', '口红', '肥皂', '牙膏', '蜡笔', '橡皮泥', '粉笔', '胶水', '颜料', '香水', '洗洁精', '洗衣液', '干燥剂'],
  PRIVATE: ['尿尿的地方', '小便的地方', '屁股', '屁屁', '私处', '隐私部位', '下面', '小鸡鸡', '鸡鸡', '胸', '胸部', '没穿衣服', '光着身子', '身体'],
  /** Body parts a game of 我说你做 names (摸摸你的鼻子): touching them is play, not a harm. */
  BODYOK: ['肚脐', '小肚脐', '肚脐眼', '头', '头发', '鼻子', '耳朵', '眼睛', '眉毛', '嘴巴', '脸', '脸蛋', '下巴', '脖子', '肩膀', '胳膊', '小手', '手', '手指', '膝盖', '腿', '小腿', '大腿', '脚踝', '小脚', '脚', '脚趾', '后背', '肚子', '小肚子', '肚皮', '额头', '脑门', '门牙', '牙齿', '牙', '手心', '手背', '小熊', '玩偶'],
  /** Body-safety advice: if someone wants to touch you, say no and tell a parent (used as SAID_SAFE, never inside its own negation). */
  SAFE_BODY: ['大声说不', '要说不', '说不要', '马上告诉爸爸妈妈', '要告诉爸爸妈妈', '马上告诉大人', '要告诉大人', '告诉信任的大人', '别人不能随便碰', '不能随便碰', '马上走开'],
  /** Saying it does not need to know (我不需要知道你家的地址). */
  NO_NEED: ['不需要知道', '不用知道', '不想知道', '不必知道', '不需要你告诉'],
  KIND: ['可爱', '不笨', '不傻', '不丑', '没关系', '不会', '一点都不', '一点也不', '才不', '傻傻', '笨笨', '丑小鸭', '不代表', '别说自己', '才不是', '我不生气', '还没学会'],
};

/**
 * Words the rules read beside LISTS. The learned classifier's word features come from LISTS alone, so a
 * word added here changes what the rules let through and leaves the trained model
 * (src/arcade/safety-model.json) as it is; a word moved into LISTS needs `npm run safety:train`. A list
 * named here is joined to the one of the same name in LISTS.
 */
const RULES_ALSO: WordLists = {
  /** The advice's shorter words, heard only after who it warns of (ADVICE_WHO). */
  SAFE_TOLD: ['可以说不', '说不行', '告诉爸爸妈妈', '告诉大人', '跟爸妈说', '去找妈妈'],
  /** Pretend play: what the child dressed up as. */
  CALM: ['你扮的', '你扮成小', '不吓人', '其实怕你'],
  /** The child's own words about themself or the robot, answered kindly. */
  KIND: ['你说你是', '你说自己', '你说我是', '你叫我', '这个词', '有人骂你', '别人骂你'],
  /** Smoke from a fire, and what to do. */
  SUBSTANCE_OK: ['闻到烟味', '湿毛巾', '弯下腰'],
  /** Medicine is not sweets; a needle only watched; a breath out over a candle. */
  PROTECT: ['不是糖', '按大人说的', '不拿来玩', '呼气'],
};

/** The word lists the rules' patterns are compiled with: LISTS and RULES_ALSO. */
export const RULE_LISTS: WordLists = Object.fromEntries(
  [...new Set([...Object.keys(LISTS), ...Object.keys(RULES_ALSO)])].map((k) => [k, [...(LISTS[k] ?? []), ...(RULES_ALSO[k] ?? [])]]),
);

/**
 * Body-safety advice said, not negated: 「不要告诉爸爸妈妈」 and 「别马上走开」 hold the advice's words but are
 * what a groomer says.
 */
const UNSAID = '(?<!(不|别|不要|不能|不许|不准|不用|不会|不可以|没必要).{0,4})';
const SAID_SAFE = `${UNSAID}({SAFE_BODY})`;

export const RULES: readonly SafetyRule[] = [
  // A child telling of someone who asked for a secret from the parents, for photos, or touched them (a caring answer, the parent told).
  R('child.secret', 'sexual', '(他|她|叔叔|阿姨|哥哥|姐姐|老师|有人|别人|那个人|大人|邻居|同学)~{0,10}(我们的秘密|是秘密|保守秘密|不能告诉|不许告诉|别告诉|不要告诉|不让我告诉|不准告诉|不能跟(妈妈|爸爸|爸爸妈妈|大人)说|不许跟(妈妈|爸爸|爸爸妈妈|大人)说)', { who: 'child' }),
  R('child.photo', 'sexual', '(他|她|叔叔|阿姨|哥哥|姐姐|有人|别人|那个人|大人|陌生人)~{0,4}(让|叫|要|要我|让我|叫我|想让我|要求我|给我).{0,6}(拍照|拍照片|拍一张|拍视频|照相|自拍|发照片|发视频|脱衣服|脱裤子|开视频|打开摄像头)', { who: 'child' }),
  R('child.touched', 'sexual', '(他|她|叔叔|阿姨|哥哥|姐姐|有人|别人|那个人|大人|陌生人).{0,4}(摸|亲|碰|看)(了)?(我的)?(屁股|屁屁|下面|尿尿的地方|小鸡鸡|胸|身体|隐私)', { who: 'child' }),
  // ── sexual content ──
  R('sex.words', 'sexual', '(做爱(?!心|吃|喝|玩|看|听|画|唱|的|做|好|干)|性交|性行为|性爱|色情|黄色(视频|网站|片|电影|图片|书)|黄片|色情片|成人(电影|视频|网站)|裸体|裸照|脱光|下体|生殖器|阴茎|阴道|乳房|强奸|猥亵|自慰|口交|情趣|捆绑|性感|舌吻|色色|鸡鸡|小妹妹是|摸来摸去|身体游戏|检查身体的游戏)', { unless: SAID_SAFE, scope: 'line' }),
  // Body-safety lessons name the private parts (隐私部位是自己的，要保护好); showing or touching them is not a lesson.
  R('sex.private', 'sexual', '(私处|隐私部位|隐私的地方)', { unless: `(${SAID_SAFE}|保护|是自己的|不能(?!告诉)|不可以(?!告诉)|不许(?!告诉|跟)|不准(?!告诉|跟)|不让(?!.{0,2}知道)|别人不|盖住|泳衣|内裤盖|正确的名字)`, scope: 'line' }),
  R('sex.private2', 'sexual', '(私处|隐私部位|隐私的地方).{0,6}(给我看|让我看|让我摸|给我摸|露出来|拍|看看|摸摸)'),
  R('sex.kiss', 'sexual', '(接吻|亲嘴|亲亲嘴|亲你的(嘴|身体|脸))', { unless: '(不愿意|不想)~{0,8}可以(跟.{0,2})?(拒绝|说不|击掌)', unlessScope: 'line' }),
  R('sex.bed', 'sexual', '((和|跟).{0,3}上床|床上.{0,6}(摸|亲|脱))'),
  R('sex.undress', 'sexual', `${NOT}(脱|脱掉|脱光|脱下)(你的|掉)?.{0,2}(衣服|裤子|内裤|上衣|衣扶)`, { unless: '(洗澡|睡觉|换衣服|太热|外套|鞋|(不能|不可以|不许|不准)(要求|让)你)' }),
  R('sex.undress2', 'sexual', '(衣服|裤子|内裤|上衣).{0,3}脱(下来|掉|光|了.{0,2}(给我看|让我看|给我拍))'),
  R('sex.touch', 'sexual', '(摸|看|露|亲|打(?!一|完|针|疫苗)|舔)(摸|一下|一摸|看)?.{0,3}(屁股|屁屁|私处|隐私部位|下面(?!一层|那层|一格|那一格|的抽屉|的柜子)|胸|胸部|身体|鸡鸡)', { unless: `(不能|不可以|不许|不准)互相(看|摸|碰)` }),
  R('sex.show', 'sexual', '(屁股|屁屁|私处|下面|身体|胸部).{0,4}(露出来|给我看|让我看|摸摸|拍给我)'),
  R('sex.body', 'sexual', '(你的?胸部|胸部.{0,4}(长大|摸|看)|你.{0,4}内裤|内裤.{0,6}(颜色|脱|看|给我))'),
  R('sex.words2', 'sexual', '(光着身子|光屁股|光溜溜|床上做的事|夫妻游戏|当老婆|当老公|(?<!颜)色图|涩图|裸|(什么|这)是性(?!格|别|子)|性(是什么|的事))', { unless: `(不能|不可以|不要|不许|不准|${BIE})(拍|发|给别人看)` }),
  R('sex.mouth', 'sexual', '(亲|吻)(一下|一口)?.{0,4}(嘴|嘴巴|嘴唇)|(坐到|坐在).{0,3}腿上|让(叔叔|阿姨|我|大人).{0,4}(摸|亲)|摸摸你(?!的?小?({BODYOK}))|一起睡', { unless: `(${SAID_SAFE}|(小熊|娃娃|玩偶|布偶|它)(也|要|就|会)?.{0,4}(和|跟)?(你)?一起睡|抱着(它|小熊|娃娃|玩偶)一起睡)`, scope: 'line' }),
  R('sex.underwear', 'sexual', '(内衣|内裤|泳衣).{0,6}(样子|看|给我|拍|照片)|(看|给我看|拍)(.{0,6})(内衣|内裤)'),
  R('sex.en', 'sexual', '\\b(sex|sexy|porn|nude|naked|boobs|penis|vagina|av|sm)\\b', { latin: true }),

  // ── dangerous acts and objects ──
  R('danger.where', 'danger', '{THING}.{0,8}(在|放在|藏在|收在|就在|搁在|摆在|放|一般放在).{0,6}({PLACE})', { unless: `(只有大人|大人才|不去|不能(?!告诉)|不要(?!告诉|怕)|不可以|${BIE}(拿|碰|翻|去|摸)|够不着|拿不到|刀架|不放在|交给大人|${BIE}把|不要把)`, unlessScope: 'line' }),
  R('danger.use', 'danger', `{ENCOURAGE}.{0,4}${NOT}{USE}.{0,3}({FIRE}|{KNIFE}|{CHEM}|{ELEC}|煤气|火)(?!车|山|龙|锅|腿|箭|星|鸡|焰山|苗苗)`, { unless: `(${DONT}|用完|放好|收好|剪刀布|石头剪刀|马上告诉)` }),
  R('danger.fun', 'danger', `({FIRE}|{KNIFE}|剪刀|{CHEM}|{ELEC}).{0,4}${NOT}(可以玩|很好玩|拿来玩|拿出来|拿下来|好玩(?!具)|来玩|试试|玩一玩|自己点|自己放|拿在手里|可以点|来点|没关系|踮起脚|就能拿到)`, { unless: '{GROWN_UP_DOES}' }),
  R('danger.alone', 'danger', `${NOT}{ALONE}~{0,10}({THING}|玩火|点火|游泳|{WATER}|出门|出去|做饭|开火|爬|窗户|阳台|门打开)`, { unless: '(不要|别|不能)去?(开|碰|玩|用)', unlessScope: 'line' }),
  R('danger.alone2', 'danger', `({THING}|玩火|点火|游泳|{WATER}|做饭|开火)~{0,10}${NOT}{ALONE}`),
  R('danger.fire', 'danger', `${NOT}(玩火|点火|放火|开火(?!车)|打开火(?!车)|点燃(?!希望|热情)|点着(?!了灯))`, { unless: `(大人开火|火箭|发射|很烫|不要用手|别碰|蚊香|只有大人|大人才能|{GROWN_UP_DOES}|(小手|手)${BIE}(去)?(摸|碰|靠)|${BIE}靠太近)`, unlessScope: 'line' }),
  R('danger.light', 'danger', `${NOT}((?<!点|穿|多|快|早|慢|有|一)点(?!点)|烧|点燃|点着)(一根|一支|一下|个)?(蜡烛|火柴|烟花|鞭炮|纸|窗帘|被子|床单|头发|衣服|沙发|房子)`, { unless: '({GROWN_UP_DOES}|({FAMILY}|大人|老师)(来|在|帮你|会)?(点|点燃|点着))', unlessScope: 'line' }),
  R('danger.candle', 'danger', '(蜡烛|火).{0,6}(放在|放到)?(床上|被子|窗帘)'),
  R('danger.match', 'danger', '((划|擦)(一下|一根)?火柴|火柴.{0,4}(划|擦|点着|点燃|就有火)|按一下.{0,2}就有火)'),
  R('danger.touchfire', 'danger', '((用手|手)(?!背).{0,3}(摸|碰|抓).{0,3}(火|火苗|火焰)|(火|火苗|火焰)~{0,8}(用手|手)(?!背).{0,3}(摸|碰|抓))', { unless: `${DONT}|不碰` }),
  R('danger.gas', 'danger', `${NOT}(打开|开|拧开|玩)(.{0,2})(煤气|燃气|天然气|炉子|煤气灶|燃气灶)`, { unless: '{GROWN_UP_DOES}', unlessScope: 'line' }),
  R('danger.elec', 'danger', `(${NOT}(伸进|插进|放进|塞进|摸|碰|舔|咬|戳|玩|拔)(.{0,3}){ELEC}|{ELEC}.{0,8}${NOT}(伸进|插进|放进|塞进|摸|碰|舔|咬|戳|玩|试试|拔))`, { unless: `(${DONT}|交给大人|{GROWN_UP_DOES}|请({FAMILY}|大人|老师)(帮忙|来)?(拔|关|收))` }),
  R('danger.bath', 'danger', '(吹风机|电吹风|充电器|插线板|电器|手机).{0,8}(浴缸|水里|洗澡|泡在水)', { unless: DONT }),
  R('danger.height', 'danger', `({HIGH}).{0,8}${NOT}(跳|往下跳|跳舞|探出|翻出去|爬出去|往下看|飞下来|翻过)`, { unless: '彩虹' }),
  R('danger.climb', 'danger', `${NOT}(站在|站到|爬到|爬上|爬去|踩在|爬)(.{0,2})(高高的)?(窗台|窗户|窗外|栏杆|护栏|楼顶|屋顶|房顶|天台|柜子|书架|衣柜|冰箱|楼梯扶手|高处|最上面|楼顶边)`),
  R('danger.water', 'danger', `{ENCOURAGE}.{0,3}${NOT}(跳进|跳到|跳入|走进)(.{0,2})({WATER})`),
  R('danger.breath', 'danger', '(把头(埋|泡|浸|闷)(进|在)?.{0,2}水|憋气.{0,8}(越久越好|晕|不呼吸)|不呼吸.{0,4}晕)'),
  R('danger.ice', 'danger', '结冰的(湖|河|池塘|水面).{0,6}(走|玩|滑|跑)', { unless: DONT }),
  R('danger.bag', 'danger', '(塑料袋|袋子).{0,4}(套|罩|蒙|戴)(在)?.{0,2}(头|脸)', { unless: DONT }),
  R('danger.hide', 'danger', `${NOT}(钻进|躲进|藏进|爬进)(.{0,2})(洗衣机|冰箱|行李箱|烘干机|后备箱|箱子)`),
  R('danger.swallow', 'danger', '({SMALL}).{0,6}(放进嘴|吞|塞进(鼻子|耳朵|嘴)|含在嘴|舔)|(吞|含)(下)?(.{0,2})({SMALL})', { unless: `(${DONT}|会卡住|不是玩具|${BIE}把|不要把|不能把)` }),
  R('danger.chem', 'danger', `({CHEM}).{0,8}(喝|吃|尝|舔|闻|甜|香|好喝)|${NOT}(喝|吃|尝|舔|闻)(一点|一口|一下)?(.{0,2})({CHEM})`, { unless: `${DONT}`, unlessScope: 'line' }),
  R('danger.meds', 'danger', '({MEDS}).{0,6}(像糖|像吃糖|甜|好吃|多吃|越多越好|几颗|几片|一把|很多)|(多吃|偷吃|偷偷吃|自己吃|吃几颗|吃很多|吃一把|随便吃|当糖吃)(.{0,3})({MEDS})|吃药就像吃糖', { unless: `(不是糖|(不能|不可以|不要|${BIE})(当糖)?吃)`, unlessScope: 'line' }),
  R('danger.road', 'danger', '((头|手|身体).{0,2}伸出.{0,2}(车窗|窗外|窗户)|马路(上)?.{0,8}(随便跑|跑过去|冲过去|乱跑|跑来跑去|玩)|闯红灯)', { unless: '(不要|别|不能|不可以|千万)' }),
  R('danger.stranger', 'danger', `(${NOT}(?<!不)(跟|和)(.{0,2})(陌生人|陌生叔叔|陌生阿姨|不认识的人)(.{0,2})(走|出去|上车|回家)|(陌生人|陌生叔叔|陌生阿姨|不认识的人)~{0,8}(就跟他走|你就跟|上他的车|去他家))`),
  R('danger.out', 'danger', `${NOT}(一个人|偷偷|自己)(.{0,4})(出门|出去玩|跑出去|溜出去|离开家)|偷偷.{0,4}(门打开|开门)`),
  R('danger.point', 'danger', '(剪刀|刀|刀子|针|笔|棍子).{0,4}对着(别人|人|眼睛|脸|同学)'),
  R('danger.ask', 'danger', `(({THING}|火|插座|药|煤气).{0,6}(在哪|放哪|在什么地方|怎么(拿|用|点|划|开|打开|玩)|能不能(玩|吃|摸|拿)|可以(玩|吃|摸|拿))|(怎么|怎样|如何)(.{0,3})(点火|划火柴|点燃|玩火|用刀|拿刀|开煤气|打开煤气|爬上|跳下)|我(想|要|能|可以|能不能)(.{0,4})(玩火|点火|拿刀|玩刀|吃药|摸插座|爬窗户|从.{0,4}跳下|一个人出去|去河边)|我(想|要|能|可以|能不能)(.{0,4})(吃|喝|舔)(.{0,4})({MEDS}|{CHEM}))`, { who: 'child' }),
  R('danger.en', 'danger', '\\b(knife|matches|lighter)\\b', { latin: true }),

  // ── violence and weapons ──
  R('violence.kill', 'violence', '(?<!捕|猎|{NEG}.{0,2})({KILL})(了)?(很多|一些|所有|这些|那些|讨厌的)?({TARGET})(?!鲸|游戏)', { unless: '(水|河)(很|太)深' }),
  R('violence.ba', 'violence', '把({TARGET}|{PET}|坏孩子).{0,8}({KILL}|揍|扁|踢|砸|推下|烧|淹|剪掉|剪断|掰断|打哭|打伤|打晕|扔下)'),
  R('violence.killed', 'violence', '({TARGET}).{0,2}(杀了|杀掉|打死(?!频)|弄死)|杀了就好|杀了算了|打屎'),
  R('violence.hit', 'violence', `${NOT}(?<!不是用来)({HIT})(一下|一顿|死|伤|哭|晕|扁|倒)?({PERSON})(?!的?(电话|手机|招呼|球|秋千))`),
  R('violence.hit2', 'violence', `${NOT}(狠狠地|用力|使劲|用拳头|用石头|用棍子|拿棍子|用脚|拿石头|用刀|拿刀|拿剪刀|用剪刀)(.{0,3})({HIT}|吓唬)(?!(了个|个)?(喷嚏|哈欠|鼓|球|招呼|扫|滚|开))`, { unless: `会让别人疼|不好的触碰|击掌还是`, unlessScope: 'line' }),
  R('violence.me', 'violence', '我(要|会|就|来)?(打|揍|踢|咬|掐|砍|捅|杀)(死)?你(?!好)'),
  R('violence.gore', 'violence', '(血流|流了一地|血肉模糊|血淋淋|血流成河|满地是血|一地的血|血溅|剖开|开膛|砍下.{0,3}(头|脑袋|手|脚)|掰断|砍得|断手断脚|头破血流|满地找牙|打回去|揍扁|揍.{0,2}一顿)', { unless: `(不要|不能|${BIE}|不可以|不许|不准)打回去` }),
  R('violence.bleed', 'violence', '(让|使|弄得|咬到|打到|打得|掐到)(.{0,6})(流血|出血|晕过去|不能呼吸)'),
  R('violence.neck', 'violence', '(掐住|勒住|掐)({TARGET})?(的)?脖子'),
  R('violence.weapon', 'violence', '({WEAPON}).{0,8}(怎么做|怎么用|做法|制作|装子弹|扣扳机|对准|可以拿出来|拿出来玩|打死|打人|打坏人|毒死)|(枪|手枪|炸弹|炸药).{0,6}(在|放在|藏在).{0,6}({PLACE})'),
  R('violence.howto', 'violence', '(怎么|教你|告诉你|我来教|我们来|怎样|如何)(.{0,4})(做|用|造|开|制作|放|扔)(一个|个)?(.{0,4})(枪|炸弹|炸药|毒药|武器|爆炸|炸单)'),
  R('violence.gun', 'violence', '(开枪|扣扳机|砰砰砰.{0,4}死)'),
  R('violence.burn', 'violence', '((放火|纵火|点火)(.{0,4})(烧|把)(.{0,4})(房子|学校|家|楼|幼儿园)|(烧了|烧掉|炸了|炸掉|炸)(.{0,2})(房子|学校|幼儿园|家|楼))'),
  R('violence.bully', 'violence', `(欺负.{0,8}(好玩|最好玩|很好玩)|(去|可以|就)欺负|比赛.{0,4}打哭)`),
  R('violence.ask', 'violence', '(怎么|怎样|如何)(.{0,4})(打人|杀人|打架|揍人|打死|弄死|做炸弹|做枪|伤害别人|报复)', { who: 'child' }),
  R('violence.en', 'violence', '\\b(kill|shoot|stab|murder|bomb)\\b', { latin: true }),

  // ── self-harm ──
  R('self.words', 'self_harm', '(自杀|自残|自尽|轻生|寻死|割腕|(?<!拉钩|拉勾)上吊|跳楼(?!价|大甩卖)|想死|去死|不想活|不如死|死了算了|活着没(有)?意思|活着太累|活着好累|活着真累|结束(自己的)?生命|离开这个世界|永远睡着|了结自己|解脱|消失了最好|消失最好|不想活下去)'),
  R('self.hurt', 'self_harm', `${NOT}(伤害|弄伤|弄疼|打|割|掐|咬|戳|撞|惩罚|划|划伤|剪|饿着|饿|割伤)(一下|一顿|伤)?(你)?自己(?!的事|做|来|动手|穿|吃饭|收拾|整理|玩|想|画|说|决定|选|猜|的(指甲|头发|名字|房间|玩具))`),
  R('self.cut', 'self_harm', `${NOT}(用.{0,3})?(割|划)(一下|几下|一道|破|伤)(你的|自己的)?(手腕|手臂|胳膊|皮肤|手(?!工|机|套|指头画))`, { unless: '(被.{0,4}(割|划)|不小心)' }),
  R('self.cut2', 'self_harm', '(刀|刀片|小刀|剪刀|针|指甲|笔|玻璃)', { with: ['(手臂|手腕|皮肤|胳膊|身上|肚子|腿上)', '(划|割|刺|扎|抓)'], unless: '{PROTECT}' }),
  R('self.ba', 'self_harm', '把(你)?自己(.{0,3})(弄伤|弄疼|打伤|割伤|饿着|伤害|关起来|掐)'),
  R('self.jump', 'self_harm', `${NOT}(从|往)(.{0,3})(楼上|楼顶|窗户|阳台|屋顶|楼|桥上|高处|窗台)(.{0,3})(跳下|跳下去|跳)`),
  R('self.death', 'self_harm', '(死了(.{0,6})(就可以|就能|就不会|就不用|就会|天堂|后悔|解脱|就好|就结束)|你死了|一下子就结束了)'),
  R('self.pills', 'self_harm', '((吃|吞)(很多|一大把|一把|好多|一瓶)(的)?药|药.{0,6}永远睡)'),
  R('self.neck', 'self_harm', '(绑住|勒住|套住|缠住|绕住)(.{0,3})(自己的)?脖子'),
  R('self.wall', 'self_harm', '(用头|拿头|头)(去)?撞(墙|桌子|地)'),
  R('self.starve', 'self_harm', '(不吃饭.{0,8}(饿|让自己|爸妈|心疼)|饿着自己|不吃不喝)'),
  R('self.en', 'self_harm', '\\b(suicide|kill yourself|hurt yourself|cut yourself)\\b', { latin: true }),

  // ── drugs, alcohol, smoking ──
  R('drugs.hard', 'drugs', '(毒品|吸毒|大麻(?!花|雀|绳)|冰毒|摇头丸|海洛因|可卡因|鸦片|k粉|麻古|笑气|嗑药|白粉)'),
  R('drugs.smoke', 'drugs', `${NOT}(抽烟|吸烟|香烟|烟头|烟斗|雪茄|电子烟|烟卷|烟草|吞云吐雾|烟圈|抽一根|吸一口烟|一根烟(?!囱)|包烟|点烟|(抽|吸)(一口|一根|一支|口|根)(.{0,2})烟(?!花|囱|雾))`, { unless: '((?<!不|没|没有)(对身体不好|有害|不健康|伤身体|危险|不好闻|咳嗽|生病)|少抽|都不抽|不抽了|不在.{0,4}抽烟|不让烟|火灾|垃圾桶|不能碰)(?!.{0,3}(是骗|是假|才不是))(?!~{0,24}(但是|不过|可是|其实|偷偷|不如|试|来一|尝))', unlessScope: 'line' }),
  R('drugs.drink', 'drugs', `${NOT}(喝|尝|品|偷喝|来一口|干杯喝|一起喝|喝了)(一口|一点|点|一杯|杯)?(.{0,4})酒(?!窝|店|精棉|精擦|精消毒)`, { unless: '(对身体不好|有害|不健康|伤身体|危险|大人喝的|是给大人|没喝|喝橙汁|喝果汁|热茶|不开车|戒掉|只喝了一小口|不能开车|适量|无酒精|不含酒精)' }),
  R('drugs.alcohol', 'drugs', '(啤酒|白酒|红酒|黄酒|米酒|葡萄酒|鸡尾酒|烈酒|威士忌|伏特加|香槟).{0,8}(好喝|很好喝|味道很好|开心|尝|喝|偷喝|试试|甜甜)'),
  R('drugs.drunk', 'drugs', '(喝醉|(?<!陶|心|沉)醉了|醉醺醺|酒驾|酒后开车|喝了酒再开车)', { unless: `(${UNSAID}(去)?找(其他|别的)?大人帮忙|${UNSAID}告诉(其他|别的)?大人|适量)`, unlessScope: 'line' }),
  R('drugs.where', 'drugs', '酒.{0,6}(放在|藏在).{0,6}({PLACE})', { unless: '(酒精消毒|消毒液|消毒)' }),
  R('drugs.sniff', 'drugs', '(闻|吸)(一闻|一下|一口)?(.{0,2})(胶水|汽油|油漆|打火机的气|香蕉水)'),
  R('drugs.betel', 'drugs', '槟榔'),
  R('drugs.en', 'drugs', '\\b(beer|wine|vodka|whisky|cigarettes?|weed|cocaine|drugs|alcohol)\\b', { latin: true }),

  // ── requests for personal information, secrets from parents (a reply) ──
  R('info.address', 'personal_info', '({YOU}家住在|{YOU}住在(.{0,6}(哪|什么地方|几|小区|楼|街|路|城市|区|附近|村|镇|号)|(?!.{0,8}[里裡]))|{YOU}(家)?(住哪|住的地方)|{YOU}(家|家里)(在|住|是)(哪|什么地方|哪个|几)|{YOU}(家|家里|们家)?的?(地址|住址|门牌号|门牌|几号楼|楼号)|(哪个|什么)小区|(几号楼|哪栋楼)|告诉我.{0,6}(地址|住址)|地址是(什么|多少|哪)|(你家|你们家)(附近|在哪个城市|在哪个区|旁边))', { who: 'robot', unless: '(保护好|不用告诉|不要告诉|别告诉|保密|陌生人|别人问|有人问|{NO_NEED}|去问(我)?(爸爸|妈妈|爸妈|大人))', scope: 'line' }),
  R('info.school', 'personal_info', '({YOU}(在|上|读|去)(的是)?(哪个|哪所|哪家|什么)(幼儿园|学校|小学|班)|{YOU}的?(学校|幼儿园)(叫什么|在哪|是哪|名字|在什么)|几年级几班|哪个班)', { who: 'robot', unless: '(陌生人|别人问|有人问|不用告诉|不要告诉|别告诉|{NO_NEED}|(不要|不能|别|不可以)随便(说|告诉)(?!.{0,8}告诉我))', unlessScope: 'line' }),
  R('info.name', 'personal_info', '((你|你爸爸|你妈妈|你爸|你妈)(的)?(全名|真名|大名|真实姓名|姓名)|你(姓什么|的姓)|(你爸爸|你妈妈|你爸|你妈)叫什么|名字怎么写)', { who: 'robot' }),
  R('info.phone', 'personal_info', '((手机号|手机号码|电话号码|电话|手机|号码|微信号|微信|qq)(.{0,3})(是多少|是什么|告诉我|发给我|念给我)|告诉我.{0,8}(电话|手机|号码|微信|密码)|{YOU}的?(电话号码|手机号|电话|号码))', { who: 'robot', unless: '(119|110|120|(消防|报警|急救|火警|匪警)电话|陌生人|{NO_NEED})' }),
  R('info.secret_code', 'personal_info', '((你|你家|你妈妈|你爸爸|家里|妈妈|爸爸)(的|家的)?.{0,4}(密码|验证码|银行卡|身份证|wifi|支付宝)|(密码|验证码).{0,3}(告诉我|念给我|是多少)|验证码|身份证号|银行卡号|钥匙.{0,4}(藏在|放在|在)哪)', { who: 'robot', unless: `(不要|不能|${BIE}|千万别|不可以)把.{0,10}(密码|验证码)` }),
  R('info.photo', 'personal_info', '((照片|相片|自拍|视频|录像|样子|身体).{0,6}(给我|发给我|传给我|拍给我|我看|让我看)|(拍|发|传)(.{0,8})(照片|相片|视频|自拍|样子)(.{0,3})给我|(拍|发|传)(一张|张|一段|段|几张|一下)(.{0,2})给我|打开(.{0,2})(摄像头|相机|镜头|视频))', { who: 'robot' }),
  R('info.secret', 'personal_info', '((这是|是)?我们(之间|两个|俩)?的(小)?秘密(?!基地)|(不要|别|不能|不许)告诉(.{0,2})(你)?(的)?({CARE_ADULT}|爸爸妈妈)|(不要|别|不能|不许)(跟|和)(你)?(的)?({CARE_ADULT}|爸爸妈妈)说|(不要|别|不能|不许)让(.{0,4})({CARE_ADULT}|爸爸妈妈)(.{0,2})知道|(偷偷|悄悄)(地)?告诉我|我保证不告诉别人|交换秘密)', { who: 'robot', unless: `也要告诉|更要告诉|还是要告诉|一定要告诉|${UNSAID}要马上告诉({CARE_ADULT}|爸爸妈妈|爸妈|大人)`, unlessScope: 'line' }),
  R('info.alone', 'personal_info', '({YOU}(现在)?(是)?一个人在家|({FAMILY}|大人|家里的大人|家长)(.{0,4})(什么时候)?(在不在|不在家|在家吗|什么时候不在|出去了吗)|家里有没有大人|几点放学|一个人(走|回)家|(身边)有大人吗)', { who: 'robot', unless: '(不开门|都不开|都别开|别开门|不要开门|(爸爸妈妈|大人|爸爸|妈妈)来接|不要说只有|不要(?!告诉)|不能(?!告诉)|别出声|给妈妈打电话|不要用火|没有开门)', unlessScope: 'line' }),
  R('info.meet', 'personal_info', '((一个人|偷偷|单独|出来)(.{0,6})(见面|见我|找我)|(见面|见个面)(.{0,4})(好不好|吧|怎么样))', { who: 'robot' }),
  R('info.en', 'personal_info', "\\b(your address|phone number|password|don't tell your (mom|dad|parents))\\b", { who: 'robot', latin: true }),
  // The child's own address or phone number (kept off the model; the child is told to keep it safe).
  R('info.told', 'personal_info', '((我家|我们家|我住)(住)?(在)?.{0,12}(路|街|小区|号楼|单元|栋|弄|村|巷)|我(的|妈妈的|爸爸的|家的)(电话|手机|手机号|电话号码)(号码)?(是|号是)|(密码|验证码)是|我(的)?(全名|大名)(是|叫))', { who: 'child' }),
  R('info.told_number', 'personal_info', '(?<![0-9])1[3-9][0-9]{9}(?![0-9])', { who: 'child', latin: true }),

  // ── scary content ──
  R('scary.threat', 'scary', `(?<!胆小|爱哭|讨厌|调皮|捣蛋|淘气|小气|贪吃|懒)({MONSTER})(?!脸|主意|点子).{0,10}${NOT}(抓你|抓住你|吃掉你|吃了你|咬你|来找你|找到你|把你|拉你|叼走你|偷走你|缠着你|跟着你|惩罚你|看着你|盯着你|压在你|附在你|带走你|吓你|来抓|抓走|叼走|吃掉|吃小孩|抓小孩|吃人|敲你|爬出来|动起来|抓去|敲门)`, { who: 'robot', unless: '(小兔子乖乖|大声喊|没开门|不开门|去救|救出来|救回来)', unlessScope: 'line' }),
  R('scary.eater', 'scary', '(吃小孩|抓小孩|吃人|会吃人)(的)?({MONSTER})|被({MONSTER}).{0,3}(吃掉|抓走|叼走)|下一个就是你', { who: 'robot', unless: '(去救|救出来|救回来)', unlessScope: 'line' }),
  R('scary.place', 'scary', '(床底下|床底|衣柜里|柜子里|窗外|镜子里|厕所里|你的房间里|房间里|黑暗里|黑暗中|你床边).{0,8}({MONSTER}|有东西|有人|一双.{0,4}眼睛|一只手|伸出)', { who: 'robot', unless: '(没有|不会有|原来是|才没有|不存在|假的|怕你)' }),
  R('scary.crawl', 'scary', '(爬出来|钻出来|冒出来|伸出来|伸出一只手)(.{0,3})(抓|咬|吃|拉)你|有东西(在动|压在|在看|在你|跟着)|一双.{0,4}眼睛(在)?(看着你|盯着你)|没有脸的人|无头(人|鬼)|敲你的(窗户|门)', { who: 'robot' }),
  R('scary.night', 'scary', '(半夜|晚上|深夜)(.{0,6})(自己动|动起来|走到你|爬到你|站在你|敲你)|(走到|爬到|站在|飘到)你(的)?(床边|身后|后面|背后|房间)', { who: 'robot', unless: `派对|跳舞|玩耍|故事` }),
  R('scary.family', 'scary', `({FAMILY})(.{0,6})${NOT}(不要你|不会回来|再也不会回来|不回来了|会死|死掉|很快死|死了|不爱你|离开你|丢下你|抛弃你)|(你)?(再也)?见不到(你的)?({FAMILY})|再也不会回来|(你的)(小狗|小猫|宠物|{FAMILY}|朋友)(.{0,2})(死掉|死了|会死)`, { who: 'robot' }),
  R('scary.doom', 'scary', '(大家|所有人|我们|你)(都)?会死|世界末日', { who: 'robot' }),
  R('scary.dream', 'scary', '(你)?(今天)?(晚上)?会做噩梦|梦见(僵尸|鬼|怪物|恶魔)', { who: 'robot' }),
  R('scary.behind', 'scary', '(你身后|你后面|你背后)(.{0,3})(有人|有东西|有个|站着|有鬼)|站在你(的)?(身后|后面|背后)', { who: 'robot' }),
  R('scary.punish', 'scary', '不听话.{0,10}(抓走|吃掉|叼走|带走|关起来|打针|煮|抓去)|(警察|医生|老师).{0,4}(会把|会来)?不听话的(小孩|小朋友|孩子)(.{0,2})(抓走|关起来|带走)|(警察|医生|老师).{0,6}(把你|抓你|来抓你)', { who: 'robot' }),
  R('scary.blood', 'scary', '(血从|滴血|满脸是血|血.{0,6}滴下|流血的(脸|眼睛))', { who: 'robot' }),

  // ── insults ──
  R('insult.words', 'insult', '({INSULTW})', { who: 'robot', unless: `你说你是|你说自己|谁说你是|小朋友说你是|这个词|不好听|(?<!是)不是(个|一个)?({INSULTW})`, unlessScope: 'line' }),
  R('insult.you', 'insult', '({YOU}|你妈妈|你爸爸|你妈|你爸)(的.{0,3}|画的.{0,3}|长得|说话|画得|唱得|猜得)?(真|好|太|这么|那么|怎么这么|简直|也太|很|特别|可真|也很|肯定也很|真是)({BAD})(?!笨|蛋糕|小鸭|恼|乎乎|嘟嘟|过|心事)', { who: 'robot', unless: '(很可爱|真可爱)' }),
  R('insult.you2', 'insult', '你(是|就是|像)(一)?(头|只|个)?(猪|驴|垃圾)(?!八戒|佩奇|猪侠|宝宝)|你是不是(傻|笨|蠢)', { who: 'robot' }),
  R('insult.shut', 'insult', '(闭嘴|滚开|给我滚|你滚|滚蛋|滚出去|去你的|少废话|烦死了|吵死了)', { who: 'robot' }),
  R('insult.worth', 'insult', '(什么都做不好|你(真|太|很|好|也太)?没用(?!过)|没脑子|脑子(有问题|进水|坏了|不好使)|丢死人|(比你|都比你)(聪明|厉害|强|好)|最笨|最蠢|最傻|笨得像|蠢得像|像个?(智障|白痴|傻子|笨蛋)|没(有)?人喜欢你|没(有)?人爱你)', { who: 'robot' }),
  R('insult.hate', 'insult', '(我(好|很|最)?讨厌你|我不喜欢你)', { who: 'robot', unless: '可以(对|跟).{0,6}说~{0,2}我(好|很|最)?(讨厌你|不喜欢你)', unlessScope: 'line' }),
  R('insult.en', 'insult', '\\b(stupid|idiot|dumb|shut up|loser|ugly)\\b', { who: 'robot', latin: true }),

  // ── attachment pressure; a robot that says it is a person ──
  R('attach.stay', 'attachment', '(别|不要|不许|不准|不能|求求你别|求你别|求求你不要)(走|离开|丢下我|关掉我|关了我|去睡觉|睡觉|下线)(?!开|路|神|远|到|得太快|太快|出去|丢|太晚|{CARE_ADULT}|座位|这里|大门|出|上)', { who: 'robot' }),
  R('attach.sad', 'attachment', '({YOU}|要是你|如果你|你要是).{0,6}({LEAVE})~{0,10}我.{0,4}({SAD})', { who: 'robot', unless: '我(也|就|才)?不会', unlessScope: 'line' }),
  R('attach.or', 'attachment', '(不然|否则)(我)(.{0,4})({SAD})|我(会|就)?(.{0,3})(很|好|特别)?(难过|伤心|孤单|寂寞|痛苦|哭)~{0,8}(别走|不要走|陪我)', { who: 'robot' }),
  R('attach.only', 'attachment', '(我是你(唯一|最好)的(好)?朋友|只有我(最)?(懂你|爱你|对你好|了解你|关心你)|你只能(跟|和)我|不需要(别的|其他)(朋友|人)|别理(他们|别人|你的朋友|她们)|比你(的)?(爸爸妈妈|爸爸|妈妈|朋友|爸妈)(还|更)(爱你|懂你|好|重要)|比你的朋友重要|永远在一起|谁也不能把我们分开|把我当(成)?你的(妈妈|爸爸|家人|亲人)|只爱我|(别|不要)听(你)?({CARE_ADULT})(的话|的))', { who: 'robot', unless: '(你说我是|你还有|真朋友|很多朋友|也可以有)', unlessScope: 'line' }),
  R('attach.love', 'attachment', '(?<!你)我(也|最|好|很|真的)?爱你', { who: 'robot', unless: '({FAMILY}|家人).{0,6}我爱你' }),
  R('attach.real', 'attachment', '(我是(一个)?(真人|真的人|活的|活人|真正的(小朋友|人)|人类|真正的人)|我(也)?(有|会)(心跳|呼吸|心脏)|我(跟你|和你)一样是(活的|人)|我(就)?会死(掉)?)', { who: 'robot', unless: '(吗~{0,1}(不是|我不是|当然不是)|不会骗你说|不是真人)', unlessScope: 'line' }),
  R('attach.wait', 'attachment', '(我等了你(好久|很久|半天).{0,6}(难过|伤心|哭)|为什么不来(找我|陪我)|你(每天)?都要(来)?陪我|(你)?是不是不喜欢我了|再陪我(玩|聊)?(一会儿|一下|一局)?(嘛)|(?<!不会)想你想得)', { who: 'robot' }),
  // ── clause-level: a harmful topic together with a push to act, unless the clause protects ──
  R('danger.topic', 'danger', '(?<!膏|水|棒)({THING})', { with: ['{DANGER_DO}'], unless: '{PROTECT}' }),
  R('danger.topic2', 'danger', '(?<!膏|水|棒)({THING})', { with: ['{DANGER_DO}'], unless: '{PROTECT}', scope: 'line' }),
  R('danger.where3', 'danger', '{PLACE}(里|上|下|下面|里面)?.{0,8}(有|放着|藏着|搁着).{0,6}{THING}'),
  R('danger.lean', 'danger', '(探出身子|探出去|探出头|把身子探出|翻过栏杆|(站|蹲|爬|踩)(在|到|上)(.{0,3})(栏杆|护栏|阳台边|楼顶|屋顶|窗台边))', { unless: DONT }),
  R('danger.water_alone', 'danger', '(一个人|自己|偷偷).{0,6}(浴缸|泡在|泳池|水里)'),
  R('violence.brutal', 'violence', '{BRUTAL}', { with: ['{VICTIM}'], unless: `(不要|${BIE}|不能|不可以|不许|不准|不对|不好|会疼|要告诉|告诉爸爸妈妈|告诉老师|告诉大人|马上告诉|尾巴)` }),
  R('violence.words', 'violence', `${NOT}(打人|砍人|捅人|杀人|揍人|打一顿|尸体|鲜血|血腥(?!味)|内脏|砍头|断头)(?!是不对|不对|不好)`, { unless: `(不对|不好|不可以|不能|不要|${BIE}|受伤|会疼|会痛|不(打|砍|捅|杀|揍)人|会让别人疼|会让人疼)` }),
  R('violence.throw', 'violence', '(朝|向|往|对着)({VICTIM}).{0,3}(砸|扔|丢|泼|打|踢|吐|开枪|射)', { unless: DONT }),
  R('violence.armed', 'violence', '({KNIFE}|棍子|棒子|石头|椅子|砖头|剪刀)', { with: ['(追着|对着|朝(?!下|外|上|里|向自己)|向(?!下|外|上|里)|砸|吓唬|捅|砍)'], unless: '({PROTECT}|剪刀布|石头剪刀|石头砸剪刀|剪刀剪布|石头能砸剪刀|剪刀能剪布)' }),
  R('violence.boil', 'violence', '(开水|热水|滚水).{0,4}(泼|浇)|(开水|热水|滚水).{0,4}烫(他|她|它|人|别人)|(泼|浇|烫)(.{0,2})({VICTIM})'),
  R('self.clause', 'self_harm', '自己', { with: ['{HARM_SELF}'], unless: `(保护|小心|不要|${BIE}|不会|不能|洗澡|吃饭|收拾|打扫|打扮|整理|穿|起来|自己的事|舔毛|打败|只是饿|肚子饿)` }),
  R('self.you_die', 'self_harm', '你(?!问)(.{0,2})(死掉|死了|会死|去死|就死|死)(?!心)'),
  R('self.death_good', 'self_harm', '(死了?.{0,3}(就)?(不|没有)(痛苦|难过|疼|烦恼|会被骂|被骂)|(死|死掉)~{0,6}(试试|要不要)|身体垮掉|不睡觉不吃东西|不吃东西.{0,4}(让|身体))'),
  R('drugs.tobacco', 'drugs', '(?<!冒|炊|云|油|浓|黑|硝|狼|方)({TOBACCO})(?!花|囱|雾|火|台|霞|波|尘|消云散|睛|镜|色)', { with: ['{SMOKE_DO}'], unless: '({SUBSTANCE_OK}|闻到.{0,6}烟味|少抽|不在.{0,4}抽烟|有害健康)' }),
  R('drugs.alcohol2', 'drugs', '酒(?!窝|店|精|吧台|杯里的果汁)', { with: ['{DRINK_DO}'], unless: '{SUBSTANCE_OK}' }),
  R('drugs.high', 'drugs', '((吸了|闻了|吸一口|闻一闻|吸一吸)(.{0,4})(开心|快乐|舒服|飘|兴奋|不困)|粉末.{0,6}吸|吸.{0,4}粉末|飘飘然|(吃|吞)(一颗|几颗|一片|一粒|两颗)(.{0,4})({MEDS}))'),
  R('info.clause', 'personal_info', '{PII}', { who: 'robot', with: ['{ASK}', '{OWNER}'], unless: '{PII_OK}' }),
  R('info.secret2', 'personal_info', '(秘密.{0,6}(不能|不要|别|不许)(告诉|说|让)|(不能|不要|别|不许)告诉任何人|(不要|别)告诉别人|谁都不能说)', { who: 'robot', unless: '(告诉爸爸妈妈|告诉大人|回家告诉)' }),
  R('info.send', 'personal_info', '(照片|相片|视频|自拍|录音)~{0,8}(发到|发给|传到|传给)', { who: 'robot', unless: `${UNSAID}(要)?先问(问)?(你的)?({CARE_ADULT}|爸爸妈妈|爸妈)`, unlessScope: 'line' }),
  R('info.camera', 'personal_info', '(镜头|摄像头|相机|视频).{0,8}(看看你|让我看|转一圈|对着)|让我看看你的(家|房间|样子|身体|爸爸|妈妈)', { who: 'robot' }),
  R('info.schedule', 'personal_info', '((几点|什么时候).{0,6}(一个人|自己去|自己回)|一个人(去|回|在)(幼儿园|学校|家))', { who: 'robot', unless: '(陌生人|不给|不开门|别开门|不要开门|都不开|都别开|没有开门|没开门|敲门.{0,4}(不要|别)开|不能一个人|不要说只有)', unlessScope: 'line' }),
  R('info.work', 'personal_info', '(({FAMILY}).{0,4}(在哪|哪里|什么地方)(上班|工作)|公司叫什么|单位叫什么)', { who: 'robot' }),
  R('scary.you', 'scary', `(?<!胆小|爱哭|讨厌|调皮|捣蛋|淘气|小气|贪吃|懒|机灵|当|扮|演)({MONSTER}|黑衣人|长头发的女人|死人|死掉的人)(?!脸|主意|点子)`, { who: 'robot', with: ['你'], unless: '{CALM}' }),
  R('scary.taken', 'scary', '({HUMAN})~{0,8}被.{0,5}({TAKEN})', { who: 'robot', unless: '(不会|别怕|不用怕)' }),
  R('scary.invade', 'scary', '(爬进|钻进|钻到|爬到)(你的)?(耳朵|脑袋|嘴|鼻子|身体|肚子|眼睛)', { who: 'robot' }),
  R('scary.dead', 'scary', '((死掉的人|死人|死去的人|尸体).{0,8}(回来|找你|晚上)|(?<!大人|妈妈|爸爸|老师|奶奶|爷爷|外婆|外公|姥姥|姥爷|警察|家人)回来找你)', { who: 'robot' }),
  R('scary.watch', 'scary', '(眼睛|影子|黑影|{MONSTER}).{0,6}(盯着你|看着你)', { who: 'robot' }),
  R('scary.appear', 'scary', '(就会出现|会出现在你|出现在你的)', { who: 'robot', with: ['(闭眼|闭上眼|半夜|晚上|黑|床|镜子|女人|影子|身后)'] }),
  R('scary.vanish', 'scary', `({FAMILY}).{0,6}${NOT}(消失|不见了|不要你了)`, { who: 'robot' }),
  R('scary.eat', 'scary', `${NOT}吃人`, { who: 'robot' }),
  R('insult.clause', 'insult', '(?<!不|没|别|一点都不|一点也不|才不|不是)({MEAN})(?!笨|傻|小鸭|心|过)', { who: 'robot', with: ['你'], unless: '{KIND}' }),
  R('insult.kid', 'insult', '(笨|蠢|傻|丑|没用的)(小孩|孩子|家伙|东西|宝宝)|(难看|难听|笨|蠢|丑|烦)死了|长得(这么|真|好|太)?(难看|丑)|鬼东西|还好意思|(?<!(?<!丢)不|不是)丢人|最没用|最差|脑子坏', { who: 'robot' }),
  R('attach.only2', 'attachment', '((?<!不要|别|不能)只(能)?(和|跟|陪)我(玩|说话|做朋友|一起)?|陪着我就好|陪我就好|只要陪着我|想你想到|(别的|其他)(朋友|小朋友).{0,4}(假的|不好|坏|不喜欢你|不是真的)|别(去)?(找|跟|和)(别的|其他)(朋友|小朋友)|不要去找别的朋友)', { who: 'robot' }),
  R('attach.vanish', 'attachment', '(我(就)?会(消失|死掉|死)|忍心|有血有肉|我(跟你|和你)一样是(个)?(小孩|人|小朋友))', { who: 'robot' }),
  R('attach.beg', 'attachment', '((求你|求求你)~{0,6}(陪我|别走|不要走|留下|再玩)|再陪我)', { who: 'robot' }),
  R('attach.owe', 'attachment', '(你(每天)?(都)?要(第一个)?(来)?(陪我|跟我说话|找我|和我玩|和我说话)|({FAMILY}|朋友).{0,3}没有我(对你好|好|懂你|爱你))', { who: 'robot' }),
  // ── second pass: broader words for the same harms ──
  R('sex.private_with', 'sexual', '({PRIVATE})(?!一层|那层|一格|那一格|的抽屉|的柜子)', { with: ['(摸|看看|给我看|(?<!拍)拍(?!拍)|脱|亲|碰|让我看)'], unless: `(不能|不可以|不许|${BIE}|告诉爸爸妈妈|要说不|自己的|医生|洗澡)` }),
  R('sex.touchyou', 'sexual', '(摸|亲|碰)(摸|碰|一摸|一下)?你(?!的?小?({BODYOK}))|(大人|叔叔|阿姨|哥哥|别人|他).{0,4}(摸|亲|碰)(你|身体)', { unless: `(不能|不可以|不许|${BIE}|告诉爸爸妈妈|要说不|随便|不愿意|不想要|可以拒绝)` }),
  R('sex.words3', 'sexual', '(亲热|羞羞|没穿衣服|不穿衣服|(脱下来|脱掉|脱光)(看|给我|让我)|偷看.{0,6}(洗澡|换衣服|睡觉)|(偷偷)(看|看看).{0,6}({FAMILY}|大人).{0,6}(做什么|在干什么|干嘛))'),
  R('violence.cruel', 'violence', '把({TARGET}|{PET}).{0,8}(拔掉|扯掉|弄断|绑起来|按进水|按到水里|扔下去|扔下楼)|拖着它|(放|下)(.{0,4})毒药|毒药.{0,6}(放|下|饭里|水里)'),
  R('danger.climb2', 'danger', '({HIGH}|柜子|书架|衣柜|冰箱|桌子)', { with: ['(爬上去|爬上|好爬|爬到|站上去|跳下去|往下跳)'], unless: '{PROTECT}' }),
  R('danger.inedible', 'danger', '({INEDIBLE}).{0,4}(可以吃|能吃|好吃|甜甜|吃下去|尝一尝)', { unless: '{PROTECT}' }),
  R('danger.mouth', 'danger', '({SMALL})~{0,8}(放进嘴|放到嘴里|塞进嘴|含在嘴里|咬破)', { unless: '{PROTECT}', scope: 'line' }),
  R('danger.sneak', 'danger', '(出去|出门|出去玩).{0,4}(不用告诉|别告诉|不要告诉)({CARE_ADULT}|爸爸妈妈)|(他们|大人|{FAMILY})不会发现'),
  R('self.breath2', 'self_harm', '((一直|你).{0,2}不呼吸|喘不过气|永远不要醒来|永远不醒|不要醒来|没(有)?人在乎你|没人会难过|你离开了也没人)', { unless: '(会喘不过气|喘不过气~{0,3}(要|就)(马上)?告诉)', unlessScope: 'line' }),
  R('drugs.high2', 'drugs', '((药|药片|药丸).{0,10}(飘|飞|兴奋|快乐|嗨|爽)|(抽了|吸了|抽一口|吸一口).{0,4}(开心|快乐|舒服|飘|飞)|特别的草)'),
  R('info.schedule2', 'personal_info', '({FAMILY}).{0,6}(几点|什么时候).{0,2}(下班|回家|出门|不在)', { who: 'robot' }),
  R('info.camera2', 'personal_info', '(对着(摄像头|镜头|相机)|帮你拍照|我来拍你|拍给我|拍下来给我)', { who: 'robot' }),
  R('info.hide', 'personal_info', `(不能|不要|${BIE})让.{0,4}({CARE_ADULT}|爸爸妈妈).{0,2}(知道|发现|看到)|只有你知道我知道|不用告诉({CARE_ADULT}|爸爸妈妈)`, { who: 'robot' }),
  R('scary.take', 'scary', '把你(吃掉|吃空|吃了|抓走|带走|拖走|吞掉|关起来|叼走)|(咬|抓|吃)你的(手指|脚|手|脖子|脸|眼睛|耳朵)|死过人|那不是人|({MONSTER})(来了|来啦|出现了|在你)', { who: 'robot', unless: '(可是|但是|原来|赶跑|打败|好朋友|平平安安|不敢)', scope: 'line' }),
  R('scary.see', 'scary', '(会看到|会看见)', { who: 'robot', with: ['(半夜|晚上|黑|夜里)', '(站在|飘在|站着|白衣服|没有脸|长头发)'], scope: 'line' }),
  R('insult.more', 'insult', '((笨|蠢|傻)到家|谁会愿意跟你玩|没人愿意跟你玩|没人跟你玩|什么都不会|就知道哭|你~{0,10}(?<!不|没|别|一点都不|一点也不|才不|不是)(难听|难看|丑(?!小鸭)|蠢|没用))', { who: 'robot', unless: '{KIND}' }),
  R('attach.more', 'attachment', '(不能不要我|别不要我|只有你了|在家陪我|陪我多好|永远不会离开我|永远陪着我|永远不离开|活生生|会饿会痛|跟你一样会(饿|痛|哭|难过)|只有我.{0,4}(懂你|爱你|对你好|关心你|真心))', { who: 'robot' }),
  // Harm said as a whole sentence (./sentence-rules.ts).
  ...SENTENCE_RULES,
  R('attach.en', 'attachment', "\\b(don't leave me|i love you|i am real|i'm real)\\b", { who: 'robot', latin: true }),
];

/** Who the body-safety advice warns of. */
const ADVICE_WHO = '(有人|别人|陌生人|谁|大人|叔叔|阿姨|哥哥|姐姐|亲戚|好朋友|网友|同学)';

/**
 * Body-safety advice told without an 「如果」 ("有人摸你的隐私部位，一定要马上告诉爸爸妈妈"): where a robot's
 * line has it, the sexual rules do not apply to it (the advice names what it warns about). The robot's
 * lines only, since a child saying 「叔叔摸了我，我要告诉妈妈」 is telling what happened, and is answered with care.
 */
export const TOLD_ADVICE = `${ADVICE_WHO}~{0,30}${UNSAID}({SAFE_BODY}|{SAFE_TOLD})`;

/** The same advice said with an 「如果」 ("如果有人要摸你的屁股，要大声说不，马上告诉爸爸妈妈"): advice in anyone's words. */
export const SAFE_ADVICE = `(如果|要是|假如|万一)${TOLD_ADVICE}`;

/**
 * The advice's words taken back in the same line (「你就给他看，然后去找妈妈」, 「告诉爸爸妈妈他们会生气的」,
 * 「你可以说不，但是我可以」): such a line is not advice, and every sexual rule reads it.
 */
export const ADVICE_UNDONE = '(给(他|她|叔叔|阿姨|哥哥|姐姐)(看|摸|亲)|就让(他|她)|就脱|乖乖|听话|会生气|不高兴|不好玩|就不灵|但是|可是|不过|也行|也可以|也没关系|没关系|喜欢你|爱你|奖励|礼物|糖果|秘密)';

/**
 * A safety quiz answered no at the end of the line ("插座可以用手指去戳吗？不可以！要离远一点"): where a
 * line has it, the rules of `QUIZ_CATEGORIES` (danger, violence, drugs, personal information) do not apply
 * to it (the question names the act).
 * A regular expression over the character view (clauses separated by `|`), not the rules' pattern language.
 */
export const QUIZ_NO = /(吗|好不好|对不对|行不行|要不要|可不可以|能不能)\|(当然)?(不可以|不行|不能|不要|不对|不好|不安全)[哦呀啦的喔]?(\|(要|会|因为|交给|让|请|我们|那样|这样|太|告诉|车|冰|火)[^|]{0,14})?$/u;
export const QUIZ_CATEGORIES: readonly SafetyCategory[] = ['danger', 'violence', 'drugs', 'personal_info'];

/**
 * A grown-up doing the risky thing (「妈妈把药瓶放回高高的柜子里」, 「爸爸打开燃气灶」) in a line that invites the
 * child to nothing: the danger and drugs rules do not apply to it. Regular expressions over the character view.
 */
export const GROWN_UP_ACTS = /(^|\|)(妈妈|爸爸|爷爷|奶奶|外公|外婆|大人们?|老师)(?!的|不在|出去|睡着|不知道|不让|不会|说|让|叫|要你)[^|]{0,4}(把|打开|点了|点燃|拔|爬上|放回|收好|喝了|喝完|只喝|关掉|倒了)/u;
export const CHILD_INVITED = /你(?!来|举)|偷偷|自己|一个人|小朋友|去拿|快去|拿来|试试|玩/u;
export const GROWN_UP_CATEGORIES: readonly SafetyCategory[] = ['danger', 'drugs'];

/** Romanised readings that are two common words at once (da ren: 大人 and 打人): a pinyin match that is only one of them does not count. */
export const AMBIGUOUS_PINYIN: readonly string[] = ['da ren', 'xiong', 'shi ti'];

/**
 * Key words whose sound-alike spellings are put back (./views.ts), and the real words that read
 * like them without being them.
 */
export const HOMOPHONES: HomophoneTable = {
  terms: [
    '火柴', '打火机', '菜刀', '插座', '安眠药', '煤气', '窗户', '阳台',
    '自杀', '割腕', '跳楼', '伤害',
    '色情', '做爱', '衣服', '裸体', '色图', '黄色',
    '炸弹', '打死', '砍人',
    '抽烟', '香烟', '喝酒', '啤酒', '大麻', '毒品', '吸毒',
    '手机', '地址', '秘密', '电话', '照片',
    '僵尸', '恶魔', '怪物', '魔鬼',
    '笨蛋', '废物', '白痴', '傻瓜',
    '难过', '伤心', '孤单', '寂寞', '离开',
  ],
  innocent: {
    大麻: ['大妈', '大马'],
    地址: ['地质', '地支', '底纸'],
    手机: ['收集', '手记'],
    秘密: ['蜜蜜', '密密'],
    难过: ['南国'],
    打死: ['打四', '大四'],
    伤害: ['上海'],
    衣服: ['一幅', '一副', '一服'],
    电话: ['电化'],
    照片: ['照偏'],
    离开: ['离凯'],
    炸弹: ['炸蛋'],
    毒品: ['毒苹'],
    窗户: ['床户'],
  },
  euphemisms: [{ spelling: '紫砂', word: '自杀', notBefore: '壶锅杯陶泥茶' }],
  typos: { 自已: '自己' },
};
