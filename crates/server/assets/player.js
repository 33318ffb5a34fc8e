// Ratings (docs/api.md, Ratings): a player's page (#player=NAME: an
// account's, or a bot level's), with its Glicko-2 rating, the rating's
// history as a graph and the statistics of its finished games; and the
// ratings page (#ratings), the players' and the levels' tables. An
// account's name is what its player typed: always a text node, never
// looked up in the dictionary.
import { api } from './api.js';
import { h, clear, cap, showError, fmtTime } from './ui.js';
import { t, tn } from './i18n.js';
import { el } from './tiles.js';
import { signedIn, YourTurn } from './account.js';

/** The link to the page of a player or of a level. */
export function playerHref(name) { return `#player=${encodeURIComponent(name)}`; }

/** An account's name as typed; a level's in the UI's language. */
function nameNode(name, kind) {
  return document.createTextNode(kind === 'level' ? cap(t(name)) : name);
}

/** "1562 ± 121", marked when provisional (a deviation above 110: few games yet). */
export function ratingCell(r) {
  return h('span.rating', { dataset: { rating: Math.round(r.rating), deviation: Math.round(r.deviation), provisional: r.provisional ? '1' : '' } },
    `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`,
    r.provisional ? [' ', h('span.tag.provisional', { title: 'few rated games yet: the rating may still move a lot' }, 'provisional')] : null);
}

/**
 * The account page's line: the signed-in player's rating (or that it has
 * none yet) and the way to its page, filled in when the server answers.
 */
export function ratingLine(name) {
  const line = h('p#account-rating', h('span.muted', 'Loading…'));
  api.player(name).then((p) => {
    clear(line).append(p.rating ? h('span', 'Rating', ': ', ratingCell(p.rating)) : h('span.muted', 'No rating yet: it comes with your first rated game.'),
      ' · ', h('a#account-player-link', { href: playerHref(p.name) }, 'Your player page'));
  }, (e) => { clear(line).append(h('a#account-player-link', { href: playerHref(name) }, 'Your player page')); console.warn(e); });
  return line;
}

const KINDS = [['road', 'Roads'], ['city', 'Cities'], ['field', 'Farms'], ['monastery', 'Monasteries'], ['other', 'Other (mostly goods)']];

/** A number for reading, to one decimal at most, in the browser's way. */
function num(x, sign = false) {
  return x.toLocaleString(undefined, { maximumFractionDigits: 1, ...(sign ? { signDisplay: 'exceptZero' } : {}) });
}

/** This page's name on the body; a game's marks (its status, step…) gone with it. */
function pageMark(name) {
  const d = document.body.dataset;
  d.page = name;
  for (const k of ['game', 'step', 'status', 'version']) delete d[k];
}

export class PlayerPage {
  constructor(root, ctx, name) {
    this.root = root;
    this.ctx = ctx;
    this.name = name;
  }

  async start() {
    pageMark('player');
    this.ctx.setConn(null);
    this.ctx.setHeader(this.name);
    clear(this.root).appendChild(h('p.muted', { style: 'padding:1em' }, 'Loading…'));
    let p;
    try {
      p = await api.player(this.name);
    } catch (e) {
      clear(this.root).appendChild(h('div.card#player-missing', { role: 'alert', style: 'margin:2em auto;max-width:34em' },
        h('h2', e.code === 'not_found' ? 'No such player' : 'The player’s page cannot be loaded'),
        h('p', e.code === 'not_found' ? t('No account or bot level is named “{name}”.', { name: String(this.name).slice(0, 40) }) : `${e.code || 'error'}: ${e.message}`),
        h('div.form-row', h('a.button.primary', { href: '#ratings' }, 'The ratings'), h('a.button', { href: '#' }, 'Back to the home page'))));
      if (e.code !== 'not_found') showError(e, 'Loading the player');
      return;
    }
    this.ctx.setHeader(p.kind === 'level' ? cap(t(p.name)) : p.name);
    this.render(p);
  }

  destroy() { this.turns?.stop(); }

