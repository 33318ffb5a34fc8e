// Entry point: loads the tile catalogue, then routes on the URL fragment.
//   #                      home: create a game, lists of games
//   #game=ID&token=T...    play the seats of these tokens (several: hot-seat)
//   #game=ID               watch (read-only)
//   #replay=ID&v=N         step through a game
//   #record&v=N            step through a record or .jcz opened in this tab
//   #game=ID&seat=N...     play the signed-in account's seats (no token)
//   #account               sign in or register; the account's page
//   #player=NAME           an account's or a bot level's rating and statistics
//   #ratings               the players' and the bot levels' ratings
import { api } from './api.js';
import { Catalogue, installDefs } from './tiles.js';
import { h, clear, parseHash, showError } from './ui.js';
import { t, LANG } from './i18n.js';
import { HomePage } from './lobby.js';
import { GamePage } from './game.js';
import { openHelp } from './help.js';
import { ReplayPage } from './replay.js';
import { soundToggle } from './sound.js';
import { AccountPage, accountLink, whoAmI } from './account.js';
import { PlayerPage, RatingsPage } from './player.js';

const main = document.getElementById('app');
const titleEl = document.getElementById('page-title');
const connEl = document.getElementById('conn');
let page = null;
let routeKey = null;
let header = '';
let alert = '';

function renderTitle() {
  const base = header ? `${header} · Carcassonne` : 'Carcassonne';
  document.title = alert ? `${alert} · ${base}` : base;
}

const ctx = {
  cat: null,
  setHeader(text) { header = text || ''; titleEl.textContent = header; renderTitle(); },
  /** Something for the player in the tab's title (its turn), or nothing. */
  setAlert(text) { alert = text || ''; renderTitle(); },
  setConn(state) {
    connEl.classList.toggle('hidden', !state);
    connEl.classList.toggle('ok', state === 'open');
    connEl.classList.toggle('bad', state === 'closed' || state === 'replaced');
    connEl.textContent = t(state === 'open' ? 'live' : state === 'connecting' ? 'connecting…' : state === 'closed' ? 'offline, reconnecting…'
      : state === 'replaced' ? 'opened in another tab: reload to play here' : '');
    document.body.dataset.conn = state || '';
  },
};

async function route() {
  const { game, replay, record, tokens: linked, seats, params } = parseHash();
  // The account's seats opened without their tokens act by the session.
  const tokens = [...linked, ...seats.map((s) => `session:${s}`)];
  const account = params.has('account');
  const player = params.get('player');
  const ratings = params.has('ratings');
  const key = account ? 'account' : player ? `player:${player}` : ratings ? 'ratings' : record ? 'record' : replay ? `replay:${replay}` : game ? `game:${game}:${tokens.join(',')}` : 'home';
  // The replay viewer rewrites its own #replay=..&v=N: no reload for that.
  if (key === routeKey && page) return;
  routeKey = key;
  if (page) { try { page.destroy(); } catch (e) { console.error(e); } }
  ctx.setAlert(null);
  for (const d of document.querySelectorAll('dialog[open]')) d.close();
  clear(main);
  if (account) page = new AccountPage(main, ctx);
  else if (player) page = new PlayerPage(main, ctx, player);
  else if (ratings) page = new RatingsPage(main, ctx);
  else if (record) page = new ReplayPage(main, ctx, { local: true, version: Number(params.get('v')) || null });
  else if (replay) page = new ReplayPage(main, ctx, { game: replay, version: Number(params.get('v')) || null });
  else if (game) page = new GamePage(main, ctx, { game, tokens });
  else page = new HomePage(main, ctx);
  try { await page.start(); } catch (e) { console.error(e); showError(e); }
}

async function boot() {
  // The page's own words, in the UI's language.
  document.documentElement.lang = LANG;
  const sub = document.querySelector('header.top .brand span');
  if (sub) sub.textContent = `· ${t('The Ferries')}`;
  const help = document.getElementById('help-btn');
  help.title = t('rules and keys (?)');
  help.setAttribute('aria-label', t('rules and keys'));
  document.getElementById('help-btn').addEventListener('click', () => openHelp());
  // The mute switch for the table's sounds, beside the help; before them,
  // "Sign in" or the account's name.
  help.before(soundToggle(h, t));
  document.getElementById('conn').after(accountLink());
  // Who is signed in (an answer the first page may wait for, not the tiles).
  const asked = whoAmI();
  for (let attempt = 0; ; attempt++) {
    try {
      const data = await api.tiles();
      ctx.cat = new Catalogue(data.tiles);
      installDefs(ctx.cat);
      break;
    } catch (e) {
      clear(main).appendChild(h('div.card', { style: 'margin:2em auto;max-width:30em' },
        h('h2', 'Cannot load the tiles'), h('p', `${e.code || 'error'}: ${e.message}`), h('p.muted', 'Retrying…')));
      await new Promise((r) => setTimeout(r, Math.min(10000, 1000 * 2 ** attempt)));
    }
  }
  window.addEventListener('hashchange', route);
  await asked;
  await route();
  document.body.dataset.ready = '1';
}

boot();
