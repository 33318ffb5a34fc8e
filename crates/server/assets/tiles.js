import { t } from './i18n.js';

// Tile drawing: every tile is drawn here, as SVG, from the catalogue that
// GET /api/tiles returns (no bitmap art). A tile is 100 x 100 units at
// rotation 0; on the board it is turned clockwise by `rot` around its centre.
// Notation (tiles.md): x east, y SOUTH (screen order), rotation clockwise.

export const SIDES = ['N', 'E', 'S', 'W'];
export const HALVES = ['NNW', 'NNE', 'ENE', 'ESE', 'SSE', 'SSW', 'WSW', 'WNW'];
const SVGNS = 'http://www.w3.org/2000/svg';

export const T = 100; // tile size in SVG units
const LAKE_R = 24;
const ROAD_W = 9;

// Where a side's midpoint / outward direction lies.
const SIDE_MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const SIDE_DIR = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
// A point on each half-edge, a little inside the tile.
const HALF_ANCHOR = {
  NNW: [25, 0], NNE: [75, 0], ENE: [100, 25], ESE: [100, 75],
  SSE: [75, 100], SSW: [25, 100], WSW: [0, 75], WNW: [0, 25],
};

/** Rotate a point of the 100x100 tile clockwise by `rot` degrees about its centre. */
export function rotatePoint([x, y], rot) {
  let px = x, py = y;
  for (let i = 0; i < ((rot / 90) % 4 + 4) % 4; i++) {
    [px, py] = [100 - py, px];
  }
  return [px, py];
}

/** The side a side lands on after turning clockwise by `rot` degrees. */
export function rotateSide(side, rot) {
  return SIDES[(SIDES.indexOf(side) + rot / 90) % 4];
}

function rotateSideSet(sides, r) {
  return sides.map((s) => SIDES[(SIDES.indexOf(s) + r) % 4]);
}

function sameSet(a, b) {
  return a.length === b.length && a.every((s) => b.includes(s));
}

// Canonical shapes: drawn for one side set, turned to fit any other.
const CITY_SHAPES = [
  { sides: ['N'], fill: 'M0,0 L100,0 C78,42 22,42 0,0 Z', wall: 'M100,0 C78,42 22,42 0,0', spot: [50, 14], pennant: [50, 14] },
  { sides: ['E', 'W'], fill: 'M0,0 C30,28 70,28 100,0 L100,100 C70,72 30,72 0,100 Z', wall: 'M0,0 C30,28 70,28 100,0 M100,100 C70,72 30,72 0,100', spot: [50, 50], pennant: [20, 50] },
  { sides: ['N', 'W'], fill: 'M0,0 L100,0 C68,32 32,68 0,100 Z', wall: 'M100,0 C68,32 32,68 0,100', spot: [30, 30], pennant: [13, 14] },
  { sides: ['N', 'E', 'W'], fill: 'M0,0 L100,0 L100,100 C70,64 30,64 0,100 Z', wall: 'M100,100 C70,64 30,64 0,100', spot: [50, 40], pennant: [24, 20] },
  { sides: ['N', 'E', 'S', 'W'], fill: 'M0,0 H100 V100 H0 Z', wall: '', spot: [50, 50], pennant: [25, 25] },
];

function fitShape(shapes, sides) {
  for (const shape of shapes) {
    for (let r = 0; r < 4; r++) {
      if (sameSet(rotateSideSet(shape.sides, r), sides)) return { shape, rot: r * 90 };
    }
  }
  return null;
}

/** A path of absolute M, H, V, L, C and Z commands turned a quarter clockwise about the tile's centre. */
function turnPath(d) {
  const tokens = d.match(/[MHVLCZ]|-?\d+(?:\.\d+)?/g);
  const out = [];
  let cmd = null, x = 0, y = 0;
  for (let i = 0; i < tokens.length;) {
    const tok = tokens[i];
    if (/[MHVLCZ]/.test(tok)) { cmd = tok; i++; if (cmd === 'Z') out.push('Z'); continue; }
    const take = (n) => tokens.slice(i, i + n).map(Number);
    const put = (c, pts) => out.push(c + pts.map((p) => pt(rotatePoint(p, 90))).join(' '));
    if (cmd === 'H') { x = Number(tok); i++; put('L', [[x, y]]); }
    else if (cmd === 'V') { y = Number(tok); i++; put('L', [[x, y]]); }
    else if (cmd === 'C') { const v = take(6); i += 6; put('C', [[v[0], v[1]], [v[2], v[3]], [v[4], v[5]]]); [x, y] = [v[4], v[5]]; }
    else { const v = take(2); i += 2; put(cmd, [[v[0], v[1]]]); [x, y] = v; }
  }
  return out.join(' ');
}

function pt(p) {
  return `${+p[0].toFixed(2)},${+p[1].toFixed(2)}`;
}

/** How far from the centre a road that reaches one side ends, on this tile. */
function roadEndDistance(def) {
  if (def.lake) return LAKE_R - 1;
  if (def.features.some((f) => f.kind === 'monastery')) return 17;
  if (def.features.some((f) => f.kind === 'city' && f.sides.length >= 3)) return 26;
  return 0; // a village / crossing in the middle
}

/** Road geometry at rotation 0: {d (path), spot}. */
function roadGeometry(def, f) {
  const s = f.sides;
  if (s.length === 2) {
    const [a, b] = s;
    const opposite = (SIDES.indexOf(a) + 2) % 4 === SIDES.indexOf(b);
    if (opposite) {
      return { d: `M${pt(SIDE_MID[a])} L${pt(SIDE_MID[b])}`, spot: [50, 50] };
    }
    // Adjacent sides: a quarter circle about the corner they share.
    const fit = fitShape([{ sides: ['S', 'W'] }], s);
    const r = fit.rot;
    const p0 = rotatePoint([50, 100], r), p1 = rotatePoint([0, 50], r);
    const spot = rotatePoint([35.4, 64.6], r);
    return { d: `M${pt(p0)} A50,50 0 0 0 ${pt(p1)}`, spot };
  }
  if (s.length === 1) {
    const side = s[0];
    const e = f.end ?? roadEndDistance(def);
    const [dx, dy] = SIDE_DIR[side];
    const end = [50 + dx * e, 50 + dy * e];
    const spot = [50 + dx * (e + (50 - e) * 0.5), 50 + dy * (e + (50 - e) * 0.5)];
    return { d: `M${pt(SIDE_MID[side])} L${pt(end)}`, spot, end };
  }
  if (s.length >= 3) {
    // A branched road (Abbey & Mayor's roundabout): every leg to the middle.
    const d = s.map((side) => `M${pt(SIDE_MID[side])} L50,50`).join(' ');
    const [dx, dy] = SIDE_DIR[s[0]];
    return { d, spot: [50 + dx * 24, 50 + dy * 24], branched: true };
  }
  return { d: '', spot: [50, 50] };
}

