// Side panels shared by the game page and the replay viewer.
import { h, clockText } from './ui.js';
import { serverNow } from './api.js';
import { t, tn, tr } from './i18n.js';
import { figureCount, featureWords, placeWords, returnWords, routeWords, botName, clockWords, KIND_WORD, FIGURE_WORDS } from './words.js';
import { el, miniTile, goodIcon, FIGURE_PATHS, MEEPLE_PATH, EVEN_ODD, PLAYER_NAMES_OF_COLOURS, colourOf } from './tiles.js';

export function colour(seat) { return colourOf(seat); }

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return '—';
  const s = view.seats?.[seat];
  return botName(s?.name ?? view.setup?.players?.[seat], s?.type === 'bot' ? s.level : null) ?? t('Seat {n}', { n: seat + 1 });
}

/** A figure's icon in `seat`'s colour (a neutral brown for `null`, as in the legend); `faded`: hollow. */
export function meepleIcon(seat, size = 16, faded = false, figure = 'normal') {
  // The mayor's hat and the abbot's hood reach above the follower's head.
  const box = figure === 'mayor' || figure === 'abbot' ? '-13 -16 26 28' : '-12.5 -12.5 25 25';
  const s = el('svg', { viewBox: box, width: size, height: size, class: `meeple-icon${figure && figure !== 'normal' ? ` ${figure}` : ''}`, 'aria-hidden': 'true', 'data-figure': figure || 'normal' });
  const c = seat === null ? '#7a6148' : colour(seat);
  s.appendChild(el('path', { d: FIGURE_PATHS[figure] || MEEPLE_PATH, 'fill-rule': EVEN_ODD.has(figure) ? 'evenodd' : null, fill: faded ? 'none' : c, stroke: faded ? c : '#fff', 'stroke-width': faded ? 1.5 : 1.2, opacity: faded ? 0.5 : 1 }));
  return s;
}

function dot(seat) { return h('span.pdot', { style: `background:${colour(seat)}` }); }

/** Traders & Builders' goods, in the order of the view's counts. */
export const GOODS = ['wine', 'grain', 'cloth'];

/** A small icon of a good, for the score board and the log. */
export function goodSymbol(good, size = 14) {
  const s = el('svg', { viewBox: '-9 -9 18 18', width: size, height: size, class: 'good-icon', 'aria-hidden': 'true' });
  s.appendChild(goodIcon(good, [0, 0]));
  return s;
}

export function at(p) { return p ? `(${p[0]}, ${p[1]})` : ''; }

/**
 * The score board: points, projected points, followers left, whose turn;
 * with `clocks` (the live game's page) each human seat's clock, for a game
 * with a time control (set going by tickClocks).
 */
