// The feature inspector: pointing at (or tapping) a feature on the board
// shows its tiles, the figures on it per player, and what it would score
// completed now and at the end as it stands (the server computes it:
// POST /api/games/{id}/feature).
import { h, clear } from './ui.js';
import { T } from './tiles.js';
import { meepleIcon, seatName } from './panels.js';
import { t, tn } from './i18n.js';

const KIND = { road: 'Road', city: 'City', monastery: 'Monastery', field: 'Farm', garden: 'Garden' };

export class Inspector {
  /**
   * @param {HTMLElement} host  the board's wrapper (the card sits in its corner)
   * @param {BoardView} board
   * @param {object} o  { cat, view(): the view shown, ask(at, piece): Promise<report>, onTiles(tiles|null) }
   */
  constructor(host, board, o) {
    this.board = board;
    this.o = o;
    this.card = h('div.inspector.hidden#inspector', { role: 'status', 'aria-live': 'polite' });
    host.appendChild(this.card);
    this.key = null;
    this.cache = new Map();
  }

  /** The feature under a board point (bx, by), or null off the tiles. */
  pieceAt(bx, by) {
    const x = Math.floor(bx / T), y = Math.floor(by / T);
    const t = (this.o.view()?.board || []).find((b) => b.at[0] === x && b.at[1] === y);
    if (!t) return null;
    const piece = this.o.cat.pieceAt(t.tile, t.rot, bx - x * T, by - y * T);
    return piece === null || piece === undefined ? null : { at: [x, y], piece };
  }

  /** Points at (bx, by): shows that feature after a short pause; null hides. */
  point(p, { now = false } = {}) {
    clearTimeout(this.timer);
    const f = p ? this.pieceAt(p.bx, p.by) : null;
    if (!f) { if (!now) this.timer = setTimeout(() => this.hide(), 400); else this.hide(); return; }
    const key = this.keyOf(this.o.view(), f);
    if (key === this.key) return;
    this.timer = setTimeout(() => this.show(f, key), now ? 0 : 220);
  }

  /**
   * The view changed under the card (a ferry move, a tile, an undo, a
   * replay's step): the feature it shows is asked for again as it is now,
   * so that the card never tells an older position; gone with its tile, it
   * hides.
   */
  refresh() {
    const f = this.shown;
    if (!f || this.card.classList.contains('hidden')) return;
    const v = this.o.view();
    if (!(v?.board || []).some((b) => b.at[0] === f.at[0] && b.at[1] === f.at[1])) { this.hide(); return; }
    const key = this.keyOf(v, f);
    if (key !== this.key) this.show(f, key);
  }

  keyOf(v, f) { return `${v?.version}|${v?.seq || 0}|${f.at}|${f.piece}`; }

  async show(f, key) {
    this.key = key;
    let r = this.cache.get(key);
    if (!r) {
      try { r = await this.o.ask(f.at, f.piece); } catch (_) { return; }
      this.cache.set(key, r);
      if (this.cache.size > 200) this.cache.delete(this.cache.keys().next().value);
    }
    if (this.key !== key) return;
    this.render(r, f);
  }

  hide() {
    this.key = null;
    this.shown = null;
    this.card.classList.add('hidden');
    this.o.onTiles(null);
  }

  render(r, f) {
    const v = this.o.view();
    const n = r.tiles.length;
    const bits = [tn(n, '{n} tile', '{n} tiles')];
    if (r.pennants) bits.push(tn(r.pennants, '{n} pennant', '{n} pennants'));
    if (r.marks) bits.push(t(r.kind === 'road' ? 'an inn' : 'a cathedral'));
    if (r.kind === 'road' || r.kind === 'city') bits.push(r.complete ? t('complete') : tn(r.open_edges, 'open ({n} edge)', 'open ({n} edges)'));
    // A garden (The Abbot) scores as a monastery: by the tiles around it.
    if (r.kind === 'monastery' || r.kind === 'garden') bits.push(r.complete ? t('surrounded') : tn(r.value_end - 1, '{n} of 8 neighbours', '{n} of 8 neighbours'));
    const who = (pts) => {
      const list = pts.map((p, s) => [s, p]).filter(([, p]) => p > 0);
      return list.length ? list.map(([s, p]) => h('span.gain', { dataset: { seat: s } }, meepleIcon(s, 13), ` ${seatName(v, s)} +${p}`)) : [h('span.muted', 'no one')];
    };
    const figures = r.followers.map((c, s) => [s, c]).filter(([, c]) => c > 0);
    const rows = [
      h('div.ins-title', h('b', KIND[r.kind] ? t(KIND[r.kind]) : r.kind), ` · ${bits.join(' · ')}`),
      h('div.ins-row', h('span.ins-label', 'Followers'), figures.length
        ? figures.map(([s, c]) => h('span.gain', { dataset: { seat: s } }, ...Array.from({ length: c }, () => meepleIcon(s, 13)), ` ${seatName(v, s)}`))
        : h('span.muted', 'none')),
    ];
    if (r.complete && r.kind !== 'field') {
      rows.push(h('div.ins-row', h('span.ins-label', 'Scored'), t('{n} points when completed', { n: r.value_complete })));
    } else {
      if (r.value_complete !== null && r.value_complete !== undefined) {
        rows.push(h('div.ins-row.ins-now', h('span.ins-label', t('If completed now ({n})', { n: r.value_complete })), ...who(r.if_completed)));
      }
      rows.push(h('div.ins-row.ins-end', h('span.ins-label', t('At the end as it is ({n})', { n: r.value_end })), ...who(r.at_end)));
    }
    clear(this.card).append(...rows,
      h('button.small.ins-close', { 'aria-label': 'close', onclick: () => this.hide() }, '×'));
    // The position it tells (the tests compare it with the view's).
    Object.assign(this.card.dataset, { kind: r.kind, at: f.at.join(','), piece: f.piece, tiles: n, complete: r.complete ? '1' : '0', version: v?.version ?? '' });
    this.shown = f;
    this.card.classList.remove('hidden');
    this.o.onTiles(r.tiles);
  }
}
