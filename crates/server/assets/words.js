// The UI's words for figures and steps, in one place: the names of the
// figures, their counts, their roles on features, the spots the board
// offers, the replay's sentences of deployments, and what each step asks.
// Every string here is an English key of i18n.js; adding a figure or a
// step means adding its words here (and their translations there).
import { t, tn } from './i18n.js';

/** Each figure's name, as on the deploy step's buttons. */
export const FIGURE_WORDS = { normal: 'Follower', big: 'Big follower', mayor: 'Mayor', wagon: 'Wagon', barn: 'Barn', builder: 'Builder', pig: 'Pig', abbot: 'Abbot' };

/** How many of a figure, in words: "5 followers", "1 wagon". */
export function figureCount(figure, n) {
  switch (figure) {
    case 'big': return tn(n, '{n} big follower', '{n} big followers');
    case 'mayor': return tn(n, '{n} mayor', '{n} mayors');
    case 'wagon': return tn(n, '{n} wagon', '{n} wagons');
    case 'barn': return tn(n, '{n} barn', '{n} barns');
    case 'builder': return tn(n, '{n} builder', '{n} builders');
    case 'pig': return tn(n, '{n} pig', '{n} pigs');
    case 'abbot': return tn(n, '{n} abbot', '{n} abbots');
    default: return tn(n, '{n} follower', '{n} followers');
  }
}

/** A feature kind's name. */
export const KIND_WORD = { road: 'Road', city: 'City', monastery: 'Monastery', field: 'Farm', garden: 'Garden' };

const ROLE_WORD = { road: 'traveller on the road', city: 'knight in the city', monastery: 'monk in the monastery', field: 'farmer in the field', garden: 'abbot in the garden' };

// Abbey & Mayor's figures on their features.
const FIGURE_ROLE_WORD = {
  mayor: { city: 'mayor in the city' },
  wagon: { road: 'wagon on the road', city: 'wagon in the city', monastery: 'wagon at the monastery' },
  barn: { corner: 'barn on the corner', field: 'barn in the field' },
  // Traders & Builders'.
  builder: { road: 'builder on the road', city: 'builder in the city' },
  pig: { field: 'pig in the field' },
  // The Abbot's.
  abbot: { monastery: 'abbot in the monastery', garden: 'abbot in the garden' },
};

/**
 * Where on its tile a feature lies, as the engine names it (a side, a half
 * of an edge, a corner), in words: "north", "east edge, north half".
 */
const WHERE_WORDS = {
  N: 'north', E: 'east', S: 'south', W: 'west',
  NNW: 'north edge, west half', NNE: 'north edge, east half', ENE: 'east edge, north half', ESE: 'east edge, south half',
  SSE: 'south edge, east half', SSW: 'south edge, west half', WSW: 'west edge, south half', WNW: 'west edge, north half',
  NW: 'north-west', NE: 'north-east', SE: 'south-east', SW: 'south-west',
};

export function whereWords(where) { return WHERE_WORDS[where] ? t(WHERE_WORDS[where]) : where; }

/** A follower's role on a feature, in words; `figure` big makes it a big one, a mayor, wagon or barn says so. */
export function featureWords(feature, figure) {
  if (!feature) return t('a feature');
  const [kind, where] = feature.split(':');
  const word = FIGURE_ROLE_WORD[figure]?.[kind] || ROLE_WORD[kind] || (kind === 'corner' ? 'barn on the corner' : null);
  const role = word ? t(word) : kind;
  const words = where === 'inner' || where === 'inner2' ? t('{role} (inside the tile)', { role }) : where ? `${role} (${whereWords(where)})` : role;
  return figure === 'big' ? t('big {words}', { words }) : words;
}

// A feature by itself, as a player names it (after a colon: no case to agree with).
const PLACE_WORD = { road: 'the road', city: 'the city', monastery: 'the monastery', field: 'the field', garden: 'the garden', corner: 'the corner' };

/** A feature of a tile in words: "the road (north)", "the field (inside the tile)". */
export function placeWords(feature) {
  if (!feature) return t('a feature');
  const [kind, where] = feature.split(':');
  const place = PLACE_WORD[kind] ? t(PLACE_WORD[kind]) : kind;
  if (where === 'inner' || where === 'inner2') return t('{role} (inside the tile)', { role: place });
  return where ? `${place} (${whereWords(where)})` : place;
}

/** A choice on the board in words: a figure on a feature, a wagon's move, or taking the abbot back. */
export function spotWords(s) {
  if (s.pick === 'wagon') return featureWords(s.meeple, 'wagon');
  if (s.pick === 'return_abbot') return takeBackWords(s.points);
  return featureWords(s.meeple, s.figure === 'normal' ? null : s.figure);
}

