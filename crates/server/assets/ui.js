// Small DOM helpers, messages and what this browser remembers.
import { ERROR_HELP } from './api.js';
import { t, tr } from './i18n.js';

/** h('div.cls#id', {attrs}, children...) */
export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(tag);
  const e = document.createElement(m ? m[1] : tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') e.classList.add(part.slice(1));
      else e.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'text') e.textContent = tr(v);
    else if ((k === 'title' || k === 'aria-label' || k === 'placeholder') && typeof v === 'string') e.setAttribute(k, tr(v));
    else if (k in e && typeof v !== 'string') e[k] = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.appendChild(c instanceof Node ? c : document.createTextNode(typeof c === 'string' ? tr(c) : String(c)));
  }
}

/** A touch screen without a mouse: hints say "tap" and leave the keys out. */
export function isTouch() {
  try { return matchMedia('(hover: none) and (pointer: coarse)').matches; } catch (_) { return false; }
}

/** The text with its first letter upper-case (a word from the dictionary opening a line). */
export function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

export function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

/**
 * A message; errors stay until closed or replaced. Clicks go through a
 * message to what is under it (only its × takes them). Beside a board they
 * never stand over it (its tiles, spots, buttons and the feature inspector
 * stay free): on a wide screen at the foot of the side panel, on a phone at
 * the bottom of the screen, below the board.
 */
export function toast(text, { error = false, code = null, timeout = error ? 9000 : 3500, key = null } = {}) {
  let host = document.getElementById('toasts');
  if (!host) { host = h('div#toasts', { role: 'status', 'aria-live': 'polite' }); document.body.appendChild(host); }
  placeToasts(host);
  if (key) for (const old of host.querySelectorAll(`[data-key="${key}"]`)) old.remove();
  const box = h('div.toast', { class: `toast${error ? ' error' : ''}`, dataset: { key: key || '', code: code || '' } },
    code ? h('span.code', code) : null,
    h('span.msg', text),
    h('button.close', { 'aria-label': 'close', onclick: () => box.remove() }, '×'));
  host.appendChild(box);
  while (host.children.length > 4) host.firstChild.remove();
  if (timeout) setTimeout(() => box.remove(), timeout);
  return box;
}

// A window turned or resized: the messages shown move with the board.
if (typeof window !== 'undefined') window.addEventListener('resize', () => { const host = document.getElementById('toasts'); if (host) placeToasts(host); });

function placeToasts(host) {
  const side = document.querySelector('.board-wrap') && document.querySelector('.game > .side');
  const beside = !!side && !matchMedia('(max-width: 780px)').matches;
  host.classList.toggle('beside-board', beside);
  if (!beside) { host.style.left = host.style.width = ''; return; }
  const r = side.getBoundingClientRect();
  host.style.left = `${Math.round(r.left + 8)}px`;
  host.style.width = `${Math.round(r.width - 16)}px`;
}

/** Show an ApiError (or anything thrown) with its typed code. */
export function showError(err, context = '') {
  const code = err && err.code ? err.code : 'error';
  const help = ERROR_HELP[code] ? t(ERROR_HELP[code]) : null;
  const msg = (err && err.message) || String(err);
  const text = `${context ? t(context) + ': ' : ''}${msg}${help && !msg.includes(help) ? ' — ' + help : ''}`;
  return toast(text, { error: true, code, key: 'err' });
}

// ---------- what this browser remembers ----------
const KEY = 'carcassonne.games.v1';

/** { [game]: { seats: { [seat]: token }, names: {...}, created, players } } */
export function remembered() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch (_) { return {}; }
}

export function remember(game, patch) {
  const all = remembered();
  const cur = all[game] || { seats: {} };
  const next = { ...cur, ...patch, seats: { ...cur.seats, ...(patch.seats || {}) }, touched: Date.now() };
  all[game] = next;
  // Keep the 60 most recent games.
  const keys = Object.keys(all).sort((a, b) => (all[b].touched || 0) - (all[a].touched || 0));
  for (const k of keys.slice(60)) delete all[k];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (_) { /* private mode */ }
  return next;
}

export function forget(game) {
  const all = remembered();
  delete all[game];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (_) { /* private mode */ }
}

