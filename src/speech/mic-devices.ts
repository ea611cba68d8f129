/**
 * Microphone choice: the robot (or any USB headset) may expose an audio input; the parent picks
 * it in settings and recognition hears that track (`start(track)`), otherwise the tablet's own mic.
 */
export interface AudioInput {
  deviceId: string;
  label: string;
  /** Looks like the robot or a USB/headset mic (suggested first). */
  external: boolean;
}

const EXTERNAL = /(robot|机器人|usb|headset|耳机|耳麦|uac|gadget)/i;

export function describeInputs(devices: readonly Pick<MediaDeviceInfo, 'kind' | 'deviceId' | 'label'>[]): AudioInput[] {
  return devices
    .filter((d) => d.kind === 'audioinput' && d.deviceId && d.deviceId !== 'default' && d.deviceId !== 'communications')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `麦克风 ${i + 1}`, external: EXTERNAL.test(d.label) }))
    .sort((a, b) => Number(b.external) - Number(a.external));
}

/** Lists inputs; labels appear only after the microphone permission was granted once. */
export async function listAudioInputs(nav: Navigator = navigator): Promise<AudioInput[]> {
  if (!nav.mediaDevices?.enumerateDevices) return [];
  try {
    return describeInputs(await nav.mediaDevices.enumerateDevices());
  } catch {
    return [];
  }
}

/** A live track of the chosen input (kept while the app runs), or null for the default microphone. */
export function trackSource(getDeviceId: () => string, nav: Navigator = navigator): () => Promise<MediaStreamTrack | null> {
  let current: { id: string; track: MediaStreamTrack } | null = null;
  return async () => {
    const id = getDeviceId();
    if (!id || !nav.mediaDevices?.getUserMedia) return null;
    if (current && current.id === id && current.track.readyState === 'live') return current.track;
    current?.track.stop();
    current = null;
    const stream = await nav.mediaDevices.getUserMedia({ audio: { deviceId: { exact: id }, echoCancellation: true } });
    const track = stream.getAudioTracks()[0];
    if (!track) return null;
    current = { id, track };
    return track;
  };
}
