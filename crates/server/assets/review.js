// The review of a finished game in the replay viewer (docs/analysis.md):
// asked for from the server (POST /api/games/{id}/review), followed while
// it runs, then shown as a graph of each player's chance to win under the
// replay's controls (a click goes there), the marks of the moves in the
// log and in a list, and the bot's better move drawn on the board.
import { api } from './api.js';
import { h, clear, showError } from './ui.js';
import { el } from './tiles.js';
import { t } from './i18n.js';
import { seatName, colour } from './panels.js';
import { deployWords, routeWords } from './words.js';

const POLL_MS = 1000;
const GRAPH_W = 300;
const GRAPH_H = 90;

/** The bot's better move (or hint), in words; `place` moves are drawn on the board instead. */
export function bestWords(text) {
  let m;
  if (/^place at /.test(text)) return t('The bot would place the tile where the dashed frame is.');
  if (text === 'pass') return t('The bot would pass.');
  if ((m = /^deploy (?:(\w+) )?on (\S+)$/.exec(text))) return deployWords(t('The bot'), m[1] || 'normal', m[2]);
  if ((m = /^ferry (\S+)$/.exec(text))) return t('The bot would put the ferry {route}.', { route: routeWords(m[1]) });
  if ((m = /^move ferry at \[(-?\d+), (-?\d+)\] to (\S+)$/.exec(text))) return t('The bot would move the ferry at ({x}, {y}): now {route}.', { x: m[1], y: m[2], route: routeWords(m[3]) });
  return t('The bot would play: {move}', { move: text });
}

/** A placement in the notation, as the board's ghost wants it. */
export function placementOf(text) {
  const m = /^place at \[(-?\d+), (-?\d+)\] turned (\d+)$/.exec(text || '');
  return m ? { x: Number(m[1]), y: Number(m[2]), rot: Number(m[3]) } : null;
}

function pct(x) { return `${Math.round(100 * x)}%`; }

export class ReviewPanel {
  /** `page`: the replay (its `gameId`, `view`, `version` and `go(v)`). */
  constructor(page) {
    this.page = page;
    this.review = null;
    this.timer = null;
    this.body = h('div#review-body');
    this.sec = h('section#review', h('h3', 'Review'), this.body);
  }

  destroy() { clearTimeout(this.timer); }

  /** Reads where the review stands (none, under way, done). */
  async load() {
    try { this.show(await api.review(this.page.gameId)); } catch (e) { this.showNone(); }
  }

  async ask() {
    try {
      this.show(await api.startReview(this.page.gameId));
    } catch (e) {
      this.showNone(e.message);
      showError(e, 'Reviewing the game');
    }
  }

