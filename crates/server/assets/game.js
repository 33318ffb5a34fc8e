// The game page: a live game, played (one or several seats of this browser:
// hot-seat) or watched read-only.
import { api, ApiError, GameSocket, bySession, serverNow } from './api.js';
import { BoardView } from './board.js';
import { h, clear, cap, toast, showError, remember, remembered, renderMissing, copyText, absoluteLink, isTouch, notifyToggle, notifyTurn, clockText } from './ui.js';
import { createAndOpen } from './lobby.js';
import { Inspector } from './inspector.js';
import { t, tn } from './i18n.js';
import { miniTile, setSeatColours } from './tiles.js';
import { renderScores, renderBag, renderLog, renderFinal, seatName, colour, at, seatClock, clockState, tickClocks } from './panels.js';
import { FIGURE_WORDS, featureWords, figureCount, routeWords, stepWords, takeBackPoints, takeBackWords, wagonStepWords, whyWords } from './words.js';
import { bestWords, placementOf } from './review.js';
import { OddsOverlays } from './overlays.js';
import { playSound } from './sound.js';
import { openHelp, setHelpGame } from './help.js';
import { renderStats } from './stats.js';
import { openChooser, closeChooser } from './chooser.js';
import { ChatPanel } from './chat.js';
import { signedIn } from './account.js';
import { playerHref } from './player.js';

export class GamePage {
  constructor(root, ctx, { game, tokens }) {
    this.root = root;
    this.ctx = ctx; // { cat, setHeader, setConn }
    this.gameId = game;
    this.urlTokens = tokens;
    this.tokens = new Map(); // seat -> token
    this.view = null;
    this.pending = false;
    this.rot = null; // rotation of the drawn tile as shown
    this.sel = null; // selected cell "x,y" in the place step
    this.hot = null; // option number hovered in the panel
    this.figure = 'normal'; // the figure the deploy step offers spots for
    this.highlight = null;
    this.stepKey = null;
    this.finalShown = false;
    this.build();
  }

  // ---------- set-up ----------
  build() {
    const r = this.root;
    clear(r);
    this.boardWrap = h('div.board-wrap');
    this.banner = h('div.board-banner', { 'aria-live': 'polite' }, 'Loading…');
    const tools = h('div.board-tools',
      h('button', { title: 'zoom in (+)', 'aria-label': 'zoom in', onclick: () => this.board.zoomBy(1.25) }, '+'),
      h('button', { title: 'zoom out (−)', 'aria-label': 'zoom out', onclick: () => this.board.zoomBy(0.8) }, '−'),
      h('button', { title: 'fit the board (0)', 'aria-label': 'fit board', onclick: () => this.board.fit() }, '⤢'));
    this.boardWrap.append(this.banner, tools);
    this.side = h('aside.side');
    this.turnSec = h('section.turn', { 'aria-label': 'your turn' });
    // A rated game says so beside its scores.
    this.ratedTag = h('span.tag.rated.hidden#rated-badge', { title: 'a rated game: its result moves the players’ ratings' }, 'Rated');
    this.scoreSec = h('section', h('h3', 'Scores', ' ', this.ratedTag), h('div'));
    this.finalSec = h('section.hidden', h('h3', 'Final scores'), h('div'));
    this.bagSec = h('section', h('h3', 'Tiles left'), h('div'));
    this.linkSec = h('section');
    this.logSec = h('section.log-section', h('h3', 'Game log'), h('div'));
    // The odds overlays, each switched on and off here.
    this.odds = new OddsOverlays((toggled) => { if (toggled) this.followOdds(); if (this.view) this.board.render(this.view, this.overlays()); });
    this.oddsSec = h('section#overlays', h('h3', 'Overlays'), this.odds.toggles());
    this.chat = new ChatPanel(this.gameId, { speaker: () => this.chatSeat() });
    this.side.append(this.turnSec, this.finalSec, this.scoreSec, this.bagSec, this.oddsSec, this.chat.element, this.logSec, this.linkSec);
    r.appendChild(h('div.game', this.boardWrap, this.side));
    this.board = new BoardView(this.boardWrap, this.ctx.cat, { onPick: (p) => this.pick(p) });
    this.board.onPointer = (p) => { if (this.view) this.pointerAt(p); };
    // Pointing at a feature (tapping it on a touch screen) tells about it.
    this.inspector = new Inspector(this.boardWrap, this.board, {
      cat: this.ctx.cat,
      view: () => this.view,
      // This seat's provisional decisions count in what it inspects.
      ask: (at, piece) => api.feature(this.gameId, { at, piece, token: this.seatToken() }),
      onTiles: (tiles) => { this.inspectTiles = tiles; if (this.view) this.board.render(this.view, this.overlays()); },
    });
    this.board.onTap = (p) => { if (this.view) this.inspector.point(p, { now: true }); };
    this.board.onWheel = (e) => this.view && this.wheelTurns(e);
    this.board.onContext = () => {
      if (!this.view || this.mySeat() === null || this.view.step !== 'place' || this.pending) return false;
      this.rotate(1);
      if (this.pointer) this.pointerAt(this.pointer);
      return true;
    };
    // Pointing at a choice on the board previews it as the list's buttons do.
    this.board.onHover = (n) => {
      const hot = n === null || n === undefined || n === '' ? null : Number(n);
      if (hot === this.hot) return;
      this.hot = hot;
      this.board.render(this.view, this.overlays());
      this.renderHotButton();
    };
    this.board.onCamera = (cam) => {
      clearTimeout(this.camTimer);
      this.camTimer = setTimeout(() => { try { sessionStorage.setItem(`cam.${this.gameId}`, JSON.stringify(cam)); } catch (_) { /* fine */ } }, 300);
    };
    try {
      const cam = JSON.parse(sessionStorage.getItem(`cam.${this.gameId}`) || 'null');
      if (cam) { this.board.setCamera(cam); this.board.hasDrawn = true; }
    } catch (_) { /* fine */ }
    this.finalDialog = h('dialog', { 'aria-label': 'final scores', tabindex: -1 });
    document.body.appendChild(this.finalDialog);
  }

  async start() {
    document.body.dataset.page = 'game';
    this.ctx.setHeader(t('Game {id}', { id: this.gameId }));
    let first = null;
    try {
      first = await api.view(this.gameId);
    } catch (e) {
      if (e.code === 'not_found') {
        // No socket for a game that is not there: say so, and the way back.
        this.missing = true;
        this.ctx.setConn(null);
        renderMissing(this.root, this.gameId);
        return;
      }
      showError(e, 'Loading the game');
    }
    for (const token of this.urlTokens) {
      try {
        // A token, or `session:N`: the signed-in account's seat N, which
        // acts by the session (the server checks the seat is the account's).
        const j = await api.join(this.gameId, token);
        this.tokens.set(j.seat, token);
        if (!bySession(token)) remember(this.gameId, { seats: { [j.seat]: token } });
        // A seat of this browser deciding its turn sees its own decisions.
        if (j.view && j.view.seq != null) first = j.view;
      } catch (e) {
        showError(e, 'Joining');
      }
    }
    if (first) this.setView(first, true);
    // Joined: a seat's holder talks in the players' room.
    this.chat.render();
    // A first player drawn at random: said as the game begins.
    if (first && first.turn === 0 && first.status === 'active' && remembered()[this.gameId]?.randomFirst) {
      toast(t('{name} was drawn to begin.', { name: seatName(first, 0) }), { key: 'first' });
    }
    this.socket = new GameSocket(this.gameId, {
      tokens: [...this.tokens.values()],
      onView: (v, fresh) => this.setView(v, fresh),
      onStatus: (s) => this.ctx.setConn(s),
      onChat: (room, messages) => this.chat.receive(room, messages),
      // On (re)connection, fetch the view again as well.
      onOpen: () => { if (this.view) this.refresh(true); },
    });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    // Back in front: the title no longer needs to call.
    this.visHandler = () => { if (document.visibilityState === 'visible') this.ctx.setAlert(null); };
    document.addEventListener('visibilitychange', this.visHandler);
  }

