// The lobby on the home page (docs/api.md, Lobby): the open tables, with
// their options and who waits at them (names as their players typed them,
// never looked up in the dictionary, with their ratings), joined, left or
// closed by a click; a small form to open one; and quick match, which waits
// for a player of a close rating, or for a bot after the wait chosen. When a
// table the player sits at starts, its game opens at the player's seat.
import { api } from './api.js';
import { h, clear, cap, showError, toast, clockText } from './ui.js';
import { t, tn } from './i18n.js';
import { signedIn } from './account.js';
import { playerHref, ratingCell } from './player.js';
import { LADDER, EXPANSIONS, CLOCKS, expansionWords, clockWords } from './words.js';

/** The tables are listed again this often while the page is in front; a quick match asks this often while it waits. */
const TABLES_POLL_MS = 3000;
const QUICK_POLL_MS = 2000;
/** How long quick match waits for a player before a bot takes the seat (seconds; null: for ever). */
const BOT_AFTER = [[30, '30 s'], [60, '1 min'], [120, '2 min'], [300, '5 min'], [null, 'never']];
const QUICK_KEY = 'carcassonne.quick';

/** The lobby's card (its element: `card`, filled by start()). */
export class LobbyCard {
  constructor() {
    this.card = h('section.card#lobby', { 'aria-labelledby': 'lobby-h' });
    /** The tables the player sits at, followed until they start. */
    this.mine = new Set();
    this.sig = null;
    /**
     * While waiting for a quick match: the table as last answered, when the
     * wait began and when this table's began (ms, this browser's clock; a
     * later table may take over, see docs/api.md).
     */
    this.waiting = null;
    this.dead = false;
  }

  start() {
    const me = signedIn();
    this.quickBox = h('div#quick-match-box');
    this.list = h('ul.game-list#lobby-tables', h('li.muted', 'Loading…'));
    clear(this.card).append(...[h('h2#lobby-h', 'Play online'),
      me ? this.quickBox : null,
      h('h3', 'Open tables'),
      h('p.muted', { style: 'font-size:.85em;margin:.2em 0 .5em' }, 'A table’s game starts when its last seat is taken; who begins is drawn.'),
      this.list,
      me ? this.openForm() : h('p#lobby-sign-in', h('a', { href: '#account' }, 'Sign in to join a table, open one or play a quick match.'))].filter(Boolean));
    this.load();
    this.timer = setInterval(() => { if (document.visibilityState === 'visible') this.load(true); }, TABLES_POLL_MS);
    if (me) {
      this.renderQuick();
      // A quick match this player waits at (the page reloaded meanwhile): waited for again.
      api.quickStatus().then((r) => { if (!this.dead && r.table && ['open', 'starting'].includes(r.table.status)) this.wait(r.table); },
        (e) => { if (e.code !== 'not_signed_in') console.warn(e); });
    }
  }

  destroy() {
    this.dead = true;
    clearInterval(this.timer);
    clearTimeout(this.quickTimer);
    clearInterval(this.clock);
  }

  /** A table of this player's started: its game, at the player's seat. */
  play(table) {
    if (this.dead) return;
    this.destroy();
    location.hash = `game=${table.game}${Number.isInteger(table.seat) ? `&seat=${table.seat}` : ''}`;
  }

  // ---------- the open tables ----------

  async load(quiet = false) {
    let tables;
    try {
      tables = (await api.tables(50)).tables || [];
    } catch (e) {
      if (!quiet && !this.dead) clear(this.list).appendChild(h('li.muted', t('Could not load the list ({code}: {message}).', { code: e.code, message: e.message })));
      return;
    }
    if (this.dead) return;
    const me = signedIn();
    if (me) for (const x of tables) if (seatAt(x, me)) this.mine.add(x.table);
    // A table of this player's gone from the list has started (or closed).
    const listed = new Set(tables.map((x) => x.table));
    for (const id of this.mine) if (!listed.has(id)) this.follow(id);
    const sig = JSON.stringify(tables);
    if (sig === this.sig) return;
    this.sig = sig;
    clear(this.list);
    if (!tables.length) this.list.appendChild(h('li.muted#lobby-empty', me ? 'No open table: open one, or play a quick match.' : 'No open table.'));
    for (const x of tables) this.list.appendChild(this.row(x, me));
  }