export function renderScores(view, { mine = new Set(), winners = null, clocks = false } = {}) {
  const clock = clocks ? view.clock : null;
  const tbl = h('table.scores', { 'aria-label': 'scores' });
  const n = view.seats?.length || view.setup?.players?.length || 0;
  const win = new Set(winners || view.final?.winners || []);
  for (let s = 0; s < n; s++) {
    const seat = view.seats?.[s] || {};
    const tags = [];
    if (seat.type === 'bot') tags.push(h('span.tag', t('bot · {level}', { level: tr(seat.level || 'bot') })));
    if (mine.has(s)) tags.push(h('span.tag.you', 'you'));
    if (win.has(s) && view.status === 'finished') tags.push(h('span.winner-badge', ' ★ winner'));
    // Hints asked for (a game with hints), for everyone to see.
    if (view.hints?.[s]) tags.push(hintTag(view.hints[s]));
    // A time control: the seat the bot plays for, its time gone; the seat that lost on time.
    if (clock?.out?.includes(s) && view.status !== 'finished') tags.push(h('span.tag.out-of-time', { dataset: { seat: s } }, 'bot plays (time ran out)'));
    if (clock?.forfeit === s || view.final?.forfeit === s) tags.push(h('span.tag.lost-on-time', { dataset: { seat: s } }, 'lost on time'));
    // Every figure in play: filled icons in supply, hollow ones on the board.
    const figures = view.figures?.length ? view.figures : [{ figure: 'normal', each: 7, supply: view.supply || [] }];
    const sup = h('span.supply', { title: figures.map((f) => `${f.supply?.[s] ?? 0} / ${figureCount(f.figure, f.each)}`).join(', ') + ' ' + t('in supply') });
    for (const f of figures) {
      const left = f.supply?.[s] ?? 0;
      for (let i = 0; i < f.each; i++) sup.appendChild(meepleIcon(s, FIGURE_ICON[f.figure] || 20, i >= left, f.figure));
    }
    // Abbey & Mayor: the abbey still in hand, or gone (faded).
    if (view.abbeys) {
      const held = view.abbeys[s] > 0;
      const icon = miniTile('AB', 0, 20, `abbey-icon${held ? '' : ' used'}`);
      icon.dataset.abbey = held ? 'held' : 'used';
      icon.appendChild(el('title', {}, [document.createTextNode(t(held ? 'abbey in hand' : 'abbey placed'))]));
      sup.appendChild(icon);
    }
    // Traders & Builders: the goods each holds.
    if (view.goods) {
      const g = view.goods[s] || {};
      const box = h('span.goods', { dataset: { goods: GOODS.map((k) => g[k] || 0).join(',') }, title: GOODS.map((k) => `${g[k] || 0} ${t(k)}`).join(', ') });
      for (const k of GOODS) box.appendChild(h('span.good-count', { dataset: { good: k } }, goodSymbol(k, 18), String(g[k] || 0)));
      sup.appendChild(box);
    }
    const score = view.final ? view.final.scores[s] : view.scores?.[s] ?? 0;
    const proj = view.projected_scores?.[s];
    tbl.appendChild(h('tr', { class: view.to_act === s ? 'to-act' : '', dataset: { seat: s } },
      h('td', meepleIcon(s, 22)),
      h('td.name', h('div', seatName(view, s), tags), sup),
      h('td', h('div.pts', { 'data-score': s }, String(score)),
        !view.final && proj !== undefined && proj !== score ? h('div.proj', { title: 'points if the game ended now' }, `→ ${proj}`) : null,
        clock ? seatClock(view, s) : null),
    ));
  }
  return h('div.score-board', tbl,
    clock?.setup ? h('div.clock-setup#clock-setup', { dataset: { clock: JSON.stringify(clock.setup) } }, t('Clock: {what}', { what: clockWords(clock.setup) })) : null,
    figureLegend(view));
}

/**
 * What a seat's clock shows at `now` (ms since 1970, the server's clock):
 * { ms, running, out } or null for a seat without a clock (a bot's). The
 * seat to act has `deadline - now` left; with Fischer the others have
 * their banks, per move the time a turn may last (nothing once over).
 */
export function clockState(view, s, now) {
  const c = view.clock;
  if (!c?.setup || view.seats?.[s]?.type === 'bot') return null;
  const out = (c.out || []).includes(s) || c.forfeit === s;
  const running = c.running?.seat === s && c.deadline != null && view.status === 'active';
  // Never more than the turn began with (the browser's idea of the server's time is only to a second).
  if (running) return { ms: Math.max(0, Math.min(c.deadline - now, c.deadline - c.running.since)), running, out };
  if (c.setup.per_move != null) return view.status === 'active' ? { ms: out ? 0 : c.setup.per_move * 1000, running, out } : null;
  return { ms: c.banks?.[s] ?? 0, running, out };
}

/** A seat's clock on the score board (or anywhere: tickClocks finds it by its `data-clock-seat`). */
export function seatClock(view, s, now = serverNow()) {
  const e = h('span.seat-clock', { dataset: { clockSeat: s }, role: 'timer', 'aria-live': 'off' });
  showClock(e, view, s, now);
  return e;
}

