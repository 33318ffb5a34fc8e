// The home page: the lobby (tables.js: open tables, quick match), create a
// game (rated or not), hand out its links, find games to continue, watch or
// replay; the way to the ratings.
import { api } from './api.js';
import { h, clear, showError, remember, remembered, forget, fmtTime } from './ui.js';
import { COLOUR_HEX, COLOUR_NAMES, setSeatColours } from './tiles.js';
import { t } from './i18n.js';
import { botName, LADDER, expansionWords } from './words.js';
import { signedIn, myGames, gameItems } from './account.js';
import { LobbyCard, clockFields } from './tables.js';

const LEVELS = [
  ['random', 'Random'],
  ['beginner', 'Beginner'],
  ['easy', 'Easy'],
  ['medium', 'Medium'],
  ['hard', 'Hard'],
  ['expert', 'Expert (2.5 s a turn)'],
];
/** The bots' ladder: the levels that have a rating, the only ones a rated game may seat. */
const RATED_LEVELS = new Set(LADDER);

export class HomePage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.seats = loadSeats();
    this.opts = loadOpts();
  }

  async start() {
    document.body.dataset.page = 'home';
    setSeatColours(null);
    delete document.body.dataset.step;
    delete document.body.dataset.game;
    delete document.body.dataset.status;
    this.ctx.setHeader('');
    this.ctx.setConn(null);
    clear(this.root);
    this.createCard = h('section.card#create', { 'aria-labelledby': 'create-h' });
    this.mineCard = h('section.card#my-games');
    this.accountCard = h('section.card#account-games-home');
    this.activeCard = h('section.card#active-games');
    this.finishedCard = h('section.card#finished-games');
    this.openCard = h('section.card#open-record');
    this.lobby = new LobbyCard();
    const ratingsCard = h('section.card#ratings-home', h('h2', 'Ratings'),
      h('p.muted', { style: 'font-size:.88em;margin:.2em 0 .6em' }, 'Signed-in players and the bot levels have a rating, moved by the rated games they play.'),
      h('a#ratings-link', { href: '#ratings' }, 'See the ratings'));
    this.root.appendChild(h('div.home',
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, this.lobby.card, this.createCard, this.accountCard, this.mineCard, this.openCard),
      h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, ratingsCard, this.activeCard, this.finishedCard)));
    this.renderCreate();
    this.renderAccount();
    this.renderMine();
    this.renderOpen();
    this.lobby.start();
    this.lists = [
      { status: 'active', card: this.activeCard, title: 'Games in progress', shown: LIST_PAGE, sig: null },
      { status: 'finished', card: this.finishedCard, title: 'Finished games', shown: LIST_PAGE, sig: null },
    ];
    for (const l of this.lists) this.loadList(l);
    // The lists follow the server while the page is in front.
    this.poll = setInterval(() => {
      if (document.visibilityState === 'visible') for (const l of this.lists) this.loadList(l, true);
    }, LIST_POLL_MS);
  }

  destroy() { clearInterval(this.poll); this.lobby.destroy(); }

  renderCreate() {
    const c = clear(this.createCard);
    // Every seat has a colour, no two alike: the first ones free, in order.
    for (const s of this.seats) if (!COLOUR_NAMES.includes(s.colour) || this.seats.some((o) => o !== s && o.colour === s.colour && this.seats.indexOf(o) < this.seats.indexOf(s))) s.colour = null;
    for (const s of this.seats) if (!s.colour) s.colour = COLOUR_NAMES.find((c) => !this.seats.some((o) => o.colour === c));
    c.appendChild(h('h2#create-h', 'New game'));
    // Rated: offered to a signed-in player only (the rating is the account's).
    const rated = this.rated();
    const rows = h('div.seats', { role: 'group', 'aria-label': 'seats' });
    this.seats.forEach((s, i) => {
      // A person plays here (this browser) or is invited by a link; or a bot.
      const typeSel = h('select', { 'aria-label': t('seat {n} type', { n: i + 1 }), name: `seat-${i}-type`, onchange: (e) => { s.type = e.target.value; this.saveAndRender(); } },
        h('option', { value: 'human', selected: s.type === 'human' }, 'Player here'),
        h('option', { value: 'invite', selected: s.type === 'invite' }, 'Invited player'),
        h('option', { value: 'bot', selected: s.type === 'bot' }, 'Bot'));
      const detail = s.type !== 'bot'
        ? h('input', { type: 'text', maxlength: 32, placeholder: signedIn() && i === this.seats.findIndex((x) => x.type === 'human') ? signedIn().name : t('Player {n}', { n: i + 1 }), value: s.name || '', 'aria-label': t('seat {n} name', { n: i + 1 }), name: `seat-${i}-name`, oninput: (e) => { s.name = e.target.value; saveSeats(this.seats); } })
        : h('select', { 'aria-label': t('seat {n} bot level', { n: i + 1 }), name: `seat-${i}-level`, onchange: (e) => { s.level = e.target.value; saveSeats(this.seats); } },
          LEVELS.filter(([v]) => !rated || RATED_LEVELS.has(v)).map(([v, words]) => h('option', { value: v, selected: this.levelOf(s) === v }, words)));
      // Each seat's colour: choosing one another seat has swaps the two.
      const colourSel = h('select.colour', {
        'aria-label': t('seat {n} colour', { n: i + 1 }), name: `seat-${i}-colour`, style: `background:${COLOUR_HEX[s.colour]}`,
        onchange: (e) => {
          const other = this.seats.find((o) => o !== s && o.colour === e.target.value);
          if (other) other.colour = s.colour;
          s.colour = e.target.value;
          this.saveAndRender();
        },
      }, COLOUR_NAMES.map((c) => h('option', { value: c, selected: s.colour === c }, t(c))));
      rows.appendChild(h('div.seat-row', { dataset: { seat: i } },
        colourSel,
        typeSel, detail,
        h('button.small', { 'aria-label': t('remove seat {n}', { n: i + 1 }), title: 'remove seat', disabled: this.seats.length <= 1, onclick: () => { this.seats.splice(i, 1); this.saveAndRender(); } }, '×')));
    });
    c.appendChild(rows);
    const most = maxSeats(this.opts);
    // Who begins: seat 1, or a seat the server draws (the others follow round the table in this order).
    const random = h('input#opt-random-first', { type: 'checkbox', checked: this.opts.randomFirst, onchange: (e) => { this.opts.randomFirst = e.target.checked; this.saveOptsAndRender(); } });
    c.appendChild(h('div.form-row',
      h('button.small#add-seat', { disabled: this.seats.length >= most, onclick: () => { this.seats.push({ type: 'bot', level: 'easy' }); this.saveAndRender(); } }, '+ Add seat'),
      h('label.check#random-first-label', random, ' ', t('Random first player')),
      h('span.muted#first-words', { style: 'font-size:.85em' }, t(this.opts.randomFirst ? 'A seat drawn at random moves first, the others after it in this order. 1 to {n} seats (one alone is a solo game).' : 'Seat 1 moves first. 1 to {n} seats (one alone is a solo game).', { n: most })),
      this.seats.length > most ? h('span.error#too-many-seats', { role: 'alert' }, t('{n} seats: remove {k}, or add Inns & Cathedrals.', { n: this.seats.length, k: this.seats.length - most })) : null));
    const problem = rated ? this.ratedProblem() : null;
    if (signedIn()) {
      const box = h('input#opt-rated', { type: 'checkbox', checked: rated, onchange: (e) => { this.opts.rated = e.target.checked; this.saveOptsAndRender(); } });
      c.appendChild(h('fieldset#rated-options', h('legend', 'Rating'),
        h('label', box, ' ', 'Rated: the result moves your rating and the bots’'),
        h('div.muted', { style: 'font-size:.85em' }, 'A rated game: you play your own seat, against invited players who sign in and the bot levels of the ladder (each once), without hints. It counts if every seat is then an account or a bot level.', ' ',
          h('a', { href: '#ratings' }, 'The ratings')),
        problem ? h('div.error#rated-problem', { role: 'alert', style: 'font-size:.85em' }, problem) : null));
    }
    const ferries = h('input#exp-ferries', { type: 'checkbox', checked: this.opts.ferries, onchange: (e) => { this.opts.ferries = e.target.checked; saveOpts(this.opts); } });
    const inns = h('input#exp-inns', { type: 'checkbox', checked: this.opts.inns, onchange: (e) => { this.opts.inns = e.target.checked; this.saveOptsAndRender(); } });
    const abbey = h('input#exp-abbey', { type: 'checkbox', checked: this.opts.abbey, onchange: (e) => { this.opts.abbey = e.target.checked; saveOpts(this.opts); } });
    const traders = h('input#exp-traders', { type: 'checkbox', checked: this.opts.traders, onchange: (e) => { this.opts.traders = e.target.checked; saveOpts(this.opts); } });
    const river = h('input#exp-river', { type: 'checkbox', checked: this.opts.river, onchange: (e) => { this.opts.river = e.target.checked; saveOpts(this.opts); } });
    const abbot = h('input#exp-abbot', { type: 'checkbox', checked: this.opts.abbot, onchange: (e) => { this.opts.abbot = e.target.checked; saveOpts(this.opts); } });
    // The labyrinth's variant is a rule of the Labyrinth only: offered with it.
    const labyrinth = h('input#exp-labyrinth', { type: 'checkbox', checked: this.opts.labyrinth, onchange: (e) => { this.opts.labyrinth = e.target.checked; this.saveOptsAndRender(); } });
    c.appendChild(h('fieldset', h('legend', 'Expansions'),
      h('label', ferries, ' ', 'The Ferries (8 lake tiles, ferries to place and move)'),
      h('label', inns, ' ', 'Inns & Cathedrals (18 tiles, inns, cathedrals, a big follower each, a sixth player)'),
      h('label', abbey, ' ', 'Abbey & Mayor (12 tiles, an abbey, a mayor, a wagon and a barn each)'),
      h('label', traders, ' ', 'Traders & Builders (24 tiles, trade goods, a builder and a pig each)'),
      h('label', river, ' ', 'The River (12 tiles laid first, from the spring to the lake)'),
      h('label', abbot, ' ', 'The Abbot (an abbot each, on a monastery or a garden of 8 base tiles)'),
      h('label', labyrinth, ' ', 'The Labyrinth (1 tile: a road of four legs, 2 points more for each figure on it)')));
    const ed = (v, words) => h('label', h('input', { type: 'radio', name: 'edition', value: v, checked: this.opts.edition === v, onchange: () => { this.opts.edition = v; saveOpts(this.opts); } }), ' ', words);
    c.appendChild(h('fieldset', h('legend', 'Edition (lake tiles: FC / F3 / F4)'), h('div.form-row', { style: 'margin:0' },
      ed('c3', 'c3 — 3rd edition (3 / 3 / 2)'), ed('c2', 'c2 — 2nd edition (3 / 4 / 1)'))));
    const tiny = h('input#rule-tiny-city', { type: 'checkbox', checked: this.opts.tinyCity, onchange: (e) => { this.opts.tinyCity = e.target.checked; saveOpts(this.opts); } });
    const basic = h('input#rule-labyrinth-basic', { type: 'checkbox', checked: this.opts.labyrinthBasic, disabled: !this.opts.labyrinth, onchange: (e) => { this.opts.labyrinthBasic = e.target.checked; saveOpts(this.opts); } });
    c.appendChild(h('fieldset', h('legend', 'Rules'), h('label', tiny, ' ', 'Tiny cities: a completed city of two tiles scores 2, not 4 (JCloisterZone’s variant)'),
      h('label', { class: this.opts.labyrinth ? null : 'muted' }, basic, ' ', 'Basic labyrinth: its road is a road like any other (no 2 points a figure, no follower joining on a free leg)')));
    // A hint is a bot's choice: none in a rated game.
    const hints = h('input#opt-hints', { type: 'checkbox', checked: this.opts.hints && !rated, disabled: rated, onchange: (e) => { this.opts.hints = e.target.checked; saveOpts(this.opts); } });
    c.appendChild(h('fieldset', h('legend', 'Help'), h('label', { class: rated ? 'muted' : null }, hints, ' ', 'Hints: a button shows the strongest bot’s choice for your decision (each hint used is written in the record and shown with the scores)')));
    // A time control: none, per move or Fischer, and what a seat's running out of time does.
    const clock = clockFields('opt', { clock: this.opts.clock, onTimeout: this.opts.onTimeout }, (c) => { this.opts.clock = c.clock; this.opts.onTimeout = c.onTimeout; saveOpts(this.opts); });
    this.clockValue = clock.value;
    c.appendChild(clock.fieldset);
    const pub = h('input#public-game', { type: 'checkbox', checked: this.opts.public, onchange: (e) => { this.opts.public = e.target.checked; } });
    c.appendChild(h('fieldset', h('legend', 'Visibility'), h('label', pub, ' ', 'Public: list it on this page, for anyone to watch and, once over, replay'),
      h('div.muted', { style: 'font-size:.85em' }, 'Otherwise only the links below find it.')));
    this.createBtn = h('button.primary#create-game', { onclick: () => this.create(), disabled: this.seats.length > most || !!problem }, 'Create and open');
    c.appendChild(h('div.form-row', this.createBtn,
      h('span.muted', { style: 'font-size:.85em' }, 'The invited players’ links are on the game’s page.')));
  }

  saveAndRender() { saveSeats(this.seats); this.renderCreate(); }

  /** Whether the game to create is rated: asked for, and someone signed in. */
  rated() { return !!(this.opts.rated && signedIn()); }

  /** A bot seat's level as it is sent: the ladder's levels only in a rated game. */
  levelOf(s) {
    const level = s.level || 'easy';
    return this.rated() && !RATED_LEVELS.has(level) ? 'easy' : level;
  }

  /** What stops these seats from making a rated game, in words, or null. */
  ratedProblem() {
    const here = this.seats.filter((s) => s.type === 'human').length;
    const levels = this.seats.filter((s) => s.type === 'bot').map((s) => this.levelOf(s));
    if (this.seats.length < 2) return t('A rated game has two seats or more.');
    if (here !== 1) return t('A rated game has one seat played here, yours: make the other people invited players.');
    if (new Set(levels).size < levels.length) return t('A rated game has each bot level once at most.');
    return null;
  }

  saveOptsAndRender() { saveOpts(this.opts); this.renderCreate(); }

  async create() {
    // Unnamed people get the default name in the UI's language.
    // Signed in, the first seat played here is named after the account.
    const acc = signedIn();
    const firstHere = this.seats.findIndex((s) => s.type === 'human');
    const seats = this.seats.map((s, i) => (s.type === 'bot'
      ? { type: 'bot', level: this.levelOf(s), colour: s.colour }
      : { type: 'human', name: (s.name && s.name.trim()) || (acc && i === firstHere ? acc.name : t('Player {n}', { n: i + 1 })), colour: s.colour }));
    const expansions = ['ferries', 'inns', 'abbey', 'traders', 'river', 'abbot', 'labyrinth'].filter((x) => this.opts[x]);
    // Turns are provisional until ended: the player may take decisions back.
    const body = { seats, expansions, edition: this.opts.edition, undo: true };
    const rules = {
      ...(this.opts.tinyCity ? { 'tiny-city-scoring': 2 } : {}),
      ...(this.opts.labyrinth && this.opts.labyrinthBasic ? { 'labyrinth-variant': 'basic' } : {}),
    };
    if (Object.keys(rules).length) body.rules = rules;
    if (this.opts.public) body.public = true;
    // Rated: the seat played here is the account's (createAndOpen sends it as `mine`).
    if (this.rated()) body.rated = true;
    else if (this.opts.hints) body.hints = true;
    if (this.opts.randomFirst) body.first = 'random';
    const clock = this.clockValue();
    if (clock) body.clock = clock;
    const here = new Set(this.seats.map((s, i) => (s.type === 'human' ? i : -1)).filter((i) => i >= 0));
    this.createBtn.disabled = true;
    try {
      await createAndOpen(body, here);
    } catch (e) {
      showError(e, 'Creating the game');
      this.createBtn.disabled = false;
    }
  }

  /** Open a record or a JCloisterZone saved game: the server checks it, the replay viewer shows it. */
  renderOpen() {
    const c = clear(this.openCard);
    const err = h('div.error#open-error', { role: 'alert' });
    const input = h('input#open-file', {
      type: 'file', accept: '.json,.jcz,application/json',
      onchange: async (e) => {
        const file = e.target.files && e.target.files[0];
        if (!file) return;
        err.textContent = '';
        try {
          if (file.size > 512 * 1024) throw Object.assign(new Error(t('the file is larger than 512 KiB ({n} KiB)', { n: Math.round(file.size / 1024) })), { code: 'too_large' });
          const res = await api.recordView({ file: await file.text() });
          sessionStorage.setItem('carcassonne.record', JSON.stringify({ name: file.name, record: res.record, history: res.history, versions: res.versions }));
          location.hash = 'record&v=1';
        } catch (x) {
          err.textContent = `${file.name}: ${x.message}`;
          err.dataset.code = x.code || 'error';
        }
        e.target.value = '';
      },
    });
    c.append(h('h2', 'Open a record'),
      h('p.muted', { style: 'font-size:.88em;margin:.2em 0 .6em' }, 'A game record (.json, as “Download record” saves it) or a JCloisterZone saved game (.jcz): it is checked move by move and opens in the replay viewer.'),
      h('label.file-pick', input), err);
  }

  /** Signed in: the account's games, from any device (GET /api/me). */
  renderAccount() {
    const c = clear(this.accountCard);
    const acc = signedIn();
    c.classList.toggle('hidden', !acc);
    if (!acc) return;
    const games = myGames();
    c.appendChild(h('h2', t('Your games, {name}', { name: acc.name })));
    if (!games.length) { c.appendChild(h('p.muted', 'None yet: the seats you create or take by a link while signed in are listed here.')); return; }
    c.appendChild(h('ul.game-list', gameItems(games.slice(0, 12))));
    if (games.length > 12) c.appendChild(h('p', h('a', { href: '#account' }, 'All your games')));
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
        h('span.who', (g.players || []).map((p) => botName(p)).join(' · ') || id, h('div.meta', `${id}${g.status ? ' · ' + t(g.status) : ''}`)),
        h('a', { href: `#game=${id}${toks.map((t) => `&token=${t}`).join('')}` }, g.status === 'finished' ? 'Open' : 'Continue'),
        h('a', { href: `#replay=${id}`, dataset: { replay: id } }, 'Replay'),
        h('button.small', { title: 'forget this game in this browser', 'aria-label': 'forget', onclick: () => { forget(id); this.renderMine(); } }, '×')));
    }
    c.appendChild(ul);
  }

  /** (Re)loads a list of public games; `quiet` polls keep what is shown on errors. */
  async loadList(l, quiet = false) {
    if (!l.ul) {
      clear(l.card).appendChild(h('h2', l.title));
      l.ul = h('ul.game-list', { dataset: { status: l.status } });
      l.card.append(l.ul, h('p.muted.loading', 'Loading…'));
    }
    let games;
    try {
      games = (await api.listGames(l.status, l.shown, 0)).games || [];
    } catch (e) {
      if (quiet) return;
      l.card.querySelector('.loading')?.remove();
      l.card.appendChild(h('p.muted', t('Could not load the list ({code}: {message}).', { code: e.code, message: e.message })));
      return;
    }
    l.card.querySelector('.loading')?.remove();
    const sig = JSON.stringify(games);
    if (sig === l.sig) return;
    l.sig = sig;
    clear(l.ul);
    if (!games.length) l.ul.appendChild(h('li.muted', l.status === 'finished' ? 'No finished game yet.' : 'No game in progress.'));
    for (const g of games) l.ul.appendChild(gameRow(g));
    l.card.querySelector('.more')?.remove();
    if (games.length === l.shown) {
      l.card.appendChild(h('button.small.more', { onclick: () => { l.shown += LIST_PAGE; this.loadList(l); } }, 'More'));
    }
  }
}