// Two cities on one tile drawn apart (Abbey & Mayor): two bands crossing
// (M2) as an hourglass each, the four pockets between them fields; a cap
// over a band (M3) with the band lowered below it. At rotation 0 for the
// sides given; turned like the other shapes.
const CROSSING = {
  fill: 'M0,0 H100 C80,8 64,30 62,50 C64,70 80,92 100,100 H0 C20,92 36,70 38,50 C36,30 20,8 0,0 Z',
  wall: 'M100,0 C80,8 64,30 62,50 C64,70 80,92 100,100 M0,100 C20,92 36,70 38,50 C36,30 20,8 0,0',
};
const LOW_BAND = {
  sides: ['E', 'W'],
  fill: 'M0,0 C30,62 70,62 100,0 L100,100 C70,82 30,82 0,100 Z',
  wall: 'M0,0 C30,62 70,62 100,0 M100,100 C70,82 30,82 0,100',
  spot: [50, 68], pennant: [20, 60],
};

function cityGeometry(f) {
  const fit = fitShape(CITY_SHAPES, f.sides);
  if (!fit) return null;
  return { ...fit, spot: rotatePoint(fit.shape.spot, fit.rot), pennant: rotatePoint(fit.shape.pennant, fit.rot) };
}

/**
 * Field follower spots: rasterise the tile (cities, roads, lake, buildings
 * block), flood-fill from each field's half-edges and take the free point
 * farthest from anything drawn.
 */
let pathCtx;
/** A 2D canvas context to ask whether points lie in paths (null without one). */
function pathContext() {
  if (pathCtx !== undefined) return pathCtx;
  try {
    const c = document.createElement('canvas');
    c.width = 4; c.height = 4;
    pathCtx = typeof Path2D !== 'undefined' ? c.getContext('2d') : null;
  } catch (_) { pathCtx = null; }
  return pathCtx;
}

/** Whether the point lies in one of the tile's cities (geometry at rotation 0). */
function inCity(cities, x, y) {
  const ctx = pathContext();
  if (!ctx) return false;
  for (const c of cities) {
    const [ux, uy] = rotatePoint([x, y], (360 - c.rot) % 360);
    if (ctx.isPointInPath(new Path2D(c.shape.fill), ux, uy)) return true;
  }
  return false;
}

/**
 * How far from the centre a road from `side` ends when it runs into a city
 * on its way in (Inns & Cathedrals has roads that end at a city wall);
 * undefined when it reaches the middle.
 */
function roadEndAtCity(side, cities, reach = 46) {
  if (!cities.length) return undefined;
  const [mx, my] = SIDE_MID[side], [dx, dy] = SIDE_DIR[side];
  for (let t = 4; t < reach; t++) {
    if (inCity(cities, mx - dx * t, my - dy * t)) return 50 - t + 3;
  }
  return undefined;
}

/** Traders & Builders: roads that end in their tile at nothing, by tile and side (at rotation 0). */
const ROADS_ENDING_ALONE = { T23: ['W'] };
/** Traders & Builders: a city's spike (a wall from the city's middle to a corner) parting two fields, at rotation 0. */
const CITY_SPIKES = { T7: 'M50,50 L100,100', T12: 'M50,50 L100,100', T22: 'M50,50 L100,100' };
const BUSH_R = 7.5;

/**
 * A road from `side` that bends to the nearest city of its tile (Traders &
 * Builders: T16's road ends at the city cap beside it), ending at its wall.
 */
function roadToCity(side, cities) {
  const from = SIDE_MID[side];
  let best = null;
  for (const c of cities) {
    const d = Math.hypot(c.spot[0] - from[0], c.spot[1] - from[1]);
    if (!best || d < best.d) best = { c, d };
  }
  // From the middle towards the city's spot, up to its wall.
  const [sx, sy] = best.c.spot;
  const len = Math.hypot(sx - 50, sy - 50) || 1;
  let end = [sx, sy];
  for (let t = 0; t <= len; t += 1) {
    const p = [50 + ((sx - 50) * t) / len, 50 + ((sy - 50) * t) / len];
    if (inCity([best.c], ...p)) { end = [50 + ((sx - 50) * (t + 3)) / len, 50 + ((sy - 50) * (t + 3)) / len]; break; }
  }
  const spot = [0.25 * from[0] + 0.5 * 50 + 0.25 * end[0], 0.25 * from[1] + 0.5 * 50 + 0.25 * end[1]];
  return { d: `M${pt(from)} Q50,50 ${pt(end)}`, spot };
}

/**
 * The River's course on a tile (its sides, rotation 0): from side to side,
 * straight or bending through the middle, or from a side to a pool in the
 * middle (the spring, the lake). Null without a river.
 */
function riverPath(sides) {
  if (!sides.length) return null;
  const [a, b] = sides;
  const [ax, ay] = SIDE_MID[a];
  if (!b) return `M${pt([ax, ay])} L50,50`;
  const [bx, by] = SIDE_MID[b];
  const [da, db] = [SIDE_DIR[a], SIDE_DIR[b]];
  const c1 = [ax - da[0] * 30, ay - da[1] * 30], c2 = [bx - db[0] * 30, by - db[1] * 30];
  return `M${pt([ax, ay])} C${pt(c1)} ${pt(c2)} ${pt([bx, by])}`;
}

/**
 * The Abbot: where a tile's garden lies in its field, at rotation 0, and
 * how big it is ([x, y, r]): clear of its roads, cities and river. A
 * garden tile not listed gets the middle of its largest field.
 */
const GARDENS = {
  EG: [70, 68, 10], HG: [68, 50, 10], IG: [68, 68, 10], MG: [72, 72, 10], NG: [72, 72, 10],
  RG: [27, 90, 7.5], UG: [50, 22, 10], VG: [67, 33, 10], R9: [68, 32, 10],
};
const GARDEN_R = 10;
// The Labyrinth: its maze over the middle, where its four legs meet.
const MAZE_R = 21;

/** An arc of the circle of radius `r` about the tile's middle, clockwise from angle `a0` to `a1` (degrees, 0 east, 90 south). */
function arc(r, a0, a1) {
  const p = (a) => [50 + r * Math.cos((a * Math.PI) / 180), 50 + r * Math.sin((a * Math.PI) / 180)];
  return `M${pt(p(a0))} A${r},${r} 0 ${a1 - a0 > 180 ? 1 : 0} 1 ${pt(p(a1))}`;
}

