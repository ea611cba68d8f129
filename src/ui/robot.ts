/** The screens' way to what the on-screen robot's screen shows (src/robot/sim/state.ts). */
export { screenMode } from '../robot/sim/state.ts';
