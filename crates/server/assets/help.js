// The help ("?"): the rules of the game being played, the base game and
// each expansion in it (with its variants), in a player's words, then the
// keys. On the home page, every expansion the server knows, folded.
// docs/rules.md is the project's full statement of the rules; this is the
// summary a player reads at the table.
import { h, clear } from './ui.js';
import { t } from './i18n.js';

/** The game the help is about: its view's setup (or null on the home page). */
let game = null;

/** The page says which game it shows (`setup` of its view), or none. */
export function setHelpGame(setup) { game = setup || null; }

const BASE = {
  id: 'base', title: 'The base game', points: [
    'On your turn, draw a tile and lay it beside the board so that every edge it touches matches: city to city, road to road, field to field. A tile that fits nowhere is put aside and you draw another.',
    'Then you may put one follower from your supply on that tile: on a road, a city, a monastery or a field (as a farmer), if no follower stands on that road, city or field yet, however far it reaches.',
    'A road is complete when both its ends stop (at a village, a city, a monastery or a loop), a city when its walls close, a monastery when the eight places around it hold tiles.',
    'Completed, a road scores 1 point a tile, a city 2 a tile and 2 a pennant, a monastery 9. Whoever has the most followers there scores it (tied players all score it in full), and the followers come back.',
    'Farmers stay on their field to the end: then each farm scores 3 points for each completed city it touches.',
    'The game ends after the last tile. What is still open scores then too: a road 1 a tile, a city 1 a tile and 1 a pennant, a monastery 1 and 1 for each tile around it. The most points wins.',
  ],
};

const EXPANSIONS = [
  {
    id: 'river', title: 'The River', points: [
      'The spring starts the game; the river tiles are drawn first, then the lake that ends the river, then the rest of the bag.',
      'A river tile must carry the river on, and the river may not turn back towards itself. The river is no feature: nothing stands on it, it scores nothing, and it parts the fields on its two banks.',
    ],
  },
  {
    id: 'ferries', title: 'The Ferries', points: [
      'Eight lake tiles join the bag. Every road of a lake tile ends at a jetty on the lake; a jetty without a ferry ends its road like a village.',
      'When you lay a lake tile, after your follower you must put a ferry on it between two of its jetties: the two roads become one road across the lake.',
      'Then you may move ferries: follow each road of the tile you laid to the first ferry on it. Each ferry reached may move once to another pair of jetties of its lake. The ferry just placed stays.',
      'Roads join and split as ferries move: a move alone can complete a road, and a road completed earlier can open again and score again later. Scoring comes once every move is made.',
      'A lake tile counts once for a road, and lakes do not join fields.',
    ],
  },
  {
    id: 'inns', title: 'Inns & Cathedrals', points: [
      'Eighteen more tiles, room for a sixth player, and a big follower for each. The big follower counts as two followers when the most followers are counted.',
      'A road with an inn scores 2 points a tile when completed, but nothing if it is still open at the end.',
      'A city with a cathedral scores 3 points a tile and 3 a pennant when completed, but nothing if it is still open at the end.',
    ],
  },
  {
    id: 'abbey', title: 'Abbey & Mayor', points: [
      'Abbey: instead of drawing, you may lay your abbey in a hole (an empty place with a tile on each of its four sides). It is a monastery; the roads and cities that reach it end there.',
      'Mayor: goes only into a city, and counts as many followers as the city has pennants (none without one).',
      'Wagon: stands on a road, a city or a monastery. When that scores, you may move it to an unfinished road, city or monastery with no figure, on its tile or one of the eight around it.',
      'Barn: goes on a corner of your new tile where four fields meet. The farmers of that farm score at once, 3 a completed city, and go home; at the end the barn scores 4 a completed city. A farm with a barn takes no farmer.',
    ],
  },
  {
    id: 'traders', title: 'Traders & Builders', points: [
      'Goods: whoever completes a city takes the goods shown on it (wine, grain, cloth), followers there or not. At the end, whoever has the most of a good scores 10 for it.',
      'Builder: goes on a road or city of your new tile where you have a follower. Each time you later extend that road or city with a tile, you play a second turn at once (never a third).',
      'Pig: goes on a field of your new tile where you have a farmer; that farm then scores you 4 a city instead of 3.',
    ],
  },
  {
    id: 'abbot', title: 'The Abbot', points: [
      'Each player has an abbot. It goes only on a monastery or a garden of the tile just laid (some base tiles have a garden), and counts as one follower.',
      'A garden scores as a monastery does: 9 when the eight places around it hold tiles, else at the end 1 and 1 for each tile around it.',
      'Instead of putting a figure down, you may take your abbot back from an unfinished monastery or garden: it scores at once what it would at the end.',
    ],
  },
  {
    id: 'labyrinth', title: 'The Labyrinth', points: [
      'One tile: four roads that meet in a maze at its centre. For who scores it, they are one road.',
      'A follower may go on a leg of it (from the tile just laid up to the maze) that holds no figure, however many stand on the rest. Completed, the road scores 1 a tile and 2 more for each figure on it.',
    ],
    basic: 'This game plays the basic labyrinth: its road is a road like any other.',
  },
];