  async follow(id) {
    let x;
    try { x = await api.table(id); } catch (e) { if (e.code === 'not_found') this.mine.delete(id); return; }
    if (this.dead || !this.mine.has(id)) return;
    if (x.status === 'started' && x.game) { this.mine.delete(id); this.play(x); }
    if (x.status === 'closed') { this.mine.delete(id); toast(t('A table you sat at was closed.'), { key: 'lobby' }); }
  }

  row(x, me) {
    const mySeat = me ? seatAt(x, me) : null;
    const free = Math.max(0, x.humans - x.players.length);
    const bots = x.setup.bots || [];
    const who = [];
    for (const p of x.players) {
      if (who.length) who.push(' · ');
      who.push(h('span.lobby-player', { dataset: { seat: p.seat, name: p.name } },
        h('a', { href: playerHref(p.name) }, document.createTextNode(p.name)), ' ',
        p.rating ? ratingCell(p.rating) : h('span.muted', 'no rating yet')));
    }
    const meta = [expansionWords(x.setup.expansions, x.setup.edition), t(x.setup.rated ? 'Rated' : 'Not rated'),
      ...(x.setup.clock ? [clockWords(x.setup.clock)] : []),
      ...(bots.length ? [t('bots: {levels}', { levels: bots.map((l) => t(l)).join(', ') })] : []),
      tn(free, '{n} seat free', '{n} seats free')].join(' · ');
    let action = null;
    if (mySeat && mySeat.seat === 0) action = h('button.small', { dataset: { close: x.table }, onclick: (e) => this.leave(e.target, x.table, 'Closing the table') }, 'Close');
    else if (mySeat) action = h('button.small', { dataset: { leave: x.table }, onclick: (e) => this.leave(e.target, x.table, 'Leaving the table') }, 'Leave');
    else if (me) action = h('button.primary.small', { dataset: { join: x.table }, onclick: (e) => this.join(e.target, x.table) }, 'Join');
    return h('li', { dataset: { table: x.table, mine: mySeat ? '1' : '', rated: x.setup.rated ? '1' : '' } },
      h('span.who', who, h('div.meta', meta)), action);
  }

  async join(btn, id) {
    btn.disabled = true;
    try {
      const x = await api.joinTable(id);
      this.mine.add(id);
      if (x.status === 'started' && x.game) { this.play(x); return; }
    } catch (e) {
      showError(e, 'Joining the table');
    }
    btn.disabled = false;
    this.load();
  }

  async leave(btn, id, context) {
    btn.disabled = true;
    this.mine.delete(id);
    try { await api.leaveTable(id); } catch (e) { showError(e, context); }
    btn.disabled = false;
    this.load();
  }

  /** The form that opens a table: its seats, bots of the ladder, expansions, rated. */
  openForm() {
    const humans = h('select#table-humans', { name: 'table-humans' }, [2, 3, 4, 5, 6].map((n) => h('option', { value: n }, String(n))));
    const bots = LADDER.map((l) => h('input', { type: 'checkbox', id: `table-bot-${l}`, value: l }));
    const rated = h('input#table-rated', { type: 'checkbox' });
    const exps = expansionChecks('table-exp', ['ferries']);
    const clock = clockFields('table', {});
    const err = h('div.error#open-table-error', { role: 'alert' });
    const btn = h('button.primary#open-table-submit', { type: 'submit' }, 'Open the table');
    const box = h('details#open-table',
      h('summary', 'Open a table'),
      h('form#open-table-form', {
        onsubmit: async (e) => {
          e.preventDefault();
          err.textContent = '';
          delete err.dataset.code;
          btn.disabled = true;
          const setup = {
            humans: Number(humans.value), bots: bots.filter((b) => b.checked).map((b) => b.value),
            expansions: exps.chosen(), rated: rated.checked, undo: true,
          };
          const chosen = clock.value();
          if (chosen) setup.clock = chosen;
          try {
            const x = await api.openTable(setup);
            this.mine.add(x.table);
            box.open = false;
            toast(t('Your table is open: its game starts when its last seat is taken.'), { key: 'lobby' });
            this.load();
          } catch (x) {
            err.textContent = x.message;
            err.dataset.code = x.code || 'error';
          } finally { btn.disabled = false; }
        },
      },
      h('div.form-row', h('label', 'Players (you included)', ' ', humans)),
      h('fieldset', h('legend', 'Bots'), h('div.lobby-checks', LADDER.map((l, i) => h('label', bots[i], ' ', cap(t(l)))))),
      exps.fieldset,
      clock.fieldset,
      h('fieldset', h('legend', 'Rating'), h('label', rated, ' ', 'Rated: the result moves the players’ ratings (the bots play levels of the ladder, each once)')),
      h('div.form-row', btn), err));
    return box;
  }