/** A wall across the rings at angle `a`, from radius `r0` to `r1`. */
function radial(a, r0, r1) {
  const [c, sn] = [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)];
  return `M${pt([50 + r0 * c, 50 + r0 * sn])} L${pt([50 + r1 * c, 50 + r1 * sn])}`;
}

/** The maze's hedges: three rings, each with its gaps, and walls across them. */
const MAZE_HEDGES = [
  arc(17, 13, 77), arc(17, 103, 167), arc(17, 193, 257), arc(17, 283, 347),
  arc(11.5, 63, 207), arc(11.5, 243, 387),
  arc(6, 160, 470),
  radial(315, 11.5, 17), radial(135, 11.5, 17), radial(0, 6, 11.5),
].join(' ');

function fieldSpots(def, geo) {
  const N = 50, STEP = 2; // 50x50 grid of 2-unit cells
  const blocked = new Uint8Array(N * N);
  const ctx = pathContext();
  const cityPaths = [], roadPaths = [];
  if (ctx && typeof Path2D !== 'undefined') {
    for (const g of geo.cities) cityPaths.push({ p: new Path2D(g.shape.fill), rot: g.rot });
    for (const g of geo.roads) if (g.d) roadPaths.push(new Path2D(g.d));
  }
  const centreBlock = def.lake ? LAKE_R + 2 : geo.monastery ? 17 : geo.labyrinth ? MAZE_R + 2 : geo.village ? 9 : 0;
  const bushes = geo.roads.filter((r) => r.deadEnd).map((r) => r.deadEnd);
  const spike = geo.spike && ctx && typeof Path2D !== 'undefined' ? new Path2D(geo.spike) : null;
  const river = geo.river && ctx && typeof Path2D !== 'undefined' ? new Path2D(geo.river) : null;
  const pool = geo.river && (def.river || []).length === 1;
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const x = i * STEP + 1, y = j * STEP + 1;
      let b = false;
      if (centreBlock && Math.hypot(x - 50, y - 50) < centreBlock) b = true;
      if (!b && bushes.some(([bx, by]) => Math.hypot(x - bx, y - by) < BUSH_R + 1.5)) b = true;
      if (!b && spike) { ctx.lineWidth = 6; if (ctx.isPointInStroke(spike, x, y)) b = true; }
      if (!b && river) { ctx.lineWidth = 18; if (ctx.isPointInStroke(river, x, y)) b = true; }
      if (!b && pool && Math.hypot(x - 50, y - 50) < 18) b = true;
      if (!b && geo.garden && Math.hypot(x - geo.garden.at[0], y - geo.garden.at[1]) < geo.garden.r + 2) b = true;
      if (!b && ctx) {
        for (const cp of cityPaths) {
          const [ux, uy] = rotatePoint([x, y], (360 - cp.rot) % 360);
          if (ctx.isPointInPath(cp.p, ux, uy)) { b = true; break; }
        }
        if (!b) {
          ctx.lineWidth = ROAD_W + 3;
          for (const rp of roadPaths) if (ctx.isPointInStroke(rp, x, y)) { b = true; break; }
        }
      }
      blocked[j * N + i] = b ? 1 : 0;
    }
  }
  // Label free components.
  const label = new Int32Array(N * N).fill(-1);
  let next = 0;
  for (let k = 0; k < N * N; k++) {
    if (blocked[k] || label[k] >= 0) continue;
    const stack = [k];
    label[k] = next;
    while (stack.length) {
      const c = stack.pop();
      const ci = c % N, cj = (c / N) | 0;
      for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const ni = ci + di, nj = cj + dj;
        if (ni < 0 || nj < 0 || ni >= N || nj >= N) continue;
        const nk = nj * N + ni;
        if (!blocked[nk] && label[nk] < 0) { label[nk] = next; stack.push(nk); }
      }
    }
    next++;
  }
  // Distance from blocked cells and the border (BFS, 4-neighbour).
  const dist = new Int32Array(N * N).fill(1e9);
  const q = [];
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const k = j * N + i;
    if (blocked[k] || i === 0 || j === 0 || i === N - 1 || j === N - 1) { dist[k] = blocked[k] ? 0 : 1; q.push(k); }
  }
  for (let h = 0; h < q.length; h++) {
    const c = q[h];
    const ci = c % N, cj = (c / N) | 0;
    for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const ni = ci + di, nj = cj + dj;
      if (ni < 0 || nj < 0 || ni >= N || nj >= N) continue;
      const nk = nj * N + ni;
      if (dist[nk] > dist[c] + 1) { dist[nk] = dist[c] + 1; q.push(nk); }
    }
  }
  const cellOf = ([x, y]) => {
    const i = Math.min(N - 1, Math.max(0, Math.floor(x / STEP)));
    const j = Math.min(N - 1, Math.max(0, Math.floor(y / STEP)));
    return j * N + i;
  };
  const spots = new Map();
  // Free pockets that touch no edge of the tile, for the fields inside it:
  // the largest first, slivers where two shapes meet left out.
  const edgy = new Set();
  const size = new Map();
  for (let k = 0; k < N * N; k++) {
    if (blocked[k]) continue;
    const i = k % N, j = (k / N) | 0;
    if (i === 0 || j === 0 || i === N - 1 || j === N - 1) edgy.add(label[k]);
    size.set(label[k], (size.get(label[k]) || 0) + 1);
  }
  const pockets = [...size.keys()].filter((l) => !edgy.has(l) && size.get(l) >= 12).sort((a, b) => size.get(b) - size.get(a) || a - b);
  let inner = 0;
  for (const f of def.features) {
    if (f.kind !== 'field') continue;
    const labels = new Set();
    // A field inside the tile, touching no edge (Inns & Cathedrals, Abbey &
    // Mayor): the middle's, else a pocket of its own.
    if (!f.halves.length && !blocked[cellOf([50, 50])]) labels.add(label[cellOf([50, 50])]);
    else if (!f.halves.length && inner < pockets.length) labels.add(pockets[inner]);
    if (!f.halves.length) inner++;
    for (const h of f.halves) {
      // Try points along the half-edge, two cells in, until a free one.
      const [ax, ay] = HALF_ANCHOR[h];
      const inward = [50 - ax, 50 - ay];
      const len = Math.hypot(...inward) || 1;
      for (let d = 3; d < 30; d += 2) {
        const k = cellOf([ax + (inward[0] / len) * d, ay + (inward[1] / len) * d]);
        if (!blocked[k]) { labels.add(label[k]); break; }
      }
    }
    let best = -1, bestScore = -1;
    // Prefer points near the field's own half-edges (its average anchor).
    let cx = 0, cy = 0;
    for (const h of f.halves) { cx += HALF_ANCHOR[h][0]; cy += HALF_ANCHOR[h][1]; }
    cx /= f.halves.length || 1; cy /= f.halves.length || 1;
    for (let k = 0; k < N * N; k++) {
      if (blocked[k] || !labels.has(label[k])) continue;
      const x = (k % N) * STEP + 1, y = ((k / N) | 0) * STEP + 1;
      const score = Math.min(dist[k], 9) * 10 - Math.hypot(x - cx, y - cy) * 0.3;
      if (score > bestScore) { bestScore = score; best = k; }
    }
    if (!f.halves.length) { cx = 50; cy = 50; }
    if (best >= 0) spots.set(f.index, [(best % N) * STEP + 1, ((best / N) | 0) * STEP + 1]);
    else {
      // Fallback: the average of its half-edge anchors pulled to the middle.
      spots.set(f.index, [50 + (cx - 50) * 0.7, 50 + (cy - 50) * 0.7]);
    }
  }
  return spots;
}