  destroy() {
    clearTimeout(this.camTimer);
    clearTimeout(this.clockTimer);
    this.stopCountdown();
    if (this.socket) this.socket.close();
    document.removeEventListener('keydown', this.keyHandler);
    document.removeEventListener('visibilitychange', this.visHandler);
    this.board.destroy();
    this.finalDialog.remove();
    closeChooser();
    setHelpGame(null);
  }

  async refresh(quiet = false) {
    try {
      // A seat of this browser sees its own provisional decisions: ask with its token.
      const seat = this.tokens.has(this.view?.to_act) ? this.view.to_act : this.tokens.keys().next().value;
      const v = seat !== undefined ? (await api.join(this.gameId, this.tokens.get(seat))).view : await api.view(this.gameId);
      this.setView(v, true);
    } catch (e) {
      if (!quiet || e.code !== 'network') showError(e, 'Loading the game');
      if (e.code === 'not_found') {
        this.banner.textContent = 'No such game';
        document.body.dataset.status = 'missing';
      }
    }
  }

  /** The seat this browser chats as: the one to act if it is this browser's, else its first. */
  chatSeat() {
    if (!this.tokens.size) return null;
    const seat = this.tokens.has(this.view?.to_act) ? this.view.to_act : this.tokens.keys().next().value;
    return { seat, token: this.tokens.get(seat) };
  }

  // ---------- state ----------
  setView(v, force = false) {
    if (!v || v.game !== this.gameId) return;
    if (this.view && !force && !newer(v, this.view)) return; // an older push

    const prev = this.view;
    this.view = v;
    // A hint is for the decision it was asked at.
    if (this.hint && this.hint.version !== v.version) this.hint = null;
    setSeatColours((v.seats || []).map((s) => s.colour));
    // "?" tells the rules of this game's expansions.
    setHelpGame(v.setup);
    if (!prev) {
      const mine = [...this.tokens.keys()];
      remember(this.gameId, { players: v.setup?.players, status: v.status, mineSeats: mine });
    }
    if (prev && prev.status !== v.status) remember(this.gameId, { status: v.status });
    if (v.status === 'finished') this.chat.gameOver();
    // A new step: forget the old selection (but keep the rotation, and the camera).
    const key = `${v.turn}|${v.step}|${v.to_act}|${v.drawn}`;
    const prevKey = this.stepKey;
    if (key !== this.stepKey) {
      this.stepKey = key;
      closeChooser();
      this.sel = null;
      this.hover = null;
      this.hot = null;
      this.figure = 'normal';
      if (v.step === 'place') this.rot = null;
      // Hot-seat: say whose turn it is when it passes between this browser's seats.
      if (this.tokens.size > 1 && this.tokens.has(v.to_act) && prev && prev.to_act !== v.to_act) {
        toast(t('{name}’s turn', { name: seatName(v, v.to_act) }), { key: 'turn' });
      }
    }
    // Traders & Builders: the same player plays again, said once as it begins.
    const secondNow = v.second_turn && v.step !== 'end_turn';
    const secondBefore = prev && prev.second_turn && prev.step !== 'end_turn' && prev.turn === v.turn;
    if (secondNow && !secondBefore && v.status === 'active') {
      toast(t('{name} plays a second turn (builder)', { name: seatName(v, v.current) }), { key: 'second-turn' });
    }
    this.render();
    // Another player's tile (a bot's, mostly) placed out of view: the view goes to it (the step's own reveal then starts from there).
    const lp = v.last_placed;
    if (prev && lp && v.version > prev.version && !this.tokens.has(lp.seat)
      && !(prev.last_placed && prev.last_placed.at.join() === lp.at.join())) this.board.follow(...lp.at);
    if (key !== prevKey) this.revealStep();
    // The card of the feature pointed at tells the position as it is now.
    this.inspector.refresh();
    // What scored since the last view, shown where it lies for a moment.
    let scored = [];
    if (prev && v.version > prev.version) {
      scored = this.board.flashScorings(v.log, prev.version, v.version);
    }
    this.soundsFor(prev, scored);
    this.signalTurn(prev);
    this.followOdds();
    this.autoSteps();
    if (v.status === 'finished' && !this.finalShown) {
      this.finalShown = true;
      if (prev) this.board.fit();
      this.openFinal();
    }
  }

  /**
   * The table's sounds for what changed since `prev`: a tile laid (anyone's),
   * a figure set down, a scoring, and the chime when a seat of this browser
   * is to act after another (a bot, a rival online, or the other seat of a
   * hot-seat game). Nothing on the first view, nor for what Undo takes back.
   */
  soundsFor(prev, scored) {
    const v = this.view;
    if (!prev) return;
    const count = (x, k) => (x[k] || []).length;
    let delay = 0;
    if (count(v, 'board') > count(prev, 'board')) { playSound('place'); delay = 140; }
    if (count(v, 'followers') > count(prev, 'followers')) { playSound('figure', delay); delay += 140; }
    if (scored.length) { playSound('score', delay + 120); delay += 400; }
    const was = prev.status === 'active' && this.tokens.has(prev.to_act) ? prev.to_act : null;
    const now = this.mySeat();
    if (now !== null && now !== was) playSound('turn', delay);
  }

  /**
   * When this browser's turn comes while its tab is not in front: the tab's
   * title says so and, if the player allowed it, a notification too.
   */
  signalTurn(prev) {
    const seat = this.mySeat();
    if (seat === null) { this.ctx.setAlert(null); return; }
    const was = prev && prev.status === 'active' && this.tokens.has(prev.to_act) ? prev.to_act : null;
    if (was === seat || document.visibilityState !== 'hidden') return;
    const who = this.tokens.size > 1 ? t('{name}’s turn', { name: seatName(this.view, seat) }) : t('Your turn');
    this.ctx.setAlert(`▶ ${who}`);
    // With a clock, the time the turn may take.
    const st = clockState(this.view, seat, serverNow());
    const left = st?.running ? ` · ${t('{time} left', { time: clockText(st.ms) })}` : '';
    notifyTurn(t('Carcassonne: {who}', { who }), `${t('Game {id}', { id: this.gameId })}: ${stepWords(this.view.step)}${left}`, `turn-${this.gameId}`);
  }

  /** Bring what the step is about on screen: the new tile, the movable ferries. */
  revealStep() {
    const v = this.view;
    const ferryStep = this.mySeat() !== null && (v.step === 'place_ferry' || v.step === 'move_ferries');
    // Lakes are small: zoom in for the ferry steps, and give the user's camera back after.
    if (!ferryStep && this.camBeforeFerries) {
      this.board.setCamera(this.camBeforeFerries);
      this.camBeforeFerries = null;
    }
    if (this.mySeat() === null) return;
    if (ferryStep) {
      const cells = v.step === 'place_ferry'
        ? (v.last_placed ? [v.last_placed.at] : [])
        : (v.movable_ferries || []).map((p) => (Array.isArray(p) ? p : p.at));
      if (!cells.length) return;
      if (this.board.cam.z < 1.6 || cells.some((c) => !this.board.visible(...c))) {
        if (!this.camBeforeFerries) this.camBeforeFerries = { ...this.board.cam };
        this.board.focus(cells, 1.8);
      }
    } else if (v.step === 'deploy' && v.last_placed) {
      // Every spot must be clickable: clear of the board's buttons, not only on screen.
      this.board.reveal(...v.last_placed.at);
      // The Abbot: the abbot to take back in view too.
      const cells = [v.last_placed.at, ...this.legal('return_abbot').map((a) => a.at)];
      if (cells.some((c) => !this.board.visible(...c))) this.board.revealAll(cells);
    } else if (v.step === 'abbey' || v.step === 'move_wagon') {
      // The holes, or the wagon and where it may go.
      const cells = this.options().map((o) => o.action.at);
      if (v.step === 'move_wagon' && v.waiting_wagons?.length) cells.push(v.waiting_wagons[0].at);
      if (cells.length && cells.some((c) => !this.board.visible(...c))) this.board.revealAll(cells);
    } else if (v.step === 'place') {
      const { cells } = this.placements();
      const list = [...cells.keys()].map((k) => k.split(',').map(Number));
      if (list.length && !list.some((c) => this.board.visible(...c))) this.board.reveal(...list[0]);
    }
  }

