// Accounts, optional (docs/api.md, Accounts): the header's "Sign in" or the
// account's name, the account page (#account: sign in or register; then
// its rating, the games where it is the account's turn, the account's
// games, a new password, signing out here or everywhere, deleting the
// account), and who is signed in, for the other pages.
// The session is an HttpOnly cookie: the page never sees it, and asks the
// server (GET /api/me) who it is.
import { api, serverNow } from './api.js';
import { h, clear, toast, showError, remembered, fmtTime, clockText, notifyToggle, notifyTurn } from './ui.js';
import { t, tn } from './i18n.js';
import { botName } from './words.js';
import { ratingLine } from './player.js';

/** The signed-in account ({ name, created }), or null; `undefined` until asked. */
let account;
/** The account's games as GET /api/me last said. */
let games = [];
const listeners = new Set();

/**
 * Whether this browser may be signed in: set when it signs in, cleared when
 * the server says it is not. (The cookie itself is out of a script's reach.)
 * A browser that never signed in asks nothing at each page.
 */
const HINT = 'carcassonne.account';
function hinted() { try { return localStorage.getItem(HINT) === '1'; } catch (_) { return true; } }
function hint(on) { try { if (on) localStorage.setItem(HINT, '1'); else localStorage.removeItem(HINT); } catch (_) { /* private mode */ } }

/** Who is signed in: asks the server once (and again with `fresh`). */
export async function whoAmI(fresh = false) {
  if (account !== undefined && !fresh) return account;
  if (!fresh && !hinted()) {
    account = null;
    games = [];
    return account;
  }
  try {
    const me = await api.me();
    account = me.account;
    games = me.games || [];
    hint(true);
  } catch (e) {
    // Not signed in (or the server cannot say): play by link, as ever.
    account = null;
    games = [];
    if (e.code === 'not_signed_in') hint(false);
    else if (e.code !== 'network') console.warn(e);
  }
  for (const f of listeners) f(account);
  return account;
}

export function signedIn() { return account || null; }
export function myGames() { return games; }
export function onAccount(f) { listeners.add(f); return () => listeners.delete(f); }

/** The header's link: "Sign in", or the account's name; both open #account. */
export function accountLink() {
  const a = h('a#account-link.account-link', { href: '#account' });
  const render = (acc) => {
    a.textContent = acc ? acc.name : t('Sign in');
    a.title = acc ? t('your account') : t('sign in or register');
    a.dataset.signedIn = acc ? '1' : '';
  };
  render(account || null);
  onAccount(render);
  return a;
}

/** The link to open an account's game here: this browser's tokens if it has them, else its seats by the session. */
export function gameLink(g) {
  const mine = remembered()[g.game];
  const toks = Object.values(mine?.seats || {});
  if (toks.length) return `#game=${g.game}${toks.map((x) => `&token=${x}`).join('')}`;
  return `#game=${g.game}${(g.mine || []).map((s) => `&seat=${s}`).join('')}`;
}

/** Whether the game (an entry of GET /api/me) waits for one of the account's seats. */
function myTurn(g) { return g.status === 'active' && g.to_act != null && (g.mine || []).includes(g.to_act); }

/** The account's games, as list items (the home page and the account page). */
export function gameItems(list) {
  return list.map((g) => h('li', { dataset: { game: g.game, mine: (g.mine || []).join(',') } },
    h('span.who', (g.players || []).map((p, i) => `${botName(p)}${(g.mine || []).includes(i) ? ' ★' : ''}${g.scores ? ' ' + g.scores[i] : ''}`).join(' · ') || g.game,
      myTurn(g) ? [' ', h('span.tag.you.my-turn', t('your turn'))] : null,
      h('div.meta', `${t(g.status)} · ${t('{n} turns', { n: g.turns ?? '?' })} · ${fmtTime(g.updated)}`)),
    h('a', { href: gameLink(g), dataset: { open: g.game } }, g.status === 'finished' ? 'Open' : 'Continue'),
    h('a', { href: `#replay=${g.game}` }, 'Replay')));
}

/** How often the "Your turn" card asks the server again while it is shown. */
const TURNS_POLL_MS = 20000;

/**
 * The "Your turn" card (the account page, the player's own page): the
 * account's games where one of its seats is to act, most urgent first (the
 * nearest deadline, then those waiting longest), each with the time left
 * if it has a clock, linked to its seats. While shown it follows the
 * server, and a game that comes to wait for the player while the tab is
 * behind is told in the tab's title and, if the player asked for it, by a
 * notification. start() and stop() with the page.
 */
export class YourTurn {
  constructor(ctx) {
    this.ctx = ctx;
    this.card = h('section.card#your-turn', { 'aria-labelledby': 'your-turn-h' });
    this.seen = new Set(yourTurnGames(games).map((g) => g.game));
    this.render();
  }

