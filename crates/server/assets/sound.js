// The table's sounds, made in the browser with Web Audio (nothing is
// fetched): a chime when the player's turn comes, a wooden knock when a
// tile is laid, a softer tick for a figure, a little rising run when
// something scores. On unless the player mutes them (kept in this browser).
//
// Browsers let a page make sound only after a gesture of its user: the
// audio context is made, or woken, on the first click, tap or key, and
// sounds asked for before that are simply not played.

const KEY = 'carcassonne.sound';

/** Whether sounds are wanted (on unless turned off in this browser). */
export function soundWanted() { try { return localStorage.getItem(KEY) !== '0'; } catch (_) { return true; } }
export function setSoundWanted(on) { try { localStorage.setItem(KEY, on ? '1' : '0'); } catch (_) { /* private mode */ } }

let ctx = null;

function unlock() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try {
    if (!ctx) ctx = new AC();
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  } catch (_) { ctx = null; }
}

if (typeof window !== 'undefined') {
  for (const ev of ['pointerdown', 'keydown', 'touchend']) window.addEventListener(ev, unlock, { capture: true, passive: true });
  // What was played, for the tests (names only).
  window.__sounds = [];
}

/** One note: an oscillator of `type` at `freq` Hz (gliding to `to`), from `at` s, fading over `len` s. */
function note(freq, { at = 0, len = 0.4, type = 'sine', gain = 0.12, to = null } = {}) {
  const t0 = ctx.currentTime + at;
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + len * 0.6);
  // A quick attack and an exponential fall: a struck sound, no click.
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.012);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g).connect(ctx.destination);
  o.start(t0);
  o.stop(t0 + len + 0.05);
}

const SOUNDS = {
  // Two bell-like notes, a fourth apart.
  turn: () => { note(659, { len: 0.7, gain: 0.1 }); note(880, { at: 0.14, len: 0.9, gain: 0.09 }); },
  // A low knock that drops in pitch, with a short high click on top.
  place: () => { note(190, { len: 0.16, type: 'triangle', gain: 0.32, to: 85 }); note(1400, { len: 0.03, type: 'square', gain: 0.02 }); },
  figure: () => { note(520, { len: 0.09, type: 'triangle', gain: 0.16, to: 330 }); },
  score: () => { [523, 659, 784].forEach((f, i) => note(f, { at: 0.05 + i * 0.08, len: 0.32, type: 'triangle', gain: 0.09 })); },
};

/** Plays sound `name` after `delay` ms, if sounds are on and the page may sound. */
export function playSound(name, delay = 0) {
  if (!soundWanted() || !SOUNDS[name]) return false;
  if (!ctx || ctx.state === 'closed') return false;
  const go = () => {
    // Muted meanwhile: a sound due later stays silent too.
    if (!soundWanted()) return;
    try {
      SOUNDS[name]();
      window.__sounds.push(name);
    } catch (_) { /* no sound, no harm */ }
  };
  if (delay) setTimeout(go, delay); else go();
  return true;
}

/** A loudspeaker, with sound waves (on) or crossed out (off): drawn, no font needed. */
function speaker(on) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d, fill) => {
    const p = document.createElementNS(NS, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', fill ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', fill ? '1' : '2');
    p.setAttribute('stroke-linecap', 'round');
    svg.appendChild(p);
  };
  path('M3 9.5v5h4l5 4v-13l-5 4z', true);
  if (on) { path('M15.5 9a4 4 0 0 1 0 6'); path('M18 6.5a7.5 7.5 0 0 1 0 11'); } else path('M16 9.5l5 5M21 9.5l-5 5');
  return svg;
}

/** The header's mute switch (a loudspeaker, crossed out when muted); turning it on plays a knock to hear it. */
export function soundToggle(h, t) {
  const b = h('button.small#sound-toggle', { type: 'button' });
  const show = () => {
    const on = soundWanted();
    b.replaceChildren(speaker(on));
    b.setAttribute('aria-pressed', String(on));
    b.setAttribute('aria-label', t(on ? 'sounds on (tap to mute)' : 'sounds off (tap to turn on)'));
    b.title = t(on ? 'sounds on (tap to mute)' : 'sounds off (tap to turn on)');
  };
  b.addEventListener('click', () => {
    setSoundWanted(!soundWanted());
    show();
    if (soundWanted()) { unlock(); playSound('place'); }
  });
  show();
  return b;
}
