/**
 * The conformance kit's screen's way to the kit: run on a USB robot's port
 * (src/robot/conformance/port-wire.ts) or on the simulated firmware (src/robot/sim/).
 */
export { runKitOnPort } from '../../robot/conformance/port-wire.ts';
export { FirmwareSim } from '../../robot/sim/firmware.ts';
export { SimPort } from '../../robot/sim/sim-port.ts';