  mySeat() {
    const v = this.view;
    if (!v || v.status !== 'active' || v.to_act === null || v.to_act === undefined) return null;
    // A seat whose time ran out is the bot's to play.
    if (v.clock?.out?.includes(v.to_act)) return null;
    return this.tokens.has(v.to_act) ? v.to_act : null;
  }

  /** The seat the bot plays for, its time run out (the one to act), or null. */
  outOfTime() {
    const v = this.view;
    return v?.status === 'active' && v.clock?.out?.includes(v.to_act) ? v.to_act : null;
  }

  legal(type) { return (this.view?.legal || []).filter((a) => a.type === type); }

  /** The place step's legal rotations, per cell. */
  placements() {
    const cells = new Map();
    for (const a of this.legal('place')) {
      const k = `${a.at[0]},${a.at[1]}`;
      if (!cells.has(k)) cells.set(k, []);
      cells.get(k).push(a.rot);
    }
    for (const r of cells.values()) r.sort((a, b) => a - b);
    const all = [...new Set([].concat(...cells.values()))].sort((a, b) => a - b);
    return { cells, all };
  }

  /** The cell the place step is about: the one selected, else the legal one under the mouse. */
  focusCell() { return this.sel || this.hover || null; }

  currentRot() {
    const { cells, all } = this.placements();
    const fc = this.focusCell();
    if (fc && cells.has(fc)) {
      const rs = cells.get(fc);
      if (!rs.includes(this.rot)) this.rot = rs[0];
    } else if (this.rot === null || !all.includes(this.rot)) {
      this.rot = all.length ? all[0] : 0;
    }
    return this.rot;
  }

  /** What the rules refuse the seat at this step (`type` deploy or move), with why. */
  refused(type) {
    return this.mySeat() === null ? [] : (this.view?.refused || []).filter((r) => r.type === type);
  }

  /** The options of the deploy, ferry and move steps, numbered from 1. */
  options() {
    const v = this.view;
    if (!v) return [];
    if (v.step === 'deploy') {
      const fig = this.deployFigure();
      const deploys = this.legal('deploy').filter((a) => (a.figure || 'normal') === fig)
        .map((a, i) => ({ n: i + 1, action: a, label: featureWords(a.meeple, fig === 'big' ? null : fig), kind: a.kind, figure: fig }));
      // The Abbot: instead of deploying, the abbot may come back (after the spots, whatever the figure shown).
      const backs = this.legal('return_abbot').map((a, i) => {
        const points = takeBackPoints(v.board, a.at);
        return { n: deploys.length + i + 1, action: a, label: takeBackWords(points), points, takeBack: true };
      });
      return [...deploys, ...backs];
    }
    if (v.step === 'abbey') return this.legal('abbey').map((a, i) => ({ n: i + 1, action: a, label: t('a hole at {at}', { at: at(a.at) }) }));
    if (v.step === 'move_wagon') {
      // Said from where the wagon waits (ringed on the board), not in coordinates.
      const from = v.waiting_wagons?.[0]?.at;
      return this.legal('wagon').map((a, i) => ({ n: i + 1, action: a, label: from ? `${featureWords(a.to, 'wagon')}, ${wagonStepWords(from, a.at)}` : `${featureWords(a.to, 'wagon')} ${at(a.at)}`, kind: a.kind, figure: 'wagon' }));
    }
    if (v.step === 'place_ferry') return this.legal('ferry').map((a, i) => ({ n: i + 1, action: a, label: ferryWords(a) }));
    // The number links a choice to its handle on the lake (the lake lights up as it is pointed at): no coordinates.
    if (v.step === 'move_ferries') return this.legal('move').map((a, i) => ({ n: i + 1, action: a, label: ferryWords(a) }));
    return [];
  }

  /** The figures the deploy step offers (the normal follower first). */
  deployFigures() {
    const figs = [...new Set(this.legal('deploy').map((a) => a.figure || 'normal'))];
    return figs.sort((a, b) => (a === 'normal' ? -1 : b === 'normal' ? 1 : a.localeCompare(b)));
  }

  /** The figure chosen for this deploy step: the normal follower unless another is picked. */
  deployFigure() {
    const figs = this.deployFigures();
    return figs.includes(this.figure) ? this.figure : (figs[0] || 'normal');
  }

  /** Offers the next figure's spots (key B, or the figure buttons). */
  cycleFigure() {
    const figs = this.deployFigures();
    if (figs.length < 2) return;
    this.figure = figs[(figs.indexOf(this.deployFigure()) + 1) % figs.length];
    this.hot = null;
    this.render();
  }

  /** Takes the abbot back (key A): the deploy step's choice, when it is offered. */
  takeBackAbbot() {
    const o = this.options().find((x) => x.takeBack);
    if (o) this.chooseOption(o.n);
  }

  /** Whether the seat to act here may ask for hints (a game created with them). */
  hintsAllowed() {
    const seat = this.mySeat();
    return seat !== null && !!this.view?.seats?.[seat]?.hints && this.view.step !== 'end_turn' && this.view.status === 'active';
  }

  /** Asks for the strongest bot's choice for the decision at hand (key H); it is written in the record. */
  async askHint() {
    if (!this.hintsAllowed() || this.pending || this.hintAsked) return;
    const seat = this.mySeat();
    const version = this.view.version;
    if (this.hint && this.hint.version === version) return;
    this.hintAsked = true;
    this.renderTurn();
    try {
      const res = await api.hint(this.gameId, this.tokens.get(seat), version);
      if (this.view.version === res.version) {
        this.hint = { ...res, seat };
        // The count everyone sees (the server's next view says the same).
        if (Array.isArray(this.view.hints)) this.view.hints[seat] = res.used;
        // Its figure's spots, for a deployment of another figure.
        const fig = res.action.type === 'deploy' ? res.action.figure || 'normal' : null;
        if (fig) this.figure = fig;
      }
    } catch (e) {
      showError(e, 'No hint');
    } finally {
      this.hintAsked = false;
      this.render();
    }
  }

  /** The option the hint chose, if it is one of the step's numbered options. */
  hintedOption() {
    if (!this.hint) return null;
    const o = this.options().find((x) => x.action.text === this.hint.action.text);
    return o ? o.n : null;
  }

  // ---------- acting ----------
  async act(action) {
    const seat = this.mySeat();
    if (seat === null || this.pending) return;
    this.pending = true;
    // An undo is no decision: no countdown, and no passing for the player, where it leads.
    this.undone = action.type === 'undo';
    this.decided = !this.undone;
    this.stopCountdown();
    this.renderStatusAttrs();
    this.renderTurn();
    const version = this.view.version;
    try {
      const res = await api.act(this.gameId, seat, this.tokens.get(seat), version, action);
      // Taking everything back answers with everyone's view: it is this seat's too.
      if (res && res.view) this.setView(res.view, action.type === 'undo');
    } catch (e) {
      showError(e, 'Your move was refused');
      if (e instanceof ApiError && ['stale_version', 'not_your_turn', 'game_over', 'illegal_action', 'out_of_time'].includes(e.code)) {
        await this.refresh(true);
      }
    } finally {
      this.pending = false;
      this.render();
      this.autoSteps();
    }
  }

  /** Whether the deploy step offers the seat nothing but to pass (no figure may go anywhere, no abbot to take back). */
  nothingToDeploy() {
    const v = this.view;
    return v.step === 'deploy' && !this.legal('deploy').length && !this.legal('return_abbot').length && this.legal('pass').length > 0;
  }

