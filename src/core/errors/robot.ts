/**
 * The robot area's errors (the USB link, the port chooser, commands).
 */
import type { ErrorTable } from './types.ts';

export const robotErrors = {
  robot_unplugged: {
    child: '机器人断开了，我先在屏幕上陪你玩。',
    parent: 'The robot was unplugged or its USB link was lost while a command was running.',
  },
  robot_ack_timeout: {
    child: '机器人没有回答我，我先在屏幕上做吧。',
    parent: 'The robot did not acknowledge a command within 300 ms, three tries in a row.',
  },
  robot_done_timeout: {
    child: '机器人做得太久了，我们先继续吧。',
    parent: 'The robot acknowledged a command but never reported it done (expected time + 2 s).',
  },
  robot_link_stale: {
    child: '机器人好像睡着了，我先在屏幕上陪你玩。',
    parent: 'No heartbeat answer from the robot for 3 s; the link is being reopened.',
  },
  robot_rebooted: {
    child: '机器人刚刚重新启动了，我们接着玩。',
    parent: 'The robot restarted (new boot id in its hello) while a command was running.',
  },
  robot_no_hello: {
    child: '机器人没有打招呼，请大人检查一下线。',
    parent: 'The port opened but the robot sent no hello within 3 s (wrong device, wrong firmware or baud rate).',
  },
  robot_protocol_mismatch: {
    child: '这个机器人的程序版本不对，请大人更新一下。',
    parent: 'The robot speaks a protocol version this app does not support (see its hello.proto).',
  },
  robot_refused: {
    child: '机器人说它现在做不了这个。',
    parent: 'The robot refused the command (NAK); the detail has the device error code.',
  },
  robot_failed: {
    child: '机器人没做完这个动作。',
    parent: 'The robot reported the command as failed (done with ok=false); the detail has the device error code.',
  },
  robot_picture_incomplete: {
    child: '画到一半卡住了，我重新画一次。',
    parent: 'The robot did not confirm every piece of a drawing, after the protocol\'s retries, while the USB link stayed up. The half picture was cleared from its screen (a blank canvas) so it never shows a half drawing.',
  },
  robot_card_not_shown: {
    child: '屏幕上的字没显示出来，我念给你听。',
    parent: 'The robot did not confirm a text or progress card, sent twice, while the USB link stayed up.',
  },
  robot_not_connected: {
    child: '机器人还没连上。',
    parent: 'No robot link is open.',
  },
  robot_port_busy: {
    child: '机器人被别的地方占用了，请大人关掉其他页面再试。',
    parent: 'Opening the serial port failed (another tab or program may hold it).',
  },
  robot_no_serial: {
    child: '这台平板连不了机器人，我就在屏幕上陪你玩。',
    parent: 'This browser has neither Web Serial nor WebUSB (e.g. iPad Safari); the on-screen robot is used.',
  },
  robot_pick_cancelled: {
    child: '没有选到机器人，可以再点一次连接。',
    parent: 'The port chooser was closed without picking a device.',
  },
} satisfies ErrorTable;