/** The clocks in `root` as they stand at `now`; the ms until one of them should change, or null when none runs. */
export function tickClocks(root, view, now) {
  let next = null;
  for (const e of root.querySelectorAll('[data-clock-seat]')) {
    const st = showClock(e, view, Number(e.dataset.clockSeat), now);
    if (st?.running && st.ms > 0) {
      // Whole seconds are rounded up, tenths down (clockText): the moment the text changes.
      const step = st.ms <= 10000 ? 100 : 1000;
      const wait = st.ms <= 10000 ? (st.ms % 100) || 100 : ((st.ms - 1) % 1000) + 1;
      next = Math.min(next ?? Infinity, Math.min(wait + 5, step));
    }
  }
  return next;
}

function showClock(e, view, s, now) {
  const st = clockState(view, s, now);
  e.classList.toggle('hidden', !st);
  if (!st) return null;
  const low = st.running && st.ms < 10000;
  const text = clockText(st.ms, low);
  if (e.textContent !== text) e.textContent = text;
  e.classList.toggle('running', st.running);
  e.classList.toggle('low', low);
  e.classList.toggle('out', st.out);
  e.dataset.ms = String(Math.round(st.ms));
  const words = st.out ? 'bot plays (time ran out)' : st.running ? (view.clock.setup.per_move != null ? 'time left for this turn' : 'time left') : view.clock.setup.per_move != null ? 'time for each turn' : 'time left in the bank';
  if (e.dataset.words !== words) { e.dataset.words = words; e.title = t(words); }
  return st;
}

/** The figures' icons on the score board, in pixels: large enough to tell apart on a phone. */
const FIGURE_ICON = { normal: 18, big: 22 };

/**
 * What the score board's icons are, always in sight (a touch screen has no
 * hover): each figure in play by its shape and name, the abbey and the
 * goods, and that a hollow icon is a figure on the board.
 */
export function figureLegend(view) {
  const figures = view.figures?.length ? view.figures : [{ figure: 'normal', each: 7 }];
  const items = figures.map((f) => h('span.legend-item', { dataset: { figure: f.figure } },
    meepleIcon(null, FIGURE_ICON[f.figure] || 20, false, f.figure), t(FIGURE_WORDS[f.figure] || f.figure)));
  if (view.abbeys) items.push(h('span.legend-item', { dataset: { figure: 'abbey' } }, miniTile('AB', 0, 20, 'abbey-icon'), t('Abbey')));
  if (view.goods) items.push(h('span.legend-item', { dataset: { figure: 'goods' } }, ...GOODS.map((k) => goodSymbol(k, 16)), t('Goods: wine, grain, cloth')));
  return h('div.figure-legend#figure-legend', { 'aria-label': t('what the icons are') }, ...items,
    h('span.legend-note', t('Filled: in supply; hollow: on the board.')));
}

/** Tiles left in the bag, per kind, drawn. */
export function renderBag(view, cat) {
  const wrap = h('div');
  const total = view.bag?.total ?? 0;
  wrap.appendChild(h('div.muted', { style: 'font-size:.85em;margin-bottom:.35em' }, tn(total, '{n} tile left in the bag', '{n} tiles left in the bag')));
  const grid = h('div.bag-grid');
  const kinds = cat.forSetup(view.setup).filter((k) => k.count > 0);
  for (const k of kinds) {
    const left = view.bag?.tiles?.[k.id] ?? 0;
    grid.appendChild(h('div.bag-item', { class: `bag-item${left ? '' : ' empty'}`, title: `${k.id}: ${left} left`, dataset: { tile: k.id } },
      miniTile(k.id, 0, 38), h('span', h('b', String(left)), ` ${k.id}`)));
  }
  wrap.appendChild(grid);
  return wrap;
}

/**
 * A log entry in words. `figure` is the figure an entry's follower is (for
 * one returning: the one the log deployed there).
 */