const LIST_PAGE = 20;
const LIST_POLL_MS = 4000;

/**
 * Creates a game and opens it: the seats in `here` are played in this
 * browser (several make a hot-seat game); the other human seats' links are
 * kept as invitations, shown on the game's page.
 */
export async function createAndOpen(body, here) {
  // Signed in: the seats played here are the account's, from any device.
  if (signedIn()) body = { ...body, seats: body.seats.map((s, i) => (here.has(i) && s.type === 'human' ? { ...s, mine: true } : s)) };
  const res = await api.createGame(body);
  const seats = {}, invites = {};
  // `here` names seats as they were asked for; a random first player moves
  // them round the table: each seat's `asked` says which it was.
  for (const s of res.seats) {
    if (!s.token) continue;
    if (here.has(s.asked ?? s.seat)) seats[s.seat] = s.token; else invites[s.seat] = s.token;
  }
  remember(res.game, {
    seats, invites, players: res.seats.map((s) => s.name), created: Date.now(), status: 'active',
    public: !!res.public, randomFirst: body.first === 'random',
  });
  location.hash = `game=${res.game}${Object.values(seats).map((t) => `&token=${t}`).join('')}`;
  return res;
}

function gameRow(g) {
  const mine = remembered()[g.game];
  const players = (g.players || []).map((p, i) => `${botName(p)}${g.scores ? ' ' + g.scores[i] : ''}`).join(' · ');
  const meta = [expansionWords(g.expansions, g.edition), ...(g.rules?.['tiny-city-scoring'] === 2 ? [t('tiny cities 2')] : []),
    ...(g.rules?.['labyrinth-variant'] === 'basic' ? [t('basic labyrinth')] : []), t('{n} turns', { n: g.turns ?? '?' }), fmtTime(g.updated)].join(' · ');
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
    if (o && typeof o === 'object') {
      return {
        ferries: o.ferries !== false, inns: o.inns === true, abbey: o.abbey === true, traders: o.traders === true, river: o.river === true,
        abbot: o.abbot === true, labyrinth: o.labyrinth === true, edition: o.edition === 'c2' ? 'c2' : 'c3', tinyCity: o.tinyCity === true,
        labyrinthBasic: o.labyrinthBasic === true, randomFirst: o.randomFirst === true, rated: o.rated === true, public: false,
        clock: typeof o.clock === 'string' ? o.clock : '', onTimeout: o.onTimeout === 'lose' ? 'lose' : 'bot',
      };
    }
  } catch (_) { /* defaults */ }
  return { ferries: true, inns: false, abbey: false, traders: false, river: false, abbot: false, labyrinth: false, edition: 'c3', tinyCity: false, labyrinthBasic: false, randomFirst: false, rated: false, public: false, clock: '', onTimeout: 'bot' };
}

/** Seats the chosen rules take: six with Inns & Cathedrals, five without. */
function maxSeats(opts) { return opts.inns ? 6 : 5; }
function saveOpts(o) { try { localStorage.setItem('carcassonne.opts', JSON.stringify(o)); } catch (_) { /* fine */ } }
