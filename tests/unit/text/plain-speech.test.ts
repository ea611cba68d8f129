import { describe, expect, it } from 'vitest';
import { plainSpeech } from '../../../src/core/text/plain-speech.ts';
import { SpeakingPath } from '../../../src/arcade/speaking-path.ts';
import { FakeSpeaker } from '../arcade/fakes.ts';

describe('plain speech: markup and control characters are stripped before speech and subtitles', () => {
  it.each([
    ['<b>太棒了</b>，<a href="https://x.example">点这里</a>！', '太棒了，点这里！'],
    ['<script>alert(1)</script>你好', '你好'],
    ['**答对啦**！`代码`', '答对啦！代码'],
    ['小猫&amp;小狗 &lt;b&gt;', '小猫&小狗'],
    ['你\u200b好\u202e呀\u0007', '你好呀'],
    ['第一行\n第二行', '第一行 第二行'],
    ['50 小了！', '50 小了！'],
  ])('%s → %s', (raw, plain) => {
    expect(plainSpeech(raw)).toBe(plain);
  });

  it('the speaking path says and shows the plain text', async () => {
    const speaker = new FakeSpeaker();
    const voice = new SpeakingPath({ speaker });
    await voice.say('<i>猜猜</i>我是谁？', 'game_agent');
    expect(speaker.texts()).toEqual(['猜猜我是谁？']);
  });
});