function logText(view, e, figure) {
  const who = (s) => [dot(s), h('b', seatName(view, s))];
  switch (e.type) {
    case 'tile_drawn': return [t('Drew {tile}', { tile: e.tile })];
    case 'tile_placed':
      if (e.tile === 'AB') return [...who(e.seat), t(' placed the abbey at {at}', { at: at(e.at) })];
      return [...who(e.seat), t(e.rot ? ' placed {tile} at {at}, turned {rot}°' : ' placed {tile} at {at}', { tile: e.tile, at: at(e.at), rot: e.rot })];
    case 'tile_discarded': return [...who(e.seat), t(' discarded {tile}: it fits nowhere', { tile: e.tile })];
    case 'follower_deployed': return [...who(e.seat), t(e.figure && e.figure !== 'big' ? ' put the {what} at {at}' : ' put a {what} at {at}', { what: featureWords(e.feature, e.figure), at: at(e.at) })];
    case 'ferry_placed': return [...who(e.seat), t(' placed a ferry {route} at {at}', { route: routeWords(e.ferry), at: at(e.at) })];
    case 'ferry_moved': return [...who(e.seat), t(' moved the ferry at {at}: now {route}', { at: at(e.at), route: routeWords(e.to) })];
    case 'follower_returned': return [...who(e.seat), returnWords(e.feature, at(e.at), figure)];
    case 'wagon_moved': return [...who(e.seat), t(' moved the wagon: {from} at {at_from} → {to} at {at}', { from: placeWords(e.from_feature), at_from: at(e.from), to: placeWords(e.feature), at: at(e.at) })];
    case 'scored': {
      const n = (e.tiles || []).length;
      // The Abbot: an abbot taken back scores its monastery or garden at once, open.
      const alone = e.kind === 'monastery' || e.kind === 'garden';
      const scorer = (e.points || []).findIndex((p) => p > 0);
      if (alone && !e.completed && !e.end_of_game && scorer >= 0) {
        const words = e.kind === 'garden' ? ' takes the abbot back from the garden at {at}: {n} points' : ' takes the abbot back from the monastery at {at}: {n} points';
        return [...who(scorer), h('b', t(words, { at: at(e.tiles?.[0]), n: e.points[scorer] }))];
      }
      const what = e.kind === 'monastery' ? t('Monastery at {at}', { at: at(e.tiles?.[0]) }) : e.kind === 'garden' ? t('Garden at {at}', { at: at(e.tiles?.[0]) }) : `${KIND_WORD[e.kind] ? t(KIND_WORD[e.kind]) : e.kind} · ${tn(n, '{n} tile', '{n} tiles')}`;
      const how = e.end_of_game ? (e.completed ? '{what} (complete) at the end: ' : '{what} at the end: ') : '{what} completed: ';
      const gains = [];
      (e.points || []).forEach((p, s) => { if (p) gains.push(h('span', dot(s), `${seatName(view, s)} +${p}`), ' '); });
      return [h('b', t(how, { what })), gains.length ? gains : t('no one scores')];
    }
    case 'goods_taken': {
      const got = GOODS.filter((k) => e[k]).map((k) => h('span.good-count', goodSymbol(k, 13), ` ${e[k]} ${t(k)}`));
      return [...who(e.seat), t(' takes the goods of the city: '), ...got.flatMap((x, i) => (i ? [', ', x] : [x]))];
    }
    case 'second_turn': return [...who(e.seat), t(' plays a second turn (builder)')];
    case 'game_ended': return [h('b', t('Game over: ')), (e.scores || []).map((p, s) => `${seatName(view, s)} ${p}`).join(', ')];
    default: return [e.type];
  }
}

/**
 * The game log, oldest first, grouped by turn. `onHover(tiles)` highlights a
 * scored feature's tiles on the board.
 */
