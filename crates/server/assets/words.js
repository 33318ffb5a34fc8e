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

/** A follower's role on a feature, in words; `figure` big makes it a big one, a mayor, wagon or barn says so. */
export function featureWords(feature, figure) {
  if (!feature) return 'a feature';
  const [kind, where] = feature.split(':');
  const word = FIGURE_ROLE_WORD[figure]?.[kind] || ROLE_WORD[kind] || (kind === 'corner' ? 'barn on the corner' : null);
  const role = word ? t(word) : kind;
  const words = where === 'inner' || where === 'inner2' ? t('{role} (inside the tile)', { role }) : where ? `${role} (${where})` : role;
  return figure === 'big' ? t('big {words}', { words }) : words;
}

const SPOT_WORDS = {
  normal: 'follower on {where}', big: 'big follower on {where}', mayor: 'mayor on {where}',
  wagon: 'wagon on {where}', barn: 'barn on {where}', builder: 'builder on {where}', pig: 'pig on {where}',
  abbot: 'abbot on {where}',
};

/** A choice on the board in words: a figure on a feature, a wagon's move, or taking the abbot back. */
export function spotWords(s) {
  if (s.pick === 'wagon') return t('move the wagon to {where} at {at}', { where: s.meeple, at: `(${s.x}, ${s.y})` });
  if (s.pick === 'return_abbot') return takeBackWords(s.points, [s.x, s.y]);
  return t(SPOT_WORDS[s.figure] || SPOT_WORDS.normal, { where: s.meeple });
}

const DEPLOY_WORDS = {
  normal: '{who} deploys a follower on {where}.', big: '{who} deploys a big follower on {where}.',
  mayor: '{who} deploys the mayor on {where}.', wagon: '{who} deploys the wagon on {where}.', barn: '{who} deploys the barn on {where}.',
  builder: '{who} deploys the builder on {where}.', pig: '{who} deploys the pig on {where}.',
  abbot: '{who} deploys the abbot on {where}.',
};

/** A deployment told as a sentence (the replay's). */
export function deployWords(who, figure, where) {
  return t(DEPLOY_WORDS[figure] || DEPLOY_WORDS.normal, { who, where });
}

/**
 * The Abbot: taking the abbot back at `at` ([x, y]) for `points`, in words
 * (the deploy step's choice; at least 2 points: the abbot's tile has a neighbour).
 */
export function takeBackWords(points, at) {
  return t('Take back the abbot at {at} (+{n} points)', { at: `(${at[0]}, ${at[1]})`, n: points });
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