  /** Why the deploy step offers nothing: no figure left, or none may go on this tile. */
  nothingWhy() {
    const v = this.view, seat = this.mySeat();
    const figs = v.figures?.length ? v.figures : [{ supply: v.supply || [] }];
    return figs.every((f) => !(f.supply?.[seat] > 0)) ? t('No follower left in supply') : t('No figure of yours may go on this tile');
  }

  /**
   * What the page does for the player: a follower step that offers nothing
   * is passed (once; come back to by Undo it waits, to be undone further),
   * and a turn played out ends by itself after a countdown if the player
   * wants it so.
   */
  autoSteps() {
    const v = this.view;
    if (!v) return;
    const seat = this.mySeat();
    const wants = seat !== null && !this.pending && v.step === 'end_turn' && autoEndWanted() && this.decided;
    const key = `${v.version}|${v.seq}|${v.to_act}`;
    if (!wants) this.stopCountdown();
    else if (!this.countdown || this.countdown.key !== key) this.startCountdown(key);
    if (seat === null || this.pending || !this.nothingToDeploy() || this.undone || this.autoPassed === key) return;
    this.autoPassed = key;
    toast(t('{why}: the follower step is passed.', { why: this.nothingWhy() }), { key: 'auto-pass' });
    this.act({ type: 'pass' });
  }

  startCountdown(key) {
    this.stopCountdown();
    const ends = Date.now() + AUTO_END_MS;
    const tick = () => {
      const left = ends - Date.now();
      const el = document.getElementById('auto-end-count');
      if (el) el.textContent = countdownWords(left);
      if (left > 0) return;
      this.stopCountdown();
      const v = this.view;
      if (v && `${v.version}|${v.seq}|${v.to_act}` === key && !this.pending) this.endTurn();
    };
    this.countdown = { key, ends, timer: setInterval(tick, 200) };
    this.renderTurn();
  }

  stopCountdown() {
    if (!this.countdown) return;
    clearInterval(this.countdown.timer);
    this.countdown = null;
    document.getElementById('auto-end-count')?.remove();
  }

  /** Places the drawn tile at `key` turned as shown there. */
  placeAt(key) {
    const { cells } = this.placements();
    if (!cells.has(key)) return;
    this.hover = key;
    const rot = this.currentRot();
    this.sel = key;
    const [x, y] = key.split(',').map(Number);
    this.board.setFloat(null);
    this.act({ type: 'place', at: [x, y], rot });
  }

  /**
   * The mouse over the board in the place step: the drawn tile snaps to the
   * legal cell under it, or follows it elsewhere.
   */
  pointerAt(p) {
    const mine = this.mySeat() !== null && this.view.step === 'place' && !this.pending;
    const { cells } = mine ? this.placements() : { cells: new Map() };
    const hover = p && cells.has(p.cell) ? p.cell : null;
    this.pointer = p;
    if (hover !== this.hover) {
      this.hover = hover;
      this.board.render(this.view, this.overlays());
      this.renderTurn();
    }
    this.board.setFloat(mine && p && !hover && this.view.drawn ? { tile: this.view.drawn, rot: this.currentRot(), bx: p.bx, by: p.by } : null);
    this.inspector.point(hover ? null : p);
  }

  /** The wheel over the board in the place step turns the tile (Ctrl+wheel zooms). */
  wheelTurns(e) {
    if (this.mySeat() === null || this.view.step !== 'place' || this.pending || !this.pointer) return false;
    this.wheelSum = (this.wheelSum || 0) + e.deltaY * (e.deltaMode === 1 ? 40 : 1);
    const now = Date.now();
    if (Math.abs(this.wheelSum) >= 40 && now - (this.wheelAt || 0) > 90) {
      this.wheelAt = now;
      this.rotate(this.wheelSum > 0 ? 1 : -1);
      this.wheelSum = 0;
      this.pointerAt(this.pointer);
    }
    return true;
  }

  confirmPlace() {
    if (!this.sel) { toast(t(isTouch() ? 'Tap a highlighted position first.' : 'Choose a highlighted position first (click it, or press ] ).'), { key: 'hint' }); return; }
    const [x, y] = this.sel.split(',').map(Number);
    this.act({ type: 'place', at: [x, y], rot: this.currentRot() });
  }

  rotate(dir = 1) {
    const { cells, all } = this.placements();
    const fc = this.focusCell();
    const rs = fc && cells.has(fc) ? cells.get(fc) : all;
    if (!rs.length) return;
    const i = rs.indexOf(this.currentRot());
    this.rot = rs[(i + dir + rs.length) % rs.length];
    this.render();
  }

  selectCell(key) {
    const { cells } = this.placements();
    if (!cells.has(key)) return;
    if (this.sel === key) { this.rotate(1); return; }
    this.sel = key;
    const rs = cells.get(key);
    if (!rs.includes(this.rot)) this.rot = rs[0];
    const [x, y] = key.split(',').map(Number);
    // A finger needs the tile's ✓ and ↻ apart: on a touch screen the board zooms in that far.
    if (this.board.bigTargets() && this.board.cam.z < TOUCH_PLACE_ZOOM) this.board.focus([[x, y]], TOUCH_PLACE_ZOOM);
    else this.board.reveal(x, y);
    this.render();
  }

  cycleCell(dir) {
    const { cells } = this.placements();
    const keys = [...cells.keys()].sort((a, b) => {
      const [ax, ay] = a.split(',').map(Number), [bx, by] = b.split(',').map(Number);
      return ay - by || ax - bx;
    });
    if (!keys.length) return;
    const i = this.sel ? keys.indexOf(this.sel) : -1;
    const k = keys[(i + dir + keys.length) % keys.length];
    this.sel = null;
    this.selectCell(k);
  }

  /** Takes back the last decision of this turn (games whose turns are provisional). */
  undo() {
    if (this.mySeat() === null || !(this.view.undoable > 0)) return;
    this.act({ type: 'undo' });
  }

  endTurn() {
    if (this.mySeat() === null || this.view.step !== 'end_turn') return;
    this.act({ type: 'end_turn' });
  }

  pass() {
    const v = this.view;
    if (this.mySeat() === null) return;
    if (v.step === 'place' && this.legal('discard').length) this.act({ type: 'discard' });
    else if (this.legal('pass').length) this.act({ type: 'pass' });
  }

  chooseOption(n) {
    const o = this.options().find((x) => x.n === n);
    if (o && this.mySeat() !== null) this.act(stripAction(o.action));
  }

  pick(p) {
    if (this.mySeat() === null || this.pending) return;
    const v = this.view;
    // A mouse click on a legal cell places the tile there, as shown under the
    // pointer; a tap (touch, pen) selects the cell, to turn and confirm.
    if (p.type === 'cell' && v.step === 'place' && p.pointer === 'mouse') this.placeAt(p.cell);
    else if (p.type === 'cell' && v.step === 'place') this.selectCell(p.cell);
    else if (p.type === 'rotate' && v.step === 'place') this.rotate(1);
    else if (p.type === 'confirm' && v.step === 'place') this.confirmPlace();
    else if (['deploy', 'ferry', 'move', 'abbey', 'wagon', 'return_abbot'].includes(p.type)) this.chooseOption(Number(p.n));
    // Why not: a spot or ferry the rules refuse says which rule.
    else if (p.type === 'why') toast(p.why, { key: 'why' });
    // Choices too close together for a finger: the tile, larger.
    else if (p.type === 'chooser') this.openChooser(p.at);
  }

  /** The chooser of the crowded tile at `at` ("x,y"): its choices large enough to tap. */
  openChooser(at) {
    const c = this.board.choosers?.get(at);
    if (!c || this.mySeat() === null) return;
    openChooser(c, {
      title: cap(stepWords(this.view.step)),
      onPick: (n) => this.chooseOption(n),
      onWhy: (why) => toast(why, { key: 'why' }),
    });
  }

