// The chooser: a tile whose choices stand too close together for a finger
// at the board's zoom (three spots on one edge, a lake's ferry handles),
// shown large in a dialog, each choice a target of at least a fingertip
// (44 px), with the same choices as buttons below it.
import { h, clear } from './ui.js';
import { t } from './i18n.js';
import { el, tileHref, meeple, ferryPath, colourOf, inkOn, T } from './tiles.js';

const TARGET_PX = 44;

/**
 * Opens the chooser of `c` ({at, tile, rot, items}, as the board keeps it:
 * items of type `spot`, `takeBack`, `ferry` (numbered choices) and `why`
 * (a refusal, said when tapped), at points `p` of the tile in board units).
 * `onPick(n)` takes a numbered choice, `onWhy(text)` tells a refusal.
 */
export function openChooser(c, { title, onPick, onWhy }) {
  let d = document.getElementById('chooser');
  if (!d) {
    d = h('dialog#chooser', { 'aria-labelledby': 'chooser-title' });
    document.body.appendChild(d);
  }
  const ferries = c.items.some((it) => it.type === 'ferry');
  // A lake's handles are near its middle: the lake alone, larger; spots reach the tile's edges.
  const [vx, vy, vw] = ferries ? [14, 14, 72] : [-8, -8, T + 16];
  const px = Math.max(240, Math.min(340, window.innerWidth - 56));
  const scale = px / vw;
  const minR = TARGET_PX / 2 / scale;
  const svg = el('svg', { viewBox: `${vx} ${vy} ${vw} ${vw}`, width: px, height: px, class: 'chooser-board', role: 'group', 'aria-label': t('the tile, larger') });
  if (c.tile) svg.appendChild(el('use', { href: tileHref(c.tile, c.rot) }));
  const pick = (n) => { d.close(); onPick(n); };
  const boat = c.items.find((it) => it.type === 'ferry' && it.boat)?.boat;
  if (boat) {
    const fp = ferryPath(boat);
    svg.appendChild(el('path', { d: fp.d, class: 'ferry-route' }));
  }
  const list = h('div.chooser-list');
  for (const it of c.items) {
    const [x, y] = it.p;
    if (it.type === 'ferry') {
      const fp = ferryPath(it.opt.ferry);
      svg.appendChild(el('path', { d: fp.d, class: 'chooser-crossing', 'data-n': it.n }));
    }
  }
  for (const it of c.items) {
    const [x, y] = it.p;
    let g;
    if (it.type === 'why') {
      g = el('g', { class: 'chooser-item chooser-why', transform: `translate(${x} ${y})`, role: 'button', 'aria-label': it.why });
      g.appendChild(el('circle', { r: 7, class: 'why-ring' }));
      g.appendChild(el('path', { d: 'M-4.5,4.5 L4.5,-4.5', class: 'why-cross' }));
      g.addEventListener('click', () => onWhy(it.why));
    } else {
      g = el('g', { class: `chooser-item chooser-${it.type}`, transform: `translate(${x} ${y})`, role: 'button', 'aria-label': `${it.n}: ${it.words}`, 'data-n': it.n });
      if (it.type === 'spot') {
        const sp = it.spot;
        // Smaller than on the board: the tile is drawn three times larger, and neighbours stay apart.
        g.appendChild(el('circle', { r: sp.figure === 'big' ? 10 : 8.5, class: 'ring', stroke: colourOf(sp.seat) }));
        g.appendChild(meeple(sp.seat, { transform: `scale(${sp.figure === 'big' ? 0.7 : 0.55})${sp.kind === 'field' && sp.figure !== 'barn' && sp.figure !== 'pig' ? ' rotate(-90)' : ''}` }, sp.figure));
        g.appendChild(el('text', { x: 8, y: -8, class: 'chooser-num', 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, [document.createTextNode(String(it.n))]));
      } else if (it.type === 'takeBack') {
        g.appendChild(el('circle', { r: 10, class: 'ring', stroke: colourOf(it.take.seat) }));
        g.appendChild(el('text', { x: 0, y: 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'chooser-num', fill: inkOn('#ffffff') }, [document.createTextNode(`↩ +${it.take.points}`)]));
      } else {
        g.appendChild(el('circle', { r: Math.max(it.r, 5), class: 'handle' }));
        g.appendChild(el('text', { x: 0, y: 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'handle-num' }, [document.createTextNode(String(it.n))]));
      }
      g.addEventListener('click', () => pick(it.n));
      list.appendChild(h('button.opt', { dataset: { n: it.n }, onclick: () => pick(it.n) }, h('span.num', String(it.n)), it.words));
    }
    // The target a finger takes: a fingertip at the least, drawn over the choice.
    g.appendChild(el('circle', { r: minR, class: 'tap' }));
    svg.appendChild(g);
  }
  clear(d).append(
    h('h2#chooser-title', title),
    h('p.muted', { style: 'font-size:.85em;margin:.2em 0 .5em' }, 'Tap a choice on the tile, or below.'),
    h('div.chooser-wrap', svg),
    list,
    h('div', { style: 'text-align:right;margin-top:.6em' }, h('button#chooser-close', { onclick: () => d.close() }, 'Close')));
  d.dataset.at = c.at.join(',');
  if (!d.open) d.showModal();
}

/** Closes the chooser (the step it was for is over). */
export function closeChooser() {
  const d = document.getElementById('chooser');
  if (d && d.open) d.close();
}
