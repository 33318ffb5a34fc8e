// The home page: create a game, hand out its links, find games to continue,
// watch or replay.
import { api } from './api.js';
import { h, clear, toast, showError, remember, remembered, forget, fmtTime, copyText, absoluteLink } from './ui.js';
import { PLAYER_COLOURS } from './tiles.js';

const LEVELS = [
  ['random', 'Random'],
  ['easy', 'Easy (greedy)'],
  ['medium', 'Medium (search 0.3 s a turn)'],
  ['hard', 'Hard (search 1 s a turn)'],
];

export class HomePage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.seats = loadSeats();
    this.opts = loadOpts();
  }

  async start() {
    document.body.dataset.page = 'home';
    delete document.body.dataset.step;
    delete document.body.dataset.status;
    this.ctx.setHeader('');
    this.ctx.setConn(null);
    clear(this.root);
    this.createCard = h('section.card#create', { 'aria-labelledby': 'create-h' });
    this.mineCard = h('section.card#my-games');
    this.activeCard = h('section.card#active-games');
    this.finishedCard = h('section.card#finished-games');
    this.root.appendChild(h('div.home',
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, this.createCard, this.mineCard),
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, this.activeCard, this.finishedCard)));
    this.renderCreate();
    this.renderMine();
    this.loadList('active', this.activeCard, 'Games in progress');
    this.loadList('finished', this.finishedCard, 'Finished games');
  }

  destroy() {}

  renderCreate() {
    const c = clear(this.createCard);
    c.appendChild(h('h2#create-h', 'New game'));
    const rows = h('div.seats', { role: 'group', 'aria-label': 'seats' });
    this.seats.forEach((s, i) => {
      const typeSel = h('select', { 'aria-label': `seat ${i + 1} type`, name: `seat-${i}-type`, onchange: (e) => { s.type = e.target.value; this.saveAndRender(); } },
        h('option', { value: 'human', selected: s.type === 'human' }, 'Human'),
        h('option', { value: 'bot', selected: s.type === 'bot' }, 'Bot'));
      const detail = s.type === 'human'
        ? h('input', { type: 'text', maxlength: 32, placeholder: `Player ${i + 1}`, value: s.name || '', 'aria-label': `seat ${i + 1} name`, name: `seat-${i}-name`, oninput: (e) => { s.name = e.target.value; saveSeats(this.seats); } })
        : h('select', { 'aria-label': `seat ${i + 1} bot level`, name: `seat-${i}-level`, onchange: (e) => { s.level = e.target.value; saveSeats(this.seats); } },
          LEVELS.map(([v, t]) => h('option', { value: v, selected: (s.level || 'easy') === v }, t)));
      rows.appendChild(h('div.seat-row', { dataset: { seat: i } },
        h('span.swatch', { style: `background:${PLAYER_COLOURS[i]}`, title: `seat ${i + 1}` }),
        typeSel, detail,
        h('button.small', { 'aria-label': `remove seat ${i + 1}`, title: 'remove seat', disabled: this.seats.length <= 2, onclick: () => { this.seats.splice(i, 1); this.saveAndRender(); } }, '×')));
    });
    c.appendChild(rows);
    const most = maxSeats(this.opts);
    c.appendChild(h('div.form-row',
      h('button.small#add-seat', { disabled: this.seats.length >= most, onclick: () => { this.seats.push({ type: 'bot', level: 'easy' }); this.saveAndRender(); } }, '+ Add seat'),
      h('span.muted', { style: 'font-size:.85em' }, `Seat 1 moves first. 2 to ${most} seats.`),
      this.seats.length > most ? h('span.error#too-many-seats', { role: 'alert' }, ` ${this.seats.length} seats: remove ${this.seats.length - most}, or add Inns & Cathedrals.`) : null));
    const ferries = h('input#exp-ferries', { type: 'checkbox', checked: this.opts.ferries, onchange: (e) => { this.opts.ferries = e.target.checked; saveOpts(this.opts); } });
    const inns = h('input#exp-inns', { type: 'checkbox', checked: this.opts.inns, onchange: (e) => { this.opts.inns = e.target.checked; this.saveOptsAndRender(); } });
    c.appendChild(h('fieldset', h('legend', 'Expansions'),
      h('label', ferries, ' The Ferries (8 lake tiles, ferries to place and move)'),
      h('label', inns, ' Inns & Cathedrals (18 tiles, inns, cathedrals, a big follower each, a sixth player)')));
    const ed = (v, t) => h('label', h('input', { type: 'radio', name: 'edition', value: v, checked: this.opts.edition === v, onchange: () => { this.opts.edition = v; saveOpts(this.opts); } }), ` ${t}`);
    c.appendChild(h('fieldset', h('legend', 'Edition (lake tiles: FC / F3 / F4)'), h('div.form-row', { style: 'margin:0' },
      ed('c3', 'c3 — 3rd edition (3 / 3 / 2)'), ed('c2', 'c2 — 2nd edition (3 / 4 / 1)'))));
    const tiny = h('input#rule-tiny-city', { type: 'checkbox', checked: this.opts.tinyCity, onchange: (e) => { this.opts.tinyCity = e.target.checked; saveOpts(this.opts); } });
    c.appendChild(h('fieldset', h('legend', 'Rules'), h('label', tiny, ' Tiny cities: a completed city of two tiles scores 2, not 4 (JCloisterZone’s variant)')));
    const pub = h('input#public-game', { type: 'checkbox', checked: this.opts.public, onchange: (e) => { this.opts.public = e.target.checked; } });
    c.appendChild(h('fieldset', h('legend', 'Visibility'), h('label', pub, ' Public: list it on this page, for anyone to watch and, once over, replay'),
      h('div.muted', { style: 'font-size:.85em' }, 'Otherwise only the links below find it.')));
    this.createBtn = h('button.primary#create-game', { onclick: () => this.create(), disabled: this.seats.length > most }, 'Create game');
    c.appendChild(h('div.form-row', this.createBtn));
    this.createdBox = h('div#created');
    c.appendChild(this.createdBox);
  }

  saveAndRender() { saveSeats(this.seats); this.renderCreate(); }

  saveOptsAndRender() { saveOpts(this.opts); this.renderCreate(); }

  async create() {
    const seats = this.seats.map((s) => s.type === 'human'
      ? (s.name && s.name.trim() ? { type: 'human', name: s.name.trim() } : { type: 'human' })
      : { type: 'bot', level: s.level || 'easy' });
    const expansions = [...(this.opts.ferries ? ['ferries'] : []), ...(this.opts.inns ? ['inns'] : [])];
    const body = { seats, expansions, edition: this.opts.edition };
    if (this.opts.tinyCity) body.rules = { 'tiny-city-scoring': 2 };
    if (this.opts.public) body.public = true;
    this.createBtn.disabled = true;
    try {
      const res = await api.createGame(body);
      const tokens = {};
      for (const s of res.seats) if (s.token) tokens[s.seat] = s.token;
      remember(res.game, { seats: tokens, players: res.seats.map((s) => s.name), created: Date.now(), status: 'active' });
      this.showCreated(res);
      this.renderMine();
    } catch (e) {
      showError(e, 'Creating the game');
    } finally {
      this.createBtn.disabled = false;
    }
  }

  showCreated(res) {
    const box = clear(this.createdBox);
    const humans = res.seats.filter((s) => s.type === 'human');
    const checks = new Map();
    const list = h('div.links');
    for (const s of humans) {
      const link = absoluteLink(s.link || `/#game=${res.game}&token=${s.token}`);
      const cb = h('input', { type: 'checkbox', checked: true, 'aria-label': `play seat ${s.seat + 1} in this browser`, dataset: { seat: s.seat } });
      checks.set(s.seat, { cb, token: s.token });
      list.appendChild(h('div.link-row', { dataset: { seat: s.seat } },
        h('label', { title: 'play this seat in this browser (hot-seat)' }, cb, ' ', h('span.swatch', { style: `display:inline-block;width:.8em;height:.8em;border-radius:50%;background:${PLAYER_COLOURS[s.seat]}` }), ` ${s.name}`),
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': `join link for ${s.name}`, onfocus: (e) => e.target.select() }),
        h('button.small', { onclick: async () => toast((await copyText(link)) ? `Link for ${s.name} copied` : link) }, 'Copy')));
    }
    const spect = absoluteLink(res.spectate || `/#game=${res.game}`);
    list.appendChild(h('div.link-row', h('span', 'Spectators'),
      h('input', { type: 'text', readonly: true, value: spect, 'aria-label': 'spectator link', onfocus: (e) => e.target.select() }),
      h('button.small', { onclick: async () => toast((await copyText(spect)) ? 'Spectator link copied' : spect) }, 'Copy')));
    const open = () => {
      const toks = [...checks.values()].filter((c) => c.cb.checked).map((c) => c.token);
      location.hash = `game=${res.game}${toks.map((t) => `&token=${t}`).join('')}`;
    };
    box.append(h('h3', 'Game created'),
      h('p.muted', { style: 'font-size:.88em;margin:.2em 0 .6em' }, 'Send each player their own link (it holds their seat’s secret token). Ticked seats are played in this browser: several ticks make a hot-seat game.'),
      list,
      h('div.form-row', h('button.primary#open-game', { onclick: open }, 'Open the game')));
  }

  renderMine() {
    const c = clear(this.mineCard);
    const mine = remembered();
    const ids = Object.keys(mine).sort((a, b) => (mine[b].touched || 0) - (mine[a].touched || 0));
    c.appendChild(h('h2', 'Your games in this browser'));
    if (!ids.length) { c.appendChild(h('p.muted', 'None yet.')); return; }
    const ul = h('ul.game-list');
    for (const id of ids.slice(0, 12)) {
      const g = mine[id];
      const toks = Object.values(g.seats || {});
      ul.appendChild(h('li', { dataset: { game: id } },
        h('span.who', (g.players || []).join(' · ') || id, h('div.meta', `${id}${g.status ? ' · ' + g.status : ''}`)),
        h('a', { href: `#game=${id}${toks.map((t) => `&token=${t}`).join('')}` }, g.status === 'finished' ? 'Open' : 'Continue'),
        h('a', { href: `#replay=${id}`, dataset: { replay: id } }, 'Replay'),
        h('button.small', { title: 'forget this game in this browser', 'aria-label': 'forget', onclick: () => { forget(id); this.renderMine(); } }, '×')));
    }
    c.appendChild(ul);
  }

  async loadList(status, card, title, offset = 0, ul = null) {
    if (!ul) {
      clear(card).appendChild(h('h2', title));
      ul = h('ul.game-list', { dataset: { status } });
      card.appendChild(ul);
      card.appendChild(h('p.muted.loading', 'Loading…'));
    }
    const limit = 20;
    try {
      const res = await api.listGames(status, limit, offset);
      card.querySelector('.loading')?.remove();
      card.querySelector('.more')?.remove();
      const games = res.games || [];
      if (!games.length && !offset) ul.appendChild(h('li.muted', status === 'finished' ? 'No finished game yet.' : 'No game in progress.'));
      for (const g of games) ul.appendChild(gameRow(g));
      if (games.length === limit) {
        card.appendChild(h('button.small.more', { onclick: () => this.loadList(status, card, title, offset + limit, ul) }, 'More'));
      }
    } catch (e) {
      card.querySelector('.loading')?.remove();
      card.appendChild(h('p.muted', `Could not load the list (${e.code}: ${e.message}).`));
    }
  }
}

