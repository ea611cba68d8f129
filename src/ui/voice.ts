/** The screens' way to the device's voices and microphones (声音设置): src/speech/voices.ts, src/speech/mic-devices.ts. */
export { chineseVoices } from '../speech/voices.ts';
export { listAudioInputs, type AudioInput } from '../speech/mic-devices.ts';