  poll() {
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      try { this.show(await api.review(this.page.gameId)); } catch (_) { this.poll(); }
    }, POLL_MS);
  }

  show(s) {
    document.body.dataset.review = s.status;
    if (s.status === 'done') { this.review = s.review; this.showDone(); this.page.render(); return; }
    if (s.status === 'queued' || s.status === 'running') {
      const bar = h('progress#review-progress', { max: s.total || 1, value: s.done || 0 });
      clear(this.body).append(
        h('p', s.status === 'queued' ? t('Waiting for a free bot…') : t('The bot reviews every decision: {done} of {total} actions.', { done: s.done, total: s.total })),
        bar);
      this.poll();
      return;
    }
    this.showNone(s.status === 'failed' ? s.message : null);
  }

  showNone(message) {
    // (append() would write a null as the word "null".)
    clear(this.body).append(...[
      h('p', t('The strongest bot looks at every decision: who was winning, the moves that cost the most, and what it would have played. It takes about half a minute.')),
      message ? h('p.error', message) : null,
      h('button.primary#review-start', { onclick: () => this.ask() }, 'Review this game')].filter(Boolean));
  }

  showDone() {
    const r = this.review;
    const view = this.page.view;
    // Hints shown when the game had them (or the record holds some).
    const hints = !!view.hints || r.players.some((p) => p.hints > 0);
    this.graph = this.drawGraph(r, view);
    const table = h('table#review-players', h('thead', h('tr', h('th', 'Player'), h('th', { title: 'mean accuracy of the decisions, from the points each lost' }, 'Accuracy'),
      h('th', { title: 'inaccuracies' }, '?!'), h('th', { title: 'mistakes' }, '?'), h('th', { title: 'blunders' }, '??'),
      h('th', { title: 'points the draws were worth above the bag’s average' }, 'Luck'),
      hints ? h('th', { title: 'hints asked for during the game' }, 'Hints') : null)),
    h('tbody', r.players.map((p, i) => h('tr', h('td', seatName(view, i)), h('td', `${p.accuracy.toFixed(0)}%`),
      h('td', String(p.marks['?!'])), h('td', String(p.marks['?'])), h('td', String(p.marks['??'])),
      h('td', `${p.luck >= 0 ? '+' : ''}${p.luck.toFixed(1)}`),
      hints ? h('td', { dataset: { hints: p.hints || 0 } }, String(p.hints || 0)) : null))));
    const marked = r.decisions.filter((d) => d.mark);
    const list = h('ol#review-marks.review-marks', marked.map((d) => h('li', h('a', {
      href: '#', dataset: { version: d.index + 1 },
      onclick: (e) => { e.preventDefault(); this.page.go(d.index + 1, true); },
    }, h('b', d.mark), ' ', t('Turn {n} · {name}: {points} points lost, {win} → {after} to win', {
      n: d.turn, name: seatName(view, d.player), points: d.loss.toFixed(1), win: pct(d.win_before[d.player]), after: pct(d.win[d.player]),
    })))));
    clear(this.body).append(this.graph.svg, table,
      marked.length ? h('p', { style: 'margin:.4em 0 .2em' }, t('The marked moves (click to see one):')) : h('p', t('No move was marked.')),
      list);
  }

  /** Each player's chance to win after every decision, one line a player. */
  drawGraph(r, view) {
    const svg = el('svg', { id: 'review-graph', viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, width: '100%', role: 'img', 'aria-label': t('each player’s chance to win, move by move') });
    const ds = r.decisions;
    const x = (i) => (ds.length <= 1 ? 0 : (i / (ds.length - 1)) * GRAPH_W);
    const y = (p) => GRAPH_H - p * GRAPH_H;
    svg.appendChild(el('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: 'review-bg' }));
    svg.appendChild(el('line', { x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2, class: 'review-half' }));
    for (let p = 0; p < r.players.length; p++) {
      const pts = ds.map((d, i) => `${x(i).toFixed(1)},${y(d.win[p]).toFixed(1)}`).join(' ');
      svg.appendChild(el('polyline', { points: pts, fill: 'none', stroke: colour(p), 'stroke-width': 1.6, 'data-seat': p }));
    }
    ds.forEach((d, i) => {
      if (!d.mark) return;
      svg.appendChild(el('circle', { cx: x(i), cy: y(d.win[d.player]), r: d.mark === '??' ? 3.4 : 2.6, fill: colour(d.player), class: `review-mark mark-${d.mark.length}` }));
    });
    const cursor = el('line', { y1: 0, y2: GRAPH_H, class: 'review-cursor', id: 'review-cursor' });
    svg.appendChild(cursor);
    // A click goes to the position after the nearest decision.
    svg.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      const fx = (e.clientX - box.left) / Math.max(1, box.width);
      const i = Math.max(0, Math.min(ds.length - 1, Math.round(fx * (ds.length - 1))));
      if (ds[i]) this.page.go(ds[i].index + 1, true);
    });
    return { svg, cursor, x };
  }

  /** The decision that led to version `v`, if it was reviewed. */
  decisionAt(v) {
    return this.review ? this.review.decisions.find((d) => d.index + 1 === v) || null : null;
  }

  /**
   * Called by the replay as it shows version `v`: moves the graph's cursor,
   * says what the review thinks of the move that led here, marks the log's
   * moves, and returns the better placement to draw, if any.
   */
  annotate(v, what, log) {
    if (!this.review) return null;
    const ds = this.review.decisions;
    // The cursor: at the last decision up to here.
    let k = -1;
    for (let i = 0; i < ds.length && ds[i].index < v; i++) k = i;
    const cx = k < 0 ? 0 : this.graph.x(k);
    this.graph.cursor.setAttribute('x1', cx);
    this.graph.cursor.setAttribute('x2', cx);
    // Each marked move on its log row; a move the log has no row of (a pass, a ferry left
    // where it is) on the row just before it, so that no mark goes unseen.
    const rows = [...log.querySelectorAll('.entry[data-version]')];
    let r = 0;
    for (const d of ds) {
      if (d.index >= v) break;
      if (!d.mark) continue;
      while (r + 1 < rows.length && Number(rows[r + 1].dataset.version) <= d.index + 1) r++;
      const row = rows[r];
      if (!row || Number(row.dataset.version) > d.index + 1 || row.querySelector(`.move-mark[data-index="${d.index}"]`)) continue;
      row.append(' ', h('b.move-mark', { dataset: { index: d.index }, title: t('{points} points lost', { points: d.loss.toFixed(1) }) }, d.mark));
    }
    const d = this.decisionAt(v);
    if (!d) return null;
    const view = this.page.view;
    const p = d.player;
    const line = h('div#review-what', { dataset: { mark: d.mark || '' } },
      d.mark ? h('b.move-mark', `${d.mark} `) : null,
      d.played === d.best
        ? t('The bot’s choice too. {name}: {win} to win.', { name: seatName(view, p), win: pct(d.win[p]) })
        : !d.mark && d.loss < 0.1
        ? [t('As good as the bot’s choice, by its count. {name}: {win} to win.', { name: seatName(view, p), win: pct(d.win[p]) }), ' ', bestWords(d.best)]
        : [t('{points} points lost; {win} → {after} to win.', { points: d.loss.toFixed(1), win: pct(d.win_before[p]), after: pct(d.win[p]) }), ' ', bestWords(d.best)]);
    if (d.hinted) line.append(' ', h('span.hinted-turn', t('{name} asked for a hint this turn.', { name: seatName(view, p) })));
    what.append(line);
    return d.played === d.best ? null : placementOf(d.best);
  }
}
