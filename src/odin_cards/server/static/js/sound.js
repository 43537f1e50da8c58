// Table sounds made in the browser with Web Audio: short synthesized tones, no files.
// Nothing is created before the first user gesture (browsers refuse audio before one, and
// a page should not make noise unasked); volume and mute come from the preferences.

const TUNES = {
  // [frequency Hz, start s, length s, wave]
  turn: [
    [660, 0, 0.12, "sine"],
    [880, 0.12, 0.18, "sine"],
  ],
  play: [[220, 0, 0.07, "triangle"]],
  take: [
    [520, 0, 0.06, "triangle"],
    [390, 0.06, 0.08, "triangle"],
  ],
  round: [
    [392, 0, 0.1, "sine"],
    [523, 0.1, 0.16, "sine"],
  ],
  hand: [
    [523, 0, 0.12, "sine"],
    [659, 0.12, 0.12, "sine"],
    [784, 0.24, 0.22, "sine"],
  ],
  game: [
    [523, 0, 0.14, "square"],
    [659, 0.14, 0.14, "square"],
    [784, 0.28, 0.14, "square"],
    [1047, 0.42, 0.4, "square"],
  ],
};

export class Sound {
  /** getPrefs(): {sound: bool, volume: 0..1}, read at each sound. */
  constructor(getPrefs) {
    this.getPrefs = getPrefs;
    this.context = null; // the AudioContext, once the user has touched the page
    this.played = []; // names of the sounds played, for the tests and debugging
    const unlock = () => {
      if (!this.context && (globalThis.AudioContext || globalThis.webkitAudioContext)) {
        this.context = new (globalThis.AudioContext || globalThis.webkitAudioContext)();
      }
      if (this.context && this.context.state === "suspended") this.context.resume();
    };
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true });
  }

  /** Play one of TUNES (silently skipped before the first gesture, or when muted). */
  play(name) {
    const prefs = this.getPrefs();
    const tune = TUNES[name];
    if (!tune || !prefs.sound || prefs.volume <= 0 || !this.context) return;
    this.played.push(name);
    const ctx = this.context;
    const now = ctx.currentTime;
    for (const [freq, start, length, wave] of tune) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      const peak = 0.25 * prefs.volume * (wave === "square" ? 0.4 : 1);
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(peak, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  }
}