const DEPLOY_WORDS = {
  normal: '{who} deploys a follower: {where}.', big: '{who} deploys a big follower: {where}.',
  mayor: '{who} deploys the mayor: {where}.', wagon: '{who} deploys the wagon: {where}.', barn: '{who} deploys the barn: {where}.',
  builder: '{who} deploys the builder: {where}.', pig: '{who} deploys the pig: {where}.',
  abbot: '{who} deploys the abbot: {where}.',
};

/** A deployment told as a sentence (the replay's): `feature` as the engine names it. */
export function deployWords(who, figure, feature) {
  return t(DEPLOY_WORDS[figure] || DEPLOY_WORDS.normal, { who, where: placeWords(feature) });
}

// A lake's jetties, as the ferry's route names them (in German and Polish in the case that route takes).
const JETTY_WORDS = { N: 'north jetty', E: 'east jetty', S: 'south jetty', W: 'west jetty' };

/** A ferry's crossing ("E-S") in words: "from the east jetty to the south jetty". */
export function routeWords(pair) {
  const [a, b] = String(pair || '').split('-');
  return t('from the {a} to the {b}', { a: JETTY_WORDS[a] ? t(JETTY_WORDS[a]) : a, b: JETTY_WORDS[b] ? t(JETTY_WORDS[b]) : b });
}

// Passing means something else at each step.
const PASS_WORDS = {
  deploy: '{who} deploys no follower.', move_ferries: '{who} moves no more ferries.',
  abbey: '{who} draws a tile instead of placing the abbey.', move_wagon: '{who} takes the wagon back.',
};

/** A pass at step `step`, told as a sentence (the replay's). */
export function passWords(who, step) { return t(PASS_WORDS[step] || '{who} passes.', { who }); }

// The log: a figure back in its owner's supply, from the kind of feature it stood on.
const RETURN_WORDS = {
  road: '’s follower returns from the road{where} at {at}', city: '’s follower returns from the city{where} at {at}',
  field: '’s follower returns from the field{where} at {at}', monastery: '’s follower returns from the monastery at {at}',
  garden: '’s follower returns from the garden at {at}',
};
const ABBOT_RETURN_WORDS = { monastery: '’s abbot returns from the monastery at {at}', garden: '’s abbot returns from the garden at {at}' };

/** A follower returning from `feature` (the engine's name) at `at` (words), after its owner's name. */
export function returnWords(feature, at, figure) {
  const [kind, where] = String(feature || '').split(':');
  const key = (figure === 'abbot' ? ABBOT_RETURN_WORDS[kind] : null) || RETURN_WORDS[kind === 'corner' ? 'field' : kind];
  if (!key) return t('’s follower returns from {feature} at {at}', { feature, at });
  const w = where === 'inner' || where === 'inner2' ? t('inside the tile') : where ? whereWords(where) : '';
  return t(key, { where: w ? ` (${w})` : '', at });
}

/**
 * The Abbot: taking the abbot back at `at` ([x, y]) for `points`, in words
 * (the deploy step's choice; at least 2 points: the abbot's tile has a neighbour).
 */
export function takeBackWords(points) {
  // The abbot is ringed on the board: no coordinates.
  return t('Take back the abbot (+{n} points)', { n: points });
}

/** Where a wagon may go, from where it waits: its own tile, or the one beside it in a direction. */
export function wagonStepWords(from, to) {
  const dx = Math.sign(to[0] - from[0]), dy = Math.sign(to[1] - from[1]);
  if (!dx && !dy) return t('on its tile');
  return t('one tile {dir}', { dir: whereWords(`${dy < 0 ? 'N' : dy > 0 ? 'S' : ''}${dx > 0 ? 'E' : dx < 0 ? 'W' : ''}`) });
}

/**
 * What taking the abbot back at `at` scores now: its monastery or garden
 * as at the end, 1 for its tile and 1 for each of the 8 around it on `board`.
 */
export function takeBackPoints(board, at) {
  const here = new Set((board || []).map((b) => `${b.at[0]},${b.at[1]}`));
  let n = 1;
  for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if ((dx || dy) && here.has(`${at[0] + dx},${at[1] + dy}`)) n++;
  return n;
}

const STEP_WORDS = {
  place: 'place the tile',
  deploy: 'deploy a follower, or not',
  place_ferry: 'place the ferry',
  move_ferries: 'move ferries, or finish',
  abbey: 'place the abbey in a hole, or draw a tile',
  move_wagon: 'move the wagon, or take it back',
  end_turn: 'end the turn, or undo',
  draw: 'draw a tile',
  game_over: 'game over',
};