  onKey(e) {
    if (e.target.closest && e.target.closest('input, textarea, select, dialog[open]')) return;
    const v = this.view;
    if (!v) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'z' || e.key === 'Z')) {
      if (this.mySeat() !== null && !this.pending) { this.undo(); e.preventDefault(); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    let done = true;
    if (k === '?') this.openHelp();
    else if (k === 'ArrowLeft') this.board.panBy(80, 0);
    else if (k === 'ArrowRight') this.board.panBy(-80, 0);
    else if (k === 'ArrowUp') this.board.panBy(0, 80);
    else if (k === 'ArrowDown') this.board.panBy(0, -80);
    else if (k === '+' || k === '=') this.board.zoomBy(1.25);
    else if (k === '-' || k === '_') this.board.zoomBy(0.8);
    else if (k === '0') this.board.fit();
    else if (k === 'l' || k === 'L') { if (v.last_placed) this.board.reveal(...v.last_placed.at); }
    else if (this.mySeat() === null || this.pending) done = false;
    else if (k === 'u' || k === 'U') this.undo();
    else if (k === 'h' || k === 'H') { if (this.hintsAllowed()) this.askHint(); else done = false; }
    else if (v.step === 'end_turn' && (k === 'Enter' || k === 'e' || k === 'E')) this.endTurn();
    else if (v.step === 'place' && (k === 'r' || k === 'R')) { this.rotate(e.shiftKey ? -1 : 1); if (this.pointer) this.pointerAt(this.pointer); }
    else if (v.step === 'place' && (k === ']' || k === '.')) this.cycleCell(1);
    else if (v.step === 'place' && (k === '[' || k === ',')) this.cycleCell(-1);
    else if (v.step === 'place' && k === 'Enter') this.confirmPlace();
    else if (v.step === 'place' && k === 'Escape') { this.sel = null; this.render(); }
    else if (k === 'n' || k === 'N' || (k === 'd' && v.step === 'place')) this.pass();
    else if (v.step === 'deploy' && (k === 'b' || k === 'B')) this.cycleFigure();
    else if (v.step === 'deploy' && (k === 'a' || k === 'A')) this.takeBackAbbot();
    else if (/^[1-9]$/.test(k)) this.chooseOption(Number(k));
    else done = false;
    if (done) e.preventDefault();
  }

  /** The token that makes a question (the inspector's, the odds) this seat's own position, over its provisional decisions. */
  seatToken() {
    return this.view?.seq != null ? this.tokens.get(this.view.to_act) : undefined;
  }

  /** Asks for the odds of the position shown, when an overlay is on. */
  followOdds() {
    if (this.view && this.view.status === 'active') this.odds.follow(this.gameId, this.view.version, this.seatToken());
  }

  // ---------- drawing ----------
  render() {
    const v = this.view;
    if (!v) return;
    this.renderStatusAttrs();
    this.board.render(v, this.overlays());
    this.renderBanner();
    this.renderTurn();
    const mine = new Set(this.tokens.keys());
    this.scoreSec.replaceChild(renderScores(v, { mine, clocks: true }), this.scoreSec.lastChild);
    this.bagSec.replaceChild(renderBag(v, this.ctx.cat), this.bagSec.lastChild);
    this.renderLog();
    this.ratedTag.classList.toggle('hidden', !v.rated);
    const fin = renderFinal(v, { compact: true });
    this.finalSec.classList.toggle('hidden', !fin);
    if (fin) this.finalSec.replaceChild(h('div', fin), this.finalSec.lastChild);
    this.bagSec.classList.toggle('hidden', v.status === 'finished');
    this.oddsSec.classList.toggle('hidden', v.status === 'finished');
    this.renderLinks();
    this.runClocks();
  }

  /**
   * The clocks shown count down (every second, every tenth under 10 s),
   * by the server's time. A running clock past its deadline with no news
   * from the server (the socket down) asks for the view again, once.
   */
  runClocks() {
    clearTimeout(this.clockTimer);
    const v = this.view;
    if (!v?.clock) return;
    const now = serverNow();
    const next = tickClocks(this.side, v, now);
    const c = v.clock;
    const waiting = v.status === 'active' && c.running && c.deadline != null && this.staleDeadline !== c.deadline;
    if (waiting && now > c.deadline + STALE_CLOCK_MS) {
      this.staleDeadline = c.deadline;
      this.refresh(true);
      return;
    }
    const wait = next ?? (waiting ? Math.max(100, c.deadline + STALE_CLOCK_MS - now + 50) : null);
    if (wait !== null) this.clockTimer = setTimeout(() => this.runClocks(), wait);
  }

  renderStatusAttrs() {
    const v = this.view;
    const d = document.body.dataset;
    d.game = v.game;
    d.step = v.step;
    d.version = v.version;
    d.status = v.status;
    d.toAct = v.to_act ?? '';
    d.mine = this.mySeat() !== null ? '1' : '0';
    d.pending = this.pending ? '1' : '0';
  }

  overlays() {
    const v = this.view;
    const ix = { highlight: this.highlight || this.inspectTiles || [] };
    // A hint: its placement drawn in a dashed frame, or its option marked as the pointer would.
    const hinted = this.hintedOption();
    const hotOf = (n) => this.hot === n || hinted === n;
    const place = this.hint && v.step === 'place' ? placementOf(this.hint.action.text) : null;
    if (place && v.drawn) ix.bestGhost = { ...place, tile: v.drawn };
    // A ferry choice under the pointer or focus previews the road it makes.
    const hot = this.hot !== null ? this.options().find((o) => o.n === this.hot) : null;
    if (hot && hot.action.road) ix.preview = hot.action.road;
    if (hot && ['move', 'wagon', 'return_abbot'].includes(hot.action.type)) ix.highlight = [...ix.highlight, hot.action.at];
    const odds = this.odds.overlay(this.gameId, v.version, this.seatToken());
    if (odds && v.status === 'active') ix.odds = odds;
    const seat = this.mySeat();
    if (seat === null) return ix;
    if (v.step === 'place') {
      const { cells } = this.placements();
      const rot = this.currentRot();
      ix.cells = [...cells.entries()].filter(([k]) => k !== this.sel).map(([k, rs]) => {
        const [x, y] = k.split(',').map(Number);
        return { x, y, fits: rs.includes(rot) };
      });
      if (this.hover && this.hover !== this.sel) {
        const [x, y] = this.hover.split(',').map(Number);
        ix.hoverGhost = { x, y, tile: v.drawn, rot };
      }
      if (this.sel) {
        const [x, y] = this.sel.split(',').map(Number);
        ix.ghost = { x, y, tile: v.drawn, rot, seat, canRotate: cells.get(this.sel).length > 1 };
      }
    } else if (v.step === 'deploy' && v.last_placed) {
      const lp = v.last_placed;
      const opts = this.options();
      ix.spots = opts.filter((o) => !o.takeBack).map((o) => ({
        x: lp.at[0], y: lp.at[1], tile: lp.tile, rot: lp.rot, piece: o.action.piece, kind: o.action.kind,
        meeple: o.action.meeple, figure: o.figure, seat, n: o.n, hot: hotOf(o.n),
      }));
      // Why not: the features the figure shown may not go on, each with its rule.
      const fig = this.deployFigure();
      ix.refused = this.refused('deploy').filter((r) => r.figure === fig).map((r) => ({
        x: lp.at[0], y: lp.at[1], tile: lp.tile, rot: lp.rot, piece: r.piece, meeple: r.feature, figure: fig, why: whyWords(r),
      }));
      // The Abbot: the seat's abbot, ringed where it stands, to take back.
      const tiles = new Map((v.board || []).map((b) => [`${b.at[0]},${b.at[1]}`, b]));
      ix.takeBacks = opts.filter((o) => o.takeBack).map((o) => {
        const [x, y] = o.action.at;
        const f = (v.followers || []).find((x0) => x0.figure === 'abbot' && x0.seat === seat && x0.at[0] === x && x0.at[1] === y);
        const b = tiles.get(`${x},${y}`);
        return f && b && { x, y, tile: b.tile, rot: b.rot, piece: f.piece, feature: f.feature, seat, n: o.n, points: o.points, hot: hotOf(o.n) };
      }).filter(Boolean);
    } else if (v.step === 'abbey') {
      ix.holes = this.options().map((o) => ({ x: o.action.at[0], y: o.action.at[1], n: o.n, hot: hotOf(o.n) }));
    } else if (v.step === 'move_wagon') {
      const tiles = new Map((v.board || []).map((b) => [`${b.at[0]},${b.at[1]}`, b]));
      ix.spots = this.options().map((o) => {
        const b = tiles.get(`${o.action.at[0]},${o.action.at[1]}`) || {};
        return {
          x: o.action.at[0], y: o.action.at[1], tile: b.tile, rot: b.rot, piece: o.action.piece, kind: o.action.kind,
          meeple: o.action.to, figure: 'wagon', pick: 'wagon', seat, n: o.n, hot: hotOf(o.n),
        };
      }).filter((sp) => sp.tile && sp.piece != null);
    } else if (v.step === 'place_ferry' && v.last_placed) {
      const [x, y] = v.last_placed.at;
      ix.ferryOptions = this.options().map((o) => ({ x, y, ferry: o.action.ferry, n: o.n, hot: hotOf(o.n) }));
    } else if (v.step === 'move_ferries') {
      ix.movable = (v.movable_ferries || []).map((p) => (Array.isArray(p) ? p : p.at));
      ix.refusedFerries = this.refused('move').map((r) => ({ x: r.at[0], y: r.at[1], why: whyWords(r) }));
      ix.ferryOptions = this.options().map((o) => ({ x: o.action.at[0], y: o.action.at[1], ferry: o.action.ferry, n: o.n, move: true, hot: hotOf(o.n) }));
    }
    return ix;
  }

  renderBanner() {
    const v = this.view;
    const b = this.banner;
    clear(b);
    if (v.status === 'finished') {
      const w = (v.final?.winners || []).map((s) => seatName(v, s));
      // A solo game has no winner to name: its score is the result.
      if ((v.seats || []).length === 1) { b.append(t('Game over — {who}: {n} points', { who: seatName(v, 0), n: v.final?.scores?.[0] ?? v.scores?.[0] ?? 0 })); return; }
      b.append(w.length > 1 ? t('Game over — shared victory: {who}', { who: w.join(', ') }) : t('Game over — {who} wins', { who: w[0] || '' }));
      // Lost on time: said with the result.
      if (v.final?.forfeit != null) b.append(h('span.forfeit', ` · ${t('{name} lost on time', { name: seatName(v, v.final.forfeit) })}`));
      return;
    }
    const s = v.to_act;
    b.append(h('span.dot', { style: `background:${colour(s)}` }));
    const mine = this.mySeat() !== null;
    const name = seatName(v, s);
    const bot = v.seats?.[s]?.type === 'bot';
    if (mine) b.append(this.tokens.size > 1 ? t('{name}: {step}', { name, step: stepWords(v.step) }) : t('Your turn: {step}', { step: stepWords(v.step) }));
    else if (bot) b.append(t('{name} is thinking…', { name }));
    else if (this.outOfTime() !== null) b.append(t('{name}: the bot plays (time ran out)', { name }));
    else b.append(t(this.tokens.size ? '{name} to {step}' : '{name} to {step} · watching', { name, step: stepWords(v.step) }));
    // Traders & Builders: a second turn, given by the current player's builder.
    if (v.second_turn && v.step !== 'end_turn') b.append(h('span.second-turn#second-turn-banner', ` · ${t('second turn: {name}’s builder', { name: seatName(v, v.current) })}`));
  }

  renderTurn() {
    const v = this.view;
    const sec = clear(this.turnSec);
    if (!v) return;
    // At step end_turn the engine counts the turn as played and names the next player already.
    const ending = v.step === 'end_turn';
    sec.appendChild(h('h3#turn-head', v.status === 'finished' ? t('Game over')
      : t('Turn {n} · {name}', { n: ending ? v.turn : v.turn + 1, name: seatName(v, ending ? v.to_act : v.current) })));
    if (v.status === 'finished') {
      sec.appendChild(h('div.actions', { style: 'display:flex;gap:.4em;flex-wrap:wrap;align-items:center' },
        h('button.primary', { onclick: () => this.openFinal(), id: 'show-final' }, 'Final scores'),
        this.tokens.size ? h('button#play-again', { onclick: () => this.playAgain() }, 'Play again') : null,
        h('a', { href: `#replay=${v.game}`, 'data-replay': v.game }, 'Replay'),
        // Over, a rated game has moved the ratings: the way to see one's own.
        v.rated && signedIn() ? h('a#my-rating', { href: playerHref(signedIn().name) }, 'Your rating') : null));
      return;
    }
    const seat = this.mySeat();
    const panel = h('div.turn-panel');
    const rot = v.step === 'place' && seat !== null ? this.currentRot() : (v.step === 'place' ? 0 : v.last_placed?.rot ?? 0);
    const tileId = v.step === 'place' ? v.drawn : v.step === 'abbey' ? 'AB' : v.last_placed?.tile;
    const drawn = h('div.drawn');
    if (tileId) {
      const svg = miniTile(tileId, rot, 84, 'drawn-tile');
      svg.setAttribute('id', 'drawn-tile');
      svg.dataset.tile = tileId;
      svg.dataset.rot = rot;
      if (seat !== null && v.step === 'place') {
        svg.setAttribute('title', t(isTouch() ? 'rotate' : 'rotate (R)'));
        svg.addEventListener('click', () => this.rotate(1));
      }
      drawn.append(svg, h('div.rot-label', `${tileId}${v.step === 'place' ? ` · ${rot}°` : ''}`));
    }
    const body = h('div');
    panel.append(drawn, body);
    sec.appendChild(panel);
    if (seat === null) {
      const bot = v.seats?.[v.to_act]?.type === 'bot';
      const out = this.outOfTime() !== null;
      body.append(h('div.what', bot ? t('{name} (bot) is playing…', { name: seatName(v, v.to_act) })
        : out ? t('{name}: the bot plays (time ran out)', { name: seatName(v, v.to_act) }) : t('Waiting for {name}', { name: seatName(v, v.to_act) })),
      this.turnClock(v.to_act),
      h('div.hint', this.tokens.size ? 'Your seat will be asked when it is its turn.' : 'You are watching this game (read-only).'));
      return;
    }
    const dis = this.pending;
    // Words for the hand in use: taps and no keys on a touch screen.
    const touch = isTouch();
    const key = (k) => (touch ? '' : ` (${k})`);
    body.appendChild(h('div.what', { id: 'step-what' }, `${this.tokens.size > 1 ? seatName(v, seat) + ': ' : ''}${cap(stepWords(v.step))}`));
    const clockLine = this.turnClock(seat);
    if (clockLine) body.appendChild(clockLine);
    const actions = h('div.actions');
    if (v.undoable > 0) {
      actions.append(h('button#undo', { onclick: () => this.undo(), disabled: dis, title: 'U or Ctrl+Z' }, '↶ Undo'));
    }
    if (this.hintsAllowed()) {
      const shown = this.hint && this.hint.version === v.version;
      actions.append(h('button#hint', { onclick: () => this.askHint(), disabled: dis || this.hintAsked || shown, title: 'H' },
        this.hintAsked ? t('Thinking…') : `${t('Hint')}${key('H')}`));
      if (shown) {
        const p = this.hint.seat;
        body.appendChild(h('div.hint#hint-what', { dataset: { action: this.hint.action.text } },
          `${bestWords(this.hint.action.text)} ${t('{name}: {win} to win with it.', { name: seatName(v, p), win: `${Math.round(100 * (this.hint.win[p] || 0))}%` })}`));
      }
    }
    if (v.second_turn) {
      body.appendChild(h('div.hint.second-turn#second-turn-hint', v.step === 'end_turn'
        ? t('The builder gives {name} a second turn: it begins once this turn is ended.', { name: seatName(v, seat) })
        : t('Second turn: {name}’s builder’s road or city was extended.', { name: seatName(v, seat) })));
    }
    if (v.step === 'end_turn') {
      actions.prepend(h('button.primary#end-turn', { onclick: () => this.endTurn(), disabled: dis, title: 'Enter' }, 'End turn'));
      if (this.countdown) body.appendChild(h('div.countdown#auto-end-count', { role: 'timer', 'aria-live': 'off' }, countdownWords(this.countdown.ends - Date.now())));
      body.appendChild(h('div.hint', 'The others see your turn once you end it. Until then Undo takes your choices back, one by one.'));
      body.appendChild(h('label.auto-end', h('input#auto-end-toggle', {
        type: 'checkbox', checked: autoEndWanted(),
        onchange: (e) => { setAutoEnd(e.target.checked); this.decided = true; this.autoSteps(); this.renderTurn(); },
      }), ' ', t('End my turn by itself')));
    } else if (v.step === 'place') {
      const { cells, all } = this.placements();
      if (!cells.size && this.legal('discard').length) {
        body.appendChild(h('div.hint', t('{tile} fits nowhere on the board: it leaves the game and you draw again.', { tile: v.drawn })));
        actions.append(h('button.primary#discard', { onclick: () => this.pass(), disabled: dis }, `${t('Discard tile')}${key('N')}`));
      } else {
        actions.append(
          h('button#rotate', { onclick: () => this.rotate(1), disabled: dis || (this.sel ? cells.get(this.sel).length < 2 : all.length < 2), title: 'R / Shift+R' }, '↻ Rotate'),
          h('button.primary#confirm', { onclick: () => this.confirmPlace(), disabled: dis || !this.sel, title: 'Enter' }, t('Place')),
        );
        body.appendChild(h('div.hint', this.sel
          ? `${tn((cells.get(this.sel) || []).length, '{n} rotation fits here.', '{n} rotations fit here.')} ${t(touch ? 'Tap the tile to turn it, ✓ to place.' : 'Click the tile or press R to turn it, ✓ or Enter to place.')}`
          : `${tn(cells.size, '{n} highlighted position.', '{n} highlighted positions.')} ${t(touch ? 'Tap one.' : 'Point at one: the tile snaps there; the wheel, a right-click or R turns it, a click places it (or ] / [ and Enter).')} ${t('Bright ones fit as the tile is turned now.')}`));
      }
    } else {
      const opts = this.options();
      const hinted = this.hintedOption();
      const list = h('div.options', { role: 'group', 'aria-label': 'choices' });
      for (const o of opts) {
        const b = h('button', {
          class: `${o.takeBack ? 'opt take-back' : 'opt'}${hinted === o.n ? ' hinted' : ''}`, id: o.takeBack ? 'take-back-abbot' : null, title: o.takeBack ? 'A' : null,
          disabled: dis, dataset: { n: o.n, opt: JSON.stringify(stripAction(o.action)) },
          onclick: () => this.chooseOption(o.n),
          onmouseenter: () => { this.hot = o.n; this.board.render(v, this.overlays()); },
          onmouseleave: () => { this.hot = null; this.board.render(v, this.overlays()); },
          onfocus: () => { this.hot = o.n; this.board.render(v, this.overlays()); },
        }, h('span.num', String(o.n)), o.label);
        list.appendChild(b);
      }
      if (v.step === 'deploy') {
        const figs = this.deployFigures();
        if (figs.length > 1) {
          // Which figure to deploy: the spots and choices below are for that one.
          const fig = this.deployFigure();
          const group = h('div.figures', { role: 'radiogroup', 'aria-label': 'figure' });
          for (const f of figs) {
            group.appendChild(h('button', {
              class: `small figure-choice${f === fig ? ' chosen' : ''}`, role: 'radio', 'aria-checked': String(f === fig),
              dataset: { figure: f }, disabled: dis, title: 'B',
              onclick: () => { this.figure = f; this.hot = null; this.render(); },
            }, FIGURE_WORDS[f] || f));
          }
          body.appendChild(group);
        }
        if (this.nothingToDeploy()) {
          actions.append(h('button.primary#no-follower', { onclick: () => this.pass(), disabled: dis, title: 'N' }, `${t('Continue')}${key('N')}`));
          body.appendChild(h('div.hint#nothing-hint', `${this.nothingWhy()}: ${t('there is nothing to deploy on this tile.')}${v.undoable > 0 ? ` ${t('Undo takes the tile back.')}` : ''}`));
        } else {
          actions.append(h('button#no-follower', { onclick: () => this.pass(), disabled: dis, title: 'N' }, `${t('No follower')}${key('N')}`));
          body.appendChild(h('div.hint', `${supplyWords(v, seat)}. ${t(touch ? 'Tap a spot on the new tile or a choice below.' : figs.length > 1 ? 'Click a spot on the new tile or a choice below; B switches the figure.' : 'Click a spot on the new tile or a choice below.')}`));
        }
        // The Abbot: taking the abbot back is a choice of its own, said apart.
        const back = opts.find((o) => o.takeBack);
        if (back) {
          body.appendChild(h('div.hint#abbot-hint', `${t('Instead of deploying, you may take your abbot back (ringed on the board): it scores {n} points now, as it would at the end.', { n: back.points })}${touch ? '' : ` ${t('Click it on the board (ringed), its choice below, or press A.')}`}`));
        }
      } else if (v.step === 'place_ferry') {
        body.appendChild(h('div.hint', 'A ferry must be placed: pick the two jetties it joins, on the lake or below.'));
      } else if (v.step === 'abbey') {
        actions.append(h('button#draw-tile', { onclick: () => this.pass(), disabled: dis, title: 'N' }, `${t('Draw a tile')}${key('N')}`));
        body.appendChild(h('div.hint', `${tn(opts.length, 'The board has {n} hole (highlighted): your abbey may fill it instead of a drawn tile.', 'The board has {n} holes (highlighted): your abbey may fill one instead of a drawn tile.')} ${t(touch ? 'Tap one, or draw a tile.' : 'Click one, pick it below, or draw a tile.')}`));
      } else if (v.step === 'move_wagon') {
        actions.append(h('button#wagon-back', { onclick: () => this.pass(), disabled: dis, title: 'N' }, `${t('Take the wagon back')}${key('N')}`));
        const w = v.waiting_wagons?.[0];
        const why = w ? t('The feature of the waiting wagon (ringed) was scored.') : '';
        const outOfTurn = v.current !== seat ? ` ${t('{name} decides now, in {other}’s turn.', { name: seatName(v, seat), other: seatName(v, v.current) })}` : '';
        body.appendChild(h('div.hint#wagon-hint', `${why}${outOfTurn} ${t('It may move to a free road, city or monastery on its tile or one of the eight around it (ringed), or go back to the supply.')}`));
      } else if (v.step === 'move_ferries') {
        actions.append(h('button.primary#done', { onclick: () => this.pass(), disabled: dis, title: 'N' }, `${t('Done')}${key('N')}`));
        const n = (v.movable_ferries || []).length;
        body.appendChild(h('div.hint', n
          ? `${tn(n, '{n} ferry may move (ringed).', '{n} ferries may move (ringed).')} ${t('Pick a new crossing for one, or Done.')}`
          : t(touch ? 'No other ferry may move this turn: tap Done.' : 'No other ferry may move this turn: press Done.')));
      }
      body.appendChild(list);
    }
    body.appendChild(actions);
  }

  /** The clock of `seat` while it runs, for the turn panel: "Time left: 4:32". */
  turnClock(seat) {
    const v = this.view;
    if (v.clock?.running?.seat !== seat || !clockState(v, seat, serverNow())) return null;
    return h('div.turn-clock', { dataset: { seat } }, t('Time left:'), ' ', seatClock(v, seat));
  }

  /** Marks the list's button of the choice previewed on the board. */
  renderHotButton() {
    for (const b of this.turnSec.querySelectorAll('button.opt')) b.classList.toggle('hot', Number(b.dataset.n) === this.hot);
  }

  renderLog() {
    const holder = this.logSec.lastChild;
    const old = holder.querySelector('.log');
    const atBottom = !old || old.scrollHeight - old.scrollTop - old.clientHeight < 30;
    const top = old ? old.scrollTop : 0;
    const log = renderLog(this.view, {
      onHover: (tiles) => { this.highlight = tiles; this.board.render(this.view, this.overlays()); },
    });
    clear(holder).appendChild(log);
    log.scrollTop = atBottom ? log.scrollHeight : top;
  }

  renderLinks() {
    const v = this.view;
    const sec = clear(this.linkSec);
    sec.append(h('h3', 'Links'));
    // The links of the people this browser invited (kept when it created the game).
    const invites = remembered()[v.game]?.invites || {};
    const rows = Object.entries(invites).filter(([seat]) => !this.tokens.has(Number(seat)));
    if (rows.length) {
      const list = h('div.links#invites');
      for (const [seat, token] of rows) {
        const name = seatName(v, Number(seat));
        const link = absoluteLink(`/#game=${v.game}&token=${token}`);
        list.appendChild(h('div.link-row', { dataset: { seat } },
          h('span', h('span.pdot', { style: `background:${colour(Number(seat))}` }), ` ${name}`),
          h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('join link for {name}', { name }), onfocus: (e) => e.target.select() }),
          h('button.small', { onclick: async () => toast((await copyText(link)) ? t('Link for {name} copied', { name }) : link) }, 'Copy')));
      }
      sec.append(h('p.muted', { style: 'font-size:.85em;margin:.2em 0 .4em' }, 'Send each invited player their link: it holds their seat’s secret token.'), list);
    }
    const spect = absoluteLink(`/#game=${v.game}`);
    sec.append(h('div', { style: 'display:flex;gap:.4em;flex-wrap:wrap;align-items:center' },
      h('button.small', { onclick: async () => toast((await copyText(spect)) ? t('Spectator link copied') : spect) }, 'Copy spectator link'),
      h('a', { href: api.recordUrl(v.game), download: `carcassonne-${v.game}.json` }, 'Download record'),
      h('button.small', { onclick: () => this.openHelp() }, 'Rules and keys (?)'),
      this.tokens.size ? notifyToggle() : null));
  }

  openFinal() {
    const v = this.view;
    const fin = renderFinal(v);
    if (!fin) return;
    clear(this.finalDialog).append(h('h2', 'Final scores'), fin, renderStats(v),
      h('div.final-actions', { style: 'display:flex;gap:.5em;margin-top:1em;justify-content:flex-end;flex-wrap:wrap' },
        h('a.button', { href: `#replay=${v.game}`, onclick: () => this.finalDialog.close() }, 'Replay this game'),
        this.tokens.size ? h('button#play-again-final', { onclick: () => { this.finalDialog.close(); this.playAgain(); } }, 'Play again') : null,
        h('button.primary#close-final', { onclick: () => this.finalDialog.close() }, 'Close')));
    if (!this.finalDialog.open) {
      this.finalDialog.showModal();
      // The dialog itself in focus, not its first control drawn framed.
      this.finalDialog.focus({ preventScroll: true });
    }
  }

  openHelp() { openHelp(); }

  /**
   * A new game with the same seats (names, people and bots, in the same
   * order), expansions, edition and rules; this browser plays the seats it
   * played, and the other people's new links are on the new game's page.
   */
  async playAgain() {
    const v = this.view;
    if (!v || this.again) return;
    this.again = true;
    const seats = (v.seats || []).map((s) => (s.type === 'bot'
      ? { type: 'bot', level: s.level || 'easy', name: s.name, colour: s.colour }
      : { type: 'human', name: s.name, colour: s.colour }));
    const body = { seats, expansions: v.setup?.expansions || [], edition: v.setup?.edition || 'c3', undo: true };
    if ((v.seats || []).some((s) => s.hints)) body.hints = true;
    // Rated again, when the player is still signed in (the seat played here is then the account's).
    if (v.rated && signedIn()) body.rated = true;
    if (v.setup?.rules && Object.keys(v.setup.rules).length) body.rules = v.setup.rules;
    if (remembered()[v.game]?.public) body.public = true;
    // A random first player again, if this game had one (drawn anew).
    if (remembered()[v.game]?.randomFirst) body.first = 'random';
    // The same time control.
    if (v.clock?.setup) body.clock = v.clock.setup;
    try {
      await createAndOpen(body, new Set(this.tokens.keys()));
    } catch (e) {
      showError(e, 'Creating the next game');
    } finally {
      this.again = false;
    }
  }
}

