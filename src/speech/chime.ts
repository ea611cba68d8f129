/**
 * The soft "I heard you" sound of the thinking cue: two short sine notes, quiet, made with Web
 * Audio (no sound file). Quietly does nothing where audio cannot play (no AudioContext, or the
 * browser still waits for a tap before allowing sound).
 */
type AudioCtor = new () => AudioContext;

export interface Chime {
  play(volume: number): boolean;
}

export function createChime(scope: { AudioContext?: AudioCtor; webkitAudioContext?: AudioCtor }): Chime {
  let ctx: AudioContext | null = null;
  return {
    play(volume) {
      const Ctor = scope.AudioContext ?? scope.webkitAudioContext;
      if (!Ctor) return false;
      try {
        ctx ??= new Ctor();
        if (ctx.state === 'suspended') void ctx.resume();
        const t0 = ctx.currentTime;
        for (const [i, freq] of [660, 880].entries()) {
          const osc = ctx.createOscillator();
          const gain = ctx.createGain();
          osc.type = 'sine';
          osc.frequency.value = freq;
          const start = t0 + i * 0.09;
          gain.gain.setValueAtTime(0, start);
          gain.gain.linearRampToValueAtTime(0.12 * volume, start + 0.02);
          gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
          osc.connect(gain).connect(ctx.destination);
          osc.start(start);
          osc.stop(start + 0.18);
        }
        return true;
      } catch {
        return false;
      }
    },
  };
}