/** The catalogue: id -> definition with derived geometry. */
export class Catalogue {
  constructor(tiles) {
    this.list = tiles;
    this.byId = new Map();
    for (const def of tiles) {
      const geo = this.geometry(def);
      this.byId.set(def.id, { ...def, geo });
    }
  }

  get(id) { return this.byId.get(id); }

  geometry(def) {
    const geo = { roads: [], cities: [], spots: new Map(), marks: [], monastery: false, village: false };
    geo.monastery = def.features.some((f) => f.kind === 'monastery');
    geo.abbey = def.id === 'AB';
    const cityFeatures = def.features.filter((f) => f.kind === 'city');
    const opposite = (f) => f.sides.length === 2 && (SIDES.indexOf(f.sides[0]) + 2) % 4 === SIDES.indexOf(f.sides[1]);
    const crossing = cityFeatures.length === 2 && cityFeatures.every(opposite);
    const cap = cityFeatures.length === 2 ? cityFeatures.find((f) => f.sides.length === 1) : null;
    for (const f of def.features) {
      if (f.kind !== 'city') continue;
      let g = cityGeometry(f);
      if (crossing) {
        // N-S as drawn; E-W turned a quarter.
        const rot = f.sides.includes('N') ? 0 : 90;
        const spot = rot ? [76, 50] : [50, 24];
        g = { shape: { sides: f.sides, ...CROSSING, spot, pennant: rot ? [88, 50] : [50, 10] }, rot: 0, spot, pennant: rot ? [86, 36] : [36, 12] };
        if (rot) g.shape = { ...g.shape, fill: turnPath(CROSSING.fill), wall: turnPath(CROSSING.wall) };
      } else if (cap && f !== cap && opposite(f) && !f.sides.includes(cap.sides[0])) {
        // The band keeps clear of the cap on the side between.
        const fit = fitShape([LOW_BAND], f.sides);
        const r = fit && fitShape([{ sides: ['N'] }], cap.sides);
        if (fit && r) {
          const rot = r.rot;
          g = { shape: LOW_BAND, rot, spot: rotatePoint(LOW_BAND.spot, rot), pennant: rotatePoint(LOW_BAND.pennant, rot) };
        }
      }
      if (!g) continue;
      g.index = f.index; g.pennants = f.pennants || 0; g.good = f.good || null;
      geo.cities.push(g);
      let spot = g.spot;
      if (f.mark === 'cathedral') {
        // The cathedral stands where a knight would: the knight steps aside.
        geo.marks.push({ kind: 'cathedral', at: g.spot });
        spot = [g.spot[0] + 17, g.spot[1] + 9];
      }
      geo.spots.set(f.index, spot);
    }
    let middleRoads = 0;
    // Traders & Builders: roads end at a city of their tile (straight on, or
    // bending to it), or alone in the tile where the table says so; two
    // roads crossing without meeting pass one over the other (a bridge).
    const traders = def.expansion === 'traders';
    const alone = ROADS_ENDING_ALONE[def.id] || [];
    const roadFeatures = def.features.filter((f) => f.kind === 'road');
    const straight = (f) => f.sides.length === 2 && (SIDES.indexOf(f.sides[0]) + 2) % 4 === SIDES.indexOf(f.sides[1]);
    const bridge = roadFeatures.length === 2 && roadFeatures.every(straight) ? roadFeatures[0].index : null;
    for (const f of def.features) {
      if (f.kind !== 'road') continue;
      const single = f.sides.length === 1 && !def.lake && !geo.monastery;
      let end = single ? roadEndAtCity(f.sides[0], geo.cities, traders ? 80 : 46) : undefined;
      let g;
      if (single && traders && alone.includes(f.sides[0])) {
        // A road that ends in the tile, at nothing (a bush marks its end).
        g = roadGeometry(def, { ...f, end: 12 });
        g.deadEnd = g.end;
      } else if (single && traders && end === undefined && geo.cities.length) {
        g = roadToCity(f.sides[0], geo.cities);
      }
      if (!g) {
        if (single && end === undefined) middleRoads++;
        g = roadGeometry(def, { ...f, end });
      }
      g.index = f.index; g.jetty = !!f.jetty; g.sides = f.sides;
      // A road that runs under a city (M12): its follower stands outside the city.
      if (f.sides.length === 2 && inCity(geo.cities, ...g.spot)) {
        const [dx, dy] = SIDE_DIR[f.sides[0]];
        g.spot = [50 + dx * 38, 50 + dy * 38];
      }
      if (bridge !== null) {
        // The first road goes over the other: its follower on the bridge, the other's beside it.
        g.over = f.index === bridge;
        if (!g.over) {
          const [dx, dy] = SIDE_DIR[f.sides[0]];
          g.spot = [50 + dx * 27, 50 + dy * 27];
        }
      }
      geo.roads.push(g);
      geo.spots.set(f.index, g.spot);
      if (f.mark === 'inn') {
        // The inn stands beside the road, across from where a traveller walks.
        const [dx, dy] = SIDE_DIR[f.sides[0]];
        geo.marks.push({ kind: 'inn', at: [g.spot[0] + dy * 15, g.spot[1] - dx * 15] });
      }
    }
    geo.bridge = bridge !== null;
    geo.spike = CITY_SPIKES[def.id] || null;
    if (traders) middleRoads = 0;
    // The Labyrinth's road: a maze where its legs meet, its follower on a leg outside it.
    geo.labyrinth = def.expansion === 'labyrinth';
    if (geo.labyrinth) {
      for (const r of geo.roads) {
        if (!r.branched) continue;
        const [dx, dy] = SIDE_DIR[r.sides[0]];
        r.spot = [50 + dx * 34, 50 + dy * 34];
        geo.spots.set(r.index, r.spot);
      }
    }
    geo.roundabout = !geo.labyrinth && geo.roads.some((r) => r.branched);
    geo.village = !def.lake && !geo.monastery && !geo.roundabout && middleRoads >= 2 &&
      !def.features.some((f) => f.kind === 'city' && f.sides.length >= 3);
    geo.river = riverPath(def.river || []);
    // The Abbot: the garden in its field (the fields' spots keep clear of it).
    const garden = def.features.find((f) => f.kind === 'garden');
    if (garden) {
      let [x, y, r] = GARDENS[def.id] || [];
      if (x === undefined) {
        const fields = def.features.filter((f) => f.kind === 'field').sort((a, b) => b.halves.length - a.halves.length);
        [x, y] = (fields.length && fieldSpots(def, geo).get(fields[0].index)) || [50, 50];
        r = GARDEN_R;
      }
      geo.garden = { index: garden.index, at: [x, y], r };
      geo.spots.set(garden.index, [x, y + 1]);
    }
    for (const [i, p] of fieldSpots(def, geo)) geo.spots.set(i, p);
    return geo;
  }