/**
 * The least zoom of a tile selected on a touch screen: its corners' ✓ and ↻,
 * each a fingertip (44 px), then stand apart (a tile is 100 units).
 */
const TOUCH_PLACE_ZOOM = 0.5;

/** How long a played-out turn waits before it ends by itself. */
const AUTO_END_MS = 3000;

/** Whether turns end by themselves once played out (kept in this browser; on unless turned off). */
function autoEndWanted() { try { return localStorage.getItem('carcassonne.autoEnd') !== '0'; } catch (_) { return true; } }
function setAutoEnd(on) { try { localStorage.setItem('carcassonne.autoEnd', on ? '1' : '0'); } catch (_) { /* private mode */ } }

function countdownWords(ms) { return t('The turn ends by itself in {n} s…', { n: Math.max(0, Math.ceil(ms / 1000)) }); }

/** How long after a clock's deadline, with no new view, the page asks the server for one. */
const STALE_CLOCK_MS = 3000;

/** A crossing in words: the jetties it joins and the road it makes. */
function ferryWords(a) {
  const n = (a.road || []).length;
  return `${t('ferry {pair}', { pair: routeWords(a.ferry) })}${n ? ` · ${tn(n, 'road of {n} tile', 'road of {n} tiles')}` : ''}`;
}

