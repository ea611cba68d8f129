/** The screens' way to how long a remote game may think before the arcade stops waiting (src/a2a/remote-settings.ts). */
export { REMOTE_WAIT_SECONDS, remoteWaitSeconds, setRemoteWaitSeconds } from '../a2a/remote-settings.ts';