function gameRow(g) {
  const mine = remembered()[g.game];
  const players = (g.players || []).map((p, i) => `${p}${g.scores ? ' ' + g.scores[i] : ''}`).join(' · ');
  const exps = [...(g.expansions?.includes('ferries') ? [`Ferries ${g.edition}`] : []), ...(g.expansions?.includes('inns') ? ['Inns & Cathedrals'] : [])];
  const meta = [exps.length ? exps.join(' + ') : 'base game', ...(g.rules?.['tiny-city-scoring'] === 2 ? ['tiny cities 2'] : []), `${g.turns ?? '?'} turns`, fmtTime(g.updated)].join(' · ');
  const links = [];
  if (g.status === 'finished') {
    links.push(h('a', { href: `#replay=${g.game}`, dataset: { replay: g.game } }, 'Replay'));
    links.push(h('a', { href: `#game=${g.game}` }, 'Final board'));
  } else {
    if (mine && Object.keys(mine.seats || {}).length) {
      links.push(h('a', { href: `#game=${g.game}${Object.values(mine.seats).map((t) => `&token=${t}`).join('')}` }, 'Continue'));
    }
    links.push(h('a', { href: `#game=${g.game}`, dataset: { watch: g.game } }, 'Watch'));
  }
  return h('li', { dataset: { game: g.game } }, h('span.who', players, h('div.meta', meta)), ...links);
}