/** What a step asks, in words. */
export function stepWords(step) { return STEP_WORDS[step] ? t(STEP_WORDS[step]) : step; }

/**
 * Why the rules refuse a choice the player points at ("why not?"): one of
 * the view's `refused`, told from the engine's name of the broken rule, or
 * in the engine's own (English) words for a rule this list does not know.
 */
export function whyWords(r) {
  switch (r.kind) {
    case 'feature-occupied': return t('Taken: this feature already holds a follower, counting every tile it spans.');
    case 'wrong-feature-for-figure': return r.reason ? sentence(t(r.reason)) : r.why;
    case 'no-follower-in-supply': return t('No follower is left in your supply.');
    case 'no-figure-in-supply': return t('{figure}: none is left in your supply.', { figure: t(FIGURE_WORDS[r.figure] || r.figure) });
    case 'ferry-not-movable': return t('This ferry may not move: no road of the tile just placed reaches it without passing another ferry (F6).');
    case 'ferry-moved-already': return t('This ferry was moved this turn already: each ferry moves at most once a turn (F7).');
    default: return r.why;
  }
}

function sentence(s) { return s ? `${s[0].toUpperCase()}${s.slice(1)}.` : s; }

/** The bots' ladder: the levels that have a rating, weakest first (the only ones a rated game may seat). */
export const LADDER = ['beginner', 'easy', 'medium', 'hard', 'expert'];
const LEVELS = new Set(['random', ...LADDER]);

/** The expansions, as the server names them, and their short names (in lists of games and tables). */
export const EXPANSIONS = [['ferries', 'The Ferries'], ['inns', 'Inns & Cathedrals'], ['abbey', 'Abbey & Mayor'], ['traders', 'Traders & Builders'],
  ['river', 'The River'], ['abbot', 'The Abbot'], ['labyrinth', 'The Labyrinth']];

/** A game's expansions in words ("Ferries c3 + The River"), or "base game"; The Ferries with their edition if known. */
export function expansionWords(expansions, edition = null) {
  const names = EXPANSIONS.filter(([x]) => (expansions || []).includes(x))
    .map(([x, words]) => (x === 'ferries' && edition ? t('Ferries {edition}', { edition }) : t(words)));
  return names.length ? names.join(' + ') : t('base game');
}

/**
 * The time controls the forms offer (docs/api.md, Clocks), by a name of the
 * form's: none, per move (correspondence) or Fischer (a bank of time, and
 * an increment after each turn).
 */
export const CLOCKS = [
  ['', null],
  ['move-1h', { per_move: 3600 }], ['move-1d', { per_move: 86400 }], ['move-3d', { per_move: 3 * 86400 }],
  ['fischer-5-5', { base: 300, increment: 5 }], ['fischer-10-10', { base: 600, increment: 10 }], ['fischer-25-10', { base: 1500, increment: 10 }],
];

/** Seconds in words: "3 days", "1 h", "10 min", "5 s", "1 min 30 s". */
export function durationWords(seconds) {
  let s = Math.max(0, Math.round(seconds));
  const parts = [];
  const d = Math.floor(s / 86400); s %= 86400;
  const hours = Math.floor(s / 3600); s %= 3600;
  const m = Math.floor(s / 60); s %= 60;
  if (d) parts.push(tn(d, '{n} day', '{n} days'));
  if (hours) parts.push(t('{n} h', { n: hours }));
  if (m) parts.push(t('{n} min', { n: m }));
  if (s || !parts.length) parts.push(t('{n} s', { n: s }));
  return parts.join(' ');
}

/**
 * A time control in words: "Fischer 10 min + 5 s", "1 day per move", and
 * with `timeout` what happens when it runs out (", a bot plays on timeout").
 */
export function clockWords(setup, { timeout = true } = {}) {
  if (!setup) return t('No clock');
  const what = setup.per_move != null ? t('{time} per move', { time: durationWords(setup.per_move) })
    : t('Fischer {base} + {increment}', { base: durationWords(setup.base), increment: durationWords(setup.increment || 0) });
  if (!timeout) return what;
  return `${what}, ${t(setup.on_timeout === 'lose' ? 'the seat loses on timeout' : 'a bot plays on timeout')}`;
}

/**
 * A bot's name as the server makes it when none is given ("Bot 2 (easy)"),
 * in the UI's language; a name someone chose stays as it is. `level` (the
 * seat's, when known) must be the one in the name.
 */
export function botName(name, level) {
  const m = /^Bot (\d+) \((\w+)\)$/.exec(name || '');
  if (!m || !LEVELS.has(m[2]) || (level && level !== m[2])) return name;
  return t('Bot {n} ({level})', { n: m[1], level: t(m[2]) });
}
