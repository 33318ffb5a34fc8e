// The board: SVG drawn from the view, with pan (drag), zoom (wheel, pinch,
// buttons, keys) and the clickable overlays of the current step.
import { el, T, ferryPath, ferryHandles, meeple, tileHref, colourOf, inkOn, cornerPoint } from './tiles.js';
import { t } from './i18n.js';
import { spotWords, routeWords } from './words.js';

const MIN_ZOOM = 0.12, MAX_ZOOM = 4;
// The least a choice takes on a touch screen, across, in screen pixels (a fingertip).
const TARGET_PX = 44;
// Others' moves leave the view alone this long after the user moved it; a glide takes this long.
const USER_QUIET_MS = 2500, GLIDE_MS = 450;

/** A tile `g` ({x, y, tile, rot}) drawn faded in a frame: a group with `attrs`. */
function ghostOf(g, attrs) {
  const grp = el('g', { ...attrs, 'data-rot': g.rot });
  grp.appendChild(el('use', { href: tileHref(g.tile, g.rot), class: 'ghost', transform: `translate(${g.x * T} ${g.y * T})` }));
  grp.appendChild(el('rect', { x: g.x * T + 2, y: g.y * T + 2, width: T - 4, height: T - 4, rx: 4, class: 'ghost-frame' }));
  return grp;
}

export class BoardView {
  /**
   * @param {HTMLElement} host  element to fill
   * @param {object} opts  { onPick(target) } called with {type, ...data} on clicks on overlays
   */
  constructor(host, catalogue, opts = {}) {
    this.host = host;
    this.cat = catalogue;
    this.onPick = opts.onPick || (() => {});
    this.svg = el('svg', { class: 'board', role: 'application', 'aria-label': t('game board'), tabindex: 0 });
    this.root = el('g', { class: 'root' });
    this.layers = {};
    for (const name of ['tiles', 'marks', 'cells', 'ferries', 'followers', 'odds', 'options']) {
      this.layers[name] = el('g', { class: `layer-${name}` });
      this.root.appendChild(this.layers[name]);
    }
    // The drawn tile following the mouse (kept across redraws).
    this.floatLayer = el('g', { class: 'layer-float' });
    this.root.appendChild(this.floatLayer);
    // Scorings shown for a moment: kept across redraws.
    this.flashLayer = el('g', { class: 'layer-flash' });
    this.root.appendChild(this.flashLayer);
    this.svg.appendChild(this.root);
    host.appendChild(this.svg);
    this.cam = null; // {cx, cy, z}
    this.size = { w: 300, h: 300 };
    this.bounds = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
    this.pointers = new Map();
    this.dragged = false;
    this.installInput();
    this.ro = new ResizeObserver(() => this.resize());
    this.ro.observe(this.svg);
    this.resize();
  }

  destroy() { this.stopGlide(); this.ro.disconnect(); for (const t of this.flashTimers || []) clearTimeout(t); this.svg.remove(); }

  /**
   * Shows a scoring on the board for a moment: its tiles highlighted in the
   * colour of its kind and each scorer's points, in their colour, on the
   * feature's tile nearest its middle. `delay` staggers several scorings.
   */
  flashScoring(e, { delay = 0, duration = 2800 } = {}) {
    const tiles = e.tiles || [];
    const gains = (e.points || []).map((p, s) => [s, p]).filter(([, p]) => p > 0);
    if (!tiles.length || !gains.length) return false;
    this.flashTimers = this.flashTimers || [];
    const show = () => {
      const g = el('g', {
        class: `scoring-flash kind-${e.kind}`, 'data-scoring': `${e.version}`, 'data-kind': e.kind,
        'data-points': (e.points || []).join(','), style: `animation-duration:${duration}ms`,
      });
      for (const [x, y] of tiles) g.appendChild(el('rect', { x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6, rx: 6, class: 'scored-tile' }));
      // The label stands on the feature's tile nearest the middle of its tiles.
      const mx = tiles.reduce((a, t) => a + t[0], 0) / tiles.length, my = tiles.reduce((a, t) => a + t[1], 0) / tiles.length;
      const [bx, by] = tiles.reduce((best, t) => (Math.hypot(t[0] - mx, t[1] - my) < Math.hypot(best[0] - mx, best[1] - my) ? t : best), tiles[0]);
      const k = Math.max(1, Math.min(3, 0.9 / (this.cam?.z || 1)));
      const labels = el('g', { transform: `translate(${bx * T + T / 2} ${by * T + T / 2}) scale(${k})` });
      gains.forEach(([seat, p], i) => {
        const y = (i - (gains.length - 1) / 2) * 30;
        const lab = el('g', { class: 'score-label', transform: `translate(0 ${y})`, 'data-seat': seat, 'data-gain': p });
        lab.appendChild(el('rect', { x: -28, y: -13, width: 56, height: 26, rx: 13, fill: colourOf(seat), class: 'score-pill' }));
        lab.appendChild(el('text', { x: 0, y: 1, 'text-anchor': 'middle', 'dominant-baseline': 'middle', fill: inkOn(colourOf(seat)), class: 'score-text' }, [document.createTextNode(`+${p}`)]));
        labels.appendChild(lab);
      });
      g.appendChild(labels);
      this.flashLayer.appendChild(g);
      this.flashTimers.push(setTimeout(() => g.remove(), duration));
    };
    if (delay) this.flashTimers.push(setTimeout(show, delay)); else show();
    return true;
  }

  /**
   * Shows every scoring of `log` that happened after `fromVersion` up to
   * `toVersion` (end-of-game ones aside); returns their keys
   * (`version:points`), also kept on the page for tests.
   */
  flashScorings(log, fromVersion, toVersion) {
    const keys = [];
    for (const e of log || []) {
      if (e.type !== 'scored' || e.end_of_game || e.version <= fromVersion || e.version > toVersion) continue;
      if (this.flashScoring(e, { delay: keys.length * 700 })) keys.push(`${e.version}:${(e.points || []).join(',')}`);
    }
    if (keys.length) {
      const d = document.body.dataset;
      d.scoringsShown = [...new Set([...(d.scoringsShown || '').split(' ').filter(Boolean), ...keys])].join(' ');
    }
    return keys;
  }