  /**
   * The feature piece of tile `id` turned by `rot` under the point (x, y)
   * of the tile (0–100, as on the board): a city it lies in, a road it
   * lies on, the monastery in the middle, a garden, else the nearest field.
   */
  pieceAt(id, rot, x, y) {
    const def = this.get(id);
    if (!def) return null;
    const [ux, uy] = rotatePoint([x, y], (360 - rot) % 360);
    const ctx = pathContext();
    if (ctx) {
      for (const c of def.geo.cities) if (inCity([c], ux, uy)) return c.index;
      ctx.lineWidth = ROAD_W + 6;
      for (const r of def.geo.roads) if (r.d && ctx.isPointInStroke(new Path2D(r.d), ux, uy)) return r.index;
    }
    const mon = def.features.find((f) => f.kind === 'monastery');
    if (mon && Math.hypot(ux - 50, uy - 48) < 20) return mon.index;
    const gd = def.geo.garden;
    if (gd && Math.hypot(ux - gd.at[0], uy - gd.at[1]) < gd.r + 2) return gd.index;
    let best = null, bd = Infinity;
    for (const f of def.features) {
      if (f.kind !== 'field') continue;
      const [sx, sy] = def.geo.spots.get(f.index) || [50, 50];
      const d = Math.hypot(sx - ux, sy - uy);
      if (d < bd) { bd = d; best = f.index; }
    }
    if (best !== null) return best;
    let any = null; bd = Infinity;
    for (const [i, [sx, sy]] of def.geo.spots) { const d = Math.hypot(sx - ux, sy - uy); if (d < bd) { bd = d; any = i; } }
    return any;
  }

  /** Where a follower on piece `index` stands, on the board tile turned by `rot`. */
  spot(id, index, rot) {
    const def = this.get(id);
    const p = def?.geo.spots.get(index) || [50, 50];
    return rotatePoint(p, rot);
  }

  /** Tiles of a game: those of the base game and of its expansions, with counts. */
  forSetup(setup) {
    const ed = setup?.edition || 'c3';
    const exps = setup?.expansions || [];
    return this.list.filter((t) => t.expansion == null || exps.includes(t.expansion))
      .map((t) => ({ id: t.id, count: typeof t.count === 'object' ? (t.count[ed] ?? 0) : t.count }));
  }
}

export function el(name, attrs = {}, children = []) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    e.setAttribute(k, String(v));
  }
  for (const c of [].concat(children)) if (c) e.appendChild(c);
  return e;
}

/** Where a tile kind turned by `rot` is defined (in the shared <defs>). */
export function tileHref(id, rot = 0) {
  return `#tile-${id}-${((rot % 360) + 360) % 360}`;
}

/**
 * The SVG <g> of one tile kind turned by `rot` (for <defs>). The land turns
 * with the tile; buildings and coats of arms stay upright at their turned places.
 */