  // ---------- quick match ----------

  renderQuick() {
    const c = clear(this.quickBox);
    if (this.waiting) {
      this.status = h('span#quick-status');
      c.append(h('div.form-row#quick-waiting', this.status,
        h('button.small#quick-cancel', { onclick: () => this.cancel() }, 'Cancel')));
      this.tick();
      return;
    }
    const saved = loadQuick();
    const after = h('select#quick-bot-after', { name: 'quick-bot-after' },
      BOT_AFTER.map(([s, words]) => h('option', { value: s === null ? '' : String(s), selected: s === saved.botAfter }, words)));
    const exps = expansionChecks('quick-exp', saved.expansions);
    const btn = h('button.primary#quick-match', {
      onclick: async () => {
        const botAfter = after.value === '' ? null : Number(after.value);
        const expansions = exps.chosen();
        saveQuick({ expansions, botAfter });
        btn.disabled = true;
        try {
          const x = await api.quickMatch({ expansions, ...(botAfter === null ? {} : { bot_after: botAfter }) });
          if (x.status === 'started' && x.game) this.play(x); else this.wait(x);
        } catch (e) {
          showError(e, 'Quick match');
          btn.disabled = false;
        }
      },
    }, 'Quick match');
    c.append(h('div.form-row', btn, h('label', 'Play a bot after', ' ', after)),
      h('p.muted', { style: 'font-size:.85em;margin:.2em 0' }, 'A rated game of two, against the waiting player of the closest rating with the same expansions, or a bot of your level after the wait chosen.'),
      exps.fieldset);
  }

  /** Waits at quick match's table `x`: asks the server every 2 s (which starts a bot's game once its wait is over). */
  wait(x) {
    // A server's clock ahead of this browser's makes no wait of less than nothing.
    const begun = Math.min(Date.now(), x.created * 1000);
    const fresh = !this.waiting;
    if (fresh) this.waiting = { since: begun };
    if (this.waiting.table?.table !== x.table) this.waiting.tableSince = begun;
    this.waiting.table = x;
    if (fresh) {
      this.renderQuick();
      this.clock = setInterval(() => this.tick(), 1000);
    } else this.tick();
    clearTimeout(this.quickTimer);
    this.quickTimer = setTimeout(() => this.pollQuick(), QUICK_POLL_MS);
  }

  async pollQuick() {
    let r;
    try { r = await api.quickStatus(); } catch (e) {
      if (this.dead) return;
      if (e.code === 'not_signed_in') { showError(e, 'Quick match'); this.stopWaiting(); return; }
      this.quickTimer = setTimeout(() => this.pollQuick(), QUICK_POLL_MS);
      return;
    }
    if (this.dead || !this.waiting) return;
    const x = r.table;
    if (x && x.status === 'started' && x.game) this.play(x);
    else if (x && ['open', 'starting'].includes(x.status)) this.wait(x);
    else { this.stopWaiting(); toast(t('The quick match was cancelled.'), { key: 'lobby' }); }
  }

  async cancel() {
    clearTimeout(this.quickTimer);
    let r = null;
    try { r = await api.cancelQuick(); } catch (e) { showError(e, 'Cancelling the quick match'); }
    if (this.dead) return;
    // Nothing to cancel: paired meanwhile? Then the game is on, and opens.
    if (r && !r.cancelled) {
      try {
        const q = await api.quickStatus();
        if (q.table && q.table.status === 'started' && q.table.game) { this.play(q.table); return; }
      } catch (_) { /* as cancelled */ }
    }
    this.stopWaiting();
  }

  stopWaiting() {
    this.waiting = null;
    clearTimeout(this.quickTimer);
    clearInterval(this.clock);
    if (!this.dead) this.renderQuick();
  }