function rulesSection(r, setup) {
  const points = [...r.points];
  if (r.id === 'labyrinth' && setup?.rules?.['labyrinth-variant'] === 'basic') points.splice(1, 1, r.basic);
  if (r.id === 'base' && setup?.rules?.['tiny-city-scoring'] === 2) points.push('In this game a completed city of only two tiles scores 2 points, not 4.');
  return [h('h3', { dataset: { rules: r.id } }, t(r.title)), h('ul.rules', points.map((p) => h('li', t(p))))];
}

function keysTable() {
  const row = (k, words) => h('tr', h('td', { style: 'padding:.2em .8em .2em 0;white-space:nowrap' }, ...k.map((x) => h('kbd', x))), h('td', t(words)));
  return [
    h('table', h('tbody',
      row(['R', 'Shift+R'], 'turn the drawn tile (only rotations that fit somewhere); also the wheel or a right-click over the board'),
      row([']', '['], 'next / previous legal position'),
      row(['Enter'], 'place the tile at the selected position'),
      row(['Esc'], 'clear the selection'),
      row(['1', '…', '9'], 'pick a follower spot, ferry crossing, ferry move, hole for the abbey or wagon move'),
      row(['A'], 'deploy step: take your abbot back, for the points its monastery or garden scores now'),
      row(['N'], 'no follower / done moving ferries / discard a tile that fits nowhere / draw instead of placing the abbey / take the wagon back'),
      row(['U', 'Ctrl+Z'], 'take back the last choice of this turn'),
      row(['H'], 'a hint: the strongest bot’s choice for this decision (games created with hints; each is written in the record)'),
      row(['Enter'], 'end the turn, once it is played out'),
      row(['B'], 'deploy step: switch between the follower and the other figures (the big follower; the mayor, wagon and barn; the builder and pig; the abbot)'),
      row(['←', '→', '↑', '↓'], 'pan the board (or drag it)'),
      row(['+', '−'], 'zoom (or the mouse wheel, Ctrl+wheel while placing a tile, or pinch)'),
      row(['0'], 'fit the whole board'),
      row(['L'], 'show the last tile placed'),
      row(['?'], 'this help'))),
    h('h3', 'Replays'),
    h('table', h('tbody', row(['←', '→'], 'step back / forward'), row(['Home', 'End'], 'first / last position'))),
  ];
}

/** Opens the help: the rules of the game shown (every expansion on the home page), then the keys. */
export function openHelp() {
  let d = document.getElementById('help-dialog');
  if (!d) {
    d = h('dialog#help-dialog', { 'aria-labelledby': 'help-title' });
    document.body.appendChild(d);
  }
  const setup = game;
  const inPlay = setup ? EXPANSIONS.filter((x) => (setup.expansions || []).includes(x.id)) : [];
  const body = [h('h2#help-title', setup ? 'Rules of this game' : 'Rules')];
  // A long text on a phone: each part one tap away.
  const jump = (id, words) => h('button.small', { type: 'button', onclick: () => d.querySelector(`[data-rules="${id}"]`)?.scrollIntoView({ block: 'start' }) }, t(words));
  body.push(h('nav.help-nav', { 'aria-label': t('parts of the help') },
    jump('base', BASE.title), ...(setup ? inPlay : EXPANSIONS).map((x) => jump(x.id, x.title)), jump('keys', 'Keys')));
  body.push(...rulesSection(BASE, setup));
  if (setup) {
    for (const x of inPlay) body.push(...rulesSection(x, setup));
  } else {
    // No game yet: each expansion to unfold, to choose from.
    for (const x of EXPANSIONS) body.push(h('details.rules-exp', { dataset: { rules: x.id } }, h('summary', t(x.title)), h('ul.rules', x.points.map((p) => h('li', t(p))))));
  }
  body.push(h('p.muted', { style: 'font-size:.82em' }, 'The full rules, with every ruling: docs/rules.md in the project.'));
  body.push(h('h2', { dataset: { rules: 'keys' } }, 'Keys'), ...keysTable());
  body.push(h('div', { style: 'text-align:right;margin-top:1em' }, h('button.primary#help-close', { onclick: () => d.close() }, 'Close')));
  clear(d).append(...body);
  d.dataset.expansions = inPlay.map((x) => x.id).join(' ');
  if (!d.open) d.showModal();
  d.scrollTop = 0;
}