export function tileGroup(def, rot = 0) {
  const outer = el('g', { id: tileHref(def.id, rot).slice(1), class: 'tile-art' });
  const g = el('g', { transform: rot ? `rotate(${rot} 50 50)` : null });
  outer.appendChild(g);
  const geo = def.geo;
  g.appendChild(el('rect', { x: 0, y: 0, width: 100, height: 100, class: geo.abbey ? 'field abbey-ground' : 'field' }));
  // A few tufts of grass so fields do not look flat.
  for (const [x, y] of [[14, 86], [86, 14], [84, 88], [16, 16]]) {
    g.appendChild(el('path', { d: `M${x - 3},${y + 2} l2,-4 l1,3 l1.5,-4 l1,5`, class: 'grass' }));
  }
  // The River under everything else: a road crosses it on a bridge.
  if (geo.river) {
    g.appendChild(el('path', { d: geo.river, class: 'river-bank' }));
    g.appendChild(el('path', { d: geo.river, class: 'river' }));
    if ((def.river || []).length === 1) g.appendChild(el('circle', { cx: 50, cy: 50, r: 15, class: 'river-pool' }));
  }
  // Roads: a dark edge under a light surface; a road over another (T24)
  // after it, on a bridge.
  for (const r of geo.roads) {
    if (!r.d || r.over) continue;
    g.appendChild(el('path', { d: r.d, class: 'road-edge' }));
  }
  for (const r of geo.roads) {
    if (!r.d || r.over) continue;
    g.appendChild(el('path', { d: r.d, class: 'road' }));
  }
  for (const r of geo.roads) {
    if (!r.d || !r.over) continue;
    const [a, b] = r.sides;
    const [ax, ay] = SIDE_DIR[a], [bx, by] = SIDE_DIR[b];
    g.appendChild(el('path', { d: `M${pt([50 + ax * 22, 50 + ay * 22])} L${pt([50 + bx * 22, 50 + by * 22])}`, class: 'bridge', 'data-bridge': r.index }));
    g.appendChild(el('path', { d: r.d, class: 'road-edge' }));
    g.appendChild(el('path', { d: r.d, class: 'road' }));
  }
  for (const r of geo.roads) {
    if (!r.deadEnd) continue;
    // Where a road ends at nothing: a bush.
    const [x, y] = r.deadEnd;
    g.appendChild(el('circle', { cx: x, cy: y, r: BUSH_R, class: 'road-end-bush', 'data-dead-end': r.index }));
  }
  if (geo.spike) g.appendChild(el('path', { d: geo.spike, class: 'wall city-spike' }));
  for (const c of geo.cities) {
    const sub = el('g', { transform: c.rot ? `rotate(${c.rot} 50 50)` : null });
    sub.appendChild(el('path', { d: c.shape.fill, class: 'city' }));
    if (c.shape.wall) sub.appendChild(el('path', { d: c.shape.wall, class: 'wall' }));
    g.appendChild(sub);
  }
  if (def.lake) {
    g.appendChild(el('circle', { cx: 50, cy: 50, r: LAKE_R + 2, class: 'lake-shore' }));
    g.appendChild(el('circle', { cx: 50, cy: 50, r: LAKE_R, class: 'lake' }));
    g.appendChild(el('path', { d: 'M37,46 q3.5,-3.5 7,0 q3.5,3.5 7,0 M47,57 q3.5,-3.5 7,0 q3.5,3.5 7,0', class: 'wave' }));
    for (const r of geo.roads) {
      if (!r.jetty) continue;
      const side = r.sides[0];
      const [dx, dy] = SIDE_DIR[side];
      const cx = 50 + dx * (LAKE_R - 1), cy = 50 + dy * (LAKE_R - 1);
      // A plank jetty across the road end, reaching into the lake.
      const w = dx ? 8 : 14, h = dx ? 14 : 8;
      g.appendChild(el('rect', { x: cx - w / 2 - dx * 2, y: cy - h / 2 - dy * 2, width: w, height: h, rx: 1, class: 'jetty' }));
    }
  }
  if (geo.roundabout) {
    g.appendChild(el('circle', { cx: 50, cy: 50, r: 10, class: 'road-edge roundabout' }));
    g.appendChild(el('circle', { cx: 50, cy: 50, r: 9, class: 'road roundabout' }));
    g.appendChild(el('circle', { cx: 50, cy: 50, r: 4.5, class: 'field roundabout-island' }));
  }
  if (geo.labyrinth) {
    // The Labyrinth: a hedge maze where the four legs meet.
    g.appendChild(el('circle', { cx: 50, cy: 50, r: MAZE_R, class: 'maze-ground' }));
    g.appendChild(el('path', { d: MAZE_HEDGES, class: 'maze-hedge' }));
    g.appendChild(el('circle', { cx: 50, cy: 50, r: 2.6, class: 'maze-centre' }));
    g.appendChild(el('title', {}, [document.createTextNode(t('labyrinth'))]));
  }
  if (geo.village) {
    g.appendChild(el('circle', { cx: 50, cy: 50, r: 9, class: 'village' }));
    g.appendChild(el('rect', { x: 45.5, y: 45.5, width: 9, height: 9, rx: 1, class: 'village-roof' }));
  }
  g.appendChild(el('rect', { x: 0.5, y: 0.5, width: 99, height: 99, class: 'tile-border' }));
  for (const c of geo.cities) {
    if (c.pennants) {
      const [x, y] = rotatePoint(c.pennant, rot);
      outer.appendChild(el('path', {
        d: `M${x - 6},${y - 7} H${x + 6} V${y + 1} Q${x + 6},${y + 6} ${x},${y + 9} Q${x - 6},${y + 6} ${x - 6},${y + 1} Z`,
        class: 'pennant',
      }));
      outer.appendChild(el('path', { d: `M${x - 3},${y - 3} L${x + 3},${y + 3} M${x + 3},${y - 3} L${x - 3},${y + 3}`, class: 'pennant-mark' }));
    }
  }
  for (const c of geo.cities) {
    if (c.good) outer.appendChild(goodIcon(c.good, rotatePoint(c.pennants ? [c.pennant[0] + 16, c.pennant[1] + 4] : c.pennant, rot)));
  }
  if (geo.abbey) {
    // The abbey: a cloister wall round its church.
    outer.appendChild(el('rect', { x: 14, y: 14, width: 72, height: 72, rx: 4, class: 'abbey-wall' }));
    outer.appendChild(el('title', {}, [document.createTextNode(t('abbey'))]));
  }
  if (geo.monastery) {
    outer.appendChild(el('path', { d: 'M36,66 V44 L50,30 L64,44 V66 Z', class: 'monastery' }));
    outer.appendChild(el('path', { d: 'M34,45 L50,28 L66,45', class: 'monastery-roof' }));
    outer.appendChild(el('path', { d: 'M50,16 V28 M45,20 H55', class: 'monastery-cross' }));
    outer.appendChild(el('rect', { x: 46, y: 54, width: 8, height: 12, class: 'monastery-door' }));
  }
  if (geo.garden) outer.appendChild(gardenArt(rotatePoint(geo.garden.at, rot), geo.garden.r));
  for (const m of geo.marks) {
    const [x, y] = rotatePoint(m.at, rot);
    if (m.kind === 'inn') {
      // A small house with a red roof and a pond beside it.
      const inn = el('g', { class: 'inn', transform: `translate(${pt([x, y])})` });
      inn.appendChild(el('ellipse', { cx: 6, cy: 5, rx: 4, ry: 2.5, class: 'inn-pond' }));
      inn.appendChild(el('rect', { x: -6, y: -3, width: 10, height: 8, class: 'inn-wall' }));
      inn.appendChild(el('path', { d: 'M-8,-2 L-1,-8 L6,-2 Z', class: 'inn-roof' }));
      inn.appendChild(el('title', {}, [document.createTextNode(t('inn'))]));
      outer.appendChild(inn);
    } else if (m.kind === 'cathedral') {
      // A church with two towers.
      const c = el('g', { class: 'cathedral', transform: `translate(${pt([x, y])})` });
      c.appendChild(el('path', { d: 'M-10,9 V-2 L-7,-9 L-4,-2 V-4 L0,-9 L4,-4 V-2 L7,-9 L10,-2 V9 Z', class: 'cathedral-body' }));
      c.appendChild(el('path', { d: 'M0,-15 V-9 M-2.5,-12.5 H2.5', class: 'cathedral-cross' }));
      c.appendChild(el('path', { d: 'M-2.5,9 V3 A2.5,2.5 0 0 1 2.5,3 V9 Z', class: 'cathedral-door' }));
      c.appendChild(el('title', {}, [document.createTextNode(t('cathedral'))]));
      outer.appendChild(c);
    }
  }
  return outer;
}

/**
 * A garden (The Abbot) drawn upright at (x, y), `r` from its middle to its
 * hedge: a lawn in a hedge with a gate, a tree and a bed of flowers.
 */
