/**
 * Words said while a game is still busy are never thrown away, in Chromium: while a game is still
 * busy with the previous input (a game that draws until the test lets it go), the mic and the text
 * box say the robot is busy, a guess typed and a guess spoken then both get 「请稍等」 and are both
 * judged, in order, once the game is free. With recognition out of reach (offline), a tap on the
 * mic shows the note and the button goes back from 「在听」.
 */
import { expect, test } from '@playwright/test';
import { startRemoteGameServer, type GameLogic } from '../../examples/remote-game/server.ts';
import { deferred } from '../support/deferred.ts';
import { idle, openApp, say, spoken, type, waitSpoken } from './support/child.ts';

// The service worker registers here (playwright.config.ts blocks it by default): a tap on the mic offline, with the app kept by its service worker as in use.
test.use({ serviceWorkers: 'allow' });

test('a guess typed and a guess spoken while the game is still busy are both kept and judged afterwards', async ({ page }) => {
  // A game that draws for as long as the test wants: after its first sentence it stays busy with
  // the start until the test lets it go (the kept words wait in the arcade, whatever the game).
  const drawing = deferred();
  const heard: string[] = [];
  const game: GameLogic = {
    async play(t) {
      if (t.kind === 'start') {
        t.say('我来画一个小动物，你猜猜是什么！');
        await drawing.promise;
        return { text: '画好啦！这是什么动物呀？', ended: false };
      }
      if (t.kind === 'end') return { text: '下次再玩！', ended: true };
      heard.push(t.text);
      return { text: `不是${t.text.replace(/^是|吗$/g, '')}哦！再猜猜看。`, ended: false };
    },
  };
  const server = await startRemoteGameServer({ port: 0, game });
  try {
    await openApp(page, { hash: 'settings' });
    await page.getByTestId('remote-address').fill(server.url);
    await page.getByTestId('remote-add').click();
    await expect(page.getByTestId('remote-added')).toContainText('已添加');
    await page.getByTestId('nav-arcade').click();
    const n = (await spoken(page)).length;
    await type(page, '我们玩猜动物叫声吧');
    await waitSpoken(page, /我来画一个小动物/, n);
    // Both ways in say the robot is busy, and both still take words.
    await expect(page.getByTestId('current-game')).toContainText('游戏在想');
    await expect(page.getByTestId('mic-button')).toHaveAttribute('data-busy', '1');
    await expect(page.getByTestId('text-input')).toHaveAttribute('placeholder', /你说的话我会记着/);
    await type(page, '是小猫吗');
    await waitSpoken(page, /请稍等/, n);
    await say(page, '是小狗吗');
    await waitSpoken(page, /请稍等.*请稍等/, n);
    expect(heard).toEqual([]);
    drawing.resolve();
    // The game's question comes, then each guess is judged, in the order said.
    const said = await waitSpoken(page, /不是小狗哦/, n);
    expect(said).toMatch(/这是什么动物呀？.*不是小猫哦！再猜猜看。.*不是小狗哦！/);
    expect(heard).toEqual(['是小猫吗', '是小狗吗']);
    await idle(page);
    await expect(page.getByTestId('mic-button')).not.toHaveAttribute('data-busy', '1');
  } finally {
    drawing.resolve();
    await server.close();
  }
});

test('offline, with recognition that needs the network: a tap on the mic shows the note and the button leaves 在听', async ({ page, context }) => {
  await openApp(page, { speech: { recognition: 'network' } });
  await context.setOffline(true);
  try {
    await page.getByTestId('mic-button').click();
    await expect(page.getByTestId('speech-note')).toContainText('语音识别要联网才能用，请在下面打字。');
    await expect(page.getByTestId('mic-button')).not.toHaveAttribute('data-state', 'listening');
    await expect(page.getByTestId('mic-button')).not.toHaveAttribute('aria-label', '在听');
    // The text box still works.
    const n = (await spoken(page)).length;
    await type(page, '你好');
    await waitSpoken(page, /你好呀/, n);
  } finally {
    await context.setOffline(false);
  }
});
