// Gentle WebAudio cues for the TV: a fanfare for a right call and a buzz for a wrong one, a rising triad for points,
// a low tick for the last seconds. Muted state is remembered. The AudioContext starts on the first
// user gesture (browsers refuse sound before one).
const KEY = 'quatro.screen.muted';
let ctx = null;
let muted = localStorage.getItem(KEY) === '1';

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch { return null; }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

export function unlock() { if (!muted) audio(); }
export function isMuted() { return muted; }
export function setMuted(m) {
  muted = !!m;
  localStorage.setItem(KEY, muted ? '1' : '0');
  if (!muted) audio();
}

function tone(freq, start, length, gain = 0.12, type = 'sine') {
  const a = audio();
  if (!a || a.state !== 'running') return;
  const t0 = a.currentTime + start;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.02);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(g).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.05);
}

export function cue(kind) {
  if (muted) return;
  if (kind === 'call') { tone(660, 0, 0.35); tone(880, 0.12, 0.5); }
  else if (kind === 'point') { tone(523, 0, 0.4, 0.1); tone(659, 0.1, 0.4, 0.1); tone(784, 0.2, 0.6, 0.1); }
  else if (kind === 'win') { [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.14, 0.7, 0.1)); }
  else if (kind === 'tick') { tone(440, 0, 0.12, 0.05, 'triangle'); }
  // A call's verdict: a bright rising fanfare when right, a low falling buzz when wrong (told apart by ear).
  else if (kind === 'right') { tone(784, 0, 0.25, 0.12); tone(988, 0.1, 0.3, 0.12); tone(1319, 0.22, 0.6, 0.12); }
  else if (kind === 'wrong') { tone(330, 0, 0.35, 0.08, 'sawtooth'); tone(247, 0.25, 0.6, 0.08, 'sawtooth'); }
  else if (kind === 'start') { tone(392, 0, 0.3, 0.08); tone(587, 0.1, 0.45, 0.08); }
}
