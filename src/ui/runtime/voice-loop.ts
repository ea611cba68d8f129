/**
 * The half-duplex voice loop over the recognizer and the speaking queue, with hands-free barge-in
 * (recorded with what the robot was saying; the cut line itself is recorded by the speaking path as
 * spoken but not completed, as after a tap) and the echo guard. The microphone is let go while the
 * app is in the background.
 */
import type { MainAgent } from '../../arcade/main-agent.ts';
import { BargeIn } from '../../speech/barge-in.ts';
import { VoiceLoop } from '../../speech/voice-loop.ts';
import type { TraceRecorder } from '../../trace/recorder.ts';
import type { SpeechParts } from './speech.ts';

export function createVoiceLoop(s: SpeechParts, agent: MainAgent, recorder: TraceRecorder): { loop: VoiceLoop; bargeIn: BargeIn } {
  const { speech, settings } = s;
  let lastSpoken: string | null = null;
  agent.subscribe((e) => {
    if (e.type === 'spoken') lastSpoken = e.text;
  });
  // What the robot is saying right now (the subtitle), for the echo guard after a barge-in.
  let saying: string | null = null;
  speech.subscribe((e) => {
    if (e.type === 'utterance-start') saying = e.text;
    else if (e.type === 'idle') saying = null;
  });
  const bargeIn = new BargeIn({ vad: s.vad, speech, allowed: () => settings.current.bargeIn, now: () => performance.now() });
  const loop = new VoiceLoop({
    mic: s.recognizer,
    speech,
    mode: settings.current.micMode,
    onInput: (text) => agent.handle(text),
    lastSpoken: () => lastSpoken,
    activity: bargeIn,
    stopSpeaking: () => agent.stopTalking(),
    subtitle: () => saying,
  });
  bargeIn.onBargeIn(() => recorder.record({ kind: 'speech', at: Date.now(), source: 'speech', name: 'barge-in', data: { text: saying } }));
  const visibility = () => bargeIn.setVisible(document.visibilityState === 'visible');
  document.addEventListener('visibilitychange', visibility);
  visibility();
  return { loop, bargeIn };
}