/**
 * Whether view `a` comes after view `b`. A seat's own views over its
 * provisional decisions carry `undoable` (so `version - undoable` is the
 * stored version they build on) and `seq`, which orders them even when an
 * undo lowers the version; everyone's views have neither.
 */
function newer(a, b) {
  const base = (x) => x.version - (x.undoable || 0);
  if (base(a) !== base(b)) return base(a) > base(b);
  if ((a.seq || 0) !== (b.seq || 0)) return (a.seq || 0) > (b.seq || 0);
  return a.version > b.version;
}

/** What a seat has in supply, in words: "5 followers, 1 big follower". */
function supplyWords(v, seat) {
  const figs = v.figures?.length ? v.figures : [{ figure: 'normal', supply: v.supply || [] }];
  return figs.map((f) => figureCount(f.figure, f.supply?.[seat] ?? 0)).join(', ') + ' ' + t('in supply');
}

/** The action as the API takes it (the legal list's extra fields dropped). */
export function stripAction(a) {
  switch (a.type) {
    case 'deploy': return a.figure ? { type: 'deploy', meeple: a.meeple, figure: a.figure } : { type: 'deploy', meeple: a.meeple };
    case 'ferry': return { type: 'ferry', ferry: a.ferry };
    case 'move': return { type: 'move', at: a.at, ferry: a.ferry };
    case 'place': return { type: 'place', at: a.at, rot: a.rot };
    case 'abbey': return { type: 'abbey', at: a.at };
    case 'wagon': return { type: 'wagon', at: a.at, to: a.to };
    case 'return_abbot': return { type: 'return_abbot', at: a.at };
    default: return { type: a.type };
  }
}