function gardenArt([x, y], r) {
  const g = el('g', { class: 'garden', transform: `translate(${pt([x, y])})${r !== GARDEN_R ? ` scale(${+(r / GARDEN_R).toFixed(3)})` : ''}`, 'data-garden': '1' });
  g.appendChild(el('rect', { x: -9, y: -9, width: 18, height: 18, rx: 4, class: 'garden-lawn' }));
  g.appendChild(el('path', { d: 'M-3,9 H-5 A4,4 0 0 1 -9,5 V-5 A4,4 0 0 1 -5,-9 H5 A4,4 0 0 1 9,-5 V5 A4,4 0 0 1 5,9 H3', class: 'garden-hedge' }));
  g.appendChild(el('rect', { x: -3.6, y: -1.2, width: 1.6, height: 4.2, class: 'garden-trunk' }));
  g.appendChild(el('circle', { cx: -2.8, cy: -3.2, r: 3.6, class: 'garden-tree' }));
  for (const [cx, cy, c] of [[3.2, 2.6, 'a'], [5.4, 4.6, 'b'], [2.6, 5.4, 'c'], [5, 0.6, 'b'], [3.4, -4.6, 'a']]) {
    g.appendChild(el('circle', { cx, cy, r: 1.2, class: `garden-flower ${c}` }));
  }
  g.appendChild(el('title', {}, [document.createTextNode(t('garden'))]));
  return g;
}

/**
 * A trade good (Traders & Builders) drawn upright at (x, y): wine a bunch
 * of grapes, grain an ear of wheat, cloth a bolt of blue cloth.
 */
export function goodIcon(good, [x, y], scale = 1) {
  const g = el('g', { class: `good good-${good}`, transform: `translate(${pt([x, y])})${scale !== 1 ? ` scale(${scale})` : ''}`, 'data-good': good });
  g.appendChild(el('circle', { r: 8, class: 'good-disc' }));
  if (good === 'wine') {
    for (const [cx, cy] of [[-3, -2], [0, -2], [3, -2], [-1.5, 0.8], [1.5, 0.8], [0, 3.6]]) g.appendChild(el('circle', { cx, cy, r: 1.9, class: 'good-fill' }));
    g.appendChild(el('path', { d: 'M0,-4 L1,-6.5 L3.5,-6', class: 'good-stem' }));
  } else if (good === 'grain') {
    g.appendChild(el('path', { d: 'M0,6.5 V-6', class: 'good-stem' }));
    for (const y of [-4.5, -1.5, 1.5]) {
      g.appendChild(el('ellipse', { cx: -1.9, cy: y, rx: 1.4, ry: 2.3, transform: `rotate(-30 -1.9 ${y})`, class: 'good-fill' }));
      g.appendChild(el('ellipse', { cx: 1.9, cy: y, rx: 1.4, ry: 2.3, transform: `rotate(30 1.9 ${y})`, class: 'good-fill' }));
    }
  } else {
    g.appendChild(el('path', { d: 'M-5.5,-4.5 H4 A1.8,4.5 0 0 1 4,4.5 H-5.5 A1.8,4.5 0 0 1 -5.5,-4.5 Z', class: 'good-fill' }));
    g.appendChild(el('path', { d: 'M-2,-4.5 V4.5 M1.2,-4.5 V4.5', class: 'good-stripe' }));
  }
  g.appendChild(el('title', {}, [document.createTextNode(t(good))]));
  return g;
}

/** A jetty's shore point on a board tile, in tile units (no rotation: sides are as on the board). */
export function jettyPoint(side) {
  const [dx, dy] = SIDE_DIR[side];
  return [50 + dx * (LAKE_R - 4), 50 + dy * (LAKE_R - 4)];
}

/**
 * A ferry joining two jetties (sides as on the board), in tile units: a
 * straight crossing of the lake. `handle` is a point on it where a click picks
 * it, distinct for every pair of one lake.
 */
export function ferryPath(pair) {
  const [a, b] = pair.split('-');
  const pa = jettyPoint(a), pb = jettyPoint(b);
  const mid = [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2];
  const opposite = (SIDES.indexOf(a) + 2) % 4 === SIDES.indexOf(b);
  let handle = mid;
  if (opposite) handle = a === 'N' || a === 'S' ? [50, 39] : [61, 50];
  return { d: `M${pt(pa)} L${pt(pb)}`, mid, handle, angle: Math.atan2(pb[1] - pa[1], pb[0] - pa[0]) };
}

// Where along its crossing a handle may stand, the middle first.
const HANDLE_AT = [0.5, 0.44, 0.56, 0.38, 0.62, 0.32, 0.68, 0.26, 0.74, 0.2, 0.8, 0.14, 0.86];
const handleCache = new Map();

/**
 * The handles of the crossings `pairs` offered on one lake, in tile units:
 * `points` in the order of `pairs`, each on its own crossing, as near its
 * middle as can be with every two at least `apart` apart on both axes, and
 * clear of `avoid` (the boat on the lake) when there is room; `r` the
 * handles' radius, smaller when the lake is crowded (all six crossings of
 * four jetties), so that their boxes never meet.
 */
export function ferryHandles(pairs, avoid = [], apart = 14) {
  const key = `${pairs.join(' ')}|${avoid.map((p) => pt(p)).join(' ')}|${apart}`;
  if (handleCache.has(key)) return handleCache.get(key);
  const cands = pairs.map((pair) => {
    const [a, b] = pair.split('-').map(jettyPoint);
    return HANDLE_AT.map((t) => ({ p: [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], off: Math.abs(t - 0.5) }));
  });
  const far = (p, q, d) => Math.max(Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1])) >= d;
  let found = null, room = apart;
  // Fewer constraints until one layout fits: the boat first, then less room.
  for (const [fixed, d] of [[avoid, apart], [[], apart], [[], apart - 2], [[], apart - 4], [[], 0]]) {
    room = d;
    let bestOff = Infinity;
    const chosen = [];
    const search = (i, off) => {
      if (off >= bestOff) return;
      if (i === cands.length) { found = chosen.map((c) => c.p); bestOff = off; return; }
      for (const c of cands[i]) {
        if (!fixed.every((q) => far(q, c.p, d)) || !chosen.every((q) => far(q.p, c.p, d))) continue;
        chosen.push(c);
        search(i + 1, off + c.off);
        chosen.pop();
      }
    };
    search(0, 0);
    if (found) break;
  }
  const res = { points: found, r: Math.max(3, Math.min(6.5, (room - 1) / 2)) };
  handleCache.set(key, res);
  return res;
}

// A follower, drawn in a box about 24 units high centred on 0,0.
export const MEEPLE_PATH = 'M0,-11 C3,-11 4.5,-9 4.5,-7 C4.5,-5.5 4,-4.5 3.2,-4 L9,-2 C11,-1.3 11,1.5 9,2 L5,2.8 L8,10 C8.5,11 8,11.5 7,11.5 L2,11.5 L0,7 L-2,11.5 L-7,11.5 C-8,11.5 -8.5,11 -8,10 L-5,2.8 L-9,2 C-11,1.5 -11,-1.3 -9,-2 L-3.2,-4 C-4,-4.5 -4.5,-5.5 -4.5,-7 C-4.5,-9 -3,-11 0,-11 Z';

