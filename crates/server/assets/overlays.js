// The odds overlays on the board (docs/analysis.md), each one a player can
// turn on and off: the chance that the next tile drawn fits each open
// cell, the cells no tile left fits (dead), and each open road, city,
// monastery and garden's chance to be completed. The figures are the
// server's (GET /api/games/{id}/odds), the bots' own estimate.
import { api } from './api.js';
import { h } from './ui.js';
import { t } from './i18n.js';

const KEY = 'carcassonne.overlays';

function load() {
  try { return { next: false, dead: false, completion: false, ...JSON.parse(localStorage.getItem(KEY) || '{}') }; } catch (_) { return { next: false, dead: false, completion: false }; }
}

function save(o) { try { localStorage.setItem(KEY, JSON.stringify(o)); } catch (_) { /* fine */ } }

export class OddsOverlays {
  /** `onChange`: redraw the board (new odds, or an overlay turned on or off). */
  constructor(onChange) {
    this.opts = load();
    this.onChange = onChange;
    this.asked = null; // the position asked for
    this.held = null; // { key, odds }
    this.seq = 0;
  }

  any() { return this.opts.next || this.opts.dead || this.opts.completion; }

  /** The switches, for a side panel. */
  toggles() {
    const box = (name, words, title) => h('label', { title },
      h('input', { type: 'checkbox', id: `overlay-${name}`, checked: this.opts[name], onchange: (e) => { this.opts[name] = e.target.checked; save(this.opts); this.onChange(true); } }),
      ' ', words);
    return h('div.overlay-toggles',
      box('next', 'Next tile odds', 'on each open cell, the chance that the next tile drawn fits it'),
      box('dead', 'Dead cells', 'cells no tile left in the bag fits'),
      box('completion', 'Completion chances', 'each open road, city and monastery: its chance to be completed before the bag is empty'));
  }

  /** Fetches the odds of `game` at `version` (a seat's own position with `token`) if an overlay is on. */
  async follow(game, version, token) {
    if (!this.any()) return;
    const key = `${game}|${version}|${token || ''}`;
    if (this.asked === key || this.held?.key === key) return;
    this.asked = key;
    const seq = ++this.seq;
    try {
      const odds = await api.odds(game, token ? { token } : { version });
      if (seq === this.seq) { this.held = { key, odds }; this.onChange(false); }
    } catch (_) {
      // No overlay this time; asked again at the next position.
      if (seq === this.seq) this.asked = null;
    }
  }

  /** The board's overlay (`ix.odds`) for that position, when its odds are held. */
  overlay(game, version, token) {
    if (!this.any() || this.held?.key !== `${game}|${version}|${token || ''}`) return null;
    const o = this.held.odds;
    const cells = (o.cells || []).filter((c) => (c.dead ? this.opts.dead : this.opts.next)).map((c) => ({
      x: c.at[0], y: c.at[1], dead: c.dead, next: c.next,
      title: c.dead ? t('No tile left fits here.') : `${t('Next tile fits: {p}', { p: pct(c.next) })} · ${c.tiles.map((k) => `${k.tile}×${k.count}`).join(' ')}`,
    }));
    const features = this.opts.completion ? (o.features || []).map((f) => ({
      at: f.at, piece: f.piece, kind: f.kind, dead: f.dead, chance: f.chance,
    })) : [];
    return { cells, features };
  }
}

export function pct(x) { return `${Math.round(100 * x)}%`; }
