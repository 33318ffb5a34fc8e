// The replay viewer: steps through any game, one action (or one turn) at a
// time, from the past views the server keeps (GET /view?version=N).
import { api } from './api.js';
import { BoardView } from './board.js';
import { h, clear, showError, renderMissing } from './ui.js';
import { renderScores, renderBag, renderLog, renderFinal, seatName } from './panels.js';
import { openHelp, setHelpGame } from './help.js';
import { el, setSeatColours } from './tiles.js';
import { Inspector } from './inspector.js';
import { t } from './i18n.js';
import { deployWords, featureWords, passWords, routeWords, stepWords } from './words.js';
import { ReviewPanel } from './review.js';
import { OddsOverlays } from './overlays.js';

// Player controls drawn as SVG: no emoji font is needed.
function icon(d) {
  const s = el('svg', { viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true' });
  s.appendChild(el('path', { d, fill: 'currentColor' }));
  return s;
}
const ICONS = {
  first: 'M3,3 h2.5 v14 h-2.5 Z M17,3 L7,10 L17,17 Z',
  prevTurn: 'M10,3 L1,10 L10,17 Z M19,3 L10,10 L19,17 Z',
  back: 'M15,3 L5,10 L15,17 Z',
  forward: 'M5,3 L15,10 L5,17 Z',
  nextTurn: 'M1,3 L10,10 L1,17 Z M10,3 L19,10 L10,17 Z',
  last: 'M3,3 L13,10 L3,17 Z M14.5,3 h2.5 v14 h-2.5 Z',
};

export class ReplayPage {
  constructor(root, ctx, { game, version, local = false }) {
    this.root = root;
    this.ctx = ctx;
    // A record opened in this tab (kept in sessionStorage), or a game of the server.
    this.local = local ? openedRecord() : null;
    this.gameId = local ? 'record' : game;
    this.want = version;
    this.cache = new Map();
    this.history = [];
    this.version = null;
    this.max = 1;
    this.playing = null;
    this.highlight = null;
  }

  async start() {
    document.body.dataset.page = 'replay';
    delete document.body.dataset.step;
    if (this.gameId === 'record' && !this.local) {
      // #record, but no record was opened in this tab.
      this.ctx.setHeader('');
      this.ctx.setConn(null);
      clear(this.root).appendChild(h('div.card#missing', { role: 'alert', style: 'margin:2em auto;max-width:34em' },
        h('h2', 'No record open'), h('p', 'Open a record or a JCloisterZone saved game from the home page.'),
        h('a.button.primary#missing-home', { href: '#' }, 'Back to the home page')));
      return;
    }
    this.ctx.setHeader(this.local ? t('Record {name}', { name: this.local.name || '' }).trim() : t('Replay {id}', { id: this.gameId }));
    this.ctx.setConn(null);
    const r = clear(this.root);
    this.boardWrap = h('div.board-wrap');
    this.banner = h('div.board-banner', 'Loading…');
    this.boardWrap.append(this.banner, h('div.board-tools',
      h('button', { 'aria-label': 'zoom in', onclick: () => this.board.zoomBy(1.25) }, '+'),
      h('button', { 'aria-label': 'zoom out', onclick: () => this.board.zoomBy(0.8) }, '−'),
      h('button', { 'aria-label': 'fit board', onclick: () => this.board.fit() }, '⤢')));
    this.slider = h('input#replay-slider', { type: 'range', min: 1, max: 1, value: 1, 'aria-label': 'position in the game', oninput: (e) => this.go(Number(e.target.value), true) });
    this.pos = h('span.pos#replay-pos', '');
    this.playBtn = h('button#replay-play', { onclick: () => this.togglePlay(), title: 'play / pause' }, '▶ Play');
    const bar = h('div.replay-bar', { role: 'toolbar', 'aria-label': 'replay controls' },
      h('button#replay-first', { onclick: () => this.go(1, true), title: 'first (Home)', 'aria-label': 'first' }, icon(ICONS.first)),
      h('button#replay-prev-turn', { onclick: () => this.stepTurn(-1), title: 'previous turn (Shift+←)', 'aria-label': 'previous turn' }, icon(ICONS.prevTurn)),
      h('button#replay-back', { onclick: () => this.go(this.version - 1), title: 'back (←)', 'aria-label': 'step back' }, icon(ICONS.back)),
      h('button#replay-forward', { onclick: () => this.go(this.version + 1), title: 'forward (→)', 'aria-label': 'step forward' }, icon(ICONS.forward)),
      h('button#replay-next-turn', { onclick: () => this.stepTurn(1), title: 'next turn (Shift+→)', 'aria-label': 'next turn' }, icon(ICONS.nextTurn)),
      h('button#replay-last', { onclick: () => this.go(this.max, true), title: 'last (End)', 'aria-label': 'last' }, icon(ICONS.last)),
      this.playBtn);
    this.what = h('div#replay-what', { style: 'font-size:.9em;margin-top:.4em;min-height:2.4em' });
    this.ctrlSec = h('section', h('h3', 'Replay'), bar, h('div.replay-bar', { style: 'margin-top:.4em' }, this.slider, this.pos), this.what);
    this.finalSec = h('section.hidden', h('h3', 'Final scores'), h('div'));
    this.scoreSec = h('section', h('h3', 'Scores'), h('div'));
    this.bagSec = h('section', h('h3', 'Tiles left'), h('div'));
    this.logSec = h('section.log-section', h('h3', 'Game log'), h('div'));
    // A finished game of the server can be reviewed (review.js).
    this.reviewPanel = this.local ? null : new ReviewPanel(this);
    this.reviewSec = this.reviewPanel ? this.reviewPanel.sec : h('section.hidden');
    this.reviewSec.classList.add('hidden');
    // The odds overlays at the position shown (a game of this server's; not a record opened).
    this.odds = this.local ? null : new OddsOverlays(() => { if (this.view) { this.followOdds(); this.board.render(this.view, this.boardIx()); } });
    this.oddsSec = this.odds ? h('section#overlays', h('h3', 'Overlays'), this.odds.toggles()) : h('section.hidden');
    this.side = h('aside.side', this.ctrlSec, this.reviewSec, this.finalSec, this.scoreSec, this.bagSec, this.oddsSec, this.logSec,
      this.local
        ? h('section', h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(this.local.record, null, 1)], { type: 'application/json' })), download: 'record.json' }, 'Download as a record'), ' · ', h('a', { href: '#' }, 'Home'), ' · ', h('a', { href: '#', onclick: (e) => { e.preventDefault(); openHelp(); } }, 'Rules and keys'))
        : h('section', h('a', { href: api.recordUrl(this.gameId) }, 'Download record'), ' · ', h('a', { href: `#game=${this.gameId}` }, 'Live view'), ' · ', h('a', { href: '#', onclick: (e) => { e.preventDefault(); openHelp(); } }, 'Rules and keys')));
    r.appendChild(h('div.game', this.boardWrap, this.side));
    this.board = new BoardView(this.boardWrap, this.ctx.cat, {});
    // Pointing at (or tapping) a feature tells about it, as it was at this step.
    this.inspector = new Inspector(this.boardWrap, this.board, {
      cat: this.ctx.cat,
      view: () => this.view,
      // A record opened from a file is sent with the question (the server keeps nothing of it).
      ask: (at, piece) => (this.local ? api.recordFeature({ record: this.local.record, version: this.version, at, piece }) : api.feature(this.gameId, { at, piece, version: this.version })),
      onTiles: (tiles) => { this.inspectTiles = tiles; if (this.view) this.board.render(this.view, this.boardIx(tiles)); },
    });
    this.board.onPointer = (p) => { if (this.view) this.inspector.point(p); };
    this.board.onTap = (p) => { if (this.view) this.inspector.point(p, { now: true }); };
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    try {
      let cur, hist;
      if (this.local) {
        cur = (await api.recordView({ record: this.local.record, version: this.local.versions })).view;
        hist = this.local.history || { actions: [] };
      } else {
        [cur, hist] = await Promise.all([api.view(this.gameId), api.history(this.gameId).catch(() => ({ actions: [] }))]);
      }
      document.body.dataset.replaySource = this.local ? 'file' : 'server';
      this.cache.set(cur.version, cur);
      this.history = hist.actions || [];
      this.max = cur.version;
      this.slider.max = this.max;
      this.current = cur;
      const start = this.want && this.want >= 1 && this.want <= this.max ? this.want : 1;
      await this.go(start);
      if (this.reviewPanel && cur.status === 'finished') {
        this.reviewSec.classList.remove('hidden');
        await this.reviewPanel.load();
      }
    } catch (e) {
      if (e.code === 'not_found') { renderMissing(this.root, this.gameId); return; }
      showError(e, 'Loading the replay');
      this.banner.textContent = 'Could not load the game';
    }
  }

  destroy() {
    clearInterval(this.playing);
    if (this.reviewPanel) this.reviewPanel.destroy();
    document.removeEventListener('keydown', this.keyHandler);
    if (this.board) this.board.destroy();
    setHelpGame(null);
  }

  async fetchView(v) {
    if (this.cache.has(v)) return this.cache.get(v);
    const view = this.local ? (await api.recordView({ record: this.local.record, version: v })).view : await api.viewAt(this.gameId, v);
    this.cache.set(v, view);
    return view;
  }

  /** Show version `v`; a jump (`refit`) fits the board if it no longer fits the view. */
  async go(v, refit = false) {
    v = Math.max(1, Math.min(this.max, Math.round(v)));
    this.target = v;
    let view, before;
    // The position before: the step shown is the decision taken there, in its turn.
    try { [view, before] = await Promise.all([this.fetchView(v), v > 1 ? this.fetchView(v - 1) : null]); } catch (e) { showError(e, t('Loading position {v}', { v })); return; }
    if (this.target !== v) return; // a later request won
    const from = this.version;
    this.version = v;
    this.view = view;
    this.before = before || view;
    history.replaceState(null, '', this.local ? `#record&v=${v}` : `#replay=${this.gameId}&v=${v}`);
    this.render();
    // The card of the feature pointed at tells this step, not the one before.
    this.inspector.refresh();
    if (refit && (view.board || []).some((t) => !this.board.visible(...t.at))) this.board.fit();
    // Stepping forward shows what scored on the way, as in a live game (not for long jumps).
    if (from && v > from && v - from <= 12) {
      this.board.flashScorings(view.log, from, v);
    }
    // Fetch the neighbours ahead of time.
    for (const n of [v + 1, v - 1]) if (n >= 1 && n <= this.max && !this.cache.has(n)) this.fetchView(n).catch(() => {});
  }

  /** Jump to the next (or previous) start of a turn: the version of a tile draw. */
  stepTurn(dir) {
    const draws = this.history.filter((a) => a.action?.type === 'draw').map((a) => a.version);
    if (!draws.length) { this.go(this.version + dir); return; }
    let t;
    if (dir > 0) t = draws.find((x) => x > this.version) ?? this.max;
    else t = [...draws].reverse().find((x) => x < this.version) ?? 1;
    this.go(t);
  }

  togglePlay() {
    if (this.playing) { clearInterval(this.playing); this.playing = null; this.playBtn.textContent = t('▶ Play'); return; }
    if (this.version >= this.max) this.go(1);
    this.playBtn.textContent = t('⏸ Pause');
    this.playing = setInterval(() => {
      if (this.version >= this.max) { this.togglePlay(); return; }
      this.stepTurn(1);
    }, 700);
  }

  onKey(e) {
    if (e.target.closest && e.target.closest('input:not([type=range]), textarea, select, dialog[open]')) return;
    let done = true;
    if (e.key === 'ArrowRight') e.shiftKey ? this.stepTurn(1) : this.go(this.version + 1);
    else if (e.key === 'ArrowLeft') e.shiftKey ? this.stepTurn(-1) : this.go(this.version - 1);
    else if (e.key === 'Home') this.go(1, true);
    else if (e.key === 'End') this.go(this.max, true);
    else if (e.key === ' ') this.togglePlay();
    else if (e.key === '+' || e.key === '=') this.board.zoomBy(1.25);
    else if (e.key === '-') this.board.zoomBy(0.8);
    else if (e.key === '0') this.board.fit();
    else if (e.key === '?') openHelp();
    else done = false;
    if (done) e.preventDefault();
  }

  describe(v) {
    const a = this.history.find((x) => x.version === v);
    const view = this.view;
    if (!a) return v === 1 ? t('The start: the first tile is drawn.') : '';
    const who = a.seat !== null && a.seat !== undefined ? seatName(view, a.seat) : t('The server');
    const act = a.action || {};
    // Where it happened is framed or lit on the board: the words need no coordinates.
    switch (act.type) {
      case 'draw': return t('{who} draws {tile}.', { who, tile: act.tile });
      case 'place': return t(act.rot ? '{who} places the tile (framed), turned {rot}°.' : '{who} places the tile (framed).', { who, rot: act.rot });
      case 'discard': return t('{who} discards the tile (it fits nowhere).', { who });
      case 'deploy': return deployWords(who, act.figure, act.meeple);
      case 'abbey': return t('{who} places the abbey (framed).', { who });
      case 'wagon': return t('{who} moves the wagon: {where}.', { who, where: featureWords(act.to, 'wagon') });
      case 'return_abbot': return t('{who} takes the abbot back.', { who });
      case 'pass': return passWords(who, this.before?.step);
      case 'ferry': return t('{who} places the ferry {route}.', { who, route: routeWords(act.ferry) });
      case 'move': return t('{who} moves a ferry: now {route}.', { who, route: routeWords(act.ferry) });
      default: return `${who}: ${act.type}`;
    }
  }

  /** The cells a step's words are about, lit on the board: a wagon's, an abbot's or a moved ferry's. */
  actionCells(v) {
    const act = this.history.find((x) => x.version === v)?.action;
    return act && ['wagon', 'return_abbot', 'move'].includes(act.type) && act.at ? [act.at] : [];
  }

  render() {
    const v = this.view;
    setSeatColours((v.seats || []).map((s) => s.colour));
    setHelpGame(v.setup);
    document.body.dataset.replayVersion = this.version;
    document.body.dataset.replayMax = this.max;
    this.slider.value = this.version;
    // Each step belongs to the turn its decision was taken in: the position before it tells which.
    const b = this.before || v;
    const turnNo = b.status === 'finished' ? b.turn : b.turn + 1;
    this.pos.textContent = t('{v} / {max} · turn {n}', { v: this.version, max: this.max, n: turnNo });
    this.what.textContent = this.describe(this.version);
    this.banner.textContent = this.version === this.max && v.status === 'finished' ? t('Final position') : t('Turn {n} · {name} · {step}', { n: turnNo, name: seatName(b, b.current), step: stepWords(b.step) });
    // Traders & Builders: a second turn, said as in the game.
    if (v.second_turn && v.status !== 'finished') this.banner.append(h('span.second-turn#second-turn-banner', ` · ${t('second turn: {name}’s builder', { name: seatName(v, v.current) })}`));
    // A past view carries no legal actions: show the step's moves as the log tells them.
    this.bestGhost = null;
    this.followOdds();
    this.board.render(v, this.boardIx());
    this.scoreSec.replaceChild(renderScores(v, {}), this.scoreSec.lastChild);
    this.bagSec.replaceChild(renderBag(v, this.ctx.cat), this.bagSec.lastChild);
    const log = renderLog(v, { onHover: (tiles) => { this.highlight = tiles; this.board.render(this.view, this.boardIx(tiles)); } });
    clear(this.logSec.lastChild).appendChild(log);
    log.scrollTop = log.scrollHeight;
    // The review's word on the move that led here, and its better placement.
    this.bestGhost = null;
    const best = this.reviewPanel ? this.reviewPanel.annotate(this.version, this.what, log) : null;
    if (best) {
      const placed = v.last_placed && (v.board || []).find((b) => b.at[0] === v.last_placed.at[0] && b.at[1] === v.last_placed.at[1]);
      if (placed) {
        this.bestGhost = { ...best, tile: placed.tile };
        this.board.render(v, this.boardIx());
      }
    }
    const fin = renderFinal(v, { compact: true });
    this.finalSec.classList.toggle('hidden', !fin);
    if (fin) this.finalSec.replaceChild(h('div', fin), this.finalSec.lastChild);
    this.bagSec.classList.toggle('hidden', v.status === 'finished');
    for (const [id, dis] of [['replay-first', this.version <= 1], ['replay-back', this.version <= 1], ['replay-prev-turn', this.version <= 1],
      ['replay-forward', this.version >= this.max], ['replay-next-turn', this.version >= this.max], ['replay-last', this.version >= this.max]]) {
      document.getElementById(id).disabled = dis;
    }
  }

  /** What the board draws beside the view: the hovered tiles, the review's better move, the odds. */
  boardIx(tiles) {
    const lit = tiles || this.highlight || this.inspectTiles || [];
    const ix = { highlight: lit.length ? lit : this.actionCells(this.version), bestGhost: this.bestGhost };
    const odds = this.odds && this.view?.status !== 'finished' && this.odds.overlay(this.gameId, this.version);
    if (odds) ix.odds = odds;
    return ix;
  }

  followOdds() {
    if (this.odds) this.odds.follow(this.gameId, this.version);
  }
}

/** The record opened in this tab, kept by the home page (null if none). */
function openedRecord() {
  try { return JSON.parse(sessionStorage.getItem('carcassonne.record') || 'null'); } catch (_) { return null; }
}