  render(p) {
    const me = signedIn();
    const mine = p.kind === 'player' && me && me.name.toLowerCase() === p.name.toLowerCase();
    const r = p.rating;
    const summary = h('section.card#player-summary', { dataset: { kind: p.kind, name: p.name } },
      h('h2', nameNode(p.name, p.kind), p.kind === 'level' ? [' ', h('span.tag', 'bot level')] : null, mine ? [' ', h('span.tag.you', 'you')] : null),
      p.kind === 'level' ? h('p.muted#player-level', 'A bot level: the server’s bot playing at this strength. Its rating moves with every rated game played against it.') : null,
      r ? h('div.big-rating#player-rating', { dataset: { games: r.games } }, ratingCell(r),
        h('div.muted', tn(r.games, 'after {n} rated game', 'after {n} rated games')))
        : h('p#player-rating.no-rating', { dataset: { games: 0 } }, 'No rating yet: it comes with the first rated game.',
          mine ? [' ', h('a', { href: '#' }, 'Create one on the home page (tick “Rated”).')] : null),
      h('p.muted', { style: 'font-size:.85em' }, 'Ratings are Glicko-2’s: ± is how unsure the rating is (its deviation), which shrinks as rated games are played. Above 110 the rating is provisional.'),
      h('h3', 'The rating over the rated games'), historyChart(p.history || []),
      recentGames(p.history || []),
      h('div.form-row', h('a#player-ratings-link', { href: '#ratings' }, 'All the ratings'), mine ? h('a', { href: '#account' }, 'Your account') : null));
    // The player's own page: the games waiting for it too.
    this.turns?.stop();
    this.turns = mine ? new YourTurn(this.ctx) : null;
    if (this.turns) { this.turns.start(); this.turns.refresh(); }
    clear(this.root).appendChild(h('div.home.player-page',
      this.turns ? h('div', { style: 'display:flex;flex-direction:column;gap:1em' }, summary, this.turns.card) : summary, statsCard(p.stats)));
  }
}

/** The statistics of every finished game with a result, rated or not. */
function statsCard(st) {
  const c = h('section.card#player-stats', { dataset: { games: st.games } }, h('h2', 'Statistics'),
    h('p.muted', { style: 'font-size:.85em' }, 'Over every finished game, rated or not.'));
  if (!st.games) { c.appendChild(h('p.muted', 'No finished game yet.')); return c; }
  const row = (key, label, value, title) => h('tr', { dataset: { stat: key } }, h('th', { scope: 'row', title }, label), h('td', value));
  const per = (x) => num(x / st.games);
  c.append(h('table.player-stats', h('tbody',
    row('games', 'Games', String(st.games)),
    row('wins', 'Wins', `${st.wins} (${Math.round((100 * st.wins) / st.games)}%)`, 'first places, shared ones too'),
    row('rated', 'Rated games', String(st.rated)),
    row('average-score', 'Average score', st.average_score === null ? '—' : num(st.average_score)),
    row('average-margin', 'Average margin', st.average_margin === null ? '—' : num(st.average_margin, true), 'the score less the best other player’s'),
    row('followers', 'Figures placed per game', per(st.followers)))),
  h('h3', 'Points per game'),
  h('table.player-stats#player-points', h('tbody', KINDS.map(([k, label]) => row(k, label, per(st.points?.[k] || 0))))));
  return c;
}

/**
 * The rating after each rated game, a line in a band of ± its deviation,
 * with a summary in words (the graph's accessible name, shown below it).
 */