  start() {
    this.tick = setInterval(() => this.showTimes(), 1000);
    this.poll = setInterval(() => this.refresh(), TURNS_POLL_MS);
    this.onVisible = () => { if (document.visibilityState === 'visible') this.ctx.setAlert(null); };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  stop() {
    clearInterval(this.tick);
    clearInterval(this.poll);
    if (this.onVisible) document.removeEventListener('visibilitychange', this.onVisible);
  }

  async refresh() {
    // A moment without the server changes nothing shown; a session ended is said everywhere.
    let me;
    try { me = await api.me(); } catch (e) {
      if (e.code === 'not_signed_in') { this.stop(); await whoAmI(true); }
      return;
    }
    games = me.games || [];
    const waiting = yourTurnGames(games);
    const fresh = waiting.filter((g) => !this.seen.has(g.game));
    this.seen = new Set(waiting.map((g) => g.game));
    this.render();
    if (fresh.length && document.visibilityState === 'hidden') {
      const who = t('Your turn');
      this.ctx.setAlert(`▶ ${who}`);
      for (const g of fresh) notifyTurn(t('Carcassonne: {who}', { who }), playersWords(g), `turn-${g.game}`);
    }
  }

  render() {
    const list = yourTurnGames(games);
    clear(this.card).append(h('h2#your-turn-h', 'Your turn'));
    if (!list.length) this.card.appendChild(h('p.muted#your-turn-none', 'No game waits for you now.'));
    else {
      this.card.appendChild(h('ul.game-list#your-turn-list', list.map((g) => h('li', { dataset: { game: g.game, seat: g.to_act, deadline: g.deadline ?? '' } },
        h('span.who', playersWords(g),
          h('div.meta', t('Turn {n}', { n: (g.turns ?? 0) + 1 }), ' · ', g.deadline ? h('span.turn-left', { dataset: { deadline: g.deadline } }) : t('no clock'))),
        h('a', { href: `#game=${g.game}${(g.mine || []).map((s) => `&seat=${s}`).join('')}`, dataset: { play: g.game } }, 'Play')))));
    }
    const toggle = notifyToggle();
    if (toggle) this.card.appendChild(h('div.form-row', toggle));
    this.showTimes();
  }

  /** Each game's time left, by the server's clock. */
  showTimes() {
    const now = serverNow();
    for (const e of this.card.querySelectorAll('.turn-left[data-deadline]')) {
      const left = Number(e.dataset.deadline) - now;
      const text = left > 0 ? t('{time} left', { time: clockText(left) }) : t('time is up');
      if (e.textContent !== text) e.textContent = text;
      e.classList.toggle('low', left < 60000);
    }
  }
}

/** The account's games where one of its seats is to act, most urgent first. */
export function yourTurnGames(list) {
  return list.filter(myTurn).sort((a, b) => (a.deadline ?? Infinity) - (b.deadline ?? Infinity) || (a.updated || 0) - (b.updated || 0));
}

/** A game's players, the account's marked: "Ann ★ · Bot 2 (easy)". */
function playersWords(g) {
  return (g.players || []).map((p, i) => `${botName(p)}${(g.mine || []).includes(i) ? ' ★' : ''}`).join(' · ') || g.game;
}

/** After signing in: the server said yes, but did the browser keep the cookie? */
async function checkKept() {
  const who = await whoAmI(true);
  if (!who) {
    toast(t('Signed in, but this browser did not keep the session cookie: the server sends it over HTTPS only. Over plain HTTP, start it with --insecure-cookies (docs/deploy.md).'), { error: true, code: 'cookie', timeout: 0 });
  }
  return who;
}

const PASSWORD_RULE = 'At least 12 characters, not a common password nor your name: a few words work well.';

export class AccountPage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
  }

  async start() {
    document.body.dataset.page = 'account';
    this.ctx.setHeader(t('Account'));
    this.ctx.setConn(null);
    await whoAmI(true);
    this.render();
  }

  destroy() { this.turns?.stop(); }

  render() {
    const c = clear(this.root);
    const wrap = h('div.home.account-page');
    c.appendChild(wrap);
    this.turns?.stop();
    this.turns = null;
    if (!account) {
      wrap.append(this.signInCard(), this.registerCard());
      return;
    }
    this.turns = new YourTurn(this.ctx);
    this.turns.start();
    wrap.append(
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, this.summaryCard(), this.turns.card, this.gamesCard()),
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, this.passwordCard(), this.deleteCard()));
  }

  /** A form whose submit runs `act` with its button disabled meanwhile, its error shown in it. */
  form(id, fields, button, act) {
    const err = h('div.error', { role: 'alert', id: `${id}-error` });
    const btn = h('button.primary', { type: 'submit', id: `${id}-submit` }, button);
    const f = h('form.account-form', {
      id,
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        delete err.dataset.code;
        btn.disabled = true;
        try { await act(); } catch (x) {
          err.textContent = `${x.message}`;
          err.dataset.code = x.code || 'error';
        } finally { btn.disabled = false; }
      },
    }, ...fields, h('div.form-row', btn), err);
    return f;
  }

  field(id, label, attrs) {
    const input = h('input', { id, name: id, required: true, ...attrs });
    return [h('label.field', { for: id }, label, input), input];
  }

  signInCard() {
    const [nameRow, name] = this.field('signin-name', 'Name', { type: 'text', autocomplete: 'username', maxlength: 32 });
    const [pwRow, pw] = this.field('signin-password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: 128 });
    return h('section.card#signin', h('h2', 'Sign in'),
      h('p.muted', 'An account keeps your seats: signed in on any device, your games are listed and play without their links. You can always play without one.'),
      this.form('signin-form', [nameRow, pwRow], 'Sign in', async () => {
        await api.signIn(name.value, pw.value);
        pw.value = '';
        if (await checkKept()) this.done(t('Signed in as {name}.', { name: account.name }));
      }));
  }

  registerCard() {
    const [nameRow, name] = this.field('register-name', 'Name', { type: 'text', autocomplete: 'username', maxlength: 32 });
    const [pwRow, pw] = this.field('register-password', 'Password', { type: 'password', autocomplete: 'new-password', maxlength: 128 });
    const [againRow, again] = this.field('register-again', 'Password again', { type: 'password', autocomplete: 'new-password', maxlength: 128 });
    return h('section.card#register', h('h2', 'Register'),
      h('p.muted', 'Your name is shown to the players of your games; no two accounts share one, whatever its case.'),
      h('p.muted', PASSWORD_RULE),
      this.form('register-form', [nameRow, pwRow, againRow], 'Register', async () => {
        if (pw.value !== again.value) throw Object.assign(new Error(t('The two passwords differ.')), { code: 'mismatch' });
        await api.register(name.value, pw.value);
        pw.value = again.value = '';
        if (await checkKept()) this.done(t('Welcome, {name}: your account is made and you are signed in.', { name: account.name }));
      }));
  }

  done(message) {
    toast(message, { key: 'account' });
    this.render();
  }

  summaryCard() {
    return h('section.card#account-summary', h('h2', account.name),
      h('p.muted', t('Account made {when}.', { when: fmtTime(account.created) })),
      ratingLine(account.name),
      h('div.form-row',
        h('button#sign-out', { onclick: async () => {
          try { await api.signOut(); } catch (e) { showError(e, 'Signing out'); }
          await whoAmI(true);
          this.done(t('Signed out.'));
        } }, 'Sign out'),
        h('button#sign-out-everywhere', { onclick: async () => {
          try {
            const r = await api.signOutEverywhere();
            await whoAmI(true);
            this.done(tn(r.ended, 'Signed out everywhere ({n} session ended).', 'Signed out everywhere ({n} sessions ended).'));
          } catch (e) { showError(e, 'Signing out everywhere'); }
        } }, 'Sign out everywhere')),
      h('p.muted', { style: 'font-size:.85em' }, 'Signing out everywhere ends every session of this account, on every device, this one included.'));
  }

  gamesCard() {
    const c = h('section.card#account-games', h('h2', 'Your games'));
    if (!games.length) c.appendChild(h('p.muted', 'None yet: the seats you create or take by a link while signed in are listed here.'));
    else c.appendChild(h('ul.game-list', gameItems(games)));
    return c;
  }

  passwordCard() {
    const [oldRow, old] = this.field('password-old', 'Current password', { type: 'password', autocomplete: 'current-password', maxlength: 128 });
    const [newRow, nw] = this.field('password-new', 'New password', { type: 'password', autocomplete: 'new-password', maxlength: 128 });
    const [againRow, again] = this.field('password-again', 'New password again', { type: 'password', autocomplete: 'new-password', maxlength: 128 });
    return h('section.card#change-password', h('h2', 'Change the password'),
      h('p.muted', PASSWORD_RULE),
      h('p.muted', 'Every other session of this account ends; this device stays signed in.'),
      this.form('password-form', [oldRow, newRow, againRow], 'Change the password', async () => {
        if (nw.value !== again.value) throw Object.assign(new Error(t('The two passwords differ.')), { code: 'mismatch' });
        await api.changePassword(old.value, nw.value);
        old.value = nw.value = again.value = '';
        await whoAmI(true);
        this.done(t('The password is changed; your other sessions have ended.'));
      }));
  }

  deleteCard() {
    const [pwRow, pw] = this.field('delete-password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: 128 });
    const sure = h('input#delete-sure', { type: 'checkbox', required: true });
    return h('section.card#delete-account', h('h2', 'Delete the account'),
      h('p.muted', 'Your name, password and sessions are deleted. Your games stay, playable by their links, your seats keep their names.'),
      this.form('delete-form', [pwRow, h('label.check', sure, ' ', t('Yes, delete my account'))], 'Delete the account', async () => {
        await api.deleteAccount(pw.value);
        pw.value = '';
        await whoAmI(true);
        location.hash = '';
        toast(t('The account is deleted.'), { key: 'account' });
      }));
  }
}