export function renderLog(view, { onHover } = {}) {
  const box = h('div.log', { role: 'log', 'aria-label': 'game log' });
  let lastTurn = null;
  // The figure standing at each place ("x,y|feature"), as the log deployed them.
  const figures = new Map();
  for (const e of view.log || []) {
    const here = `${e.at}|${e.feature}`;
    let figure = null;
    if (e.type === 'follower_deployed') figures.set(here, e.figure || 'normal');
    else if (e.type === 'follower_returned') { figure = figures.get(here) || null; figures.delete(here); }
    if (e.turn !== lastTurn && e.type !== 'game_ended') {
      lastTurn = e.turn;
      box.appendChild(h('div.turn-head', t('Turn {n}', { n: e.turn })));
    }
    const cls = ['entry', e.type === 'scored' ? 'scored' : '', e.type === 'second_turn' ? 'second-turn' : '', e.type === 'scored' && e.end_of_game ? 'end' : '', e.type === 'follower_returned' ? 'returned' : ''].filter(Boolean).join(' ');
    const tiles = e.type === 'scored' ? e.tiles : e.at ? [e.at] : null;
    const takeBack = e.type === 'scored' && !e.completed && !e.end_of_game && (e.kind === 'monastery' || e.kind === 'garden');
    const row = h('div', { class: takeBack ? `${cls} take-back` : cls, dataset: { type: e.type, version: e.version } }, logText(view, e, figure));
    if (tiles && onHover) {
      row.addEventListener('mouseenter', () => onHover(tiles));
      row.addEventListener('mouseleave', () => onHover(null));
    }
    box.appendChild(row);
  }
  // A game lost on time ends without an event of the game's own: its last line says so.
  const lost = view.final?.forfeit;
  if (lost != null) box.appendChild(h('div.entry.forfeit', { dataset: { type: 'lost_on_time', seat: lost } }, t('{name} lost on time', { name: seatName(view, lost) })));
  return box;
}

/** The end-of-game breakdown. */
export function renderFinal(view, { compact = false } = {}) {
  const f = view.final;
  if (!f) return null;
  if (compact) return renderFinalCompact(view);
  const n = f.scores.length;
  const win = new Set(f.winners || []);
  const kinds = ['road', 'city', 'monastery', 'field'];
  // Short headings (full words in their titles) keep the table within a phone's width.
  const table = h('table', h('thead', h('tr', h('th', 'Player'), h('th', { title: 'points scored during the game' }, 'Game'),
    h('th', { title: 'roads' }, 'Roads'), h('th', { title: 'cities' }, 'Cities'),
    // The Abbot's gardens score as monasteries, and are counted with them.
    h('th', { title: (view.setup?.expansions || []).includes('abbot') ? 'monasteries and gardens' : 'monasteries' }, 'Mon.'),
    h('th', { title: 'farms' }, 'Farms'), f.goods ? h('th', { title: 'trade goods: 10 for each good a player has the most of' }, 'Goods') : null, h('th', 'Total'),
    view.hints ? h('th', { title: 'hints asked for during the game' }, 'Hints') : null)));
  const body = h('tbody');
  const order = [...Array(n).keys()].sort((a, b) => f.scores[b] - f.scores[a]);
  for (const s of order) {
    const bk = f.by_kind?.[s] || {};
    body.appendChild(h('tr', { class: win.has(s) ? 'win' : '', dataset: { seat: s } },
      h('td', meepleIcon(s, 14), ' ', seatName(view, s), win.has(s) ? ' ★' : ''),
      h('td', String(f.before_end_scoring?.[s] ?? '')),
      ...kinds.map((k) => h('td', bk[k] ? `+${bk[k]}` : '·')),
      f.goods ? h('td', { dataset: { goods: f.goods[s] } }, f.goods[s] ? `+${f.goods[s]}` : '·') : null,
      h('td', h('b', String(f.scores[s]))),
      view.hints ? h('td', { dataset: { hints: view.hints[s] || 0 } }, String(view.hints[s] || 0)) : null));
  }
  table.appendChild(body);
  const winners = (f.winners || []).map((s) => seatName(view, s));
  const title = (view.seats || []).length === 1 ? t('{who}: {n} points', { who: seatName(view, 0), n: f.scores[0] })
    : winners.length > 1 ? t('Shared victory: {who}', { who: winners.join(t(' and ')) }) : winners.length ? t('{who} wins', { who: winners[0] }) : t('Game over');
  const list = h('div.log', { style: 'max-height:30vh;margin-top:.6em' });
  for (const sc of f.scorings || []) list.appendChild(h('div.entry.scored.end', logText(view, { ...sc, type: 'scored' })));
  const lost = f.forfeit != null;
  return h('div.final', h('h3', { style: 'text-transform:none;font-size:1.05em;color:inherit' }, title), forfeitLine(view), h('div.table-wrap', table),
    h('div.muted', { style: 'font-size:.8em;margin-top:.3em' }, lost ? 'The game ended on time: the scores as they stood, without the end-of-game scoring.'
      : '“Game” is what each scored during play; the next columns are the end-of-game scoring of open roads, cities, monasteries and farms.'),
    (f.scorings || []).length ? h('details', h('summary', t('End-of-game scorings ({n})', { n: f.scorings.length })), list) : null);
}