/** Parse the URL fragment: #game=ID&token=T&token=T2, #game=ID&seat=N (the account's), #replay=ID&v=N, #record&v=N, #account, #player=NAME, #ratings */
export function parseHash() {
  const raw = location.hash.replace(/^#/, '');
  const p = new URLSearchParams(raw);
  const seats = p.getAll('seat').filter((s) => /^\d{1,2}$/.test(s)).map(Number);
  return { params: p, game: p.get('game'), replay: p.get('replay'), record: p.has('record'), tokens: p.getAll('token').filter(Boolean), seats };
}

/**
 * Time left on a clock, short: "2 d 3 h" (a day or more), "5:04:09" (an
 * hour or more), "9:41", and with `tenths` under 10 s "0:09.4". Whole
 * seconds are rounded up, so that a clock reads 0:00 only once it has run
 * out; tenths down.
 */
export function clockText(ms, tenths = false) {
  const left = Math.max(0, ms);
  if (tenths && left < 10000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const s = Math.ceil(left / 1000);
  if (s >= 86400) {
    const hours = Math.floor(s / 3600);
    return t('{d} d {h} h', { d: Math.floor(hours / 24), h: hours % 24 });
  }
  const mmss = `${Math.floor(s / 60) % 60}:${String(s % 60).padStart(2, '0')}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, '0')}` : mmss;
}

export function fmtTime(unix) {
  if (!unix) return '';
  const d = new Date(unix * 1000);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (_) {
    const ta = h('textarea', { style: 'position:fixed;opacity:0' }, text);
    document.body.appendChild(ta); ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (_) { ok = false; }
    ta.remove();
    return ok;
  }
}

export function absoluteLink(link) {
  return new URL(link, location.origin + '/').href;
}

// ---------- the player's turn, told while the tab is behind ----------
const NOTIFY_KEY = 'carcassonne.notify';

/** Whether the player asked for a notification when its turn comes (kept in this browser) and the browser allows it. */
export function notifyOn() {
  let wanted = false;
  try { wanted = localStorage.getItem(NOTIFY_KEY) === '1'; } catch (_) { /* private mode */ }
  return wanted && typeof Notification !== 'undefined' && Notification.permission === 'granted';
}
function setNotify(on) { try { localStorage.setItem(NOTIFY_KEY, on ? '1' : '0'); } catch (_) { /* private mode */ } }

/**
 * The switch for those notifications (null where the browser has none): the
 * browser's permission is asked for by its click, a gesture of the
 * player's, never before; the choice is kept in this browser.
 */
export function notifyToggle() {
  if (typeof Notification === 'undefined') return null;
  const b = h('button.small#notify-toggle', {
    title: 'a notification when your turn comes while this tab is not in front',
    onclick: async () => {
      if (notifyOn()) { setNotify(false); show(); return; }
      let p = Notification.permission;
      if (p === 'default') { try { p = await Notification.requestPermission(); } catch (_) { p = 'denied'; } }
      if (p === 'granted') setNotify(true); else toast(t('This browser does not allow notifications for this page.'), { key: 'notify' });
      show();
    },
  });
  const show = () => {
    b.setAttribute('aria-pressed', String(notifyOn()));
    b.textContent = t(notifyOn() ? 'Turn notifications: on' : 'Notify me of my turn');
  };
  show();
  return b;
}

/** A notification of the player's turn, if asked for and allowed (`tag`: one a game); a click on it brings the tab in front. */
export function notifyTurn(title, body, tag) {
  if (!notifyOn()) return;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (_) { /* notifications unavailable here */ }
}

/**
 * The page of a game the server does not have: what happened, and the way
 * back.
 */
export function renderMissing(root, id) {
  document.body.dataset.status = 'missing';
  const mine = remembered()[id];
  clear(root).appendChild(h('div.card.missing#missing', { role: 'alert', style: 'margin:2em auto;max-width:34em' },
    h('h2', 'No such game'),
    h('p', t('This server has no game with the id “{id}”.', { id: String(id).slice(0, 40) })),
    h('p.muted', 'The link may be mistyped or cut short, or the game was made on another server or before its database was reset.'),
    h('div.form-row',
      h('a.button.primary#missing-home', { href: '#' }, 'Back to the home page'),
      mine ? h('button.small#missing-forget', { onclick: () => { forget(id); location.hash = ''; } }, 'Forget it in this browser') : null)));
}