// Six colours: Inns & Cathedrals brings a sixth player.
export const PLAYER_COLOURS = ['#d9342b', '#2563eb', '#eab308', '#1f2937', '#9333ea', '#16a34a'];
export const PLAYER_NAMES_OF_COLOURS = ['red', 'blue', 'yellow', 'black', 'purple', 'green'];

/** The colours a seat may have (the server's names), and how they are drawn. */
export const COLOUR_HEX = {
  red: '#d9342b', blue: '#2563eb', yellow: '#eab308', black: '#1f2937',
  purple: '#9333ea', green: '#16a34a', orange: '#ea580c', pink: '#db2777',
};
export const COLOUR_NAMES = Object.keys(COLOUR_HEX);

/** The seats' colours of the game shown (names, by seat), or null: colours by seat. */
let seatColours = null;
export function setSeatColours(list) { seatColours = list && list.some(Boolean) ? list : null; }

export function colourOf(seat) {
  const c = seatColours && seatColours[seat];
  return (c && COLOUR_HEX[c]) || PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
}

/** Black or white, whichever reads better on the colour `hex` (#rrggbb). */
export function inkOn(hex) {
  const n = parseInt(String(hex).slice(1, 7), 16);
  if (!Number.isFinite(n)) return '#fff';
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#1b1b1b' : '#fff';
}

// Abbey & Mayor's figures, in the same box: the mayor a follower in a top
// hat, the wagon a cart on two wheels, the barn a barn with its door.
export const MAYOR_PATH = `${MEEPLE_PATH} M-7.5,-8.5 H7.5 V-6.8 H-7.5 Z M-4,-15 H4 V-8 H-4 Z`;
const wheel = (cx) => `M${cx - 3.6},8 a3.6,3.6 0 1,0 7.2,0 a3.6,3.6 0 1,0 -7.2,0 Z`;
export const WAGON_PATH = `M-11,-5 H9 L11,-9 L12.5,-8.2 L10.5,-4 V4 H-11 Z ${wheel(-6)} ${wheel(5)}`;
export const BARN_PATH = 'M-11,11 V-2 L-7,-9 L0,-12 L7,-9 L11,-2 V11 Z M-3.5,11 V3 H3.5 V11 Z';
// Traders & Builders': the builder a slim figure with a hammer raised, the
// pig a pig.
export const BUILDER_PATH = 'M-3.4,-8.2 a3.4,3.4 0 1,0 6.8,0 a3.4,3.4 0 1,0 -6.8,0 Z M-4.2,-3.6 H3.6 L6,11.5 H1.6 L0,5.5 L-1.6,11.5 H-6 Z M3.2,-2 L8.6,-10.4 L10.2,-9.4 L4.8,-1 Z M6.2,-12.8 L11.8,-9.4 L10.2,-6.8 L4.6,-10.2 Z';
export const PIG_PATH = 'M-10,1.5 a10,6.5 0 1,0 20,0 a10,6.5 0 1,0 -20,0 Z M8.6,-1.8 H12.6 V3.6 H8.6 Z M3,-3.4 L6.2,-9 L8,-2.6 Z M-7.6,5.6 H-4.2 V11 H-7.6 Z M2.6,5.6 H6 V11 H2.6 Z M-9.6,-0.6 L-12.4,-3.6 L-11,-4.6 L-8.4,-1.8 Z';
// The Abbot's: a monk in a long robe, its pointed hood round the face
// (a hole: drawn even-odd).
export const ABBOT_PATH = 'M0,-15 C3.4,-12.6 5.4,-10 5.4,-7 C5.4,-5.4 5,-4.4 4.4,-3.6 L8.8,-1.4 C10.6,-0.6 10.6,2 8.8,2.6 L6.2,3.4 L9.6,11.5 H-9.6 L-6.2,3.4 L-8.8,2.6 C-10.6,2 -10.6,-0.6 -8.8,-1.4 L-4.4,-3.6 C-5,-4.4 -5.4,-5.4 -5.4,-7 C-5.4,-10 -3.4,-12.6 0,-15 Z M0,-10.2 C1.7,-10.2 2.5,-8.6 2.5,-7.2 C2.5,-5.8 1.5,-4.9 0,-4.9 C-1.5,-4.9 -2.5,-5.8 -2.5,-7.2 C-2.5,-8.6 -1.7,-10.2 0,-10.2 Z';
export const FIGURE_PATHS = { normal: MEEPLE_PATH, big: MEEPLE_PATH, mayor: MAYOR_PATH, wagon: WAGON_PATH, barn: BARN_PATH, builder: BUILDER_PATH, pig: PIG_PATH, abbot: ABBOT_PATH };
/** Figures whose shapes have holes (drawn even-odd). */
export const EVEN_ODD = new Set(['barn', 'abbot']);

/**
 * A figure of `seat`: the big follower (Inns & Cathedrals) is drawn larger,
 * with a white collar; Abbey & Mayor's mayor, wagon and barn, Traders &
 * Builders' builder and pig and The Abbot's abbot by their shapes.
 */
export function meeple(seat, attrs = {}, figure = 'normal') {
  const f = FIGURE_PATHS[figure] ? figure : 'normal';
  const extra = f === 'normal' ? '' : ` ${f}`;
  return el('path', { d: FIGURE_PATHS[f], fill: colourOf(seat), 'fill-rule': EVEN_ODD.has(f) ? 'evenodd' : null, class: `meeple${extra}`, ...attrs });
}

/** Where a barn stands on the board: the corner of its tile at (x, y), in board units. */
export function cornerPoint(x, y, corner) {
  const c = String(corner || '').replace('corner:', '');
  return [(x + (c.includes('E') ? 1 : 0)) * T, (y + (c.includes('S') ? 1 : 0)) * T];
}

/** A small standalone <svg> showing one tile (uses the shared <defs>). */
export function miniTile(id, rot = 0, size = 40, extraClass = '') {
  const s = el('svg', { viewBox: '0 0 100 100', width: size, height: size, class: `mini-tile ${extraClass}`, 'aria-label': t('tile {id}', { id }), role: 'img' });
  s.appendChild(el('use', { href: tileHref(id, rot) }));
  return s;
}

/** Install the <defs> with every tile of the catalogue into the page (once). */
export function installDefs(catalogue) {
  let host = document.getElementById('tile-defs');
  if (host) host.remove();
  host = el('svg', { id: 'tile-defs', width: 0, height: 0, style: 'position:absolute;width:0;height:0', 'aria-hidden': 'true' });
  const defs = el('defs');
  for (const def of catalogue.byId.values()) for (const rot of [0, 90, 180, 270]) defs.appendChild(tileGroup(def, rot));
  host.appendChild(defs);
  document.body.prepend(host);
}
