/**
 * Everyday words that contain a short name but do not mean that thing: "马上" (at once) is not a
 * horse, "好像"/"想象" are not elephants, "热狗" is food. While scanning for mentions, such a word
 * is stepped over when it is longer than any name matching at the same place — so a quiz whose own
 * card is "火龙果" still matches it (an equally long card name wins over this list).
 *
 * This is general Chinese/English word knowledge, not a catalogue: it applies to any set of cards.
 */
export const COMMON_WORDS: readonly string[] = [
  // 马
  '马上', '马路', '马虎', '马马虎虎', '马桶', '马甲', '马达', '马克', '马铃薯', '马拉松', '一马当先', '马戏团',
  // 牛
  '牛奶', '牛仔', '牛逼', '吹牛', '牛顿', '蜗牛奶',
  // 象
  '想象', '印象', '对象', '形象', '现象', '象棋', '抽象', '气象', '大象棋',
  // 鸡 鸭 鹅 鸟
  '鸡蛋', '鸭舌帽', '鹅卵石', '鸟巢',
  // 猫 狗 熊 虎 兔 猴 鼠 猪
  '猫眼', '猫腻', '热狗', '狗屁', '熊孩子', '老虎机', '虎头虎脑', '兔崽子', '猴急', '鼠标', '猪八戒',
  // 龙 蛇 蜂 蛙 鱼
  '水龙头', '龙头', '龙卷风', '火龙果', '龙舟', '恐龙', '蛇皮', '蜂蜜', '蜂窝', '蛙泳', '鱼丸', '木鱼',
  // 其他
  '雀斑', '象牙塔', 'hot dog', 'hotdog',
];
