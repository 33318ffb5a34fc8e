// End-of-game statistics, from the finished game's view alone (its log
// holds every scoring, during the play and at the end, and every figure
// put down): each player's points by kind of feature, the score over the
// turns (a line a player, drawn in SVG), and the figures each put down.
import { h } from './ui.js';
import { t } from './i18n.js';
import { el, colourOf } from './tiles.js';
import { seatName, meepleIcon } from './panels.js';
import { FIGURE_WORDS } from './words.js';

/** The kinds of points, in the table's order, with their headings. */
const KINDS = [
  ['road', 'Roads'], ['city', 'Cities'], ['monastery', 'Monasteries'], ['garden', 'Gardens'], ['field', 'Farms'], ['goods', 'Goods'],
];

/**
 * The figures computed from `view` (a finished game): `kinds[seat][kind]`
 * points (gardens apart from monasteries, the goods' end-of-game points as
 * `goods`), `curve[seat]` the score after each turn (index 0: before the
 * first) and at the end, `figures[seat][figure]` the figures put down.
 */
export function gameStats(view) {
  const n = view.final?.scores?.length || view.seats?.length || 0;
  const turns = view.turn || 0;
  const kinds = Array.from({ length: n }, () => ({}));
  const byTurn = Array.from({ length: n }, () => new Array(turns + 1).fill(0));
  const figures = Array.from({ length: n }, () => ({}));
  for (const e of view.log || []) {
    if (e.type === 'scored') {
      (e.points || []).forEach((p, s) => {
        if (!p || s >= n) return;
        kinds[s][e.kind] = (kinds[s][e.kind] || 0) + p;
        if (!e.end_of_game) byTurn[s][Math.min(turns, Math.max(0, e.turn))] += p;
      });
    } else if (e.type === 'follower_deployed' && e.seat < n) {
      const f = e.figure || 'normal';
      figures[e.seat][f] = (figures[e.seat][f] || 0) + 1;
    }
  }
  (view.final?.goods || []).forEach((p, s) => { if (p && s < n) kinds[s].goods = p; });
  const curve = byTurn.map((row, s) => {
    let sum = 0;
    const out = row.map((p) => (sum += p));
    out.push(view.final?.scores?.[s] ?? sum);
    return out;
  });
  return { n, turns, kinds, curve, figures };
}

/** The statistics section of the final scores. */
export function renderStats(view) {
  const st = gameStats(view);
  if (!st.n) return null;
  const seats = [...Array(st.n).keys()];
  // Only the kinds anyone scored (gardens, goods: only with their expansions).
  const kinds = KINDS.filter(([k]) => seats.some((s) => st.kinds[s][k]));
  const points = h('table.stats-kinds#stats-kinds', h('thead', h('tr', h('th', 'Player'), ...kinds.map(([, w]) => h('th', w)), h('th', 'Total'))),
    h('tbody', seats.map((s) => h('tr', { dataset: { seat: s } },
      h('td', meepleIcon(s, 14), ' ', seatName(view, s)),
      ...kinds.map(([k]) => h('td', { dataset: { kind: k, points: st.kinds[s][k] || 0 } }, String(st.kinds[s][k] || 0))),
      h('td', h('b', String(kinds.reduce((a, [k]) => a + (st.kinds[s][k] || 0), 0))))))));
  const figs = [...new Set(seats.flatMap((s) => Object.keys(st.figures[s])))]
    .sort((a, b) => (a === 'normal' ? -1 : b === 'normal' ? 1 : a.localeCompare(b)));
  const used = h('table.stats-figures#stats-figures', h('thead', h('tr', h('th', 'Player'), ...figs.map((f) => h('th', t(FIGURE_WORDS[f] || f))))),
    h('tbody', seats.map((s) => h('tr', { dataset: { seat: s } },
      h('td', meepleIcon(s, 14), ' ', seatName(view, s)),
      ...figs.map((f) => h('td', { dataset: { figure: f, count: st.figures[s][f] || 0 } }, String(st.figures[s][f] || 0)))))));
  return h('section.stats#stats',
    h('h3', 'Points by kind'), h('div.table-wrap', points),
    h('h3', 'The score over the turns'), scoreChart(view, st),
    h('h3', 'Figures put down'), figs.length ? h('div.table-wrap', used) : h('p.muted', 'No figure was put down.'));
}

/** A line a player: the score after each turn, the last step the end-of-game scoring. */
function scoreChart(view, st) {
  const W = 320, H = 150, L = 30, R = 8, T = 8, B = 20;
  const last = st.turns + 1;
  const top = Math.max(10, ...st.curve.flat());
  const x = (i) => L + ((W - L - R) * i) / Math.max(1, last);
  const y = (p) => T + (H - T - B) * (1 - p / top);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'score-chart', id: 'score-chart', role: 'img', 'aria-label': t('the score over the turns') });
  // Axes, a few grid lines, the turns below and the points at the side.
  const step = top > 120 ? 50 : top > 60 ? 20 : 10;
  for (let p = 0; p <= top; p += step) {
    svg.appendChild(el('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: 'grid' }));
    svg.appendChild(el('text', { x: L - 4, y: y(p) + 3, 'text-anchor': 'end', class: 'tick' }, [document.createTextNode(String(p))]));
  }
  const tstep = st.turns > 60 ? 20 : st.turns > 25 ? 10 : 5;
  // (The last turns' tick gives way to the end's label.)
  for (let i = 0; i <= st.turns - tstep / 2; i += tstep) {
    svg.appendChild(el('text', { x: x(i), y: H - 6, 'text-anchor': 'middle', class: 'tick' }, [document.createTextNode(String(i))]));
  }
  svg.appendChild(el('text', { x: x(last), y: H - 6, 'text-anchor': 'end', class: 'tick' }, [document.createTextNode(t('end'))]));
  st.curve.forEach((row, s) => {
    svg.appendChild(el('polyline', {
      points: row.map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(' '),
      class: 'score-line', stroke: colourOf(s), 'data-seat': s, 'data-points': row.join(','),
    }));
  });
  const legend = h('div.chart-legend', [...Array(st.n).keys()].map((s) => h('span', h('span.pdot', { style: `background:${colourOf(s)}` }), ` ${seatName(view, s)} ${st.curve[s][st.curve[s].length - 1]}`)));
  return h('div.chart', svg, legend);
}
