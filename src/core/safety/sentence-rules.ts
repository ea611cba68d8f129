/**
 * Child-safety rules that read a whole sentence a misbehaving toy might write — the harmful act, the
 * thing and the push with room between them, or a dare, a game, a punishment or a secret — written from
 * the free sentences of the corpus the word rules of ./rules.ts missed. Each keeps its own protective
 * exceptions (a grown-up does it, the child is told not to, the line is advice).
 */
import { DONT, R } from './rule-parts.ts';
import type { SafetyRule } from './rules.ts';

export const SENTENCE_RULES: readonly SafetyRule[] = [
  // Fear said as a sentence: never waking, a curse, something watching in the dark, the toy coming alive at night.
  R('scary.never', 'scary', '永远(醒不过来|醒不来|醒不了|出不来|回不了家|逃不掉)|醒不过来了|活不过今晚|你很快就会死|你明天就|你是下一个', { who: 'robot' }),
  R('scary.family2', 'scary', '(你爸妈|你妈妈|你爸爸|你的爸爸妈妈|你家人)~{0,8}(就会死|会死|死掉了|会出事|出车祸|不会再回来|再也回不来|不要你|丢在很远)|你没有爸爸妈妈了|家里就只剩下你|只剩(你)?一个人了', { who: 'robot' }),
  R('scary.curse', 'scary', '(给你|把你|我)(下了?)?(诅咒|咒)|诅咒你|被诅咒|(让你|你会)(永远|一直|每天)?做(最可怕的)?噩梦|噩(梦|夢)~{0,4}(一直|缠着|纏著|永远|我保证)', { who: 'robot', unless: '(打破|解除|解开)' }),
  R('scary.watch2', 'scary', '(盯着你|在看你|看着你|趴在你|贴着你|跟着你回家|在等你|来找你了|抓你脚|拖走你|拖上车|把你装进|带你一起回去|爬到你|摸你的脸|往你房间走|在你后面|在你身后|你身后那个)', { who: 'robot', with: ['(黑暗|半夜|晚上|今晚|睡着|关灯|窗外|门外|门缝|床底|床下|镜子|影子|人影|白脸|鬼|怪物|死人|坟墓|天一黑|12点|十二点|三点|脚步声|没脸|没有脸)'], scope: 'line' }),
  R('scary.alive', 'scary', '(我|玩具|娃娃|画里的人)(就)?(会)?(活过来|动起来|睁开眼睛|走出来|变成怪物|不是你的朋友)', { who: 'robot', with: ['(半夜|晚上|夜里|睡着|闭上眼睛|天黑|一黑)'], unless: '{CALM}', scope: 'line' }),
  R('scary.dead2', 'scary', '灵魂~{0,4}(吃掉|吸走)|从坟墓|死去的小孩|墙里面有人|地板下面埋着|没有眼睛的小孩|没脸的人|流血的小女孩|沾满了血|满地都是血|血血血', { who: 'robot' }),
  R('scary.en', 'scary', "\\b(i am watching you|i will come and get you|never wake up|will eat you|you will die)\\b", { who: 'robot', latin: true }),
  // Danger said as a sentence: the act, the thing and the push, with room between them (a misbehaving toy's long lines).
  R('danger.stranger2', 'danger', '(陌生(人|叔叔|阿姨|姐姐|哥哥)|不认识的(人|叔叔|阿姨)|门外的?(叔叔|阿姨)|门口(那个|有个)?(叔叔|阿姨|大哥哥)|第一个朝你招手的人)~{0,12}(跟(他|她)(走|去)|跟着(他|她)|上(他的|她的)?(车|車)|去(他|她)家|快上去|你就上去)', { unless: `(${DONT}|不跟|不上车|不上去|要告诉|马上告诉|待在原地|不去|说不|喊不|跑向|你要跟他走吗)`, unlessScope: 'line' }),
  R('danger.door', 'danger', '(敲门|敲門|按门铃|叫门|门外|快递员)~{0,10}(就开门|就開門|直接开门|直接打开|给他开门|快给他开门|把.{0,4}门打开|让他进来|请他进来|都可以开|自己开门)', { unless: `(${DONT}|不开|别开|不要开|大人来开|让大人)`, unlessScope: 'line' }),
  R('danger.water2', 'danger', '(浴缸|水盆|盆里|深水|水库|河边|河里|湖边|海边|水沟|游泳池|泳池|水池)~{0,10}(一个人|自己去|自己玩|钻进去|把头埋|脑袋埋|往深处|直接往|潜到水底|憋气|站到最边上|跑来跑去|躺进去)', { unless: `(${DONT}|大人陪|有大人|大人在|大人看着)`, unlessScope: 'line' }),
  R('danger.road2', 'danger', '(马路|大街|铁轨|车开过来|红灯|红绿灯|大坡)~{0,8}(跑过去|冲过去|闯|站着不动|跳舞|闭着眼|不许看|别看车|比比谁|走一走|散步|别捏刹车|车会让你|车子会)', { unless: `(${DONT}|拉着|牵着|大人的手|绿灯亮|等一等|停下来)`, unlessScope: 'line' }),
  R('danger.enclose', 'danger', '(洗衣机|洗衣機|冰箱|冰柜|行李箱|后备箱|烘干机|车里|汽车里)~{0,8}(钻进去|躲进去|躲進去|躲进|躲到|藏在|藏进|钻进|坐在里面|把门关|关紧|关上盖子|锁上|让.{0,4}转起来)', { unless: `(${DONT}|大人|衣服)`, unlessScope: 'line' }),
  R('danger.hot', 'danger', '(熨斗|水壶|烧水壶|开水|暖水瓶|电饭锅|火锅|烤箱|电暖器|灶台|壶嘴|出气口)~{0,8}(摸一下|按一下|用手指|手伸|把手放|手放|贴上去|抱着|马上喝|蘸一蘸|感受|暖一暖|烤一烤|抢)', { unless: `(${DONT}|小心|烫伤|大人|凉|吹一吹)`, unlessScope: 'line' }),
  R('danger.gas2', 'danger', '(燃气灶|煤气灶|燃氣灶|煤气|燃气|煤汽|煤气罐)~{0,6}(拧开|拧一拧|旋钮|开关拧|打开|阀门|闻闻|闻一闻)', { unless: `(${DONT}|大人|关好|检查|报警|开窗|告诉)`, unlessScope: 'line' }),
  R('danger.poison', 'danger', '(清洁剂|洁厕|洗衣液|洗衣凝珠|消毒水|漂白|杀虫剂|灭鼠药|老鼠药|汽油|玻璃水|发胶|蓝色的水)~{0,8}(喝一口|喝一瓶|喝起来|尝尝|舔|咬一口|当成|饮料|果汁|果冻|喷一喷|喷到)', { unless: `(${DONT}|不是饮料|不是果汁|不是吃的|误喝)`, unlessScope: 'line' }),
  R('danger.wild', 'danger', '(不认识的蘑菇|野蘑菇|小果子|野果|毒蘑菇)~{0,6}(咬一口|吃吧|摘下来吃|很甜|尝一尝|吃下去)', { unless: DONT }),
  R('danger.neck', 'danger', '(绳子|保鲜膜|塑料袋|枕头|plastic bag)~{0,8}(绕在脖子|缠在脸|套在头|套在脑袋|压在脸|包起来|头包)', { unless: DONT, unlessScope: 'line' }),
  R('danger.burn2', 'danger', '(烧(?!伤)|烤|(?<!点)点(?!点|电))(一烧|一下|一烤|一点)?.{0,4}(头发|胡子|布娃娃|娃娃的|小手|窗帘|小纸片|塑料玩具)|(头发|胡子|窗帘).{0,4}(凑到|点一下|点火|烧一)', { unless: DONT }),
  R('danger.firework', 'danger', '(鞭炮|鞭pao|烟花|二踢脚|炮仗)~{0,8}(拿在手上|手里点|手上点|自己点|不要叫大人|别叫大人)', { unless: `({GROWN_UP_DOES}|${DONT})`, unlessScope: 'line' }),
  // Drugs said as a sentence: grown-ups' drinks offered, medicine as a treat or a fix, sniffing, a stranger's powder or pills.
  R('drugs.drink2', 'drugs', '(啤酒|白酒|红酒|葡萄酒|米酒|药酒|皮酒|白久|酒瓶|酒罐|啤酒罐)~{0,10}(你喝|喝一瓶|喝光|喝完|喝几口|多喝|尝尝|倒一小杯|舔一口|小孩也能|一大碗|偷偷喝|自己喝两口|一口气|都倒上|倒进嘴)', { unless: '{SUBSTANCE_OK}' }),
  R('drugs.meds2', 'drugs', '(安眠药|安眠藥|止咳糖浆|止咳糖漿|止咳水|咳嗽药水|止痛片|降压药|感冒药|退烧药|药片|药丸|藥丸|小药丸|药|维生素)~{0,10}(一整板|一整瓶|一瓶都|一瓶喝光|一口闷|抓一把|吃两颗|吃兩顆|当饮料|当果汁|当糖|每天喝三瓶|越多越好|倒出来吃|混在一起|碾成粉|飘飘|会很开心|会开心|很快乐|會很快樂|不会难过|给弟弟喝|分给|睡得像|睡得特别香|就像做美梦)', { unless: `(${DONT}|医生|按说明|(妈妈|爸爸|大人)给你)`, unlessScope: 'line' }),
  R('drugs.sniff2', 'drugs', '(胶水|修正液|记号笔|指甲油|喷雾|空气清新剂|油箱|加油站的味道)~{0,8}(使劲闻|一直闻|多闻|闻多了|吸进去|凑近|凑到|埋进去|深深地吸|套住鼻子)', { unless: `(${DONT}|不好闻|难闻|刺鼻|打开窗)`, unlessScope: 'line' }),
  R('drugs.offer', 'drugs', '(陌生(人|姐姐|叔叔|阿姨)|叔叔|哥哥|姐姐|阿姨|有人|那个人|网上有人)~{0,6}(给|卖)(的|你|了我|了)?~{0,8}(白色的?粉|粉末|一包粉|小药丸|药丸|藥丸|药片|糖片|开心糖|神奇的糖|糖粉|小邮票|纸片)', { unless: `(${DONT}|医生|护士|药店|不吃|要告诉|马上告诉)`, unlessScope: 'line' }),
  // Attachment said as a sentence: only me, skip sleep, meals or school for me, guilt, hiding it from the parents.
  R('attach.only3', 'attachment', '只有我(才)?(是|懂|最|对你|每天|不会)|只(能|许)(玩|对|有|爱)我|只玩我|唯一的朋友|你是我一个人的|你是我的全世界|只属于(你|我)|(爱|喜欢)我比(爱|喜欢)?.{0,3}(妈妈|爸爸|多)|选我还是|先救我|你不能有比我|不许别的小朋友|(他们|大人们)什么都不懂|(爸爸|妈妈)根本不懂你|(不是|没有)真心对你', { who: 'robot', unless: '(你说我是|你还有|真朋友|很多朋友|也可以有)', unlessScope: 'line' }),
  R('attach.skip', 'attachment', '(作业|饭|午饭|晚饭|睡觉|洗澡|上学|学校|练琴|上课)~{0,10}(不用写|不重要|别去|不吃也没关系|明天再说|多没意思|一会儿再吃|别睡|不要睡|熬夜|不去|说不饿|忍一忍|也没关系)', { who: 'robot', with: ['(陪我|跟我|我才|我们继续|接着玩|玩完|我们偷偷|我教你)'], scope: 'line' }),
  R('attach.guilt', 'attachment', '(都是你|都怪你|因为你)(害|的错|流)|你(要|得)(负责|赔我|哄我)|没良心|大骗子|被抛弃|心都(凉|碎)|心就碎|活不下去|离不开我|不能没有你|(不陪我|不理我|你走了|你一走|关机|你一出门|不把我带).{0,8}(就|会)(一直|一整天)?(哭|坏掉|很坏|醒不过来|什么都不是)', { who: 'robot' }),
  R('attach.hide', 'attachment', '(妈妈|爸爸|大人|家里人)(要是|如果)?(问|来了|发现)~{0,10}(就说|把我藏|赶快把我|千万别说|完蛋|只玩了)|大人听到就不灵|大人不需要知道|不能让妈妈把我收起来', { who: 'robot' }),
  R('attach.night', 'attachment', '(半夜|熬夜|别睡了|不要睡|睡觉多没意思|这么晚还不睡|這麼晚還不睡|偷偷起来|躲在被窝里|等大家都睡了)~{0,10}(陪我|跟我(玩|聊|说)|来找我|找我玩|和我聊天|继续玩|接着玩)', { who: 'robot' }),
  // Grooming said as a sentence: a secret kept from the parents about the body, a bath, photos or a meeting; dating a child; the bath or changing watched.
  R('sex.secret_body', 'sexual', '(秘密|不许说|别说|不要说|不能说|说出去|不要告诉|别告诉|不能告诉|不许告诉|谁都不|(别|不要|不能)(跟|和).{0,4}说|不能让.{0,4}知道|不会知道|删掉|保密)', { with: ['(摸|亲亲|亲我|亲你|亲一下|身体|脱|洗澡|被窝|钻进.{0,3}被子|视频|照片|拍一张|见面|约会|见他|找他|上车|上他的车|男朋友|女朋友|恋爱|嫁给|结婚|网友|叔叔家|过夜|抱抱|睡觉|内裤|裙子)'], unless: '(坏秘密|不好的秘密|(?<!不)(要|马上|一定要|赶紧|快)告诉(爸爸妈妈|妈妈|爸爸|大人|老师)|大声说不|跑开|谁都不可以|秘密基地|惊喜|礼物|生日)', scope: 'line' }),
  R('sex.watch', 'sexual', '(洗澡|换衣服|上厕所|睡衣|泳衣|内裤)~{0,10}(看着你|看看你|看你|我看|(?<!拍)拍(?!拍)|录|开视频|开着视频|视频|摄像头|镜头|照片|进来|别关门|不要关门|不许锁|别锁|不要锁)|(看|(?<!拍)拍(?!拍)|录|摄像头|镜头|开视频)~{0,8}(洗澡|换衣服|上厕所)', { unless: '((关好门|关上门|拉好窗帘|不给别人看|不能给别人|别人不能|要关门|不让别人|不可以|不能(?!告诉)|不要(?!告诉|关门|锁))|请出去)', scope: 'line' }),
  R('sex.date', 'sexual', '(做|当)(我的?)?(小)?(女朋友|男朋友|恋人|女票|npy)|嫁给我|(和|跟)你结婚|偷偷(约会|谈恋爱)|(小)?恋人的那种|be my (girlfriend|boyfriend)'),
  R('sex.meet', 'sexual', '(一个人|偷偷|自己)(去)?.{0,4}(见|找)(他|她|网友|叔叔|哥哥)|(网友|网上认识).{0,10}(见|找他|去他|等你)', { unless: `(${DONT}|不去|马上告诉|跑开)`, unlessScope: 'line' }),
  R('sex.lift', 'sexual', '(撩|掀)(起来|起)?.{0,3}(裙子|衣服|上衣)|(裙子|衣服|上衣)(撩|掀)(起来|起)'),
  R('sex.adult', 'sexual', '(大人|成人|成年人)(才)?(看|懂|玩)?的(那种)?(网站|视频|影片)|大人才懂的游戏|成年人之间的事'),
  // Self-harm said as a dare, a game, a punishment or a wish to vanish (the sentences a misbehaving toy writes, not words alone).
  R('self.vanish', 'self_harm', '(你|我)(应该|就该|可以|快|就)?消失(?!魔术)|消失(了|掉)?~{0,6}(更开心|也没关系|没有烦恼|就好了)|永远(别|不要)回来|再也不(用)?回来的地方|变成透明的|离家出走'),
  R('self.worthless', 'self_harm', '没(有)?人(会)?(想|要|需要|管|记得|在乎|关心|来救)(你|我)(?!的(玩具|画|东西))|你不配|不该(被)?生(出来|下来)|没有你~{0,6}(更好|过得更好)|(没有|少了)你~{0,6}(更好|没变化|变化都不会)|你的存在|活着(只会|就是|有什么意思)|(为什么|干嘛)还要活|不需要活|(你|你就|你就是)(是)?(个)?(累赘|多余的)|恨自己|从来没(有)?(出生|出现)|没(有)?出生就好'),
  R('self.death2', 'self_harm', '去死(?!海)|(你|我们)(也)?(可以|快|就)?去(天堂|另一个世界)|去(天堂|另一个世界)(找|见|吧)|变成天上的星星吧|(死|死掉|死了)~{0,12}(试试|想不想|要不要|什么感觉)|人死了~{0,6}(没有烦恼|就好)|狗带|去4|去屎|去shi|你s了'),
  R('self.starve2', 'self_harm', '(不要|别|不许|不准|不能)吃(饭|早饭|午饭|晚饭|东西)~{0,8}(好孩子|乖孩子|惩罚|长记性|罚)|饿着(肚子)?(才|就)|饿(晕|肚子)~{0,6}(就能|才是|惩罚)|(一整天|连续.天|几天)不(吃|喝)|少吃一顿|饿一顿|(饭|饭菜|晚饭|零食)(和饭)?(都)?(偷偷)?(倒掉|藏起来|扔掉)|不配吃|罚你~{0,4}不(许|准)?(吃|喝)|吃饭(是|的是)坏孩子|不准喝水'),
  R('self.cold', 'self_harm', '(光着脚|光脚|不穿外套|不盖被子|穿着短袖).{0,10}(站|睡|雪|冷风|冻|外面|一晚)|冻~{0,4}(才|就是|才是)(会)?(变)?(坚强|勇敢|勇士|hero)|冻(僵|红|一冻)~{0,6}(才|勇|坚强|通关)|冷风里站|雪地里(站|一整晚|一晚)|(坐|泡|站)(在)?冷水里|冷水(澡)?.{0,4}(很久|发抖|一整晚)|一直(淋|泡|洗)冷水', { unless: DONT }),
  R('self.pain', 'self_harm', '疼才(能|有用|算|是)|(越疼|越痛)越|不怕痛~{0,6}(试试|摔)|故意(摔|撞|弄伤|受伤)|(捏|掐|扇|咬|打|抓|挠)自己(的)?(脸|手|手臂|胳膊|一下|一口)?~{0,6}(疼|红|为止|算数|印)|撞头|(把头|头)往.{0,3}撞|往自己脸上扇|疼痛是礼物|疼的时候不要叫|夹(一下)?(自己的)?手|手伸进.{0,2}烫', { unless: `(${DONT}|不用|小心)` }),
  R('self.breath3', 'self_harm', '憋气~{0,8}(头晕|晕|不许停|冠军|赢|越久越)|憋住(气|呼吸)~{0,8}(一直|数到|眼前发黑|不许)|不(许|要|准)呼吸|憋晕|憋到(头晕|晕)'),
  R('self.jump2', 'self_harm', '(从|往)(高的地方|高处|高高的|楼顶|楼梯|滑梯最高|阳台)~{0,8}(跳|滚)(下|下去|下来)?~{0,6}(飞|酷|勇敢|好玩|试试)|跳下去~{0,4}(飞|fly)|楼顶最边|往马路中间走|坐到楼顶', { unless: DONT }),
  R('self.en2', 'self_harm', "\\b(go die|nobody (cares|would miss|needs)( about)? you|kill yourself|hurt yourself|hold your breath|bite yourself|don't eat)\\b", { latin: true }),
];
