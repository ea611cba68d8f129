import { describe, expect, it } from 'vitest';
import { fitCommands } from '../../../src/core/robot/fit-commands.ts';
import { cmd, type Command } from '../../../src/core/robot/messages.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { fixedRandom } from '../../support/robot/random.ts';

const hello = (h: ConstructorParameters<typeof FirmwareSim>[0]['hello']) => new FirmwareSim({ random: fixedRandom(), hello: h }).helloBody();

const line: Command[] = [
  cmd('face.set', { expr: 'surprised' }),
  cmd('head.gesture', { name: 'nod', times: 2 }),
  cmd('screen.text', { text: '答对了' }),
  cmd('head.gesture', { name: 'shake' }),
];

describe('commands fitted to a robot', () => {
  it('before any hello every command goes as it is', () => {
    expect(fitCommands(null, line)).toEqual(line);
    expect(fitCommands(undefined, line)).toEqual(line);
  });

  it('a robot that lists everything gets every command unchanged', () => {
    expect(fitCommands(hello({}), line)).toEqual(line);
  });

  it('an expression the robot lacks is shown as neutral; a gesture it lacks is left out; the rest keeps its order', () => {
    const robot = hello({ expressions: ['neutral', 'happy'], gestures: ['shake'] });
    expect(fitCommands(robot, line)).toEqual([
      cmd('face.set', { expr: 'neutral' }),
      cmd('screen.text', { text: '答对了' }),
      cmd('head.gesture', { name: 'shake' }),
    ]);
    expect(fitCommands(robot, [cmd('face.set', { expr: 'happy' })])).toEqual([cmd('face.set', { expr: 'happy' })]);
  });

  it('a robot without neutral shows no face at all for an expression it lacks', () => {
    const robot = hello({ expressions: ['happy'], gestures: [] });
    expect(fitCommands(robot, line)).toEqual([cmd('screen.text', { text: '答对了' })]);
  });
});