/** The breakdown in a narrow column: during the game, at the end, total. */
function renderFinalCompact(view) {
  const f = view.final;
  const win = new Set(f.winners || []);
  const order = [...f.scores.keys()].sort((a, b) => f.scores[b] - f.scores[a]);
  const table = h('table', h('thead', h('tr', h('th', 'Player'), h('th', { title: 'points scored during the game' }, 'Game'), h('th', { title: 'end-of-game scoring' }, 'End'), h('th', 'Total'),
    view.hints ? h('th', { title: 'hints asked for during the game' }, 'Hints') : null)));
  const body = h('tbody');
  for (const s of order) {
    const bk = f.by_kind?.[s] || {};
    const withGoods = { ...bk, goods: f.goods?.[s] || 0 };
    const end = ['road', 'city', 'monastery', 'field', 'goods'].reduce((a, k) => a + (withGoods[k] || 0), 0);
    const parts = [['road', 'roads'], ['city', 'cities'], ['monastery', 'monasteries'], ['field', 'farms'], ['goods', 'goods']].filter(([k]) => withGoods[k]).map(([k, w]) => `${t(w)} +${withGoods[k]}`).join(', ');
    body.appendChild(h('tr', { class: win.has(s) ? 'win' : '', dataset: { seat: s } },
      h('td', meepleIcon(s, 14), ' ', seatName(view, s), win.has(s) ? ' ★' : ''),
      h('td', String(f.before_end_scoring?.[s] ?? '')),
      h('td', { title: parts || t('nothing') }, end ? `+${end}` : '·'),
      h('td', h('b', String(f.scores[s]))),
      view.hints ? h('td', { dataset: { hints: view.hints[s] || 0 } }, String(view.hints[s] || 0)) : null));
  }
  table.appendChild(body);
  return h('div.final', forfeitLine(view), table);
}

/** A game lost on time says so: "<name> lost on time". */
function forfeitLine(view) {
  const s = view.final?.forfeit;
  if (s === null || s === undefined) return null;
  return h('p.forfeit', { dataset: { seat: s } }, h('span.pdot', { style: `background:${colour(s)}` }), ' ', t('{name} lost on time', { name: seatName(view, s) }));
}

/** A seat's hints used, as a small tag. */
export function hintTag(n) {
  return h('span.tag.hints', { title: tn(n, '{n} hint asked for', '{n} hints asked for'), dataset: { hints: n } }, tn(n, '{n} hint', '{n} hints'));
}

export function colourName(seat) { return PLAYER_NAMES_OF_COLOURS[seat % PLAYER_NAMES_OF_COLOURS.length]; }