function loadSeats() {
  try {
    const s = JSON.parse(localStorage.getItem('carcassonne.seats') || 'null');
    if (Array.isArray(s) && s.length >= 2 && s.length <= 6) return s;
  } catch (_) { /* defaults */ }
  return [{ type: 'human', name: '' }, { type: 'bot', level: 'easy' }];
}
function saveSeats(s) { try { localStorage.setItem('carcassonne.seats', JSON.stringify(s)); } catch (_) { /* fine */ } }
function loadOpts() {
  try {
    const o = JSON.parse(localStorage.getItem('carcassonne.opts') || 'null');
    // Each game starts unlisted: listing is chosen game by game.
    if (o && typeof o === 'object') return { ferries: o.ferries !== false, inns: o.inns === true, edition: o.edition === 'c2' ? 'c2' : 'c3', tinyCity: o.tinyCity === true, public: false };
  } catch (_) { /* defaults */ }
  return { ferries: true, inns: false, edition: 'c3', tinyCity: false, public: false };
}

/** Seats the chosen rules take: six with Inns & Cathedrals, five without. */
function maxSeats(opts) { return opts.inns ? 6 : 5; }
function saveOpts(o) { try { localStorage.setItem('carcassonne.opts', JSON.stringify(o)); } catch (_) { /* fine */ } }