  // ---------- camera ----------
  resize() {
    const r = this.svg.getBoundingClientRect();
    this.size = { w: Math.max(50, r.width), h: Math.max(50, r.height) };
    if (!this.cam) this.fit();
    this.applyCamera();
    // A window narrowed to a phone's width, or widened past it, wants other
    // targets (finger-sized, crowded tiles through their chooser): drawn again.
    if (this.lastDrawn && this.bigTargets() !== this.drawnBig) this.render(...this.lastDrawn);
  }

  applyCamera() {
    if (!this.cam) return;
    const { cx, cy, z } = this.cam;
    const w = this.size.w / z, h = this.size.h / z;
    this.svg.setAttribute('viewBox', `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
    this.fitTaps();
    // Zoomed across the zoom where a tile's choices crowd (or stop crowding): drawn again.
    if (this.lastDrawn && (this.crowdNeeds || []).some((n) => (z < n) !== (this.crowdZ < n))) this.render(...this.lastDrawn);
    if (this.onCamera) this.onCamera(this.cam);
  }

  /** How far down the board's banner reaches over it, in screen pixels (with a little room). */
  topInset() {
    const banner = this.host.querySelector('.board-banner');
    if (!banner || !banner.offsetHeight) return 0;
    return Math.max(0, banner.getBoundingClientRect().bottom - this.svg.getBoundingClientRect().top + 6);
  }

  /**
   * Fit the board (plus a margin of one cell for the legal positions),
   * every tile below the banner.
   */
  fit() {
    this.stopGlide();
    const b = this.bounds;
    const minX = (b.minX - 1) * T, minY = (b.minY - 1) * T;
    const maxX = (b.maxX + 2) * T, maxY = (b.maxY + 2) * T;
    const top = Math.min(this.topInset(), this.size.h / 3);
    const z = clamp(Math.min(this.size.w / (maxX - minX), (this.size.h - top) / (maxY - minY), 1.2), MIN_ZOOM, MAX_ZOOM);
    // The board's middle, moved down by half the banner's height: the banner's strip stays empty.
    this.cam = { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 - top / (2 * z), z };
    this.applyCamera();
  }

  setCamera(cam) { if (cam && isFinite(cam.cx) && isFinite(cam.cy) && cam.z > 0) { this.stopGlide(); this.cam = { ...cam }; this.applyCamera(); } }

  zoomBy(f, px = this.size.w / 2, py = this.size.h / 2) {
    this.userMoved();
    const { cx, cy, z } = this.cam;
    const nz = clamp(z * f, MIN_ZOOM, MAX_ZOOM);
    // keep the board point under (px, py) where it is
    const wx = cx + (px - this.size.w / 2) / z, wy = cy + (py - this.size.h / 2) / z;
    this.cam = { cx: wx - (px - this.size.w / 2) / nz, cy: wy - (py - this.size.h / 2) / nz, z: nz };
    this.applyCamera();
  }

  panBy(dxPx, dyPx) {
    this.userMoved();
    this.cam.cx -= dxPx / this.cam.z;
    this.cam.cy -= dyPx / this.cam.z;
    this.applyCamera();
  }

  /** Make sure these cells are on screen (pan, and zoom out only if need be). */
  revealAll(cells) {
    if (!cells.length) return;
    this.stopGlide();
    const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
    const w = (Math.max(...xs) - Math.min(...xs) + 1) * T + 48, hh = (Math.max(...ys) - Math.min(...ys) + 1) * T + 48;
    const need = Math.min(this.size.w / w, this.size.h / hh);
    if (this.cam.z > need) { this.cam.z = clamp(need, MIN_ZOOM, MAX_ZOOM); }
    this.cam.cx = ((Math.min(...xs) + Math.max(...xs) + 1) * T) / 2;
    this.cam.cy = ((Math.min(...ys) + Math.max(...ys) + 1) * T) / 2;
    this.applyCamera();
  }

  /** Centre on these cells at zoom `z` (less if they would not fit). */
  focus(cells, z) {
    this.cam.z = Math.max(this.cam.z, z);
    this.revealAll(cells);
  }

  /** The board point (in tile units × T) under a client position. */
  boardPoint(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const { cx, cy, z } = this.cam;
    return [cx + (clientX - r.left - this.size.w / 2) / z, cy + (clientY - r.top - this.size.h / 2) / z];
  }

  /**
   * The drawn tile under the mouse, off the legal cells: centred on the
   * board point (bx, by), turned by `rot`; null hides it.
   */
  setFloat(f) {
    if (!f) { while (this.floatLayer.firstChild) this.floatLayer.firstChild.remove(); return; }
    let u = this.floatLayer.firstChild;
    if (!u || u.dataset.tile !== f.tile || u.dataset.rot !== String(f.rot)) {
      while (this.floatLayer.firstChild) this.floatLayer.firstChild.remove();
      u = el('use', { href: tileHref(f.tile, f.rot), class: 'float-tile', 'data-float': '1', 'data-tile': f.tile, 'data-rot': f.rot });
      this.floatLayer.appendChild(u);
    }
    u.setAttribute('transform', `translate(${f.bx - T / 2} ${f.by - T / 2})`);
  }

  /** Is the cell entirely on screen (once a glide under way is over)? */
  visible(x, y) {
    const { cx, cy, z } = this.glideTarget || this.cam;
    const w = this.size.w / z, h = this.size.h / z;
    return x * T >= cx - w / 2 && (x + 1) * T <= cx + w / 2 && y * T >= cy - h / 2 && (y + 1) * T <= cy + h / 2;
  }

  /** The camera's centre that brings the cell on screen, panning only as much as needed. */
  revealCentre(x, y) {
    const { cx, cy, z } = this.cam;
    const w = this.size.w / z, h = this.size.h / z;
    // Keep clear of the zoom buttons (bottom right) and the banner (top):
    // their size is in screen pixels, the margins in board units.
    const m = 24, right = Math.max(m, 64 / z), top = Math.max(m, Math.max(48, this.topInset()) / z), bottom = Math.max(m, 24 / z);
    const x0 = x * T - m, x1 = (x + 1) * T + right, y0 = y * T - top, y1 = (y + 1) * T + bottom;
    let ncx = cx, ncy = cy;
    if (x0 < cx - w / 2) ncx = x0 + w / 2; else if (x1 > cx + w / 2) ncx = x1 - w / 2;
    if (y0 < cy - h / 2) ncy = y0 + h / 2; else if (y1 > cy + h / 2) ncy = y1 - h / 2;
    return [ncx, ncy];
  }

  /** Make sure the cell is on screen (pan only as much as needed). */
  reveal(x, y) {
    this.endGlide();
    const [ncx, ncy] = this.revealCentre(x, y);
    if (ncx !== this.cam.cx || ncy !== this.cam.cy) { this.cam.cx = ncx; this.cam.cy = ncy; this.applyCamera(); }
  }

  /** The user moved the view (drag, wheel, pinch, keys, buttons): others' moves leave it alone for a while. */
  userMoved() { this.userAt = Date.now(); this.stopGlide(); }

  /**
   * Another player's move at the cell: brought on screen by a short glide,
   * unless the user is dragging the board or moved it a moment ago.
   * Returns whether the view moves.
   */
  follow(x, y) {
    if (!this.cam || this.pointers.size || Date.now() - (this.userAt || 0) < USER_QUIET_MS) return false;
    if (this.visible(x, y)) return false;
    // Far off (not a cell of it on screen): centred; else only as far as needed.
    const { cx, cy, z } = this.cam;
    const w = this.size.w / z, h = this.size.h / z;
    const far = (x + 1) * T < cx - w / 2 || x * T > cx + w / 2 || (y + 1) * T < cy - h / 2 || y * T > cy + h / 2;
    const [ncx, ncy] = far ? [(x + 0.5) * T, (y + 0.5) * T] : this.revealCentre(x, y);
    this.glideTo(ncx, ncy);
    return true;
  }

  glideTo(ncx, ncy) {
    this.stopGlide();
    const from = { ...this.cam };
    let reduce = false;
    try { reduce = matchMedia('(prefers-reduced-motion: reduce)').matches; } catch (_) { /* motion it is */ }
    if (reduce) { this.cam.cx = ncx; this.cam.cy = ncy; this.applyCamera(); return; }
    const t0 = performance.now();
    this.glideTarget = { cx: ncx, cy: ncy, z: from.z };
    this.svg.dataset.gliding = '1';
    const step = (now) => {
      const k = Math.min(1, (now - t0) / GLIDE_MS);
      const e = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
      this.cam.cx = from.cx + (ncx - from.cx) * e;
      this.cam.cy = from.cy + (ncy - from.cy) * e;
      this.applyCamera();
      if (k < 1) { this.glide = requestAnimationFrame(step); return; }
      this.stopGlide();
      // The board moved under a resting mouse: what it points at now (the tile that follows it).
      if (this.mouseAt && this.onPointer) {
        const [bx, by] = this.boardPoint(...this.mouseAt);
        this.onPointer({ bx, by, cell: `${Math.floor(bx / T)},${Math.floor(by / T)}` });
      }
    };
    this.glide = requestAnimationFrame(step);
  }

  stopGlide() {
    if (this.glide) cancelAnimationFrame(this.glide);
    this.glide = null;
    this.glideTarget = null;
    delete this.svg.dataset.gliding;
  }

  /** A glide under way jumps to its end (the step's own reveal starts from there). */
  endGlide() {
    const to = this.glideTarget;
    this.stopGlide();
    if (to) { this.cam = { ...to }; this.applyCamera(); }
  }

  installInput() {
    const svg = this.svg;
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      // The first finger of a new touch: no other pointer is still down
      // (forget any whose end was missed, or a tap would count as a pinch).
      if (e.isPrimary) this.pointers.clear();
      this.stopGlide();
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, sx: e.clientX, sy: e.clientY });
      if (this.pointers.size === 1) this.dragged = false;
      if (this.pointers.size === 2) { this.pinch = this.pinchState(); this.dragged = true; }
    });
    svg.addEventListener('pointermove', (e) => {
      const p = this.pointers.get(e.pointerId);
      if (!p) return;
      const dx = e.clientX - p.x, dy = e.clientY - p.y;
      p.x = e.clientX; p.y = e.clientY;
      if (this.pointers.size >= 2) {
        const now = this.pinchState();
        if (this.pinch && now) {
          const r = svg.getBoundingClientRect();
          this.panBy(now.mx - this.pinch.mx, now.my - this.pinch.my);
          this.zoomBy(now.d / this.pinch.d, now.mx - r.left, now.my - r.top);
        }
        this.pinch = now;
        return;
      }
      if (!this.dragged && Math.hypot(e.clientX - p.sx, e.clientY - p.sy) > 6) {
        this.dragged = true;
        svg.classList.add('dragging');
        try { svg.setPointerCapture(e.pointerId); } catch (_) { /* fine */ }
      }
      if (this.dragged) this.panBy(dx, dy);
    });
    // The mouse over the board (not while dragging): where it points, for the tile that follows it.
    svg.addEventListener('pointermove', (e) => {
      if (!this.onPointer || e.pointerType !== 'mouse' || this.dragged) return;
      this.mouseAt = [e.clientX, e.clientY];
      const [bx, by] = this.boardPoint(e.clientX, e.clientY);
      this.onPointer({ bx, by, cell: `${Math.floor(bx / T)},${Math.floor(by / T)}` });
    });
    svg.addEventListener('pointerleave', (e) => { this.mouseAt = null; if (this.onPointer && e.pointerType === 'mouse') this.onPointer(null); });
    // A right-click may turn the tile instead of opening the menu.
    svg.addEventListener('contextmenu', (e) => { if (this.onContext && this.onContext(e)) e.preventDefault(); });
    const up = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      if (this.pointers.size === 0) svg.classList.remove('dragging');
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      // The page may take the wheel (to turn the tile); Ctrl+wheel always zooms.
      if (!e.ctrlKey && this.onWheel && this.onWheel(e)) return;
      const r = svg.getBoundingClientRect();
      const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
      this.zoomBy(f, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    svg.addEventListener('click', (e) => {
      if (this.dragged) { this.dragged = false; return; }
      const t = e.target.closest('[data-pick]');
      if (!t) {
        // A tap elsewhere on the board (a touch has no hover): what is there.
        if (this.onTap && e.pointerType !== 'mouse') {
          const [bx, by] = this.boardPoint(e.clientX, e.clientY);
          this.onTap({ bx, by, cell: `${Math.floor(bx / T)},${Math.floor(by / T)}` });
        }
        return;
      }
      const d = { ...t.dataset };
      this.onPick({ type: d.pick, ...d, pointer: e.pointerType || 'mouse' });
    });
    svg.addEventListener('pointerover', (e) => {
      if (!this.onHover || e.pointerType === 'touch') return;
      const t = e.target.closest('[data-hover]');
      this.onHover(t ? t.dataset.hover : null);
    });
    svg.addEventListener('pointerleave', () => { if (this.onHover) this.onHover(null); });
  }

  /**
   * Where a figure stands on the board: its feature's spot on the tile
   * `t` ({tile, rot}) at `at`, or for a barn the corner its name gives.
   */
  figurePoint(t, at, piece, feature, figure) {
    if (figure === 'barn' || String(feature || '').startsWith('corner:')) return cornerPoint(at[0], at[1], feature);
    const [sx, sy] = this.cat.spot(t.tile, piece, t.rot);
    return [at[0] * T + sx, at[1] * T + sy];
  }

  /** Each cell's chance that the next tile fits it, dead cells crossed, each open feature's chance to be completed. */
  drawOdds(o) {
    const L = this.layers.odds;
    for (const c of o.cells) {
      const g = el('g', { transform: `translate(${c.x * T} ${c.y * T})`, class: c.dead ? 'odds-dead' : 'odds-next', 'data-odds-cell': `${c.x},${c.y}` });
      if (c.dead) {
        g.appendChild(el('rect', { x: 8, y: 8, width: T - 16, height: T - 16, rx: 6 }));
        g.appendChild(el('path', { d: `M30,30 L${T - 30},${T - 30} M${T - 30},30 L30,${T - 30}` }));
      } else {
        g.appendChild(el('rect', { x: T / 2 - 19, y: T / 2 - 10, width: 38, height: 20, rx: 10 }));
        g.appendChild(el('text', { x: T / 2, y: T / 2 + 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, [document.createTextNode(`${Math.round(100 * c.next)}%`)]));
      }
      g.appendChild(el('title', {}, [document.createTextNode(c.title)]));
      L.appendChild(g);
    }
    for (const f of o.features) {
      const tile = this.byPos?.get(`${f.at[0]},${f.at[1]}`);
      if (!tile) continue;
      const [px, py] = this.figurePoint(tile, f.at, f.piece, null, null);
      const g = el('g', { transform: `translate(${px} ${py - 14})`, class: `odds-feature odds-${f.kind}${f.dead ? ' dead' : ''}`, 'data-odds-feature': `${f.at[0]},${f.at[1]},${f.piece}` });
      g.appendChild(el('rect', { x: -15, y: -7, width: 30, height: 14, rx: 7 }));
      g.appendChild(el('text', { x: 0, y: 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, [document.createTextNode(f.dead ? '✕' : `${Math.round(100 * f.chance)}%`)]));
      L.appendChild(g);
    }
  }

  /**
   * Keeps when each of `keys` (of one layer) first appeared and gives a
   * function of a key to its age in ms, or null for one that does not move
   * in: those of the first drawing, and a board changed by more than a
   * move (a replay's jump), appear at once, as everything does when the
   * player asks for less motion.
   */
  arrivals(layer, keys, now) {
    this.seen = this.seen || {};
    // The first drawing of the board, not of an empty layer (the first figure moves in).
    const first = !this.seen[layer];
    const seen = this.seen[layer] || (this.seen[layer] = new Map());
    const here = new Set(keys);
    const fresh = keys.filter((k) => !seen.has(k));
    const still = reducedMotion();
    const at = first || fresh.length > 3 || still ? -Infinity : now;
    for (const k of fresh) seen.set(k, at);
    for (const k of [...seen.keys()]) if (!here.has(k)) seen.delete(k);
    // Less motion asked for mid-way: what was still sliding in stops too.
    if (still) return () => null;
    return (k) => {
      const age = now - (seen.get(k) ?? -Infinity);
      return age < ARRIVE_MS ? age : null;
    };
  }

  pinchState() {
    const ps = [...this.pointers.values()];
    if (ps.length < 2) return null;
    const [a, b] = ps;
    return { d: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  // ---------- drawing ----------
  /**
   * Draw a view. `ix` holds the overlays of the step being played:
   * { cells:[{x,y,fits}], ghost:{x,y,tile,rot,seat,canRotate}, spots:[{x,y,tile,rot,piece,kind,meeple,seat,n}], refused:[{x,y,tile,rot,piece,meeple,figure,why}], refusedFerries:[{x,y,why}],
   *   takeBacks:[{x,y,tile,rot,piece,feature,seat,n,points}], ferryOptions:[{x,y,ferry,n}], movable:[[x,y]], highlight:[[x,y]],
   *   bestGhost:{x,y,tile,rot} (the review's better placement) }
   */
  render(view, ix = {}) {
    this.lastDrawn = [view, ix];
    this.taps = [];
    const touch = this.bigTargets();
    this.drawnBig = touch;
    const L = this.layers;
    for (const l of Object.values(L)) while (l.firstChild) l.removeChild(l.firstChild);
    const byPos = new Map();
    let minX = 0, minY = 0, maxX = 0, maxY = 0;
    // What arrived since the last drawing slides (a tile, a figure) or fades (a ferry) into place.
    const now = performance.now();
    const arrive = {
      tiles: this.arrivals('tiles', (view.board || []).map((t) => `${t.at}:${t.tile}:${t.rot}`), now),
      followers: this.arrivals('followers', (view.followers || []).map((f) => `${f.seat}:${f.at}:${f.feature}:${f.figure}`), now),
      ferries: this.arrivals('ferries', (view.ferries || []).map((f) => `${f.at}:${f.ferry}`), now),
    };
    for (const t of view.board || []) {
      const [x, y] = t.at;
      byPos.set(`${x},${y}`, t);
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
      const u = el('use', {
        href: tileHref(t.tile, t.rot),
        transform: `translate(${x * T} ${y * T})`,
        'data-tile': t.tile, 'data-at': `${x},${y}`, 'data-rot': t.rot,
      });
      L.tiles.appendChild(arriving(u, arrive.tiles(`${t.at}:${t.tile}:${t.rot}`), 'tile-in'));
    }
    this.byPos = byPos;
    const firstDraw = !this.hasDrawn;
    this.bounds = { minX, minY, maxX, maxY };
    if (firstDraw && (view.board || []).length) { this.hasDrawn = true; this.fit(); }

    // Last move in the colour of who made it.
    if (view.last_placed) {
      const [x, y] = view.last_placed.at;
      const c = view.last_placed.seat != null ? colourOf(view.last_placed.seat) : '#f59f00';
      L.marks.appendChild(el('rect', { x: x * T + 2, y: y * T + 2, width: T - 4, height: T - 4, rx: 4, class: 'last-frame', stroke: c, 'data-last': `${x},${y}` }));
    }
    for (const [x, y] of ix.highlight || []) {
      L.marks.appendChild(el('rect', { x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6, rx: 4, class: 'highlight-tile' }));
    }
    for (const [x, y] of ix.preview || []) {
      L.marks.appendChild(el('rect', { x: x * T + 4, y: y * T + 4, width: T - 8, height: T - 8, rx: 5, class: 'road-preview', 'data-preview': `${x},${y}` }));
    }

    // Ferries.
    for (const f of view.ferries || []) {
      const [x, y] = f.at;
      const fp = ferryPath(f.ferry);
      const g = el('g', { transform: `translate(${x * T} ${y * T})`, class: 'ferry', 'data-ferry-at': `${x},${y}`, 'data-ferry-pair': f.ferry });
      const age = arrive.ferries(`${f.at}:${f.ferry}`);
      g.appendChild(el('path', { d: fp.d, class: 'ferry-route' }));
      const ang = (fp.angle * 180) / Math.PI;
      const boat = el('g', { class: 'ferry-boat', transform: `translate(${fp.mid[0]} ${fp.mid[1]}) rotate(${ang})` });
      boat.appendChild(el('path', { d: 'M-13,-5.5 L8,-5.5 L14,0 L8,5.5 L-13,5.5 Z', class: 'hull' }));
      boat.appendChild(el('rect', { x: -8, y: -3, width: 9, height: 6, rx: 1, class: 'cabin' }));
      g.appendChild(boat);
      g.appendChild(el('title', {}, [document.createTextNode(t('ferry {pair}', { pair: routeWords(f.ferry) }))]));
      L.ferries.appendChild(arriving(g, age, 'ferry-in'));
    }

    // Followers (farmers lie down; a barn stands on its corner).
    // Two figures on one piece (a pig beside a farmer) stand apart.
    const taken = new Map();
    for (const f of view.followers || []) {
      const t = byPos.get(`${f.at[0]},${f.at[1]}`);
      if (!t) continue;
      const here = `${f.at[0]},${f.at[1]}:${f.feature}`;
      const k = taken.get(here) || 0;
      taken.set(here, k + 1);
      const [fx, fy] = this.figurePoint(t, f.at, f.piece, f.feature, f.figure);
      const [px, py] = [fx + k * 11, fy + k * 5];
      L.followers.appendChild(arriving(meeple(f.seat, {
        transform: `translate(${px} ${py})${figureTransform(f.figure, f.kind)}`,
        'data-follower': `${f.seat}:${f.at[0]},${f.at[1]}:${f.feature}`,
        'data-figure': f.figure || 'normal',
      }, f.figure), arrive.followers(`${f.seat}:${f.at}:${f.feature}:${f.figure}`), 'fig-in'));
    }
    // Abbey & Mayor: wagons whose feature scored, waiting where they stood for their owners.
    (view.waiting_wagons || []).forEach((w, i) => {
      const tile = byPos.get(`${w.at[0]},${w.at[1]}`);
      if (!tile || w.piece == null) return;
      const [px, py] = this.figurePoint(tile, w.at, w.piece, w.feature, 'wagon');
      const g = el('g', { class: 'wagon-waiting', transform: `translate(${px} ${py})`, 'data-waiting-wagon': `${w.seat}:${w.at[0]},${w.at[1]}:${w.feature}` });
      if (i === 0 && view.step === 'move_wagon') g.appendChild(el('circle', { r: 17, class: 'wagon-from' }));
      g.appendChild(meeple(w.seat, { transform: 'scale(1.05)' }, 'wagon'));
      g.appendChild(el('title', {}, [document.createTextNode(t('wagon waiting to move'))]));
      L.followers.appendChild(g);
    });

    // Step overlays.
    // On a touch screen a small cell is a finger's size to tap: an area around
    // it, under the cells themselves (a tap on a cell is always that cell's).
    if (touch) {
      for (const c of ix.cells || []) {
        const g = el('g', { class: 'cell-tap', 'data-pick': 'cell', 'data-cell': `${c.x},${c.y}` });
        this.tapRect(g, c.x * T + T / 2, c.y * T + T / 2, T / 2 - 3);
        L.cells.appendChild(g);
      }
    }
    for (const c of ix.cells || []) {
      L.cells.appendChild(el('rect', {
        x: c.x * T + 3, y: c.y * T + 3, width: T - 6, height: T - 6, rx: 6,
        class: `cell-legal${c.fits ? ' fits' : ''}`,
        'data-pick': 'cell', 'data-cell': `${c.x},${c.y}`,
      }));
    }
    // The drawn tile snapped to the legal cell under the mouse (clicks go to the cell below it).
    if (ix.hoverGhost) {
      const g = ix.hoverGhost;
      L.options.appendChild(ghostOf(g, { class: 'hover-ghost', 'data-hover-ghost': `${g.x},${g.y}` }));
    }
    // The odds overlays (overlays.js): never in the way of a click.
    if (ix.odds) this.drawOdds(ix.odds);
    // The review's better placement (replay): a dashed frame, not to be clicked.
    if (ix.bestGhost) {
      const g = ix.bestGhost;
      L.options.appendChild(ghostOf(g, { class: 'review-best', 'data-review-best': `${g.x},${g.y}` }));
    }
    if (ix.ghost) {
      const g = ix.ghost;
      const grp = ghostOf(g, { 'data-ghost': `${g.x},${g.y}` });
      grp.appendChild(el('rect', { x: g.x * T, y: g.y * T, width: T, height: T, class: 'ghost-hit', 'data-pick': 'rotate', 'data-cell': `${g.x},${g.y}` }));
      // Confirm (✓) and rotate (↻) buttons on the tile's corners.
      const cb = el('g', { class: 'confirm-btn', 'data-pick': 'confirm', transform: `translate(${g.x * T + 100} ${g.y * T})`, role: 'button', 'aria-label': t('place tile here') });
      cb.appendChild(el('circle', { r: 15 }));
      cb.appendChild(el('path', { d: 'M-7,0 L-2,6 L8,-6' }));
      this.tapCircle(cb, 0, 0, 15);
      grp.appendChild(cb);
      if (g.canRotate) {
        const rb = el('g', { class: 'rotate-btn', 'data-pick': 'rotate', transform: `translate(${g.x * T} ${g.y * T})`, role: 'button', 'aria-label': t('rotate') });
        rb.appendChild(el('circle', { r: 13 }));
        rb.appendChild(el('path', { d: 'M5.5,-4 A7,7 0 1 0 6,3 M6,-9 L6,-3.5 L0.5,-3.5' }));
        this.tapCircle(rb, 0, 0, 13);
        grp.appendChild(rb);
      }
      L.options.appendChild(grp);
    }
    // Abbey & Mayor: the holes an abbey may fill, the one pointed at showing it.
    for (const o of ix.holes || []) {
      const g = el('g', { 'data-pick': 'abbey', 'data-hole': `${o.x},${o.y}`, 'data-n': o.n, 'data-hover': o.n, role: 'button', 'aria-label': `${o.n}: ${t('abbey at {at}', { at: `(${o.x}, ${o.y})` })}` });
      if (o.hot) g.appendChild(el('use', { href: tileHref('AB', 0), class: 'hole-ghost', transform: `translate(${o.x * T} ${o.y * T})` }));
      g.appendChild(el('rect', { x: o.x * T + 4, y: o.y * T + 4, width: T - 8, height: T - 8, rx: 8, class: `hole${o.hot ? ' hot' : ''}` }));
      this.tapRect(g, o.x * T + T / 2, o.y * T + T / 2, T / 2 - 4);
      g.appendChild(el('title', {}, [document.createTextNode(`${o.n}: ${t('abbey at {at}', { at: `(${o.x}, ${o.y})` })}`)]));
      L.options.appendChild(g);
    }
    // Where each choice of this step stands (board units), and which tiles'
    // choices are too close together for a finger at this zoom: those are
    // chosen through the tile's enlarged view (the chooser), one tap on the
    // tile opening it.
    const pts = {
      refused: (ix.refused || []).map((r) => this.figurePoint({ tile: r.tile, rot: r.rot }, [r.x, r.y], r.piece, r.meeple, r.figure)),
      spots: (ix.spots || []).map((sp) => this.figurePoint({ tile: sp.tile, rot: sp.rot }, [sp.x, sp.y], sp.piece, sp.meeple, sp.figure)),
      takeBacks: (ix.takeBacks || []).map((b) => this.figurePoint({ tile: b.tile, rot: b.rot }, [b.x, b.y], b.piece, b.feature, 'abbot')),
    };
    const handleAt = this.ferryHandleLayout(view, ix.ferryOptions || []);
    const groups = new Map();
    const join = (x, y, item) => {
      const k = `${x},${y}`;
      if (!groups.has(k)) groups.set(k, { at: [x, y], items: [] });
      groups.get(k).items.push(item);
    };
    (ix.refused || []).forEach((r, i) => join(r.x, r.y, { type: 'why', p: pts.refused[i], why: r.why, tile: r.tile, rot: r.rot }));
    (ix.spots || []).forEach((sp, i) => join(sp.x, sp.y, { type: 'spot', p: pts.spots[i], n: sp.n, pick: sp.pick || 'deploy', spot: sp, words: spotWords(sp), tile: sp.tile, rot: sp.rot }));
    (ix.takeBacks || []).forEach((b, i) => join(b.x, b.y, { type: 'takeBack', p: pts.takeBacks[i], n: b.n, take: b, words: spotWords({ ...b, pick: 'return_abbot' }), tile: b.tile, rot: b.rot }));
    for (const o of ix.ferryOptions || []) {
      const hp = handleAt.get(o);
      const lake = byPos.get(`${o.x},${o.y}`);
      const words = t(o.move ? 'move the ferry: {route}' : 'ferry {pair}', { route: routeWords(o.ferry), pair: routeWords(o.ferry) });
      join(o.x, o.y, { type: 'ferry', p: [o.x * T + hp.at[0], o.y * T + hp.at[1]], n: o.n, opt: o, r: hp.r, boat: hp.boat, words, tile: lake?.tile, rot: lake?.rot });
    }
    const crowded = this.crowding(groups, touch);
    const isCrowded = (x, y) => crowded.has(`${x},${y}`);
    // Why not: a feature the figure may not go on, crossed out; pointing at it says why.
    (ix.refused || []).forEach((r, i) => {
      const [px, py] = pts.refused[i];
      const free = !isCrowded(r.x, r.y);
      const g = el('g', {
        class: `refused-spot${free ? '' : ' crowded'}`, transform: `translate(${px} ${py})`,
        'data-pick': free ? 'why' : null, 'data-why': r.why, 'data-meeple': r.meeple, role: free ? 'button' : null, 'aria-label': free ? r.why : null,
      });
      g.appendChild(el('circle', { r: 7 }));
      g.appendChild(el('path', { d: 'M-4.5,4.5 L4.5,-4.5' }));
      g.appendChild(el('title', {}, [document.createTextNode(r.why)]));
      if (free) this.tapCircle(g, 0, 0, 7);
      L.options.appendChild(g);
    });
    (ix.spots || []).forEach((s, i) => {
      const [px, py] = pts.spots[i];
      const words = spotWords(s);
      const free = !isCrowded(s.x, s.y);
      const g = el('g', {
        class: `spot${s.hot ? ' hot' : ''}${free ? '' : ' crowded'}`, transform: `translate(${px} ${py})`,
        'data-pick': free ? s.pick || 'deploy' : null, 'data-meeple': s.meeple, 'data-n': s.n, 'data-kind': s.kind, 'data-figure': s.figure,
        'data-at': `${s.x},${s.y}`,
        role: free ? 'button' : null, 'aria-label': free ? words : null,
      });
      const big = s.figure === 'big';
      g.appendChild(el('circle', { r: big ? 15 : 12, class: 'ring', stroke: colourOf(s.seat) }));
      g.appendChild(meeple(s.seat, { transform: `scale(${big ? 1 : 0.75})${s.kind === 'field' && s.figure !== 'barn' && s.figure !== 'pig' ? ' rotate(-90)' : ''}` }, s.figure));
      g.appendChild(el('title', {}, [document.createTextNode(`${s.n}: ${words}`)]));
      if (free) this.tapCircle(g, 0, 0, big ? 15 : 12);
      L.options.appendChild(g);
    });
    // The Abbot: the seat's abbot ringed where it stands, with what taking it back scores.
    (ix.takeBacks || []).forEach((b, i) => {
      const [px, py] = pts.takeBacks[i];
      const words = spotWords({ ...b, pick: 'return_abbot' });
      const free = !isCrowded(b.x, b.y);
      const g = el('g', {
        class: `take-back${b.hot ? ' hot' : ''}${free ? '' : ' crowded'}`, transform: `translate(${px} ${py})`,
        'data-pick': free ? 'return_abbot' : null, 'data-n': b.n, 'data-hover': b.n, 'data-at': `${b.x},${b.y}`, 'data-points': b.points,
        role: free ? 'button' : null, 'aria-label': free ? words : null,
      });
      g.appendChild(el('circle', { r: 17, class: 'ring', stroke: colourOf(b.seat) }));
      const label = el('g', { class: 'take-back-label', transform: 'translate(0 -25)' });
      label.appendChild(el('rect', { x: -17, y: -8, width: 34, height: 16, rx: 8, fill: colourOf(b.seat) }));
      label.appendChild(el('text', { x: 0, y: 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'middle', fill: inkOn(colourOf(b.seat)) }, [document.createTextNode(`↩ +${b.points}`)]));
      g.appendChild(label);
      g.appendChild(el('title', {}, [document.createTextNode(`${b.n}: ${words}`)]));
      if (free) this.tapCircle(g, 0, 0, 17);
      L.options.appendChild(g);
    });
    // Why not: a ferry that may not move says why when pointed at.
    for (const r of ix.refusedFerries || []) {
      const g = el('circle', {
        cx: r.x * T + 50, cy: r.y * T + 50, r: 30, class: 'refused-ferry',
        'data-pick': 'why', 'data-why': r.why, 'data-refused-ferry': `${r.x},${r.y}`, role: 'button', 'aria-label': r.why,
      });
      g.appendChild(el('title', {}, [document.createTextNode(r.why)]));
      L.options.appendChild(g);
    }
    for (const [x, y] of ix.movable || []) {
      L.options.appendChild(el('circle', { cx: x * T + 50, cy: y * T + 50, r: 33, class: 'movable-ring', 'data-movable': `${x},${y}` }));
    }
    // Ferry choices: every crossing first, then every handle on top, so no
    // crossing ever covers another's handle. On a touch screen the handles
    // (and the list) are the targets: a crossing's thin line is no place
    // for a finger.
    const handles = [];
    for (const o of ix.ferryOptions || []) {
      const fp = ferryPath(o.ferry);
      const { at: hp, r: hr } = handleAt.get(o);
      const words = `${o.n}: ${t(o.move ? 'move the ferry: {route}' : 'ferry {pair}', { route: routeWords(o.ferry), pair: routeWords(o.ferry) })}`;
      const free = !isCrowded(o.x, o.y);
      const data = {
        'data-pick': free ? (o.move ? 'move' : 'ferry') : null, 'data-ferry': o.ferry, 'data-at': `${o.x},${o.y}`, 'data-n': o.n,
      };
      const g = el('g', {
        class: `ferry-opt${o.hot ? ' hot' : ''}${free ? '' : ' crowded'}`, transform: `translate(${o.x * T} ${o.y * T})`, ...data, 'data-hover': o.n,
        role: free && !touch ? 'button' : null, 'aria-label': free ? words : null,
      });
      if (touch) delete g.dataset.pick;
      g.appendChild(el('path', { d: fp.d, class: 'hit' }));
      g.appendChild(el('path', { d: fp.d, class: 'vis' }));
      g.appendChild(el('title', {}, [document.createTextNode(words)]));
      L.options.appendChild(g);
      // The handle carries the choice's number, as in the list.
      const hg = el('g', { class: `ferry-opt ferry-handle${o.hot ? ' hot' : ''}${free ? '' : ' crowded'}`, transform: `translate(${o.x * T} ${o.y * T})`, ...data, 'data-hover': o.n, role: free ? 'button' : null, 'aria-label': free ? words : null });
      hg.appendChild(el('circle', { cx: hp[0], cy: hp[1], r: hr, class: 'handle' }));
      hg.appendChild(el('text', { x: hp[0], y: hp[1] + 0.5, class: 'handle-num', 'text-anchor': 'middle', 'dominant-baseline': 'middle', style: hr < 6.5 ? `font-size:${(8.5 * hr / 6.5).toFixed(2)}px` : null }, [document.createTextNode(String(o.n))]));
      hg.appendChild(el('title', {}, [document.createTextNode(words)]));
      if (free) this.tapCircle(hg, hp[0], hp[1], hr);
      handles.push(hg);
    }
    for (const hg of handles) L.options.appendChild(hg);
    // A crowded tile: one tap anywhere on it opens its chooser.
    this.choosers = new Map();
    for (const k of crowded) {
      const grp = groups.get(k);
      const [x, y] = grp.at;
      const first = grp.items.find((it) => it.tile) || {};
      this.choosers.set(k, { at: grp.at, tile: first.tile, rot: first.rot ?? 0, items: grp.items.map((it) => ({ ...it, p: [it.p[0] - x * T, it.p[1] - y * T] })) });
      const g = el('g', { class: 'chooser-hit', 'data-pick': 'chooser', 'data-at': k, role: 'button', 'aria-label': t('choices on this tile: tap to see them larger') });
      this.tapRect(g, x * T + T / 2, y * T + T / 2, T / 2);
      L.options.appendChild(g);
    }
    this.fitTaps();
  }

  /**
   * Whether this screen wants finger-sized targets: a touch screen without
   * a mouse, or a window as narrow as a phone's.
   */
  bigTargets() {
    try { return matchMedia('(hover: none) and (pointer: coarse)').matches || window.innerWidth <= 480; } catch (_) { return false; }
  }

  /**
   * The tiles (keys "x,y" of `groups`) whose choices, at this zoom, stand
   * closer than a finger's target: kept with the zoom each needs, so that
   * zooming across it draws the board again.
   */
  crowding(groups, touch) {
    const z = this.cam?.z || 1;
    const out = new Set();
    this.crowdNeeds = [];
    if (!touch) return out;
    for (const [k, g] of groups) {
      let d = Infinity;
      for (let i = 0; i < g.items.length; i++) {
        for (let j = i + 1; j < g.items.length; j++) d = Math.min(d, Math.hypot(g.items[i].p[0] - g.items[j].p[0], g.items[i].p[1] - g.items[j].p[1]));
      }
      if (!Number.isFinite(d)) continue;
      const need = TARGET_PX / Math.max(1, d);
      this.crowdNeeds.push(need);
      if (z < need) out.add(k);
    }
    this.crowdZ = z;
    return out;
  }

  /** Where each ferry choice's numbered handle stands on its lake, spread so that no two overlap. */
  ferryHandleLayout(view, options) {
    const handleAt = new Map();
    const byLake = new Map();
    for (const o of options) {
      const k = `${o.x},${o.y}`;
      if (!byLake.has(k)) byLake.set(k, []);
      byLake.get(k).push(o);
    }
    for (const [k, opts] of byLake) {
      const boat = (view.ferries || []).find((f) => `${f.at[0]},${f.at[1]}` === k);
      const { points, r } = ferryHandles(opts.map((o) => o.ferry), boat ? [ferryPath(boat.ferry).mid] : []);
      opts.forEach((o, i) => handleAt.set(o, { at: points[i], r, boat: boat?.ferry || null }));
    }
    return handleAt;
  }

  /** A transparent circle that takes a choice's taps: at least TARGET_PX across on screen, `r` board units at the least. */
  tapCircle(parent, cx, cy, r) {
    const c = el('circle', { cx, cy, r, class: 'tap', 'data-tap': r });
    parent.appendChild(c);
    (this.taps = this.taps || []).push(c);
    return c;
  }

  /** The same, a square of half-side `half` centred on (cx, cy). */
  tapRect(parent, cx, cy, half) {
    const c = el('rect', { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, class: 'tap', 'data-tap': half, 'data-cx': cx, 'data-cy': cy });
    parent.appendChild(c);
    (this.taps = this.taps || []).push(c);
    return c;
  }

  /** Sizes the tap areas for the zoom: finger-sized on screen on a touch screen, their drawing's size otherwise. */
  fitTaps() {
    const z = this.cam?.z || 1;
    const need = this.bigTargets() ? TARGET_PX / 2 / z : 0;
    this.taps = (this.taps || []).filter((c) => c.isConnected);
    for (const c of this.taps) {
      const r = Math.max(Number(c.dataset.tap), need);
      if (c.tagName === 'circle') c.setAttribute('r', r);
      else {
        const cx = Number(c.dataset.cx), cy = Number(c.dataset.cy);
        c.setAttribute('x', cx - r); c.setAttribute('y', cy - r); c.setAttribute('width', 2 * r); c.setAttribute('height', 2 * r);
      }
    }
  }
}

function clamp(v, a, b) { return Math.max(a, Math.min(b, v)); }

/** How long a tile or figure takes to slide into place (style.css has the same). */
const ARRIVE_MS = 400;

function reducedMotion() {
  try { return matchMedia('(prefers-reduced-motion: reduce)').matches; } catch (_) { return false; }
}

/**
 * `node` wrapped in a group that plays animation `cls`, `age` ms into it (a
 * drawing again while it plays goes on where it was), or `node` alone.
 */
function arriving(node, age, cls) {
  if (age === null) return node;
  const g = el('g', { class: cls, style: `animation-delay:${-Math.round(age)}ms` });
  g.appendChild(node);
  return g;
}

/** How a figure is turned and sized on the board (farmers lie down). */
function figureTransform(figure, kind) {
  if (figure === 'big') return `${kind === 'field' ? ' rotate(-90)' : ''} scale(1.45)`;
  if (figure === 'barn') return ' scale(1.25)';
  if (figure === 'wagon' || figure === 'mayor') return ' scale(1.1)';
  if (figure === 'pig') return ' scale(0.95)';
  if (figure === 'builder' || figure === 'abbot') return ' scale(1.05)';
  return `${kind === 'field' ? ' rotate(-90)' : ''} scale(1.05)`;
}