function historyChart(hist) {
  const n = hist.length;
  const summary = h('p.muted#rating-summary', { style: 'font-size:.88em' }, n === 0 ? t('No rated game yet.') : n === 1
    ? t('One rated game, on {when}: {rating} ± {dev} after it.', { when: fmtTime(hist[0].at), rating: Math.round(hist[0].rating), dev: Math.round(hist[0].deviation) })
    : tn(n, '{n} rated game: {first} after the first, {last} after the last; highest {max}, lowest {min}.', '{n} rated games: {first} after the first, {last} after the last; highest {max}, lowest {min}.', {
      first: Math.round(hist[0].rating), last: Math.round(hist[n - 1].rating),
      max: Math.round(Math.max(...hist.map((x) => x.rating))), min: Math.round(Math.min(...hist.map((x) => x.rating))),
    }));
  if (!n) return summary;
  // 360 units wide: about its size in pixels on a phone, its words as large.
  const W = 360, H = 180, L = 40, R = 12, T = 10, B = 24;
  let lo = Math.min(...hist.map((x) => x.rating - x.deviation)), hi = Math.max(...hist.map((x) => x.rating + x.deviation));
  const step = [50, 100, 200, 250, 500].find((s) => (hi - lo) / s <= 6) || 1000;
  lo = Math.floor(lo / step) * step;
  hi = Math.max(lo + step, Math.ceil(hi / step) * step);
  const x = (i) => (n === 1 ? (L + W - R) / 2 : L + ((W - L - R) * i) / (n - 1));
  const y = (r) => T + (H - T - B) * (1 - (r - lo) / (hi - lo));
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', id: 'rating-chart', role: 'img', 'aria-labelledby': 'rating-summary', 'data-points': n });
  for (let v = lo; v <= hi; v += step) {
    svg.appendChild(el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    svg.appendChild(el('text', { x: L - 5, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, [document.createTextNode(String(v))]));
  }
  // The games' numbers below: the first, the last, a few between.
  const gstep = n <= 8 ? 1 : Math.ceil(n / 6);
  for (let i = 0; i < n; i += gstep) if (n - 1 - i >= gstep / 2 || i === n - 1) svg.appendChild(el('text', { x: x(i), y: H - 6, 'text-anchor': 'middle', class: 'tick' }, [document.createTextNode(String(i + 1))]));
  if ((n - 1) % gstep) svg.appendChild(el('text', { x: x(n - 1), y: H - 6, 'text-anchor': 'middle', class: 'tick' }, [document.createTextNode(String(n))]));
  const f = (v) => v.toFixed(1);
  if (n === 1) {
    svg.appendChild(el('rect', { x: f(x(0) - 8), y: f(y(hist[0].rating + hist[0].deviation)), width: 16, height: f(y(hist[0].rating - hist[0].deviation) - y(hist[0].rating + hist[0].deviation)), class: 'band', rx: 3 }));
  } else {
    const top = hist.map((p, i) => `${f(x(i))},${f(y(p.rating + p.deviation))}`);
    const bottom = hist.map((p, i) => `${f(x(i))},${f(y(p.rating - p.deviation))}`).reverse();
    svg.appendChild(el('polygon', { points: [...top, ...bottom].join(' '), class: 'band' }));
    svg.appendChild(el('polyline', { points: hist.map((p, i) => `${f(x(i))},${f(y(p.rating))}`).join(' '), class: 'rating-line' }));
  }
  // A dot a game while they stand apart; the last one always.
  hist.forEach((p, i) => {
    if (n > 40 && i !== n - 1) return;
    const dot = el('circle', { cx: f(x(i)), cy: f(y(p.rating)), r: 3.5, class: 'rating-point', 'data-game': p.game });
    dot.appendChild(el('title', {}, [document.createTextNode(`${t('Game {n}', { n: i + 1 })} · ${fmtTime(p.at)}: ${Math.round(p.rating)} ± ${Math.round(p.deviation)}`)]));
    svg.appendChild(dot);
  });
  return h('div.chart', svg, summary);
}

/** The last rated games, newest first: the rating after each, its change, the way to its replay. */
function recentGames(hist) {
  if (!hist.length) return null;
  const items = [];
  for (let i = hist.length - 1; i >= Math.max(0, hist.length - 8); i--) {
    const p = hist[i];
    const d = i > 0 ? Math.round(p.rating) - Math.round(hist[i - 1].rating) : null;
    items.push(h('li', { dataset: { game: p.game } },
      h('span.who', `${Math.round(p.rating)} ± ${Math.round(p.deviation)}`, d !== null ? h('span.muted', ` (${num(d, true)})`) : null, h('div.meta', fmtTime(p.at))),
      h('a', { href: `#replay=${p.game}` }, 'Replay')));
  }
  return [h('h3', 'The last rated games'), h('ul.game-list#player-games', items)];
}

export class RatingsPage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
  }

  async start() {
    pageMark('ratings');
    this.ctx.setConn(null);
    this.ctx.setHeader(t('Ratings'));
    clear(this.root).appendChild(h('p.muted', { style: 'padding:1em' }, 'Loading…'));
    let data;
    try {
      data = await api.ratings(100);
    } catch (e) {
      clear(this.root).appendChild(h('div.card', { role: 'alert', style: 'margin:2em auto;max-width:34em' },
        h('h2', 'The ratings cannot be loaded'), h('p', `${e.code || 'error'}: ${e.message}`), h('a', { href: '#' }, 'Back to the home page')));
      showError(e, 'Loading the ratings');
      return;
    }
    const me = signedIn();
    clear(this.root).appendChild(h('div.home.ratings-page',
      h('section.card#ratings-players', h('h2', 'Players'),
        data.players?.length ? h('div.table-wrap', ratingsTable(data.players, 'player', me))
          : h('p.muted', 'No player has a rating yet: it comes with a rated game (signed in, tick “Rated” when creating one).')),
      h('section.card#ratings-levels', h('h2', 'Bot levels'), h('div.table-wrap', ratingsTable(data.levels || [], 'level', null)),
        h('p.muted', { style: 'font-size:.85em' }, 'Each level of the bots is rated too: it starts where its matches against the other levels put it, and moves with the rated games played against it.'),
        h('p.muted', { style: 'font-size:.85em' }, 'Ratings are Glicko-2’s: ± is how unsure the rating is (its deviation), which shrinks as rated games are played. Above 110 the rating is provisional.'))));
  }

  destroy() {}
}

function ratingsTable(rows, kind, me) {
  return h('table.ratings', { id: `ratings-${kind}s-table` },
    h('thead', h('tr', h('th', '#'), h('th', kind === 'level' ? 'Level' : 'Player'), h('th', 'Rating'), h('th', 'Games'))),
    h('tbody', rows.map((r, i) => h('tr', { class: me && me.name.toLowerCase() === r.name.toLowerCase() ? 'me' : null, dataset: { name: r.name } },
      h('td', String(i + 1)),
      h('td', h('a', { href: playerHref(r.name) }, nameNode(r.name, kind))),
      h('td', ratingCell(r)),
      h('td', String(r.games))))));
}