  /** The waiting line: the time waited, and when a bot comes (if one was asked for). */
  tick() {
    if (!this.waiting || !this.status) return;
    const x = this.waiting.table;
    const waited = clockText(Date.now() - this.waiting.since);
    let bot = '';
    if (x.bot_after) {
      const left = x.bot_after - x.created - (Date.now() - this.waiting.tableSince) / 1000;
      bot = left > 0 ? ` ${t('A bot takes the seat in {time}.', { time: clockText(left * 1000) })}` : ` ${t('A bot is taking the seat…')}`;
    }
    this.status.textContent = `${t('Waiting for another player: {time}.', { time: waited })}${bot}`;
  }
}

/** The player `me`'s seat at table `x` (names are alike whatever their case), or null. */
function seatAt(x, me) {
  const name = me.name.toLowerCase();
  return (x.players || []).find((p) => p.name.toLowerCase() === name) || null;
}

/** Check boxes for the expansions, `chosen` ticked: { fieldset, chosen() }. */
function expansionChecks(prefix, chosen) {
  const boxes = EXPANSIONS.map(([x]) => h('input', { type: 'checkbox', id: `${prefix}-${x}`, value: x, checked: chosen.includes(x) }));
  return {
    fieldset: h('fieldset', h('legend', 'Expansions'), h('div.lobby-checks', EXPANSIONS.map(([, words], i) => h('label', boxes[i], ' ', words)))),
    chosen: () => boxes.filter((b) => b.checked).map((b) => b.value),
  };
}

/**
 * The time control of a game to create (the home page's form and the
 * table's): none, per move or Fischer (CLOCKS), and what happens when a
 * seat's time runs out. `chosen`: { clock, onTimeout } as last chosen;
 * `onChange` is told each choice. { fieldset, value() }: value() is the
 * request's `clock`, or null.
 */
export function clockFields(prefix, { clock = '', onTimeout = 'bot' } = {}, onChange = () => {}) {
  const known = CLOCKS.some(([k]) => k === clock) ? clock : '';
  const option = ([k, setup]) => h('option', { value: k, selected: k === known }, setup ? clockWords(setup, { timeout: false }) : t('No clock'));
  const kind = h('select', { id: `${prefix}-clock`, name: `${prefix}-clock`, 'aria-label': t('clock') },
    option(CLOCKS[0]),
    h('optgroup', { label: t('Per move: each turn may last so long') }, CLOCKS.filter(([, c]) => c?.per_move).map(option)),
    h('optgroup', { label: t('Fischer: a bank of time, and more after each turn') }, CLOCKS.filter(([, c]) => c?.base).map(option)));
  const radio = (v) => h('input', { type: 'radio', name: `${prefix}-on-timeout`, id: `${prefix}-timeout-${v}`, value: v, checked: (onTimeout === 'lose' ? 'lose' : 'bot') === v });
  const bot = radio('bot'), lose = radio('lose');
  const timeouts = h('div.clock-timeout', h('span.muted', t('When a seat’s time runs out:')),
    h('label', bot, ' ', t('a bot plays for it')), h('label', lose, ' ', t('the seat loses')));
  const value = () => {
    const c = CLOCKS.find(([k]) => k === kind.value)?.[1];
    return c ? { ...c, on_timeout: lose.checked ? 'lose' : 'bot' } : null;
  };
  const changed = () => {
    bot.disabled = lose.disabled = !kind.value;
    timeouts.classList.toggle('muted', !kind.value);
    onChange({ clock: kind.value, onTimeout: lose.checked ? 'lose' : 'bot' });
  };
  kind.addEventListener('change', changed);
  bot.addEventListener('change', changed);
  lose.addEventListener('change', changed);
  bot.disabled = lose.disabled = !known;
  timeouts.classList.toggle('muted', !known);
  return { fieldset: h('fieldset.clock-fields', { id: `${prefix}-clock-fields` }, h('legend', 'Clock'), kind, timeouts), value };
}

/** Quick match's choices as last made here: The Ferries and a bot after a minute at first. */
function loadQuick() {
  try {
    const q = JSON.parse(localStorage.getItem(QUICK_KEY) || 'null');
    if (q && Array.isArray(q.expansions)) return { expansions: q.expansions, botAfter: BOT_AFTER.some(([s]) => s === q.botAfter) ? q.botAfter : 60 };
  } catch (_) { /* defaults */ }
  return { expansions: ['ferries'], botAfter: 60 };
}
function saveQuick(q) { try { localStorage.setItem(QUICK_KEY, JSON.stringify(q)); } catch (_) { /* private mode */ } }
