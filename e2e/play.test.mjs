// Browser end-to-end test of the Carcassonne UI, against the real server.
//
// Starts the server (release build) on a free port with a fresh SQLite file,
// drives Debian's Chromium with playwright-core, creates a game with The
// Ferries against a bot by clicking, plays it to the end by clicking
// (placing a ferry and moving a ferry at least once: it steers placements
// towards roads that lead to ferries, and starts another game if a deal
// offers no ferry move), then checks the end-of-game breakdown, a
// spectator's read-only live view, a phone-width layout, typed error
// messages and the replay viewer. Screenshots go to e2e/screenshots/.
//
// Environment: CHROMIUM (default /usr/bin/chromium), SERVER_URL (test an
// already running server instead of starting one), SERVER_BIN (a built
// server binary taking --addr and --db), SERVER_EXTRA_ARGS (appended to its
// arguments, e.g. "--assets crates/server/assets"), HEADFUL=1, E2E_TRACE=1,
// E2E_MAX_GAMES (default 3).

import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SHOTS = process.env.E2E_SCREENSHOTS || path.join(HERE, 'screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MAX_GAMES = Number(process.env.E2E_MAX_GAMES || 3);

fs.mkdirSync(SHOTS, { recursive: true });
for (const f of fs.readdirSync(SHOTS)) if (f.endsWith('.png')) fs.rmSync(path.join(SHOTS, f));

// ---------------------------------------------------------------- reporting
const results = [];
// E2E_ONLY=words runs only the checks whose name holds them, or one of
// several given as "words|other words" (while working on one; checks that
// build on an earlier one's game then fail unless that one runs too).
const ONLY = (process.env.E2E_ONLY || '').split('|').filter(Boolean);
async function check(name, fn) {
  if (ONLY.length && !ONLY.some((w) => name.includes(w)) && !name.startsWith("the server starts")) return true;
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    results.push({ name, ok: false, error: e });
    console.log(`FAIL - ${name}: ${e && e.stack ? e.stack : e}`);
    return false;
  }
}
function assert(cond, msg) { if (!cond) throw new Error(`assertion failed: ${msg}`); }
const log = (...a) => console.log('     ', ...a);
let shotNo = 0;
async function shot(page, name) {
  shotNo++;
  const file = path.join(SHOTS, `${String(shotNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  log(`screenshot ${path.relative(ROOT, file)}`);
}

/** A screenshot of a point of issue 31 at the page's width: screenshots/<name>-<width>.png. */
async function pointShot(page, name) {
  const file = path.join(SHOTS, `${name}-${page.viewportSize().width}.png`);
  await page.screenshot({ path: file });
  log(`screenshot ${path.relative(ROOT, file)}`);
}

/**
 * Asserts that no tap area (the invisible, finger-sized targets around a
 * board's buttons and spots) is painted: one painted over a button hides
 * its mark (the confirm button's tick, a refused spot's stroke).
 */
async function assertTapsUnpainted(page, where) {
  const { taps, painted } = await page.evaluate(() => {
    const all = [...document.querySelectorAll('svg .tap')];
    const painted = all
      .map((e) => ({ e, s: getComputedStyle(e) }))
      .filter(({ s }) => !['transparent', 'rgba(0, 0, 0, 0)', 'none'].includes(s.fill) || s.stroke !== 'none')
      .map(({ e, s }) => `${e.parentNode.getAttribute('class')}: fill ${s.fill}, stroke ${s.stroke}`);
    return { taps: all.length, painted };
  });
  assert(taps > 0, `${where}: the board has tap areas`);
  assert(painted.length === 0, `${where}: tap areas are not drawn over their buttons: ${painted.join('; ')}`);
}

/** Boxes ({x, y, width, height}) that share some area. */
function boxesMeet(a, b) {
  return !!a && !!b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// ---------------------------------------------------------------- server
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

function cargoTargetDir() {
  const r = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status === 0) { try { return JSON.parse(r.stdout).target_directory; } catch (_) { /* below */ } }
  return path.join(ROOT, 'target');
}

/** The command that serves: `carcassonne serve` if the CLI has it, else the server's own binary. */
function serverCommand(addr, db) {
  // SERVER_BIN may carry a subcommand: "…/carcassonne serve".
  if (process.env.SERVER_BIN) {
    const [bin, ...pre] = process.env.SERVER_BIN.split(' ').filter(Boolean);
    return [bin, [...pre, '--addr', addr, '--db', db]];
  }
  const target = cargoTargetDir();
  const build = (pkgs) => {
    log(`cargo build --release --locked ${pkgs.map((p) => `-p ${p}`).join(' ')} (may take a few minutes)…`);
    const r = spawnSync('cargo', ['build', '--release', '--locked', ...pkgs.flatMap((p) => ['-p', p])], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    return r.status === 0;
  };
  // One cargo run builds both (their dependencies are shared).
  const both = build(['carcassonne-cli', 'carcassonne-server']);
  const cli = path.join(target, 'release', 'carcassonne');
  if (both || fs.existsSync(cli)) {
    const help = spawnSync(cli, ['serve', '--help'], { encoding: 'utf8' });
    if (help.status === 0) return [cli, ['serve', '--addr', addr, '--db', db]];
    log('`carcassonne serve` is not there: using the carcassonne-server binary');
  }
  if (!both && !build(['carcassonne-server'])) throw new Error('cannot build the server');
  return [path.join(target, 'release', 'carcassonne-server'), ['--addr', addr, '--db', db]];
}

async function startServer() {
  if (process.env.SERVER_URL) return { base: process.env.SERVER_URL.replace(/\/$/, ''), stop: async () => {}, restart: null };
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carcassonne-e2e-'));
  const db = path.join(dir, 'e2e.db');
  const addr = `127.0.0.1:${port}`;
  const [cmd, args0] = serverCommand(addr, db);
  // Reviews at 10 ms a decision: a game's review in a few seconds.
  const args = [...args0, '--review-ms', '10', ...(process.env.SERVER_EXTRA_ARGS || '').split(' ').filter(Boolean)];
  const base = `http://${addr}`;
  let child = null, exited = null;
  const launchIt = async () => {
    log(`starting ${path.relative(ROOT, cmd) || cmd} ${args.join(' ')}`);
    const out = fs.openSync(path.join(dir, 'server.log'), 'a');
    exited = null;
    child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', out, out] });
    const me = child;
    me.on('exit', (code, sig) => { if (child === me) exited = `exit ${code ?? sig}`; });
    const t0 = Date.now();
    for (;;) {
      if (exited) throw new Error(`the server stopped (${exited}): ${fs.readFileSync(path.join(dir, 'server.log'), 'utf8').slice(-2000)}`);
      try { const r = await fetch(`${base}/api/tiles`); if (r.ok) break; } catch (_) { /* not yet */ }
      if (Date.now() - t0 > 60000) throw new Error('the server did not answer within 60 s');
      await sleep(100);
    }
    log(`server up at ${base} (log ${path.join(dir, 'server.log')})`);
  };
  const halt = async () => {
    if (!child || exited) return;
    const me = child;
    const gone = new Promise((r) => me.once('exit', r));
    me.kill('SIGINT');
    const t = setTimeout(() => me.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(t);
    exited = 'stopped';
  };
  await launchIt();
  return {
    base,
    halt,
    restart: async () => { await halt(); await launchIt(); },
    start: launchIt,
    stop: async () => { await halt(); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- rules helpers (reading only)
const SIDES = ['N', 'E', 'S', 'W'];
const DIR = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPP = { N: 'S', S: 'N', E: 'W', W: 'E' };
const rotSide = (s, rot) => SIDES[(SIDES.indexOf(s) + rot / 90) % 4];

/**
 * Would placing `tile` at `at` with `rot` extend a road that leads, without
 * passing another ferry, to a ferry (ruling F6)? Used to steer the game
 * towards ferry moves; the server alone decides what is legal.
 */
function reachesFerry(view, cat, at, rot, tile) {
  const board = new Map(view.board.map((t) => [`${t.at[0]},${t.at[1]}`, t]));
  const ferries = new Map((view.ferries || []).map((f) => [`${f.at[0]},${f.at[1]}`, f.ferry.split('-')]));
  const roads = (t) => cat.get(t.tile).features.filter((f) => f.kind === 'road').map((f) => ({ ...f, sides: f.sides.map((s) => rotSide(s, t.rot)) }));
  const seen = new Set();
  const walk = (x, y, enter, depth) => {
    const t = board.get(`${x},${y}`);
    if (!t || depth > 40 || seen.has(`${x},${y},${enter}`)) return false;
    seen.add(`${x},${y},${enter}`);
    const piece = roads(t).find((r) => r.sides.includes(enter));
    if (!piece) return false;
    if (piece.jetty) return (ferries.get(`${x},${y}`) || []).includes(enter);
    return piece.sides.filter((s) => s !== enter).some((s) => walk(x + DIR[s][0], y + DIR[s][1], OPP[s], depth + 1));
  };
  for (const r of roads({ tile, rot })) {
    for (const s of r.sides) if (walk(at[0] + DIR[s][0], at[1] + DIR[s][1], OPP[s], 0)) return true;
  }
  return false;
}

function pickRandom(a) { return a[Math.floor(Math.random() * a.length)]; }

// ---------------------------------------------------------------- the browser
async function launch() {
  // A fresh profile every run: Playwright's launch() makes its own temporary
  // --user-data-dir (it refuses one passed in args) and removes it on close.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: !process.env.HEADFUL,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { browser, cleanup: () => {} };
}

function watchPage(page, label) {
  page.on('pageerror', (e) => { pageErrors.push(`${label}: ${e.message}`); console.log(`      [${label} page error] ${e.message}`); });
  page.on('console', (m) => { if (m.type() === 'error') console.log(`      [${label} console] ${m.text()}`); });
}
const pageErrors = [];
let spectPage = null;

async function api(base, p) {
  const r = await fetch(base + p);
  if (!r.ok) throw new Error(`GET ${p}: ${r.status}`);
  return r.json();
}

/** The view a seat sees (with its provisional decisions): POST /join with its token. */
async function seatView(base, game, token) {
  const r = await fetch(`${base}/api/games/${game}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
  if (!r.ok) throw new Error(`POST /join: ${r.status}`);
  return (await r.json()).view;
}

/** Where a board point (tile units × 100) is on the screen. */
async function boardToScreen(page, bx, by) {
  return page.evaluate(([x, y]) => {
    const svg = document.querySelector('svg.board');
    const r = svg.getBoundingClientRect();
    const [vx, vy, vw, vh] = svg.getAttribute('viewBox').split(' ').map(Number);
    return [r.left + ((x - vx) * r.width) / vw, r.top + ((y - vy) * r.height) / vh];
  }, [bx, by]);
}

/** The inspector's card for the start tile's city (the tile at [0, 0], D, its city on the north). */
async function inspectStartCity(page, base, gameId, how = 'hover', body = {}) {
  await page.evaluate(() => { const b = document.querySelector('button[aria-label="fit board"]'); if (b) b.click(); });
  // Low in the city, clear of any choice drawn on the tile to its north.
  const [x, y] = await boardToScreen(page, 50, 24);
  if (how === 'tap') await page.touchscreen.tap(x, y);
  else { await page.mouse.move(x - 3, y); await page.mouse.move(x, y); }
  await page.waitForSelector('#inspector:not(.hidden)[data-kind="city"][data-at="0,0"]', { timeout: 5000 });
  const r = await fetch(`${base}/api/games/${gameId}/feature`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ at: [0, 0], piece: 0, ...body }) });
  assert(r.ok, `POST /feature: ${r.status}`);
  const report = await r.json();
  const shown = await page.getAttribute('#inspector', 'data-tiles');
  assert(Number(shown) === report.tiles.length, `the inspector shows the feature's tiles (${shown} vs ${report.tiles.length})`);
  const text = await page.textContent('#inspector');
  assert(/at the end|scored/i.test(text) && /followers/i.test(text), `the inspector tells figures and points: "${text}"`);
  for (const [seat, c] of report.followers.entries()) {
    if (c) assert(await page.locator(`#inspector .gain[data-seat="${seat}"]`).count() > 0, `seat ${seat}'s figures are shown`);
  }
  const lit = await page.locator('.highlight-tile').count();
  assert(lit === report.tiles.length, `its tiles are highlighted on the board (${lit})`);
  return report;
}

/**
 * Wait until it is this browser's turn (or the game is over), the board
 * still (not gliding to another player's tile: a cell measured then would
 * move away before the click); returns the body's data.
 */
async function waitMyTurn(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const d = document.body.dataset;
    if (document.querySelector('svg.board[data-gliding]')) return false;
    return d.status === 'finished' || (d.mine === '1' && d.pending === '0');
  }, null, { timeout, polling: 50 });
  return page.evaluate(() => ({ ...document.body.dataset }));
}

async function waitVersionPast(page, version, timeout = 30000) {
  try {
    await page.waitForFunction((v) => Number(document.body.dataset.version) > v && document.body.dataset.pending === '0', version, { timeout, polling: 50 });
  } catch (e) {
    // What the page shows, to tell why it did not move on.
    const state = await page.evaluate(() => ({ ...document.body.dataset, toasts: document.getElementById('toasts')?.textContent, turn: document.querySelector('.turn-panel')?.textContent })).catch(() => null);
    throw new Error(`the page did not move past version ${version}: ${JSON.stringify(state)}\n${e.message}`);
  }
}

// ---------------------------------------------------------------- one game
async function playOneGame(page, base, cat, gameNo, spectate, { inns = false, seats = 2, label = 'g' } = {}) {
  // Create the game from the home page, by clicking: the tester, then easy bots.
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="1"][data-page="home"]');
  if ((await page.isChecked('#exp-inns')) !== inns) await page.click('#exp-inns');
  if (await page.isChecked('#exp-abbey')) await page.click('#exp-abbey');
  while (await page.locator('.seat-row').count() > seats) await page.click('.seat-row:last-child button[aria-label^="remove seat"]');
  while (await page.locator('.seat-row').count() < seats) await page.click('#add-seat');
  await page.selectOption('select[name="seat-0-type"]', 'human');
  await page.fill('input[name="seat-0-name"]', 'E2E Tester');
  for (let i = 1; i < seats; i++) {
    await page.selectOption(`select[name="seat-${i}-type"]`, 'bot');
    await page.selectOption(`select[name="seat-${i}-level"]`, 'easy');
  }
  if (!(await page.isChecked('#exp-ferries'))) await page.check('#exp-ferries');
  await page.check('input[name="edition"][value="c3"]');
  // Public, so that the finished game is listed for the replay check.
  if (!(await page.isChecked('#public-game'))) await page.check('#public-game');
  if (gameNo === 1) await shot(page, 'home');
  // One click creates the game and opens it.
  await page.click('#create-game');
  await page.waitForSelector('body[data-page="game"][data-status]');
  if (gameNo === 1) await shot(page, 'game-created');
  const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  const gameId = hash.get('game');
  const token = hash.get('token');
  assert(/^[0-9a-f]{16}$/.test(gameId), `game id in the URL (${gameId})`);
  const spectLink = `${base}/#game=${gameId}`;
  const mine = () => seatView(base, gameId, token);
  log(`game ${gameNo}: ${gameId}`);
  if (spectate) await spectate(spectLink, gameId);

  const stats = { placed: 0, deployed: 0, bigDeployed: 0, ferriesPlaced: 0, ferriesMoved: 0, discards: 0, done: 0, rotations: 0, turnsEnded: 0, undone: 0 };
  // The first game takes a follower back once: undo, before the turn is ended.
  let undoDue = gameNo === 1 && label === 'g';
  const shots = new Set();
  const once = async (name) => { if (!shots.has(name)) { shots.add(name); await shot(page, `${label}${gameNo}-${name}`); } };
  let turns = 0;
  let tLast = Date.now();
  for (;;) {
    const tWait = Date.now();
    const d = await waitMyTurn(page);
    if (process.env.E2E_TRACE) log(`v${d.version} ${d.step}: waited ${Date.now() - tWait} ms, acted in ${tWait - tLast} ms`);
    tLast = Date.now();
    if (d.status === 'finished') break;
    const version = Number(d.version);
    const view = await mine();
    assert(view.version === version, `the page shows the current version (${version} vs ${view.version})`);
    const step = view.step;
    if (step === 'end_turn') {
      // The turn's decisions are the tester's alone until it ends the turn.
      const pub = await api(base, `/api/games/${gameId}`);
      assert(pub.version === version - view.undoable, `everyone else sees the turn's start (${pub.version}, ${version}, ${view.undoable})`);
      if (stats.turnsEnded === 0) await once('end-turn');
      assert(await page.locator('#auto-end-count').count() === 0 && !(await page.isChecked('#auto-end-toggle')), 'turned off, the turn does not end by itself');
      if (stats.turnsEnded % 2) await page.keyboard.press('Enter');
      else await page.click('#end-turn');
      stats.turnsEnded++;
      await page.waitForFunction((v) => document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v, version, { polling: 50 });
      continue;
    }
    if (step === 'place') {
      turns++;
      const places = view.legal.filter((a) => a.type === 'place');
      if (!places.length) {
        await page.click('#discard');
        stats.discards++;
        await waitVersionPast(page, version);
        continue;
      }
      // Prefer placements that extend a road to a ferry, until a ferry has moved.
      let target = null;
      if (stats.ferriesMoved === 0) {
        const good = places.filter((a) => reachesFerry(view, cat, a.at, a.rot, view.drawn));
        if (good.length) target = pickRandom(good);
      }
      if (!target) target = pickRandom(places);
      const key = `${target.at[0]},${target.at[1]}`;
      // Either the mouse: point at the cell (the tile snaps there), turn it
      // with the wheel, a right-click or R, click to place; or the keys: ]
      // selects (and brings the cell on screen), then R, the tile or the
      // Rotate button turns it and ✓, the Place button or Enter places it.
      const cell = page.locator(`[data-cell="${key}"].cell-legal`);
      // The board redraws as the view changes: a cell found a moment ago
      // may be gone by now (no box), and then the keys are used instead.
      const wantMouse = turns % 3 !== 0;
      if (wantMouse && !stats.floated) {
        // Off the legal cells the tile follows the pointer.
        const svgBox = await page.locator('svg.board').boundingBox();
        await page.mouse.move(svgBox.x + 30, svgBox.y + svgBox.height - 30);
        const f1 = await page.getAttribute('[data-float]', 'transform').catch(() => null);
        await page.mouse.move(svgBox.x + 60, svgBox.y + svgBox.height - 50);
        const f2 = await page.getAttribute('[data-float]', 'transform').catch(() => null);
        if (f1 && f2) { assert(f1 !== f2, 'the floating tile follows the pointer'); stats.floated = 1; await once('tile-follows-pointer'); }
      }
      const at = wantMouse ? await hoverCell(page, cell, key) : null;
      if (at) {
        const [mx, my] = at;
        for (let i = 0; i < 6; i++) {
          const rot = Number(await page.getAttribute('[data-hover-ghost]', 'data-rot'));
          if (rot === target.rot) break;
          const how = (turns + i) % 3;
          if (how === 0) await page.mouse.wheel(0, 100);
          else if (how === 1) await page.mouse.click(mx, my, { button: 'right' });
          else await page.keyboard.press('r');
          await page.waitForFunction((r) => Number(document.querySelector('[data-hover-ghost]')?.dataset.rot) !== r, rot, { timeout: 2000 }).catch(() => {});
          stats.rotations++;
        }
        const rot = Number(await page.getAttribute('[data-hover-ghost]', 'data-rot'));
        assert(rot === target.rot, `rotation reached under the pointer (${rot} vs ${target.rot})`);
        if (stats.placed === 0) await once('place-under-pointer');
        await page.mouse.click(mx, my);
        stats.mousePlaced = (stats.mousePlaced || 0) + 1;
      } else {
        for (let i = 0; i < 400; i++) {
          const sel = await page.evaluate(() => document.querySelector('[data-ghost]')?.dataset.ghost ?? null);
          if (sel === key) break;
          await page.keyboard.press(']');
        }
        await page.waitForSelector(`[data-ghost="${key}"]`);
        // Turn it until the wanted rotation: the R key, the tile itself, or the Rotate button.
        for (let i = 0; i < 5; i++) {
          const rot = Number(await page.getAttribute('[data-ghost]', 'data-rot'));
          if (rot === target.rot) break;
          const how = (turns + i) % 3;
          if (how === 0) await page.keyboard.press('r');
          else if (how === 1) await page.click('[data-ghost] .ghost-hit');
          else await page.click('#rotate');
          stats.rotations++;
        }
        const rot = Number(await page.getAttribute('[data-ghost]', 'data-rot'));
        assert(rot === target.rot, `rotation reached (${rot} vs ${target.rot})`);
        const placeWords = await page.textContent('#confirm');
        assert(!/\(-?\d+, -?\d+\)/.test(placeWords), `the Place button says no coordinates (the cell is framed): "${placeWords}"`);
        const shown = Number(await page.getAttribute('#drawn-tile', 'data-rot'));
        assert(shown === rot, 'the drawn tile preview shows the same rotation');
        if (view.drawn.startsWith('F') && !shots.has('lake-ghost')) await once('lake-ghost');
        if (turns % 2) await page.click('[data-ghost] .confirm-btn');
        else if (turns % 4 === 0) await page.keyboard.press('Enter');
        else await page.click('#confirm');
      }
      stats.placed++;
      await waitVersionPast(page, version);
      const after = await mine();
      const placed = after.board.find((t) => t.at[0] === target.at[0] && t.at[1] === target.at[1]);
      assert(placed && placed.rot === target.rot && placed.tile === view.drawn, 'the server has the tile where and as it was clicked');
    } else if (step === 'deploy') {
      const deploys = view.legal.filter((a) => a.type === 'deploy');
      const bigs = deploys.filter((a) => a.figure === 'big');
      const lake = view.last_placed && view.last_placed.tile.startsWith('F');
      // Inns & Cathedrals: deploy the big follower the first time it can go.
      const big = bigs.length > 0 && stats.bigDeployed === 0;
      // (Only the big follower may be left to deploy, once the followers are all out.)
      const normals = deploys.filter((a) => !a.figure);
      const want = big || (normals.length && (Math.random() < 0.35 || (lake && Math.random() < 0.6)));
      if (stats.deployed === 0 && deploys.length) await once('deploy-spots');
      // Why not: a feature the follower may not go on is crossed out and says the rule that forbids it.
      const refusedHere = (view.refused || []).filter((r) => r.type === 'deploy' && r.figure === 'normal');
      if (refusedHere.length && !shots.has('why-not-spot')) {
        assert(await page.locator('.refused-spot').count() === refusedHere.length, 'each refused feature is crossed out');
        await assertTapsUnpainted(page, 'a refused spot');
        const r = refusedHere[0];
        await page.click(`.refused-spot[data-meeple="${r.feature}"]`);
        const said = await page.textContent('#toasts [data-key="why"] .msg');
        const words = { 'feature-occupied': 'already holds a follower', 'no-follower-in-supply': 'No follower is left' }[r.kind];
        assert(words ? said.includes(words) : said === r.why, `the refusal says its rule (${r.kind}: ${said})`);
        await once('why-not-spot');
      }
      if (want) {
        if (big) {
          // Switch the offered spots to the big follower: its button or the B key.
          if (turns % 2) await page.click('.figure-choice[data-figure="big"]');
          else await page.keyboard.press('b');
          await page.waitForSelector('.spot[data-figure="big"]');
          await once('big-follower-spots');
        }
        const offered = big ? bigs : deploys.filter((a) => !a.figure);
        // The big follower goes on a field when it can: there it stays on the board to be seen.
        const fields = offered.filter((a) => a.kind === 'field');
        const a = pickRandom(big && fields.length ? fields : offered);
        if (undoDue && !big) {
          // Deploy, see it is this seat's alone, take it back, and go on choosing.
          undoDue = false;
          const spectBefore = spectPage ? Number(await spectPage.evaluate(() => document.body.dataset.version)) : null;
          await page.click(`.spot[data-meeple="${a.meeple}"][data-figure="normal"]`);
          await waitVersionPast(page, version);
          await page.waitForSelector('#undo');
          const pub = await api(base, `/api/games/${gameId}`);
          assert(pub.version < version + 1 && !pub.followers.some((f) => f.feature === a.meeple && f.at.join() === view.last_placed.at.join()), 'no one else sees the provisional follower');
          if (spectBefore !== null) assert(Number(await spectPage.evaluate(() => document.body.dataset.version)) === spectBefore, 'the spectator saw nothing of it');
          await shot(page, 'before-undo');
          const v2 = Number(await page.evaluate(() => document.body.dataset.version));
          if (Math.random() < 0.5) await page.click('#undo'); else await page.keyboard.press('u');
          await page.waitForFunction((v) => Number(document.body.dataset.version) < v && document.body.dataset.pending === '0', v2, { polling: 50 });
          const back = await mine();
          assert(back.step === 'deploy' && back.version === version, `undo goes back to the deploy step (${back.step}, ${back.version})`);
          assert(await page.evaluate(() => document.body.dataset.step) === 'deploy', 'the page shows the deploy step again');
          stats.undone++;
          await shot(page, 'after-undo');
        }
        if (turns % 2) await page.click(`.spot[data-meeple="${a.meeple}"][data-figure="${big ? 'big' : 'normal'}"]`);
        else await page.click(`button.opt[data-n="${offered.indexOf(a) + 1}"]`);
        stats.deployed++;
        await waitVersionPast(page, version);
        if (big) {
          const after = await mine();
          const [x, y] = view.last_placed.at;
          const deployed = (after.log || []).filter((e) => e.type === 'follower_deployed').pop();
          assert(deployed && deployed.figure === 'big' && deployed.seat === 0 && deployed.at[0] === x && deployed.at[1] === y && deployed.feature === a.meeple,
            `the big follower was deployed on ${a.meeple} at (${x}, ${y})`);
          stats.bigOnBoard = after.followers.some((f) => f.figure === 'big' && f.seat === 0 && f.at[0] === x && f.at[1] === y);
          stats.bigDeployed++;
        }
      } else {
        if (turns % 2) await page.click('#no-follower');
        else await page.keyboard.press('n');
        await waitVersionPast(page, version);
      }
      // Unless the tile completed its feature at once (it went back), the board draws it.
      if (stats.bigDeployed === 1 && big && stats.bigOnBoard) {
        assert(await page.locator('.layer-followers .meeple.big').count() >= 1, 'the board draws the big follower');
        await once('big-follower-deployed');
      }
    } else if (step === 'place_ferry') {
      const opts = view.legal.filter((a) => a.type === 'ferry');
      assert(await ferryHandlesApart(page) === opts.length, 'a handle per crossing, none over another');
      if (opts.length >= 3) await ferryHandleShots(page, shots);
      await once('ferry-options');
      if (stats.ferriesPlaced === 0) {
        // Each crossing is numbered on the lake and in the list, and previews the road it makes.
        assert(await page.locator('.ferry-handle .handle-num').count() === opts.length, 'a numbered handle per crossing');
        assert(opts.every((o) => Array.isArray(o.road) && o.road.length >= 1), 'the server gives each crossing its road');
        await page.hover('button.opt[data-n="1"]');
        await page.waitForFunction((n) => document.querySelectorAll('[data-preview]').length === n, opts[0].road.length, { timeout: 3000 });
        const words = await page.textContent('button.opt[data-n="1"]');
        assert(/from the (north|east|south|west) jetty to the (north|east|south|west) jetty/.test(words) && words.includes('road of'), `the choice is labelled (${words})`);
        assert(!/\b[NESW]-[NESW]\b|\(-?\d+, -?\d+\)|↔/.test(words), `in a player's words: "${words}"`);
        if (opts.length > 1) {
          await page.focus('button.opt[data-n="2"]');
          await page.waitForFunction((n) => document.querySelectorAll('[data-preview]').length === n, opts[1].road.length, { timeout: 3000 });
        }
        await shot(page, `${label}${gameNo}-ferry-preview`);
        await page.mouse.move(5, 5);
      }
      const a = pickRandom(opts);
      const [x, y] = view.last_placed.at;
      if (stats.ferriesPlaced % 2 === 0) await page.click(`.ferry-handle[data-ferry="${a.ferry}"][data-at="${x},${y}"]`);
      else await page.click(`button.opt[data-n="${opts.indexOf(a) + 1}"]`);
      stats.ferriesPlaced++;
      await waitVersionPast(page, version);
      // The seat's view right after this action (the turn is not ended yet).
      const after = await mine();
      assert(after.ferries.some((f) => f.at[0] === x && f.at[1] === y && samePair(f.ferry, a.ferry)), 'the ferry is where it was clicked');
      if (stats.ferriesPlaced === 1) await once('ferry-placed');
    } else if (step === 'move_ferries') {
      const moves = view.legal.filter((a) => a.type === 'move');
      const rings = await page.locator('[data-movable]').count();
      assert(rings === (view.movable_ferries || []).length, `every movable ferry is ringed (${rings})`);
      // Why not: a ferry that may not move, pointed at, says which ruling holds it (F6 or F7).
      const held = (view.refused || []).filter((r) => r.type === 'move');
      assert(held.length + (view.movable_ferries || []).length === view.ferries.length, 'every ferry is movable or says why not');
      // (One in view: the board zooms in on the lake just placed, and a player points at what is shown.)
      const board = await page.locator('svg.board').boundingBox();
      let inView = null;
      for (const r of held) {
        const b = await page.locator(`[data-refused-ferry="${r.at[0]},${r.at[1]}"]`).boundingBox();
        const cx = b && b.x + b.width / 2, cy = b && b.y + b.height / 2;
        if (b && cx > board.x + 20 && cx < board.x + board.width - 90 && cy > board.y + 60 && cy < board.y + board.height - 20) { inView = r; break; }
      }
      if (inView && !shots.has('why-not-ferry')) {
        const r = inView;
        await page.click(`[data-refused-ferry="${r.at[0]},${r.at[1]}"]`);
        const said = await page.textContent('#toasts [data-key="why"] .msg');
        assert(said.includes(r.kind === 'ferry-not-movable' ? '(F6)' : '(F7)'), `the ferry says why it stays (${said})`);
        await once('why-not-ferry');
      }
      assert(await ferryHandlesApart(page) === moves.length, 'a handle per move, none over another on its lake');
      if (moves.length >= 3) await ferryHandleShots(page, shots);
      for (const b of await page.locator('button.opt').allTextContents()) {
        assert(!/\b[NESW]-[NESW]\b|\(-?\d+, -?\d+\)/.test(b), `a ferry move in a player's words, its lake by its number: "${b}"`);
      }
      if (moves.length && (stats.ferriesMoved === 0 || Math.random() < 0.5)) {
        await once('ferry-move-options');
        const a = pickRandom(moves);
        const before = (view.ferries || []).find((f) => f.at[0] === a.at[0] && f.at[1] === a.at[1]);
        if (stats.ferriesMoved % 2 === 0) await page.click(`.ferry-handle[data-ferry="${a.ferry}"][data-at="${a.at[0]},${a.at[1]}"]`);
        else await page.click(`button.opt[data-n="${moves.indexOf(a) + 1}"]`);
        stats.ferriesMoved++;
        await waitVersionPast(page, version);
        const after = await mine();
        const f = after.ferries.find((x) => x.at[0] === a.at[0] && x.at[1] === a.at[1]);
        assert(f && samePair(f.ferry, a.ferry) && !samePair(before.ferry, a.ferry), 'the ferry moved to the clicked crossing');
        const drawn = await page.getAttribute(`[data-ferry-at="${a.at[0]},${a.at[1]}"]`, 'data-ferry-pair');
        assert(samePair(drawn, a.ferry), 'the board draws the moved ferry');
        if (stats.ferriesMoved === 1) await once('ferry-moved');
      } else {
        await page.click('#done');
        stats.done++;
        await waitVersionPast(page, version);
      }
    } else {
      throw new Error(`unexpected step ${step}`);
    }
    // A scoring is shown on the board for a moment, where it lies, with each scorer's points.
    if (!shots.has('scoring-on-board') && await page.locator('[data-scoring]').count()) {
      const pts = await page.getAttribute('[data-scoring] >> nth=0', 'data-points');
      const now = await mine();
      assert(now.log.some((e) => e.type === 'scored' && (e.points || []).join(',') === pts), `the points shown (${pts}) are a scoring of the log`);
      const gains = await page.locator('[data-scoring] >> nth=0').locator('.score-label').count();
      assert(gains === pts.split(',').filter((p) => Number(p) > 0).length, 'a label per scorer');
      await once('scoring-on-board');
    }
    if (turns === 12 && step === 'place' && !shots.has('midgame')) {
      await once('midgame');
      if (spectate && spectPage && gameNo === 1) {
        assert(await spectPage.evaluate(() => Number(document.body.dataset.version)) > 1, 'the spectator follows the game live');
        await shot(spectPage, 'spectator-live');
      }
      if (gameNo === 1) {
        // Point at a feature: the inspector tells its tiles, figures and points.
        const rep = await inspectStartCity(page, base, gameId, 'hover', { token });
        log(`inspector: city of ${rep.tiles.length} tiles, ${JSON.stringify(rep.followers)}, if completed ${JSON.stringify(rep.if_completed)}, at the end ${JSON.stringify(rep.at_end)}`);
        await shot(page, 'inspector');
        await page.mouse.move(5, 5);
        await page.keyboard.press('?');
        await page.waitForSelector('#help-dialog[open]');
        await shot(page, 'keys-help');
        await page.keyboard.press('Escape');
        await page.waitForSelector('#help-dialog[open]', { state: 'detached' });
      }
    }
  }
  {
    // Every scoring during the game was shown on the board (end-of-game ones are in the breakdown).
    const end = await api(base, `/api/games/${gameId}`);
    const want = end.log.filter((e) => e.type === 'scored' && !e.end_of_game && (e.points || []).some((p) => p > 0)).map((e) => `${e.version}:${e.points.join(',')}`);
    const shown = new Set((await page.evaluate(() => document.body.dataset.scoringsShown || '')).split(' '));
    const missing = want.filter((k) => !shown.has(k));
    assert(!missing.length, `every scoring was shown on the board (missing ${missing.join(' ')})`);
    stats.scoringsShown = want.length;
    if (undoDue === false && gameNo === 1 && label === 'g') assert(stats.undone === 1, 'a follower was taken back');
  }
  if (label === 'g' && gameNo === 1) assert(stats.mousePlaced > 0 && stats.floated, `tiles were placed with the mouse (${stats.mousePlaced}) and the tile followed it`);
  log(`game ${gameNo} over: ${JSON.stringify(stats)}`);
  return { gameId, stats };
}

function samePair(a, b) { return a && b && a.split('-').sort().join('-') === b.split('-').sort().join('-'); }

/**
 * Points at the centre of a legal cell and waits for its ghost; the centre
 * of the cell as measured, or null when it could not be hovered (covered by
 * a panel, or the board moved under the pointer twice), so that the keys
 * are used instead.
 */
async function hoverCell(page, cell, key) {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!await cell.isVisible() || !await inView(page, cell)) return null;
    const box = await cell.boundingBox();
    if (!box) return null;
    const [mx, my] = [box.x + box.width / 2, box.y + box.height / 2];
    if (!await onBoard(page, mx, my)) return null;
    await page.mouse.move(mx, my);
    const shown = await page.waitForSelector(`[data-hover-ghost="${key}"]`, { timeout: 5000 }).then(() => true, () => false);
    if (shown) return [mx, my];
    // Off the cell, so that pointing at it again is a new hover.
    await page.mouse.move(mx + box.width * 3, my + box.height * 3);
  }
  return null;
}

/** The ferry handles on each lake of the board: no two of one lake overlap (their boxes do not meet). */
async function ferryHandlesApart(page) {
  const boxes = await page.evaluate(() => [...document.querySelectorAll('.ferry-handle')].map((g) => {
    const r = g.querySelector('circle.handle').getBoundingClientRect();
    return { at: g.dataset.at, n: g.dataset.n, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
  }));
  for (const a of boxes) {
    for (const b of boxes) {
      if (a === b || a.at !== b.at) continue;
      const meet = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
      assert(!meet, `handles ${a.n} and ${b.n} on the lake at ${a.at} overlap (${JSON.stringify([a, b])})`);
    }
  }
  return boxes.length;
}

/** Once a run: the lake's numbered handles at 1366 and 390 px wide (the viewport put back after). */
async function ferryHandleShots(page, shots) {
  if (shots.has('ferry-handles')) return;
  shots.add('ferry-handles');
  const was = page.viewportSize();
  for (const [width, height] of [[1366, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await ferryHandlesApart(page);
    await pointShot(page, 'ferry-handles');
  }
  await page.setViewportSize(was);
  // Back at a desktop's width the board is drawn for a mouse again: no
  // tile is left behind its phone-sized chooser, every handle clicked alone.
  if (was.width > 480) await page.waitForFunction(() => !document.querySelector('.chooser-hit') && !!document.querySelector('.ferry-handle[data-pick]'), null, { timeout: 3000 });
  else await page.waitForTimeout(300);
}

/** Is the topmost element at this point part of the board's drawing (no panel over it)? */
async function onBoard(page, x, y) {
  return page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('svg.board'), [x, y]);
}

async function inView(page, loc) {
  const box = await loc.boundingBox();
  const svg = await page.locator('svg.board').boundingBox();
  if (!box || !svg) return false;
  return box.x >= svg.x && box.y >= svg.y && box.x + box.width <= svg.x + svg.width && box.y + box.height <= svg.y + svg.height;
}

/** Whether the middle of the element is what a click there hits (no overlay over it). */
async function onTop(page, loc) {
  return loc.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === e || e.contains(hit) || e.parentNode.contains(hit));
  });
}

// ---------------------------------------------------------------- issue 31
/**
 * Plays this browser's decisions by the keys until its turn waits to be
 * ended (or the game is over): a tile where ] puts it, no follower unless
 * `deploy(view)` picks an option number, the first crossing, no ferry
 * moved. Returns the body's data at step end_turn.
 */
async function playToEndOfTurn(p, { deploy = null, seat = null, base = null, game = null, token = null } = {}) {
  for (let i = 0; i < 20; i++) {
    const d = await waitMyTurn(p);
    if (d.step === 'end_turn' || d.status === 'finished') return d;
    const v = Number(d.version);
    if (d.step === 'place') await placeByKeys(p);
    else if (d.step === 'deploy') {
      const n = deploy ? deploy(await seatView(base, game, token)) : null;
      if (n) await p.click(`button.opt[data-n="${n}"]`); else await p.keyboard.press('n');
    } else if (d.step === 'place_ferry') await p.keyboard.press('1');
    else if (d.step === 'move_ferries' || d.step === 'abbey') await p.keyboard.press('n');
    else throw new Error(`unexpected step ${d.step}`);
    await p.waitForFunction((v) => Number(document.body.dataset.version) !== v, v, { polling: 50 });
  }
  throw new Error('the turn did not end');
}

/** The place step by the keys: the tile where ] puts it, or discarded (N) when it fits nowhere. */
async function placeByKeys(p) {
  if (await p.locator('#discard').count()) { await p.keyboard.press('n'); return; }
  await p.keyboard.press(']');
  await p.keyboard.press('Enter');
}

/** A game created from the home page of `p`: `seats` as [type, name] (bots easy); its id and this browser's tokens. */
async function createFromHome(p, base, seats) {
  await p.goto(`${base}/`);
  await p.waitForSelector('body[data-ready="1"][data-page="home"]');
  while (await p.locator('.seat-row').count() > seats.length) await p.click('.seat-row:last-child button[aria-label^="remove seat"]');
  while (await p.locator('.seat-row').count() < seats.length) await p.click('#add-seat');
  for (const [i, [type, name]] of seats.entries()) {
    await p.selectOption(`select[name="seat-${i}-type"]`, type);
    if (type === 'bot') await p.selectOption(`select[name="seat-${i}-level"]`, 'easy');
    else await p.fill(`input[name="seat-${i}-name"]`, name);
  }
  if (!(await p.isChecked('#exp-ferries'))) await p.check('#exp-ferries');
  await p.click('#create-game');
  await p.waitForSelector('body[data-page="game"][data-status]');
  const hash = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1));
  return { gameId: hash.get('game'), tokens: hash.getAll('token') };
}

/** Registers the account `name` on the account page of `p`, by typing as a person would; signed in once it returns. */
async function registerInUI(p, base, name, password = 'lantern ferry meeple harbour') {
  await p.goto(`${base}/#account`);
  await p.waitForSelector('body[data-ready="1"][data-page="account"] #register-form');
  await p.fill('#register-name', name);
  await p.fill('#register-password', password);
  await p.fill('#register-again', password);
  await p.click('#register-form-submit');
  await p.waitForSelector('#account-link[data-signed-in="1"]', { timeout: 10000 });
}

/** The boxes of these elements (null when absent or hidden), keyed by selector. */
async function boxesOf(p, sels) {
  return p.evaluate((sels) => Object.fromEntries(sels.map((s) => {
    const e = document.querySelector(s);
    if (!e || e.classList.contains('hidden') || !e.getClientRects().length) return [s, null];
    const r = e.getBoundingClientRect();
    return [s, { x: r.left, y: r.top, width: r.width, height: r.height }];
  })), sels);
}

/**
 * Every control of the page (in an open dialog: of the dialog) whose hit
 * area is smaller than a fingertip, 44 × 44 CSS px: buttons, selects,
 * inputs (a check box or radio by its label), links, summaries, and on the
 * board each choice by its tap area (`.tap`: a spot, ✓, ↻, a ferry handle,
 * a hole, a crowded tile's chooser; a legal cell by its `.cell-tap`).
 * Returns the offenders, described, and how many were measured.
 */
async function smallTargets(p) {
  return p.evaluate(() => {
    const MIN = 44 - 0.5;
    const out = [];
    let n = 0;
    const shown = (e) => {
      if (!e.getClientRects().length) return null;
      const cs = getComputedStyle(e);
      if (cs.visibility === 'hidden' || cs.display === 'none' || cs.pointerEvents === 'none') return null;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? r : null;
    };
    const say = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}${e.dataset.pick ? `[pick=${e.dataset.pick}]` : ''} "${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;
    const scope = document.querySelector('dialog[open]') || document;
    const check = (e, target) => {
      const r = shown(target);
      if (!r) return;
      n++;
      if (r.width < MIN || r.height < MIN) out.push(`${say(e)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    };
    for (const e of scope.querySelectorAll('button, select, input:not([type=hidden]), a[href], summary')) {
      if (e.closest('svg')) continue;
      check(e, e.matches('input[type=checkbox], input[type=radio]') ? (e.closest('label') || e) : e);
    }
    // The board's (and the chooser's) choices: each by what takes its taps.
    for (const svg of scope.querySelectorAll('svg.board, svg.chooser-board')) {
      for (const e of svg.querySelectorAll('[data-pick], .chooser-item')) {
        if (e.classList.contains('cell-legal')) {
          const tap = svg.querySelector(`.cell-tap[data-cell="${e.dataset.cell}"] .tap`);
          if (!tap) out.push(`${say(e)}: no tap area`); else check(e, tap);
        } else if (e.classList.contains('tap') || e.classList.contains('ghost-hit') || e.classList.contains('refused-ferry')) check(e, e);
        else {
          const tap = [...e.children].find((c) => c.classList.contains('tap'));
          if (!tap) out.push(`${say(e)}: no tap area`); else check(e, tap);
        }
      }
    }
    return { small: out, measured: n };
  });
}

/** Taps the first legal cell whose middle is free on the board (not under its buttons or banner), after fitting the board. */
async function tapCell(p) {
  await p.tap('button[aria-label="fit board"]');
  const pt = await p.evaluate(() => {
    for (const c of document.querySelectorAll('svg.board .cell-legal')) {
      const r = c.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      if (document.elementFromPoint(x, y) === c) return [x, y];
    }
    return null;
  });
  assert(pt, 'a legal cell to tap');
  await p.touchscreen.tap(pt[0], pt[1]);
}

/** The board's spots (or the chooser's choices) closer together than a fingertip: pairs, described. */
async function crowdedTaps(p, sel) {
  return p.evaluate((sel) => {
    const c = [...document.querySelectorAll(sel)].map((e) => { const r = e.getBoundingClientRect(); return { n: e.closest('[data-n]')?.dataset.n, x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
    const out = [];
    for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) if (Math.hypot(c[i].x - c[j].x, c[i].y - c[j].y) < 44 - 0.5) out.push(`${c[i].n}–${c[j].n}`);
    return out;
  }, sel);
}

/** In a page made with it: every oscillator the page starts, counted (Web Audio stubbed, nothing to hear). */
function stubAudio() {
  window.__oscillators = [];
  class Param { setValueAtTime() { return this; } exponentialRampToValueAtTime() { return this; } linearRampToValueAtTime() { return this; } }
  class Node { connect(n) { return n; } disconnect() {} }
  class Osc extends Node {
    constructor() { super(); this.frequency = new Param(); this.type = 'sine'; }
    start() { window.__oscillators.push({ type: this.type, at: Date.now() }); }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
  window.AudioContext = class {
    constructor() { this.state = 'running'; this.currentTime = 0; this.destination = new Node(); window.__audioContexts = (window.__audioContexts || 0) + 1; }
    createOscillator() { return new Osc(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  };
}

// ---------------------------------------------------------------- Abbey & Mayor
/** The tiles of the view by cell, with `extra` ({tile, at, rot}) placed too. */
function boardWith(view, extra) {
  const board = new Map(view.board.map((t) => [`${t.at[0]},${t.at[1]}`, t]));
  if (extra) board.set(`${extra.at[0]},${extra.at[1]}`, extra);
  return board;
}

/**
 * Is the road or city named `feature` ("road:E", as on the board) of the
 * tile at `at` closed on every side on `board`? An abbey ends what reaches
 * it; a lake's jetty ends its road here (the test only steers by this).
 */
function featureClosed(board, cat, at, feature) {
  const [kind, where] = feature.split(':');
  if (kind !== 'road' && kind !== 'city') return false;
  const pieces = (t) => cat.get(t.tile).features.filter((f) => f.kind === kind).map((f) => ({ ...f, sides: f.sides.map((s) => rotSide(s, t.rot)) }));
  const seen = new Set();
  const stack = [[at[0], at[1], where]];
  while (stack.length) {
    const [x, y, side] = stack.pop();
    const t = board.get(`${x},${y}`);
    if (!t) return false;
    if (t.tile === 'AB') continue;
    const piece = pieces(t).find((p) => p.sides.includes(side));
    if (!piece || seen.has(`${x},${y},${piece.index}`)) continue;
    seen.add(`${x},${y},${piece.index}`);
    for (const s of piece.sides) {
      const [dx, dy] = DIR[s];
      if (!board.get(`${x + dx},${y + dy}`)) return false;
      stack.push([x + dx, y + dy, OPP[s]]);
    }
  }
  return true;
}

/** Would this placement close the road or city of a wagon on the board? */
function closesAWagon(view, cat, a, tile) {
  const board = boardWith(view, { tile, at: a.at, rot: a.rot });
  return (view.followers || []).some((f) => f.figure === 'wagon' && featureClosed(board, cat, f.at, f.feature));
}

/** Would this placement leave a hole (an empty cell with a tile on each side) beside it? */
function makesAHole(view, a, tile) {
  const board = boardWith(view, { tile, at: a.at, rot: a.rot });
  return Object.values(DIR).some(([dx, dy]) => {
    const [x, y] = [a.at[0] + dx, a.at[1] + dy];
    return !board.has(`${x},${y}`) && Object.values(DIR).every(([ex, ey]) => board.has(`${x + ex},${y + ey}`));
  });
}

/**
 * A hot-seat Abbey & Mayor + Ferries game played by clicking, steered
 * towards holes (until an abbey is placed) and towards closing the roads
 * and cities the wagons stand on, until an abbey has been placed and a
 * wagon moved. Returns what it did.
 */
// A two-seat hot-seat game created from the home page with `names` and
// exactly the `expansions` checked (a screenshot of the form first, named
// `shotName` if given), the labyrinth's basic variant if `basic` (with The
// Labyrinth), listed if `listed`; both seats' tokens, joined.
async function createHotSeatGame(page, base, names, expansions, shotName, { basic = false, listed = false } = {}) {
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="1"][data-page="home"]');
  while (await page.locator('.seat-row').count() > names.length) await page.click('.seat-row:last-child button[aria-label^="remove seat"]');
  for (const [i, name] of names.entries()) {
    await page.selectOption(`select[name="seat-${i}-type"]`, 'human');
    await page.fill(`input[name="seat-${i}-name"]`, name);
  }
  for (const x of ['ferries', 'inns', 'abbey', 'traders', 'river', 'abbot', 'labyrinth']) {
    if ((await page.isChecked(`#exp-${x}`)) !== expansions.includes(x)) await page.click(`#exp-${x}`);
  }
  // The labyrinth's variant is offered with The Labyrinth only (the choice is kept in the browser).
  assert(await page.isDisabled('#rule-labyrinth-basic') === !expansions.includes('labyrinth'), 'the basic labyrinth is offered with The Labyrinth only');
  if (expansions.includes('labyrinth') && (await page.isChecked('#rule-labyrinth-basic')) !== basic) await page.click('#rule-labyrinth-basic');
  if ((await page.isChecked('#public-game')) !== listed) await page.click('#public-game');
  if (shotName) await shot(page, shotName);
  await page.click('#create-game');
  await page.waitForSelector('body[data-page="game"][data-status]');
  const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  const gameId = hash.get('game');
  const tokens = {};
  for (const tok of hash.getAll('token')) {
    const r = await fetch(`${base}/api/games/${gameId}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: tok }) });
    tokens[(await r.json()).seat] = tok;
  }
  assert(Object.keys(tokens).length === names.length, 'every seat is played here');
  return { gameId, tokens };
}

async function playAbbeyGame(page, base, cat, gameNo) {
  const names = ['Abbess', 'Carter'];
  const { gameId, tokens } = await createHotSeatGame(page, base, names, ['ferries', 'abbey'], gameNo === 1 && 'abbey-home');
  log(`A&M game ${gameNo}: ${gameId}`);
  const stats = { turns: 0, abbeys: 0, drawsInstead: 0, wagonsDeployed: 0, wagonMoves: 0, outOfTurn: 0, barns: 0, mayors: 0 };
  const shots = new Set();
  const once = async (name) => { if (!shots.has(name)) { shots.add(name); await shot(page, `abbey${gameNo}-${name}`); } };
  for (;;) {
    if (stats.abbeys && stats.wagonMoves) break;
    const d = await waitMyTurn(page);
    if (d.status === 'finished') break;
    const version = Number(d.version);
    const seat = Number(d.toAct);
    const view = await seatView(base, gameId, tokens[seat]);
    assert(view.version === version && view.to_act === seat, `the page shows the seat's view (${version}, ${view.version})`);
    const step = view.step;
    if (step === 'end_turn') {
      await page.click('#end-turn');
      // Nothing is drawn when the next decision comes before a draw (an abbey, a wagon).
      await page.waitForFunction((v) => (document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v) && document.body.dataset.pending === '0', version, { polling: 50 });
    } else if (step === 'abbey') {
      const holes = view.legal.filter((a) => a.type === 'abbey');
      const drawn = await page.getAttribute('#drawn-tile', 'data-tile');
      assert(drawn === 'AB', `the turn panel shows the abbey (${drawn})`);
      const rings = await page.locator('[data-hole]').count();
      assert(rings === holes.length && holes.length > 0, `every hole is highlighted (${rings} of ${holes.length})`);
      if (stats.abbeys === 0) {
        const a = pickRandom(holes);
        await once('abbey-holes');
        const before = view.abbeys[seat];
        const cell = page.locator(`[data-hole="${a.at[0]},${a.at[1]}"] rect.hole`);
        if (gameNo % 2 === 1 && await cell.isVisible() && await inView(page, cell)) await cell.click();
        else await page.click(`button.opt[data-n="${holes.indexOf(a) + 1}"]`);
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        assert(after.board.some((t) => t.tile === 'AB' && t.at[0] === a.at[0] && t.at[1] === a.at[1]), 'the abbey is where it was clicked');
        assert(after.abbeys[seat] === before - 1, 'the abbey left the hand');
        assert(await page.locator(`.layer-tiles [data-tile="AB"][data-at="${a.at[0]},${a.at[1]}"]`).count() === 1, 'the board draws the abbey');
        assert(await page.locator(`table.scores tr[data-seat="${seat}"] [data-abbey="used"]`).count() === 1, 'the score board shows the abbey used');
        stats.abbeys++;
        await once('abbey-placed');
      } else {
        // Draw instead: its button, or N.
        if (stats.drawsInstead % 2) await page.keyboard.press('n'); else await page.click('#draw-tile');
        stats.drawsInstead++;
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        // After the last tile, passing the final round's abbey draws nothing: the next seat is offered its abbey, or the game ends.
        if (view.bag.total > 0) assert(after.step === 'place' && after.to_act === seat && after.drawn, 'passing the abbey draws a tile at once');
        else assert(after.status === 'finished' || after.to_act !== seat, 'after the last tile, passing the abbey ends the seat\'s final round');
      }
    } else if (step === 'place') {
      stats.turns++;
      const places = view.legal.filter((a) => a.type === 'place');
      if (!places.length) {
        await page.click('#discard');
        await waitVersionPast(page, version);
        continue;
      }
      const closing = places.filter((a) => closesAWagon(view, cat, a, view.drawn));
      const holing = stats.abbeys ? [] : places.filter((a) => makesAHole(view, a, view.drawn));
      const target = pickRandom(closing.length ? closing : holing.length ? holing : places);
      const key = `${target.at[0]},${target.at[1]}`;
      for (let i = 0; i < 400; i++) {
        const sel = await page.evaluate(() => document.querySelector('[data-ghost]')?.dataset.ghost ?? null);
        if (sel === key) break;
        await page.keyboard.press(']');
      }
      await page.waitForSelector(`[data-ghost="${key}"]`);
      for (let i = 0; i < 5; i++) {
        if (Number(await page.getAttribute('[data-ghost]', 'data-rot')) === target.rot) break;
        await page.keyboard.press('r');
      }
      assert(Number(await page.getAttribute('[data-ghost]', 'data-rot')) === target.rot, 'rotation reached');
      await page.click('#confirm');
      await waitVersionPast(page, version);
    } else if (step === 'deploy') {
      const deploys = view.legal.filter((a) => a.type === 'deploy');
      const of = (fig) => deploys.filter((a) => a.figure === fig);
      // The wagon on a road or city, else the barn and the mayor once each to see them drawn.
      const wagons = of('wagon').filter((a) => a.kind === 'road' || a.kind === 'city');
      const lp = view.last_placed;
      const open = wagons.filter((a) => !featureClosed(boardWith(view), cat, lp.at, a.meeple));
      const pickFig = open.length ? 'wagon' : of('barn').length && !stats.barns ? 'barn' : of('mayor').length && !stats.mayors ? 'mayor' : null;
      if (pickFig) {
        const offered = pickFig === 'wagon' ? open : of(pickFig);
        const a = pickRandom(offered);
        // Switch the spots to that figure: its button, or B until it is offered.
        if ((stats.wagonsDeployed + stats.barns + stats.mayors) % 2 === 0) await page.click(`.figure-choice[data-figure="${pickFig}"]`);
        else {
          for (let i = 0; i < 5 && !(await page.locator(`.spot[data-figure="${pickFig}"]`).count()); i++) await page.keyboard.press('b');
        }
        await page.waitForSelector(`.spot[data-figure="${pickFig}"]`);
        await once(`${pickFig}-spots`);
        const n = (await page.locator('button.opt').count());
        assert(n === offered.length || pickFig === 'wagon', `a choice per ${pickFig} spot (${n})`);
        const spot = page.locator(`.spot[data-figure="${pickFig}"][data-meeple="${a.meeple}"]`);
        if (await spot.isVisible() && await inView(page, spot)) await spot.click();
        else await page.click(`button.opt[data-n="${of(pickFig).indexOf(a) + 1}"]`);
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        const deployed = (after.log || []).filter((e) => e.type === 'follower_deployed').pop();
        assert(deployed && deployed.figure === pickFig && deployed.seat === seat && deployed.feature === a.meeple, `the ${pickFig} was deployed on ${a.meeple}`);
        if (after.followers.some((f) => f.figure === pickFig && f.seat === seat && f.feature === a.meeple)) {
          const drawn = await page.locator(`.layer-followers .meeple.${pickFig}`).count();
          assert(drawn >= 1, `the board draws the ${pickFig}`);
          await once(`${pickFig}-deployed`);
        }
        if (pickFig === 'wagon') stats.wagonsDeployed++; else if (pickFig === 'barn') stats.barns++; else stats.mayors++;
      } else {
        if (stats.turns % 2) await page.click('#no-follower'); else await page.keyboard.press('n');
        await waitVersionPast(page, version);
      }
    } else if (step === 'place_ferry') {
      await page.click('button.opt[data-n="1"]');
      await waitVersionPast(page, version);
    } else if (step === 'move_ferries') {
      await page.click('#done');
      await waitVersionPast(page, version);
    } else if (step === 'move_wagon') {
      const moves = view.legal.filter((a) => a.type === 'wagon');
      const waiting = view.waiting_wagons[0];
      assert(waiting && waiting.seat === seat, 'the waiting wagon is the acting seat\'s');
      const banner = await page.textContent('.board-banner');
      assert(banner.includes(names[seat]), `the banner names whose decision it is: "${banner}"`);
      assert(await page.locator('[data-waiting-wagon]').count() >= 1, 'the waiting wagon is drawn where it stood');
      const spots = await page.locator('.spot[data-pick="wagon"]').count();
      assert(spots === moves.length, `every target is on the board (${spots} of ${moves.length})`);
      if (view.current !== seat) {
        stats.outOfTurn++;
        const hint = await page.textContent('#wagon-hint');
        assert(hint.includes(names[seat]) && hint.includes(names[view.current]), `out of turn, the hint says whose turn it is: "${hint}"`);
        await once('wagon-out-of-turn');
      }
      await once('wagon-targets');
      const a = pickRandom(moves);
      const spot = page.locator(`.spot[data-pick="wagon"][data-at="${a.at[0]},${a.at[1]}"][data-meeple="${a.to}"]`);
      if (stats.wagonMoves % 2 === 0 && await spot.isVisible() && await inView(page, spot)) await spot.click();
      else await page.click(`button.opt[data-n="${moves.indexOf(a) + 1}"]`);
      await waitVersionPast(page, version);
      const after = await seatView(base, gameId, tokens[seat]);
      const moved = (after.log || []).filter((e) => e.type === 'wagon_moved').pop();
      assert(moved && moved.seat === seat && moved.at[0] === a.at[0] && moved.at[1] === a.at[1] && moved.feature === a.to, 'the wagon moved where it was clicked');
      assert(after.followers.some((f) => f.figure === 'wagon' && f.seat === seat && f.feature === a.to && f.at[0] === a.at[0] && f.at[1] === a.at[1]), 'the server has the wagon there');
      assert(await page.locator(`.layer-followers .meeple.wagon`).count() >= 1, 'the board draws it');
      stats.wagonMoves++;
      await once('wagon-moved');
    } else {
      throw new Error(`unexpected step ${step}`);
    }
  }
  log(`A&M game ${gameNo}: ${JSON.stringify(stats)}`);
  return { gameId, stats };
}

// ---------------------------------------------------------------- Traders & Builders
/** The inspector's report of the feature of piece `piece` at `at` (as a seat sees it). */
async function featureOf(base, game, at, piece, token) {
  const r = await fetch(`${base}/api/games/${game}/feature`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ at, piece, token }) });
  return r.ok ? r.json() : null;
}

/** Would placing `tile` with `a` ({at, rot}) join the feature whose pieces are `pieces` (a road's), by one of its open road edges? */
function extendsRoad(view, cat, pieces, a, tile) {
  const board = boardWith(view);
  const def = cat.get(tile);
  const edgeAt = (side) => def.edges[(SIDES.indexOf(side) - a.rot / 90 + 4) % 4];
  return pieces.some((p) => {
    const t = board.get(`${p.at[0]},${p.at[1]}`);
    const f = t && cat.get(t.tile).features[p.piece];
    if (!f || f.kind !== 'road') return false;
    return f.sides.map((s) => rotSide(s, t.rot)).some((s) => {
      const [x, y] = [p.at[0] + DIR[s][0], p.at[1] + DIR[s][1]];
      return x === a.at[0] && y === a.at[1] && edgeAt(OPP[s]) === 'road';
    });
  });
}

/** Deploys `fig` on the option `a` of the deploy step: its figure button or B, then its spot on the board or its button in the list. */
async function deployFigure(page, view, a, fig, byKey) {
  // With one kind of figure to deploy the page offers no choice of figure.
  const kinds = new Set(view.legal.filter((x) => x.type === 'deploy').map((x) => x.figure || 'normal'));
  if (kinds.size > 1) {
    if (byKey) { for (let i = 0; i < 5 && !(await page.locator(`.spot[data-figure="${fig}"]`).count()); i++) await page.keyboard.press('b'); }
    else await page.click(`.figure-choice[data-figure="${fig}"]`);
  }
  await page.waitForSelector(`.spot[data-figure="${fig}"]`);
  const of = view.legal.filter((x) => x.type === 'deploy' && (x.figure || 'normal') === fig);
  const spot = page.locator(`.spot[data-figure="${fig}"][data-meeple="${a.meeple}"]`);
  if (!byKey && await spot.isVisible() && await inView(page, spot)) await spot.click();
  else await page.click(`button.opt[data-n="${of.indexOf(a) + 1}"]`);
}

/**
 * A hot-seat Traders & Builders + Ferries game played by clicking, steered
 * towards a builder's second turn: a follower on a road, the builder on a
 * later tile extending it, then another tile extending it. On the way a
 * farmer and, when the deal allows, the pig. Returns what it did.
 */
async function playTradersGame(page, base, cat, gameNo) {
  const names = ['Trader', 'Mason'];
  const { gameId, tokens } = await createHotSeatGame(page, base, names, ['ferries', 'traders'], gameNo === 1 && 'traders-home');
  log(`T&B game ${gameNo}: ${gameId}`);
  const stats = { turns: 0, builders: 0, pigs: 0, secondTurns: 0, afterSecond: 0, goods: 0 };
  const shots = new Set();
  const once = async (name) => { if (!shots.has(name)) { shots.add(name); await shot(page, `traders${gameNo}-${name}`); } };
  for (;;) {
    if (stats.secondTurns && (stats.pigs || stats.afterSecond > 12)) break;
    const d = await waitMyTurn(page);
    if (d.status === 'finished') break;
    const version = Number(d.version);
    const seat = Number(d.toAct);
    const view = await seatView(base, gameId, tokens[seat]);
    assert(view.version === version && view.to_act === seat, `the page shows the seat's view (${version}, ${view.version})`);
    const mine = (fig, kind) => (view.followers || []).filter((f) => f.seat === seat && f.figure === fig && f.kind === kind);
    const step = view.step;
    if (step === 'end_turn') {
      const second = view.second_turn === true && view.current === seat;
      if (second) {
        const hint = await page.textContent('#second-turn-hint');
        assert(hint.includes(names[seat]) && /second turn/.test(hint), `the turn's end says a second turn follows: "${hint}"`);
        await once('second-turn-due');
      }
      await page.click('#end-turn');
      await page.waitForFunction((v) => (document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v) && document.body.dataset.pending === '0', version, { polling: 50 });
      if (second) {
        // The same seat plays again, the tile drawn for it; everyone sees it.
        const pub = await api(base, `/api/games/${gameId}`);
        assert(pub.second_turn === true && pub.current === seat && pub.to_act === seat && pub.step === 'place', `the same seat plays a second turn (${pub.current}, ${pub.step})`);
        await page.waitForSelector('#second-turn-banner');
        const banner = await page.textContent('.board-banner');
        assert(banner.includes(`second turn: ${names[seat]}’s builder`), `the banner says whose second turn it is: "${banner}"`);
        const told = (pub.log || []).filter((e) => e.type === 'second_turn').pop();
        assert(told && told.seat === seat, 'the log has the second turn');
        const line = await page.locator('.log .entry[data-type="second_turn"]').last().textContent();
        assert(line.includes(names[seat]) && line.includes('plays a second turn'), `the log says it: "${line}"`);
        assert(Number(await page.evaluate(() => document.body.dataset.toAct)) === seat, 'the page asks the same seat');
        stats.secondTurns++;
        await once('second-turn');
      } else if (stats.secondTurns) stats.afterSecond++;
    } else if (step === 'place') {
      stats.turns++;
      const places = view.legal.filter((a) => a.type === 'place');
      if (!places.length) {
        await page.click('#discard');
        await waitVersionPast(page, version);
        continue;
      }
      // The road the builder stands on, else the seat's follower's: extend it.
      const roadOf = async (f) => f && (await featureOf(base, gameId, f.at, f.piece, tokens[seat]));
      const builder = await roadOf(mine('builder', 'road')[0]);
      const follower = builder ? null : await roadOf(mine('normal', 'road')[0]);
      const road = builder || follower;
      const extending = road && !road.complete ? places.filter((a) => extendsRoad(view, cat, road.pieces, a, view.drawn)) : [];
      const roads = places.filter((a) => cat.get(view.drawn).edges.includes('road'));
      const target = pickRandom(extending.length ? extending : roads.length ? roads : places);
      const key = `${target.at[0]},${target.at[1]}`;
      for (let i = 0; i < 400; i++) {
        const sel = await page.evaluate(() => document.querySelector('[data-ghost]')?.dataset.ghost ?? null);
        if (sel === key) break;
        await page.keyboard.press(']');
      }
      await page.waitForSelector(`[data-ghost="${key}"]`);
      for (let i = 0; i < 5; i++) {
        if (Number(await page.getAttribute('[data-ghost]', 'data-rot')) === target.rot) break;
        await page.keyboard.press('r');
      }
      assert(Number(await page.getAttribute('[data-ghost]', 'data-rot')) === target.rot, 'rotation reached');
      await page.click('#confirm');
      await waitVersionPast(page, version);
    } else if (step === 'deploy') {
      const deploys = view.legal.filter((a) => a.type === 'deploy');
      const of = (fig, kind) => deploys.filter((a) => (a.figure || 'normal') === fig && (!kind || a.kind === kind));
      let pickFig = null, offered = [];
      if (of('builder').length) [pickFig, offered] = ['builder', of('builder', 'road').length ? of('builder', 'road') : of('builder')];
      else if (of('pig').length && !stats.pigs) [pickFig, offered] = ['pig', of('pig')];
      else if (!mine('normal', 'road').length && of('normal', 'road').length) [pickFig, offered] = ['normal', of('normal', 'road')];
      else if (!mine('normal', 'field').length && of('normal', 'field').length && view.supply[seat] > 3) [pickFig, offered] = ['normal', of('normal', 'field')];
      if (pickFig) {
        const a = pickRandom(offered);
        await deployFigure(page, view, a, pickFig, (stats.builders + stats.pigs) % 2 === 1);
        if (pickFig !== 'normal') await once(`${pickFig}-spots`);
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        const deployed = (after.log || []).filter((e) => e.type === 'follower_deployed').pop();
        assert(deployed && (deployed.figure || 'normal') === pickFig && deployed.seat === seat && deployed.feature === a.meeple, `the ${pickFig} was deployed on ${a.meeple}`);
        if (pickFig !== 'normal') {
          assert(after.followers.some((f) => f.figure === pickFig && f.seat === seat), `the server has the ${pickFig}`);
          assert(await page.locator(`.layer-followers .meeple.${pickFig}`).count() >= 1, `the board draws the ${pickFig}`);
          const left = after.figures.find((f) => f.figure === pickFig).supply[seat];
          assert(left === 0, `the ${pickFig} left the supply`);
          await once(`${pickFig}-deployed`);
          if (pickFig === 'builder') stats.builders++; else stats.pigs++;
        }
      } else {
        if (stats.turns % 2) await page.click('#no-follower'); else await page.keyboard.press('n');
        await waitVersionPast(page, version);
      }
    } else if (step === 'place_ferry') {
      await page.click('button.opt[data-n="1"]');
      await waitVersionPast(page, version);
    } else if (step === 'move_ferries') {
      await page.click('#done');
      await waitVersionPast(page, version);
    } else {
      throw new Error(`unexpected step ${step}`);
    }
  }
  // The goods on the score board are the view's.
  const v = await api(base, `/api/games/${gameId}`);
  for (const s of [0, 1]) {
    await page.waitForSelector(`table.scores tr[data-seat="${s}"] .goods`);
    const shown = await page.getAttribute(`table.scores tr[data-seat="${s}"] .goods`, 'data-goods');
    const g = v.goods[s];
    assert(shown === [g.wine, g.grain, g.cloth].join(','), `seat ${s}'s goods on the score board (${shown})`);
    stats.goods += g.wine + g.grain + g.cloth;
  }
  log(`T&B game ${gameNo}: ${JSON.stringify(stats)}`);
  return { gameId, stats };
}

// ---------------------------------------------------------------- The Abbot and The Labyrinth
/**
 * A hot-seat game with The Abbot and The Labyrinth played by the keys and
 * clicks until a seat's abbot, deployed on a monastery or a garden, is
 * taken back at its next deploy step: by a click on it on the board, taken
 * back again with Undo, then by the key A; the score grows by what the
 * monastery or garden is worth (1 and each tile around it), the log says
 * so. Tiles are placed where they first fit. Returns what it did.
 */
async function playAbbotGame(page, base, gameNo) {
  const names = ['Abbess', 'Prior'];
  const { gameId, tokens } = await createHotSeatGame(page, base, names, ['abbot', 'labyrinth'], gameNo === 1 && 'abbot-home');
  log(`Abbot game ${gameNo}: ${gameId}`);
  const start = await api(base, `/api/games/${gameId}`);
  const stats = { turns: 0, abbots: 0, takenBack: 0, gardens: 0, labyrinth: 0 };
  const shots = new Set();
  const once = async (name) => { if (!shots.has(name)) { shots.add(name); await shot(page, `abbot${gameNo}-${name}`); } };
  const score = async (seat) => Number(await page.textContent(`table.scores [data-score="${seat}"]`));
  while (!stats.takenBack) {
    const d = await waitMyTurn(page);
    if (d.status === 'finished') break;
    const version = Number(d.version);
    const seat = Number(d.toAct);
    const view = await seatView(base, gameId, tokens[seat]);
    assert(view.version === version && view.to_act === seat, `the page shows the seat's view (${version}, ${view.version})`);
    if (view.step === 'end_turn') {
      await page.click('#end-turn');
      await page.waitForFunction((v) => (document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v) && document.body.dataset.pending === '0', version, { polling: 50 });
    } else if (view.step === 'place') {
      stats.turns++;
      const target = view.legal.find((a) => a.type === 'place');
      if (!target) { await page.click('#discard'); await waitVersionPast(page, version); continue; }
      if (/G$/.test(view.drawn)) stats.gardens++;
      if (view.drawn === 'LA') stats.labyrinth++;
      const key = `${target.at[0]},${target.at[1]}`;
      for (let i = 0; i < 400; i++) {
        if (await page.evaluate(() => document.querySelector('[data-ghost]')?.dataset.ghost ?? null) === key) break;
        await page.keyboard.press(']');
      }
      for (let i = 0; i < 5 && Number(await page.getAttribute('[data-ghost]', 'data-rot')) !== target.rot; i++) await page.keyboard.press('r');
      await page.click('#confirm');
      await waitVersionPast(page, version);
      if (view.drawn === 'LA') {
        await page.waitForSelector(`.layer-tiles [data-tile="LA"][data-at="${key}"]`);
        await once('labyrinth-placed');
      }
    } else if (view.step === 'deploy') {
      const abbotSpots = view.legal.filter((a) => a.type === 'deploy' && a.figure === 'abbot');
      const back = view.legal.find((a) => a.type === 'return_abbot');
      if (back) {
        // The seat's abbot: ringed on the board with what it scores, and a choice in the list.
        const mine = view.followers.find((f) => f.figure === 'abbot' && f.seat === seat);
        assert(mine && mine.at[0] === back.at[0] && mine.at[1] === back.at[1], `the abbot stands where it may be taken back (${JSON.stringify(mine)})`);
        const around = view.board.filter((t) => Math.max(Math.abs(t.at[0] - back.at[0]), Math.abs(t.at[1] - back.at[1])) === 1).length;
        const points = 1 + around;
        const ring = page.locator(`.take-back[data-pick="return_abbot"][data-at="${back.at[0]},${back.at[1]}"]`);
        await ring.waitFor();
        assert(Number(await ring.getAttribute('data-points')) === points, `the ring says what taking it back scores (${await ring.getAttribute('data-points')}, ${points})`);
        const label = await page.textContent('#take-back-abbot');
        assert(label.includes(`+${points} points`) && !/\(-?\d+, -?\d+\)/.test(label), `the choice says how much, and no coordinates (the abbot is ringed on the board): "${label}"`);
        assert((await page.textContent('#abbot-hint')).includes(`${points} points`), 'the hint says it too');
        await once('take-back-offered');
        // Taken back by a click on the abbot (or its choice, if the board hides it).
        const before = await score(seat);
        const circle = ring.locator('circle.ring');
        if (await circle.isVisible() && await inView(page, circle) && await onTop(page, circle)) await circle.click();
        else await page.click('#take-back-abbot');
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        assert(after.scores[seat] === view.scores[seat] + points, `the abbot scored ${points} (${view.scores[seat]} → ${after.scores[seat]})`);
        assert(await score(seat) === before + points, 'the score board shows it');
        assert(!after.followers.some((f) => f.figure === 'abbot' && f.seat === seat), 'the abbot left the board');
        assert(after.figures.find((f) => f.figure === 'abbot').supply[seat] === 1, 'the abbot is back in the supply');
        const scored = after.log.filter((e) => e.type === 'scored').pop();
        assert(scored && !scored.completed && !scored.end_of_game && ['garden', 'monastery'].includes(scored.kind) && scored.points[seat] === points, `the log has the scoring (${JSON.stringify(scored)})`);
        const line = await page.locator('.log .entry.take-back').last().textContent();
        assert(line.includes(names[seat]) && line.includes(`takes the abbot back from the ${scored.kind}`) && line.includes(`${points} points`), `the log says it: "${line}"`);
        const returned = await page.locator('.log .entry[data-type="follower_returned"]').last().textContent();
        assert(returned.includes('abbot returns'), `the abbot returns, says the log: "${returned}"`);
        assert(await page.locator('.layer-followers .meeple.abbot').count() === 0, 'the board no longer draws it');
        await once('abbot-taken-back');
        // Undo puts it back; the key A takes it back again.
        await page.keyboard.press('u');
        await page.waitForFunction(() => document.body.dataset.step === 'deploy' && document.body.dataset.pending === '0', null, { polling: 50 });
        await ring.waitFor();
        assert(await score(seat) === before, 'undone: the score is as before');
        const v1 = Number(await page.evaluate(() => document.body.dataset.version));
        await page.keyboard.press('a');
        await waitVersionPast(page, v1);
        const again = await seatView(base, gameId, tokens[seat]);
        assert(again.scores[seat] === view.scores[seat] + points && again.step === 'end_turn', `the key A takes it back (${again.scores[seat]}, ${again.step})`);
        await page.click('#end-turn');
        await page.waitForFunction((v) => (document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v) && document.body.dataset.pending === '0', again.version, { polling: 50 });
        const pub = await api(base, `/api/games/${gameId}`);
        assert(pub.scores[seat] === view.scores[seat] + points, 'once the turn is ended everyone sees the points');
        stats.takenBack++;
      } else if (abbotSpots.length && !stats.abbots) {
        // The abbot on the monastery or the garden: its figure button, then its spot.
        const a = abbotSpots[0];
        await deployFigure(page, view, a, 'abbot', false);
        await waitVersionPast(page, version);
        const after = await seatView(base, gameId, tokens[seat]);
        const deployed = after.log.filter((e) => e.type === 'follower_deployed').pop();
        assert(deployed && deployed.figure === 'abbot' && deployed.feature === a.meeple, `the abbot was deployed on ${a.meeple}`);
        assert(await page.locator('.layer-followers .meeple.abbot').count() === 1, 'the board draws the abbot');
        assert(await page.locator(`table.scores tr[data-seat="${seat}"] svg.meeple-icon.abbot`).count() === 1, 'the score board shows the abbot');
        const line = await page.locator('.log .entry[data-type="follower_deployed"]').last().textContent();
        assert(line.includes(`abbot in the ${a.meeple}`), `the log says where the abbot went: "${line}"`);
        await once(`abbot-on-${a.meeple}`);
        stats.abbots++;
      } else {
        await page.keyboard.press('n');
        await waitVersionPast(page, version);
      }
    } else {
      throw new Error(`unexpected step ${view.step}`);
    }
  }
  log(`Abbot game ${gameNo}: ${JSON.stringify(stats)}`);
  return { gameId, stats, start };
}

// ---------------------------------------------------------------- main
const { browser, cleanup } = await launch();
let server = null;
try {
  await check('the server starts and serves the UI', async () => {
    server = await startServer();
    const r = await fetch(`${server.base}/`);
    const html = await r.text();
    assert(r.ok && html.includes('app.js'), 'index.html is the UI');
    const js = await fetch(`${server.base}/app.js`);
    assert(/javascript/.test(js.headers.get('content-type') || ''), 'app.js is served as JavaScript (ES modules need it)');
  });
  if (!server) throw new Error('no server');
  const base = server.base;
  const tiles = (await api(base, '/api/tiles')).tiles;
  const cat = new Map(tiles.map((t) => [t.id, t]));

  const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
  // These games end their turns by a click or a key: "End my turn by itself" off (its check turns it on).
  await context.addInitScript(() => { try { if (localStorage.getItem('carcassonne.autoEnd') === null) localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
  const page = await context.newPage();
  watchPage(page, 'player');
  const spectCtx = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const spect = await spectCtx.newPage();
  spectPage = spect;
  watchPage(spect, 'spectator');

  let finished = null;
  let hotSeatGame = null;
  let spectatorChecked = false;
  await check('create a Ferries game against a bot and play it to the end by clicking, placing and moving ferries', async () => {
    for (let g = 1; g <= MAX_GAMES; g++) {
      const res = await playOneGame(page, base, cat, g, async (link) => {
        if (spectatorChecked) return;
        spectatorChecked = true;
        await spect.goto(link);
        await spect.waitForSelector('body[data-page="game"][data-status="active"]');
      });
      finished = res;
      if (res.stats.ferriesPlaced > 0 && res.stats.ferriesMoved > 0) return;
      log(`game ${g} offered no ${res.stats.ferriesPlaced ? 'ferry move' : 'lake tile'} to the tester: another game`);
    }
    throw new Error(`no game out of ${MAX_GAMES} had both a ferry placed and a ferry moved`);
  });

  await check('the end-of-game breakdown matches the server', async () => {
    assert(finished, 'a finished game');
    const view = await api(base, `/api/games/${finished.gameId}`);
    assert(view.status === 'finished' && view.final, 'the game is finished');
    await page.waitForSelector('dialog[open] .final table');
    await shot(page, 'final-breakdown');
    for (let s = 0; s < view.final.scores.length; s++) {
      const txt = await page.textContent(`dialog[open] .final tr[data-seat="${s}"] td:last-child`);
      assert(Number(txt) === view.final.scores[s], `seat ${s} total ${txt} = ${view.final.scores[s]}`);
    }
    await page.click('#close-final');
    await shot(page, 'final-board');
    const scored = await page.locator('.log-section .log .entry.scored').count();
    const expected = view.log.filter((e) => e.type === 'scored').length;
    assert(scored === expected, `the log shows every scoring (${scored} of ${expected})`);
  });

  await check('a spectator link is read-only and follows the game live', async () => {
    assert(spectatorChecked, 'the spectator page was opened at the start of the game');
    await spect.waitForSelector('body[data-status="finished"]', { timeout: 30000 });
    const v = Number(await spect.evaluate(() => document.body.dataset.version));
    const view = await api(base, `/api/games/${finished.gameId}`);
    assert(v === view.version, `the spectator saw the last version (${v} of ${view.version})`);
    assert(await spect.locator('.cell-legal, .spot, .ferry-opt').count() === 0, 'no choices offered to a spectator');
    await spect.keyboard.press('Escape');
    await shot(spect, 'spectator');
  });

  let againId = null;
  await check('play again: a new game with the same seats, opened at once; the home page lists it live', async () => {
    // The spectator's browser shows the home page; the new public game appears there without a reload.
    await spect.goto(`${base}/`);
    await spect.waitForSelector('body[data-ready="1"][data-page="home"] #active-games .game-list');
    const old = await api(base, `/api/games/${finished.gameId}`);
    await page.click('#play-again');
    await page.waitForFunction((g) => { const id = new URLSearchParams(location.hash.slice(1)).get('game'); return id && id !== g && document.body.dataset.status === 'active'; }, finished.gameId);
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    againId = hash.get('game');
    assert(hash.getAll('token').length === 1, 'the tester plays the same seat');
    const fresh = await api(base, `/api/games/${againId}`);
    const seatsOf = (v) => JSON.stringify(v.seats.map((x) => [x.name, x.type, x.level || null]));
    assert(seatsOf(fresh) === seatsOf(old), `the same seats (${seatsOf(fresh)} vs ${seatsOf(old)})`);
    assert(JSON.stringify(fresh.setup.expansions) === JSON.stringify(old.setup.expansions) && fresh.setup.edition === old.setup.edition, 'the same expansions and edition');
    await page.waitForSelector('.scores tr[data-seat="0"] .tag.you');
    await spect.waitForSelector(`#active-games li[data-game="${againId}"]`, { timeout: 15000 });
    await shot(spect, 'home-lists-live');
  });

  await check('a game that does not exist gets a clear page with a way back', async () => {
    await page.goto(`${base}/#game=0123456789abcdef`);
    await page.waitForSelector('#missing');
    assert((await page.textContent('#missing')).includes('No such game'), 'the page says so');
    await sleep(1500);
    assert(await page.evaluate(() => document.body.dataset.conn || '') === '', 'no connection is tried for it');
    await shot(page, 'missing-game');
    await page.click('#missing-home');
    await page.waitForSelector('body[data-page="home"]');
    await page.goto(`${base}/#replay=0123456789abcdef`);
    await page.waitForSelector('#missing');
  });

  await check('an invited seat: its link is on the game page and joins that seat', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"][data-page="home"]');
    await page.selectOption('select[name="seat-1-type"]', 'invite');
    await page.fill('input[name="seat-1-name"]', 'Invited Friend');
    await page.click('#create-game');
    await page.waitForSelector('#invites .link-row[data-seat="1"]');
    const link = await page.inputValue('#invites .link-row[data-seat="1"] input');
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert(hash.getAll('token').length === 1 && !link.includes(hash.get('token')), 'the invited seat is not played here');
    await shot(page, 'invite-links');
    await spect.goto(link);
    await spect.waitForSelector('.scores tr[data-seat="1"] .tag.you');
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"][data-page="home"]');
    await page.selectOption('select[name="seat-1-type"]', 'bot');
  });

  await check('a stale action is refused with its typed code, shown, and the board refreshed', async () => {
    // A second game; its first action is sent with a wrong version (rewritten in flight).
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-page="home"]');
    await page.click('#create-game');
    await waitMyTurn(page);
    await page.route('**/api/games/*/actions', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const body = JSON.parse(route.request().postData());
      body.version -= 1;
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.keyboard.press(']');
    const sel = await page.getAttribute('[data-ghost]', 'data-ghost');
    await page.click('#confirm');
    await page.waitForSelector('.toast.error[data-code="stale_version"]');
    await shot(page, 'error-stale-version');
    await page.unroute('**/api/games/*/actions');
    assert(await page.getAttribute('[data-ghost]', 'data-ghost') === sel, 'the selection is kept after the refusal');
    const before = Number(await page.evaluate(() => document.body.dataset.version));
    await page.click('#confirm');
    await waitVersionPast(page, before);
  });

  await check('phone width (360 px): the layout fits, touch wording, the board stays in view, dialogs fit, the game is playable', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const p = await phone.newPage();
    watchPage(p, 'phone');
    await p.goto(`${base}/`);
    await p.waitForSelector('body[data-page="home"]');
    const w = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(w <= 361, `home has no sideways scrolling (${w}px)`);
    await shot(p, 'phone-home');
    await p.click('#create-game');
    await waitMyTurn(p);
    const words = async () => p.textContent('.turn-panel');
    const noKeys = (t) => !/click|press|follower \(N\)|Done \(N\)|tile \(N\)|\(R\)|Enter\b/i.test(t);
    assert(/tap/i.test(await words()) && noKeys(await words()), `touch wording: "${await words()}"`);
    await p.tap('.cell-legal >> nth=0');
    await p.waitForSelector('[data-ghost]');
    assert(/tap/i.test(await words()) && noKeys(await words()), `touch wording once selected: "${await words()}"`);
    const w2 = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(w2 <= 361, `game has no sideways scrolling (${w2}px)`);
    await assertTapsUnpainted(p, 'the tile to confirm on a phone');
    await shot(p, 'phone-game');
    const v = Number(await p.evaluate(() => document.body.dataset.version));
    await p.tap('#confirm');
    await waitVersionPast(p, v);
    await shot(p, 'phone-after-place');
    // The choices below the board: scrolled to, the board stays in view.
    const choice = (await p.locator('#no-follower').count()) ? '#no-follower' : '.turn-panel .actions button';
    await p.locator(choice).first().scrollIntoViewIfNeeded();
    await p.evaluate(() => window.scrollBy(0, 400));
    const bb = await p.locator('.board-wrap').boundingBox();
    assert(bb && bb.y > -5 && bb.y + bb.height > 200, `the board stays in view while choosing (${JSON.stringify(bb)})`);
    assert(noKeys(await words()), `touch wording at the next step: "${await words()}"`);
    await shot(p, 'phone-choosing');
    await p.evaluate(() => window.scrollTo(0, 0));
    // A tap on a feature tells about it (touch has no hover).
    const phoneHash = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1));
    // (The turn is not ended: the tester's view counts its provisional tile.)
    await inspectStartCity(p, base, phoneHash.get('game'), 'tap', { token: phoneHash.get('token') });
    await shot(p, 'phone-inspector');
    await p.tap('#inspector .ins-close');
    // Pinch (two touches spreading) zooms in; one finger pans.
    const vb = () => p.evaluate(() => document.querySelector('svg.board').getAttribute('viewBox').split(' ').map(Number));
    const box = await p.locator('svg.board').boundingBox();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const cdp = await phone.newCDPSession(p);
    const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], i) => ({ x, y, id: i + 1 })) });
    const z0 = await vb();
    await touch('touchStart', [[cx - 30, cy], [cx + 30, cy]]);
    for (let i = 1; i <= 6; i++) await touch('touchMove', [[cx - 30 - i * 15, cy], [cx + 30 + i * 15, cy]]);
    await touch('touchEnd', []);
    const z1 = await vb();
    assert(z1[2] < z0[2] * 0.7, `pinching zooms in (${z0[2]} -> ${z1[2]})`);
    await touch('touchStart', [[cx, cy]]);
    for (let i = 1; i <= 6; i++) await touch('touchMove', [[cx - i * 12, cy - i * 6]]);
    await touch('touchEnd', []);
    const z2 = await vb();
    assert(z2[0] > z1[0] && z2[1] > z1[1], `a one-finger drag pans (${z1} -> ${z2})`);
    await shot(p, 'phone-pinched');
    // Dialogs fit the width: the keys and the final scores of a finished game.
    const fits = async (sel) => p.evaluate((s) => {
      const d = document.querySelector(s);
      const r = d.getBoundingClientRect();
      return { left: r.left, right: r.right, scroll: d.scrollWidth, client: d.clientWidth, wide: document.documentElement.scrollWidth };
    }, sel);
    await p.evaluate(() => { window.scrollTo(0, 0); document.getElementById('help-btn').click(); });
    await p.waitForSelector('#help-dialog[open]');
    let f = await fits('#help-dialog');
    assert(f.left >= 0 && f.right <= 360 && f.scroll <= f.client + 1, `the keys dialog fits (${JSON.stringify(f)})`);
    await p.keyboard.press('Escape');
    await p.goto(`${base}/#game=${finished.gameId}`);
    await p.waitForSelector('dialog[open] .final table');
    f = await fits('dialog[open]');
    const table = await p.evaluate(() => document.querySelector('dialog[open] .final table').getBoundingClientRect().width);
    assert(f.left >= 0 && f.right <= 360 && f.scroll <= f.client + 1 && table <= f.client, `the final scores dialog fits (${JSON.stringify(f)}, table ${table})`);
    await shot(p, 'phone-final-scores');
    await phone.close();
  });

  await check('hot-seat: two human seats in one browser take turns', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-page="home"]');
    await page.selectOption('select[name="seat-1-type"]', 'human');
    await page.fill('input[name="seat-1-name"]', 'Second Seat');
    await page.click('#create-game');
    await page.waitForSelector('body[data-page="game"][data-status]');
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert(hash.getAll('token').length === 2, 'both seats are played in this browser');
    for (const seat of [0, 1]) {
      const d = await waitMyTurn(page);
      assert(d.toAct === String(seat) && d.step === 'place', `seat ${seat} is asked to place (${d.toAct}, ${d.step})`);
      const banner = await page.textContent('.board-banner');
      const name = seat ? 'Second Seat' : 'E2E Tester';
      assert(banner.includes(name), `the banner names ${name}: "${banner}"`);
      await page.keyboard.press(']');
      await page.keyboard.press('Enter');
      await waitVersionPast(page, Number(d.version));
      const d2 = await waitMyTurn(page);
      if (d2.step === 'deploy') { await page.keyboard.press('n'); await waitVersionPast(page, Number(d2.version)); }
      const d3 = await waitMyTurn(page);
      if (d3.step === 'place_ferry') { await page.keyboard.press('1'); await waitVersionPast(page, Number(d3.version)); }
      const d4 = await waitMyTurn(page);
      if (d4.step === 'move_ferries') { await page.keyboard.press('n'); await waitVersionPast(page, Number(d4.version)); }
      const d5 = await waitMyTurn(page);
      assert(d5.step === 'end_turn', `the turn waits to be ended (${d5.step})`);
      await page.keyboard.press('Enter');
      await waitVersionPast(page, Number(d5.version));
      if (seat === 0) await shot(page, 'hot-seat-second-seat');
    }
    const d = await waitMyTurn(page);
    assert(d.toAct === '0', 'back to the first seat');
    hotSeatGame = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  });

  await check('toasts never stand over the board (nor the inspector, the board\'s buttons, the turn panel) and let clicks through; the turn panel names the turn being ended (hot-seat, 1366 and 390 px)', async () => {
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      // The turn is ended by the key here (the countdown has its own check).
      await ctx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
      const p = await ctx.newPage();
      watchPage(p, `toasts-${width}`);
      const { gameId, tokens } = await createFromHome(p, base, [['human', 'Alice'], ['human', 'Bob']]);
      assert(tokens.length === 2, 'both seats are played here');
      await waitMyTurn(p);
      const head = await p.textContent('#turn-head');
      assert(/\b1\b/.test(head) && head.includes('Alice'), `the panel names turn 1 and Alice: "${head}"`);
      await playToEndOfTurn(p);
      const endHead = await p.textContent('#turn-head');
      assert(endHead === head, `while Alice ends her turn the panel still names it ("${endHead}", not the next one; was "${head}")`);
      // The inspector shown (pointing at the start city; it stays while the pointer rests there).
      if (!phone) await inspectStartCity(p, base, gameId, 'hover', { token: tokens[0] });
      const v0 = Number(await p.evaluate(() => document.body.dataset.version));
      await p.keyboard.press('Enter');
      const toastSel = '#toasts .toast[data-key="turn"]';
      await p.waitForSelector(toastSel);
      await waitVersionPast(p, v0);
      assert((await p.textContent(toastSel)).includes('Bob'), 'the toast says whose turn it is');
      const box = await p.locator(toastSel).boundingBox();
      const b = await boxesOf(p, ['#inspector', '.board-tools', '.board-banner', '.board-wrap', 'section.turn']);
      // Never over the board: its tiles, spots, ✓ and buttons, and the inspector, stay free for the mouse.
      for (const sel of ['.board-wrap', '#inspector', '.board-tools', '.board-banner', 'section.turn']) {
        assert(!boxesMeet(box, b[sel]), `the toast stays clear of ${sel} (${JSON.stringify([box, b[sel]])})`);
      }
      if (!phone) assert(b['#inspector'], 'the inspector is shown, the toast apart from it');
      await pointShot(p, 'toasts');
      // A click on the toast's words goes to what is under it (rather where
      // that is nothing that acts; on a phone, where 44 px controls fill the
      // panel below the board, it may be one of them: the test's listener
      // keeps the click from acting).
      const pt = await p.evaluate(() => {
        const r = document.querySelector('#toasts .toast[data-key="turn"] .msg').getBoundingClientRect();
        let any = null;
        for (const fx of [0.5, 0.3, 0.7, 0.15, 0.85]) {
          for (const fy of [0.5, 0.2, 0.8]) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (!hit || hit.closest('#toasts')) continue;
            if (!hit.closest('[data-pick], button, input, label, a, select')) return [x, y, hit.tagName];
            any = any || [x, y, hit.tagName];
          }
        }
        return any;
      });
      assert(pt, 'the toast lets the pointer through to what is under it');
      await p.evaluate(() => {
        window.__click = null;
        document.addEventListener('click', (e) => {
          const r = e.target.getBoundingClientRect();
          window.__click = e.target.closest('#toasts') ? 'toast' : { tag: e.target.tagName, box: [r.left, r.top, r.right, r.bottom] };
          e.preventDefault();
          e.stopImmediatePropagation();
        }, { capture: true, once: true });
      });
      if (phone) await p.touchscreen.tap(pt[0], pt[1]); else await p.mouse.click(pt[0], pt[1]);
      const got = await p.evaluate(() => window.__click);
      assert(got && got !== 'toast', `the click went through the toast (${JSON.stringify(got)})`);
      // A tap lands on what is under it; a touch screen may move it to a control within a fingertip (44 px targets sit close).
      const near = got.box && pt[0] >= got.box[0] - 24 && pt[0] <= got.box[2] + 24 && pt[1] >= got.box[1] - 24 && pt[1] <= got.box[3] + 24;
      assert(phone ? near : got.tag === pt[2], `the click went through the toast to ${pt[2]} (${JSON.stringify(got)})`);
      // And the board right beside it takes its clicks: the inspector answers a point on the start city.
      if (!phone) {
        await inspectStartCity(p, base, gameId, 'hover', { token: tokens[1] });
      }
      // The close button still closes it.
      if (await p.locator(toastSel).count()) {
        await p.click(`${toastSel} .close`);
        await p.waitForSelector(toastSel, { state: 'detached' });
      }
      const bobHead = await p.textContent('#turn-head');
      assert(/\b2\b/.test(bobHead) && bobHead.includes('Bob'), `then the panel names turn 2 and Bob: "${bobHead}"`);
      await ctx.close();
    }
  });

  await check('ferry handles: every set of choices on a lake of four jetties is spread so that no two handles overlap', async () => {
    await page.goto(`${base}/?handles=1`);
    await page.waitForSelector('body[data-ready="1"]');
    const worst = await page.evaluate(async () => {
      const { ferryHandles, ferryPath } = await import('/tiles.js');
      const all = ['N-E', 'N-S', 'N-W', 'E-S', 'E-W', 'S-W'];
      let w = { d: Infinity };
      // Placing: up to six crossings offered; moving: the other five at most, the boat on the lake.
      for (const boat of [null, ...all]) {
        for (let mask = 1; mask < 64; mask++) {
          const pairs = all.filter((x, i) => mask & (1 << i) && x !== boat);
          if (!pairs.length || pairs.length !== all.filter((_, i) => mask & (1 << i)).length) continue;
          const { points: pts, r } = ferryHandles(pairs, boat ? [ferryPath(boat).mid] : []);
          // Apart by more than a handle's box (2 r) on one axis at least.
          for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
            const d = Math.max(Math.abs(pts[i][0] - pts[j][0]), Math.abs(pts[i][1] - pts[j][1])) - 2 * r;
            if (d < w.d) w = { d, pairs, boat, r };
          }
        }
      }
      return w;
    });
    assert(worst.d >= 0.5, `no two handles' boxes meet (closest: ${JSON.stringify(worst)})`);
    const sizes = await page.evaluate(async () => {
      const { ferryHandles } = await import('/tiles.js');
      const all = ['N-E', 'N-S', 'N-W', 'E-S', 'E-W', 'S-W'];
      return { five: Math.min(...all.map((skip) => ferryHandles(all.filter((x) => x !== skip)).r)), six: ferryHandles(all).r };
    });
    assert(sizes.five === 6.5 && sizes.six >= 5, `up to five handles at full size, six a little smaller (${JSON.stringify(sizes)})`);
  });

  await check('fewer clicks: a follower step with nothing to deploy is passed for the player, said why; a played-out turn ends by itself after a countdown (on by default), not after Undo, and waits when turned off (remembered)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const p = await ctx.newPage();
    watchPage(p, 'auto-1366');
    const { gameId, tokens } = await createFromHome(p, base, [['human', 'Tester'], ['bot', null]]);
    const token = tokens[0];
    // Followers on fields (they stay there), so that the supply runs out.
    const order = ['field', 'monastery', 'city', 'road', 'garden'];
    const deploy = (view) => {
      const opts = view.legal.filter((a) => a.type === 'deploy' && !a.figure);
      for (const k of order) { const i = opts.findIndex((a) => a.kind === k); if (i >= 0) return i + 1; }
      return null;
    };
    const opt = { deploy, base, game: gameId, token };
    // On by default: a countdown, and the turn ends by itself.
    let d = await playToEndOfTurn(p, opt);
    const t0 = Date.now();
    await p.waitForSelector('#auto-end-count');
    assert(await p.isChecked('#auto-end-toggle'), 'the setting is on by default');
    const said = await p.textContent('#auto-end-count');
    assert(/ends by itself in [123]\ss/.test(said), `the countdown is shown: "${said}"`);
    await pointShot(p, 'auto-end');
    await p.waitForFunction((v) => document.body.dataset.step !== 'end_turn' && Number(document.body.dataset.version) > v, Number(d.version), { timeout: 9000, polling: 50 });
    const took = Date.now() - t0;
    assert(took > 2200 && took < 7000, `the turn ended by itself, about 3 s after its last decision (${took} ms)`);
    const pub = await api(base, `/api/games/${gameId}`);
    assert(pub.turn >= 1 && pub.version >= Number(d.version), `the server has the turn ended (turn ${pub.turn})`);
    // Undo during the countdown: the decision is taken back and nothing ends the turn.
    d = await playToEndOfTurn(p, opt);
    await p.waitForSelector('#auto-end-count');
    await p.click('#undo');
    await p.waitForFunction(() => document.body.dataset.step !== 'end_turn' && document.body.dataset.pending === '0', null, { polling: 50 });
    await sleep(3800);
    assert(await p.evaluate(() => document.body.dataset.step) !== 'end_turn' && await p.locator('#auto-end-count').count() === 0, 'after Undo the turn waits for the player');
    d = await playToEndOfTurn(p, opt);
    await p.waitForSelector('#auto-end-count');
    // Turned off: no countdown, the turn waits; the browser remembers it.
    await p.click('#auto-end-toggle');
    assert(await p.locator('#auto-end-count').count() === 0, 'turned off, the countdown stops');
    await sleep(3800);
    assert(await p.evaluate(() => document.body.dataset.step) === 'end_turn', 'turned off, the turn waits to be ended');
    assert(await p.evaluate(() => localStorage.getItem('carcassonne.autoEnd')) === '0', 'the browser keeps the setting');
    await p.goto(`${base}/?again=1#game=${gameId}&token=${token}`);
    await waitMyTurn(p);
    assert(await p.evaluate(() => document.body.dataset.step) === 'end_turn' && !(await p.isChecked('#auto-end-toggle')), 'after a reload the setting is still off');
    await p.keyboard.press('Enter');
    await waitVersionPast(p, Number(d.version));
    // The supply runs out; the next follower step is passed for the player, once, with a note.
    let passed = false;
    for (let turn = 0; turn < 40 && !passed; turn++) {
      const dd = await waitMyTurn(p);
      if (dd.status === 'finished') break;
      if (dd.step === 'place') {
        const before = await seatView(base, gameId, token);
        const v = Number(dd.version);
        if (!before.legal.some((a) => a.type === 'place')) { await p.keyboard.press('n'); await waitVersionPast(p, v); continue; }
        await p.keyboard.press(']');
        await p.keyboard.press('Enter');
        await p.waitForFunction((v) => Number(document.body.dataset.version) > v && document.body.dataset.pending === '0', v, { polling: 50 });
        if (before.supply[0] === 0) {
          const now = await seatView(base, gameId, token);
          const lp = now.log.filter((e) => e.type === 'tile_placed').pop();
          assert(now.step !== 'deploy', `with no follower left the follower step is not shown (${now.step})`);
          const note = await p.textContent('#toasts [data-key="auto-pass"] .msg');
          assert(note.includes('No follower left in supply'), `a note says why: "${note}"`);
          assert(lp && lp.seat === 0, 'the tile is placed');
          // Undo leads back to it: one clear Continue, a hint that says why.
          if (now.step !== 'end_turn' || now.undoable >= 2) {
            await p.click('#undo');
            await p.waitForFunction(() => document.body.dataset.step === 'deploy' && document.body.dataset.pending === '0', null, { polling: 50 });
            const label = await p.textContent('#no-follower');
            const hint = await p.textContent('#nothing-hint');
            assert(label.includes('Continue') && await p.locator('.turn-panel .actions button.primary').count() === 1, `one Continue: "${label}"`);
            assert(hint.includes('No follower left in supply') && !/Click a spot|Tap a spot/.test(await p.textContent('.turn-panel')), `the hint does not contradict itself: "${hint}"`);
            await sleep(600);
            assert(await p.evaluate(() => document.body.dataset.step) === 'deploy', 'come back to by Undo, it is not passed again by itself');
            await pointShot(p, 'follower-step');
            const v2 = Number(await p.evaluate(() => document.body.dataset.version));
            await p.click('#no-follower');
            await waitVersionPast(p, v2);
          }
          passed = true;
        }
        continue;
      }
      const ended = await playToEndOfTurn(p, opt);
      if (ended.step === 'end_turn') { await p.keyboard.press('Enter'); await waitVersionPast(p, Number(ended.version)); }
    }
    assert(passed, 'the supply ran out and a follower step was passed for the player');
    await ctx.close();
    // On a phone: the countdown in the turn panel, in touch words.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const q = await phone.newPage();
    watchPage(q, 'auto-390');
    await createFromHome(q, base, [['human', 'Tester'], ['bot', null]]);
    const e = await playToEndOfTurn(q);
    await q.waitForSelector('#auto-end-count');
    await q.locator('#auto-end-count').scrollIntoViewIfNeeded();
    assert(!/click|press|Enter\b/i.test(await q.textContent('.turn-panel')), 'touch words');
    await pointShot(q, 'auto-end');
    await q.waitForFunction((v) => document.body.dataset.step !== 'end_turn' && Number(document.body.dataset.version) > v, Number(e.version), { timeout: 9000, polling: 50 });
    await phone.close();
  });

  await check('the view follows a bot\'s tile off screen, gently, unless the view was just moved; fit keeps every tile below the banner (1366 and 390 px)', async () => {
    assert(finished, 'a finished game');
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const p = await ctx.newPage();
      watchPage(p, `fit-${width}`);
      await p.goto(`${base}/#game=${finished.gameId}`);
      await p.waitForSelector('dialog[open] .final table');
      await p.click('#close-final');
      await p.keyboard.press('ArrowUp');
      await p.click('button[aria-label="fit board"]');
      await p.waitForTimeout(200);
      const r = await p.evaluate(() => {
        const banner = document.querySelector('.board-banner').getBoundingClientRect();
        const svg = document.querySelector('svg.board').getBoundingClientRect();
        const tiles = [...document.querySelectorAll('.layer-tiles use')].map((u) => u.getBoundingClientRect());
        return {
          n: tiles.length, banner: banner.bottom, svg: [svg.left, svg.top, svg.right, svg.bottom],
          tiles: [Math.min(...tiles.map((t) => t.left)), Math.min(...tiles.map((t) => t.top)), Math.max(...tiles.map((t) => t.right)), Math.max(...tiles.map((t) => t.bottom))],
        };
      });
      assert(r.n > 10, `the finished board has its tiles (${r.n})`);
      assert(r.tiles[1] >= r.banner, `fit: the top row is below the banner (${r.tiles[1]} vs ${r.banner})`);
      assert(r.tiles[0] >= r.svg[0] - 0.5 && r.tiles[2] <= r.svg[2] + 0.5 && r.tiles[3] <= r.svg[3] + 0.5, `fit: every tile is on the board (${JSON.stringify(r)})`);
      await pointShot(p, 'fit');
      await ctx.close();
    }
    // A game against a bot, its turns ended by the key.
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await ctx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const p = await ctx.newPage();
    watchPage(p, 'follow-1366');
    const { gameId } = await createFromHome(p, base, [['human', 'Tester'], ['bot', null]]);
    for (const quiet of [true, false, true]) {
      const d = await playToEndOfTurn(p);
      if (d.status === 'finished') break;
      // Away from the board: the arrows move the view far to the west.
      for (let i = 0; i < 16; i++) await p.keyboard.press('ArrowLeft');
      if (quiet) await sleep(3000);
      await p.evaluate(() => {
        window.__glided = false;
        const svg = document.querySelector('svg.board');
        if (window.__glideWatch) window.__glideWatch.disconnect();
        window.__glideWatch = new MutationObserver(() => { if (svg.dataset.gliding) window.__glided = true; });
        window.__glideWatch.observe(svg, { attributes: true, attributeFilter: ['data-gliding'] });
      });
      await p.keyboard.press('Enter');
      await waitVersionPast(p, Number(d.version));
      const next = await waitMyTurn(p);
      if (next.status === 'finished') break;
      await p.waitForFunction(() => !document.querySelector('svg.board').dataset.gliding, null, { timeout: 3000, polling: 50 });
      const pub = await api(base, `/api/games/${gameId}`);
      const botTile = pub.last_placed;
      const glided = await p.evaluate(() => window.__glided);
      if (!botTile || botTile.seat !== 1) { log('the bot placed no tile (a discard): no view to follow'); continue; }
      if (quiet) {
        assert(glided, "the view glided to the bot's tile");
        const tb = await p.locator(`.layer-tiles use[data-at="${botTile.at[0]},${botTile.at[1]}"]`).boundingBox();
        const sb = await p.locator('svg.board').boundingBox();
        assert(tb && tb.x >= sb.x && tb.y >= sb.y && tb.x + tb.width <= sb.x + sb.width && tb.y + tb.height <= sb.y + sb.height, `the bot's tile at ${botTile.at} is in view (${JSON.stringify([tb, sb])})`);
        await pointShot(p, 'follow');
      } else {
        assert(!glided, 'moved a moment ago, the view is left alone');
      }
    }
    await ctx.close();
  });

  // ------------------------------------------------------------ issue 31, points 3, 7 and 10
  await check('touch targets (issue 31): at 390 px every control and follower spot takes a fingertip (44 px), crowded spots through the chooser', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await phone.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const p = await phone.newPage();
    watchPage(p, 'touch-390');
    const seen = [];
    const allBig = async (where) => {
      const r = await smallTargets(p);
      assert(r.measured > 0, `${where}: controls measured`);
      assert(r.small.length === 0, `${where}: every control at least 44 × 44 px; smaller: ${r.small.join('; ')}`);
      seen.push(`${where}: ${r.measured}`);
    };
    await p.goto(`${base}/`);
    await p.waitForSelector('body[data-ready="1"][data-page="home"]');
    await allBig('home');
    await p.tap('#help-btn');
    await p.waitForSelector('#help-dialog[open]');
    await allBig('help');
    await p.tap('#help-close');
    const { gameId, tokens } = await createFromHome(p, base, [['human', 'Tester'], ['bot', null]]);
    let chose = false;
    for (let turn = 0; turn < 15 && !chose; turn++) {
      let d = await waitMyTurn(p);
      if (d.status === 'finished') break;
      assert(d.step === 'place', `a turn starts with its tile (${d.step})`);
      await allBig(`turn ${turn + 1}, place`);
      if (!await p.locator('.cell-legal').count()) { await p.tap('#discard'); await waitVersionPast(p, Number(d.version)); continue; }
      await tapCell(p);
      await p.waitForSelector('[data-ghost]');
      await allBig(`turn ${turn + 1}, a position tapped (its ✓ and ↻)`);
      await p.tap('#confirm');
      await waitVersionPast(p, Number(d.version));
      for (let step = 0; step < 8; step++) {
        d = await waitMyTurn(p);
        if (d.status === 'finished' || d.step === 'place') break;
        const v = Number(d.version);
        await allBig(`turn ${turn + 1}, ${d.step}`);
        if (d.step === 'deploy' && !chose && await p.locator('.spot').count() >= 2) {
          // Zoomed in, each spot is a target of its own, apart from the others.
          for (let i = 0; i < 8; i++) await p.tap('button[aria-label="zoom in"]');
          await p.keyboard.press('l');
          await p.waitForFunction(() => !document.querySelector('.chooser-hit'), null, { timeout: 3000 });
          const close = await crowdedTaps(p, 'svg.board .spot .tap');
          assert(close.length === 0, `zoomed in, no two spots closer than 44 px: ${close}`);
          await allBig(`turn ${turn + 1}, spots zoomed in`);
          // Zoomed out, the tile's spots crowd: one tap on the tile opens its chooser.
          for (let i = 0; i < 14 && !await p.locator('.chooser-hit').count(); i++) await p.tap('button[aria-label="zoom out"]');
          await p.keyboard.press('l');
          assert(await p.locator('.chooser-hit').count() === 1, 'zoomed out, the crowded tile is chosen through its chooser');
          assert(await p.locator('svg.board .spot[data-pick]').count() === 0, 'its spots are not tapped one by one');
          await allBig(`turn ${turn + 1}, spots crowded`);
          await p.tap('.chooser-hit .tap');
          await p.waitForSelector('#chooser[open]');
          await allBig('the chooser');
          const apart = await crowdedTaps(p, '#chooser .chooser-item .tap');
          assert(apart.length === 0, `in the chooser no two choices are closer than 44 px: ${apart}`);
          const n = await p.locator('#chooser .chooser-item[data-n]').count();
          assert(n === await p.locator('.turn-panel button.opt').count(), `the chooser has every spot of the step (${n})`);
          await pointShot(p, 'touch');
          const before = await seatView(base, gameId, tokens[0]);
          const pick = before.legal.filter((a) => a.type === 'deploy')[0];
          await p.tap('#chooser .chooser-item[data-n="1"] .tap');
          await waitVersionPast(p, v);
          const after = await seatView(base, gameId, tokens[0]);
          const put = after.log.find((e) => e.type === 'follower_deployed' && e.seat === 0 && e.feature === pick.meeple && e.version > v);
          assert(put && !await p.locator('#chooser[open]').count(), `the chooser's first choice put the follower there (${pick.meeple})`);
          chose = true;
          continue;
        }
        if (d.step === 'deploy' || d.step === 'move_ferries') await p.tap(d.step === 'deploy' ? '#no-follower' : '#done');
        else if (d.step === 'place_ferry') await p.tap('.turn-panel button.opt >> nth=0');
        else if (d.step === 'end_turn') await p.tap('#end-turn');
        await waitVersionPast(p, v);
      }
    }
    assert(chose, 'a follower step with several spots came, and its chooser was used');
    // A lake of four jetties offering all six crossings (the most crowded a
    // tile gets): in its chooser each handle takes a fingertip, none too near another.
    await p.evaluate(async () => {
      const { openChooser } = await import('/chooser.js');
      const { ferryHandles } = await import('/tiles.js');
      const pairs = ['N-E', 'N-S', 'N-W', 'E-S', 'E-W', 'S-W'];
      const { points, r } = ferryHandles(pairs);
      openChooser({ at: [0, 0], tile: 'F4', rot: 0, items: pairs.map((ferry, i) => ({ type: 'ferry', n: i + 1, p: points[i], r, opt: { ferry }, words: ferry })) }, { title: 'ferry', onPick() {}, onWhy() {} });
    });
    await p.waitForSelector('#chooser[open]');
    await allBig('a lake\'s six crossings in the chooser');
    const lake = await crowdedTaps(p, '#chooser .chooser-item .tap');
    assert(lake.length === 0 && await p.locator('#chooser .chooser-ferry').count() === 6, `the six handles apart in the chooser: ${lake}`);
    await p.tap('#chooser-close');
    // The end of a game: its final scores and statistics, then the board.
    await p.goto(`${base}/#game=${finished.gameId}`);
    await p.waitForSelector('dialog[open] .final table');
    await allBig('final scores');
    await p.tap('#close-final');
    await allBig('a finished game');
    await p.goto(`${base}/#replay=${finished.gameId}`);
    await p.waitForSelector('body[data-page="replay"][data-replay-version]');
    await allBig('the replay');
    log(`measured: ${seen.join(', ')}`);
    await phone.close();
    // With a mouse nothing changes: spots at their own size, no chooser.
    const desk = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await desk.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const q = await desk.newPage();
    watchPage(q, 'touch-1366');
    await createFromHome(q, base, [['human', 'Tester'], ['bot', null]]);
    for (let i = 0; i < 6; i++) {
      const d = await waitMyTurn(q);
      if (d.step === 'deploy' && await q.locator('.spot').count() >= 2) break;
      if (d.step === 'place') { await q.keyboard.press(']'); await q.keyboard.press('Enter'); }
      else if (d.step === 'place_ferry') await q.keyboard.press('1');
      else if (d.step === 'end_turn') await q.keyboard.press('Enter');
      else await q.keyboard.press('n');
      await waitVersionPast(q, Number(d.version));
    }
    assert(await q.locator('.chooser-hit').count() === 0, 'with a mouse no tile needs the chooser');
    await pointShot(q, 'touch');
    await desk.close();
  });

  await check('rules help (issue 31): "?" tells the rules of the base game and of each expansion in play, in English, German and Polish; the figures\' icons are large and explained without hover', async () => {
    // Games made through the API, two seats played here (no bot to wait for).
    const make = async (expansions, rules = {}) => {
      const r = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seats: [{ type: 'human', name: 'Ann' }, { type: 'human', name: 'Bob' }], expansions, rules, undo: true }) });
      const g = await r.json();
      return `${base}/#game=${g.game}${g.seats.map((s) => `&token=${s.token}`).join('')}`;
    };
    const games = [
      [['ferries'], {}],
      [['inns', 'abbey', 'traders', 'ferries'], { 'tiny-city-scoring': 2 }],
      [['river', 'abbot', 'labyrinth'], { 'labyrinth-variant': 'basic' }],
    ];
    const links = [];
    for (const [e, r] of games) links.push(await make(e, r));
    const ORDER = ['base', 'river', 'ferries', 'inns', 'abbey', 'traders', 'abbot', 'labyrinth'];
    const english = {};
    for (const [locale, width, height, phone] of [['en-GB', 1366, 768, false], ['en-GB', 390, 844, true], ['de-DE', 1366, 768, false], ['pl-PL', 390, 844, true]]) {
      const ctx = await browser.newContext({ locale, viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const p = await ctx.newPage();
      watchPage(p, `rules-${locale}-${width}`);
      for (const [i, link] of links.entries()) {
        const [expansions, rules] = games[i];
        await p.goto(link);
        // (The same page, another game: wait for this one's view.)
        await p.waitForSelector(`body[data-page="game"][data-game="${new URLSearchParams(link.split('#')[1]).get('game')}"][data-status="active"]`);
        await p.click('#help-btn');
        await p.waitForSelector('#help-dialog[open]');
        const parts = await p.evaluate(() => [...document.querySelectorAll('#help-dialog h3[data-rules]')].map((e) => ({ id: e.dataset.rules, title: e.textContent, points: [...e.nextElementSibling.querySelectorAll('li')].map((li) => li.textContent) })));
        const want = ORDER.filter((x) => x === 'base' || expansions.includes(x));
        assert(JSON.stringify(parts.map((x) => x.id)) === JSON.stringify(want), `the rules of ${want} (${parts.map((x) => x.id)})`);
        assert(parts.every((x) => x.points.length >= 2 && x.points.every((t) => t.length > 40)), 'each part says a few rules in sentences');
        const all = parts.flatMap((x) => x.points).join(' ');
        if (rules['tiny-city-scoring']) assert(/\b2\b.*\b4\b/.test(parts[0].points.at(-1)) && parts[0].points.length === 7, `the variant's rule is said: "${parts[0].points.at(-1)}"`);
        if (rules['labyrinth-variant']) assert(parts.find((x) => x.id === 'labyrinth').points.length === 2 && !/\b2\b/.test(parts.find((x) => x.id === 'labyrinth').points[1]), 'the basic labyrinth is said, not the 2 points a figure');
        if (locale.startsWith('en')) english[i] = all;
        else assert(all !== english[i] && !all.includes(english[i].slice(0, 60)), `the rules in ${locale}`);
        // The keys follow the rules.
        assert(await p.locator('#help-dialog kbd').count() > 10, 'the keys are there too');
        if (i === 1) await pointShot(p, locale.startsWith('en') ? 'rules' : `rules-${locale.slice(0, 2)}`);
        const f = await p.evaluate(() => { const d = document.getElementById('help-dialog'); const r = d.getBoundingClientRect(); return { left: r.left, right: r.right, scroll: d.scrollWidth, client: d.clientWidth }; });
        assert(f.left >= 0 && f.right <= width && f.scroll <= f.client + 1, `the help fits the width (${JSON.stringify(f)})`);
        await p.click('#help-close');
        const lacking = await p.evaluate(() => [...window.__i18n.missing]);
        assert(lacking.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(lacking)})`);
        // The score board: each figure's icon at least 16 px, and named in sight.
        const view = await api(base, `/api/games/${new URLSearchParams(link.split('#')[1]).get('game')}`);
        const icons = await p.evaluate(() => [...document.querySelectorAll('.scores .supply svg.meeple-icon')].map((s) => { const r = s.getBoundingClientRect(); return [s.dataset.figure, r.width, r.height]; }));
        assert(icons.length && icons.every(([, w, hh]) => w >= 16 && hh >= 16), `the figures' icons are at least 16 px: ${JSON.stringify(icons.filter(([, w, hh]) => w < 16 || hh < 16).slice(0, 3))}`);
        const legend = await p.evaluate(() => [...document.querySelectorAll('#figure-legend .legend-item')].map((e) => ({ figure: e.dataset.figure, words: e.textContent.trim(), shown: e.getBoundingClientRect().height > 0 })));
        const figs = view.figures.map((f) => f.figure);
        assert(figs.every((f) => legend.some((l) => l.figure === f && l.shown && l.words.length > 2)), `the legend names every figure in play (${figs}; ${JSON.stringify(legend)})`);
        if (view.abbeys) assert(legend.some((l) => l.figure === 'abbey'), 'the legend shows the abbey');
        if (view.goods) assert(legend.some((l) => l.figure === 'goods'), 'the legend shows the goods');
        if (i === 1) {
          await p.locator('#figure-legend').scrollIntoViewIfNeeded();
          await pointShot(p, locale.startsWith('en') ? 'icons' : `icons-${locale.slice(0, 2)}`);
        }
      }
      // The home page: the base game, and each expansion to unfold.
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      await p.click('#help-btn');
      await p.waitForSelector('#help-dialog[open]');
      assert(await p.locator('#help-dialog details.rules-exp').count() === 7, 'the home page\'s help has every expansion to unfold');
      await p.click('#help-close');
      const missing = await p.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await ctx.close();
    }
  });

  await check('sounds (issue 31): made in the browser after a gesture (a turn chime, a tile, a figure, a scoring), with a mute switch the browser keeps', async () => {
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      await ctx.addInitScript(stubAudio);
      await ctx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
      const p = await ctx.newPage();
      watchPage(p, `sounds-${width}`);
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      assert(!await p.evaluate(() => window.__audioContexts), 'no sound before the player has touched the page');
      assert(await p.getAttribute('#sound-toggle', 'aria-pressed') === 'true', 'sounds are on by default');
      // Fetched nothing: every sound is made here.
      const fetched = [];
      p.on('request', (r) => { if (/\.(mp3|ogg|wav|m4a|webm|aac)(\?|$)/.test(r.url())) fetched.push(r.url()); });
      await createFromHome(p, base, [['human', 'Tester'], ['bot', null]]);
      assert(await p.evaluate(() => window.__audioContexts) >= 1, 'the click that created the game woke the sound');
      const sounds = () => p.evaluate(() => [...window.__sounds]);
      const oscillators = () => p.evaluate(() => window.__oscillators.length);
      let d = await playToEndOfTurn(p);
      assert((await sounds()).includes('place'), `the tile laid knocks (${await sounds()})`);
      assert(await oscillators() > 0, 'the sounds are played (oscillators started)');
      await p.keyboard.press('Enter');
      await waitVersionPast(p, Number(d.version));
      d = await waitMyTurn(p);
      await p.waitForFunction(() => window.__sounds.includes('turn'), null, { timeout: 5000 }).catch(() => {});
      const heard = await sounds();
      assert(heard.filter((x) => x === 'place').length >= 2 && heard.includes('turn'), `the bot's tile knocks and the turn chimes when it comes back (${heard})`);
      if (await p.evaluate(() => !!document.body.dataset.scoringsShown)) assert(heard.includes('score'), `a scoring sounds (${heard})`);
      await pointShot(p, 'sounds');
      // Muted: nothing sounds, and the browser remembers it.
      await p.click('#sound-toggle');
      assert(await p.getAttribute('#sound-toggle', 'aria-pressed') === 'false', 'the switch mutes');
      assert(await p.evaluate(() => localStorage.getItem('carcassonne.sound')) === '0', 'the browser keeps it');
      const [n0, o0] = [(await sounds()).length, await oscillators()];
      d = await playToEndOfTurn(p);
      await p.keyboard.press('Enter');
      await waitVersionPast(p, Number(d.version));
      await waitMyTurn(p);
      await sleep(1200);
      assert((await sounds()).length === n0 && await oscillators() === o0, `muted, a whole turn made no sound (${(await sounds()).slice(n0)})`);
      await p.reload();
      await p.waitForSelector('body[data-page="game"][data-status]');
      assert(await p.getAttribute('#sound-toggle', 'aria-pressed') === 'false', 'after a reload the sound is still off');
      await p.click('#sound-toggle');
      assert(await p.getAttribute('#sound-toggle', 'aria-pressed') === 'true' && await p.evaluate(() => localStorage.getItem('carcassonne.sound')) === '1', 'and on again');
      assert(await oscillators() > 0, 'turned on, it plays a knock to hear it');
      assert(fetched.length === 0, `no sound file fetched (${fetched})`);
      await ctx.close();
    }
  });

  await check('animations (issue 31): a tile and a figure slide into place; under prefers-reduced-motion nothing moves', async () => {
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      await ctx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
      const p = await ctx.newPage();
      watchPage(p, `motion-${width}`);
      const { gameId, tokens } = await createFromHome(p, base, [['human', 'Tester'], ['bot', null]]);
      // Watched from the first change of the board: what moves in.
      const watch = () => p.evaluate(() => {
        window.__moved = new Set();
        const svg = document.querySelector('svg.board');
        const note = () => { for (const a of document.getAnimations()) if (a.animationName) window.__moved.add(a.animationName); for (const e of svg.querySelectorAll('.tile-in, .fig-in, .ferry-in')) window.__moved.add(e.getAttribute('class')); };
        if (window.__motionWatch) window.__motionWatch.disconnect();
        window.__motionWatch = new MutationObserver(note);
        window.__motionWatch.observe(svg, { childList: true, subtree: true });
      });
      const moved = () => p.evaluate(() => [...window.__moved]);
      let d = await waitMyTurn(p);
      await watch();
      // (A tile that fits nowhere is discarded, and another drawn.)
      while (d.step === 'place') {
        await placeByKeys(p);
        await waitVersionPast(p, Number(d.version));
        d = await waitMyTurn(p);
      }
      if (d.step === 'deploy') {
        const view = await seatView(base, gameId, tokens[0]);
        if (view.legal.some((a) => a.type === 'deploy')) { await p.click('.turn-panel button.opt >> nth=0'); await waitVersionPast(p, Number(d.version)); }
      }
      const m = await moved();
      assert(m.includes('tile-in'), `the tile laid slides in (${m})`);
      if (m.some((x) => x === 'fig-in') || (await seatView(base, gameId, tokens[0])).followers.length) assert(m.includes('fig-in'), `the figure set down drops in (${m})`);
      await pointShot(p, 'motion');
      // Less motion asked for: no animation, no transition, the classes not given at all.
      await p.emulateMedia({ reducedMotion: 'reduce' });
      d = await playToEndOfTurn(p);
      await p.keyboard.press('Enter');
      await waitVersionPast(p, Number(d.version));
      d = await waitMyTurn(p);
      await watch();
      while (d.step === 'place') {
        await placeByKeys(p);
        await waitVersionPast(p, Number(d.version));
        d = await waitMyTurn(p);
      }
      const still = await p.evaluate(() => ({
        classes: [...window.__moved], running: document.getAnimations().map((a) => a.animationName || a.transitionProperty || 'animation'),
        drawn: getComputedStyle(document.getElementById('drawn-tile') || document.body).transitionDuration,
        ring: (() => { const e = document.createElementNS('http://www.w3.org/2000/svg', 'circle'); e.setAttribute('class', 'movable-ring'); document.querySelector('svg.board .layer-options').appendChild(e); const a = getComputedStyle(e).animationName; e.remove(); return a; })(),
      }));
      assert(still.classes.length === 0 && still.running.length === 0, `under reduced motion nothing moves in (${JSON.stringify(still)})`);
      assert(/^0s(, 0s)*$/.test(still.drawn) && still.ring === 'none', `transitions and the spinning rings are off too (${JSON.stringify(still)})`);
      await ctx.close();
    }
  });

  await check('end-of-game statistics (issue 31): points by kind, the score over the turns and the figures put down, as the server\'s view of the game has them (1366 and 390 px)', async () => {
    assert(finished, 'a finished game');
    const view = await api(base, `/api/games/${finished.gameId}`);
    const n = view.final.scores.length;
    // What the log says, computed here apart from the page.
    const kinds = Array.from({ length: n }, () => ({}));
    const figures = Array.from({ length: n }, () => ({}));
    const during = Array.from({ length: n }, () => new Array(view.turn + 1).fill(0));
    for (const e of view.log) {
      if (e.type === 'scored') e.points.forEach((pts, s) => { if (pts) { kinds[s][e.kind] = (kinds[s][e.kind] || 0) + pts; if (!e.end_of_game) during[s][e.turn] += pts; } });
      if (e.type === 'follower_deployed') figures[e.seat][e.figure || 'normal'] = (figures[e.seat][e.figure || 'normal'] || 0) + 1;
    }
    (view.final.goods || []).forEach((g, s) => { if (g) kinds[s].goods = g; });
    for (let s = 0; s < n; s++) {
      const sum = Object.values(kinds[s]).reduce((a, b) => a + b, 0);
      assert(sum === view.final.scores[s], `seat ${s}: the kinds add up to the final score (${sum} vs ${view.final.scores[s]})`);
    }
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const p = await ctx.newPage();
      watchPage(p, `stats-${width}`);
      await p.goto(`${base}/#game=${finished.gameId}`);
      await p.waitForSelector('dialog[open] #stats');
      const shown = await p.evaluate(() => ({
        kinds: [...document.querySelectorAll('#stats-kinds tbody tr')].map((tr) => ({ seat: Number(tr.dataset.seat), cells: Object.fromEntries([...tr.querySelectorAll('td[data-kind]')].map((td) => [td.dataset.kind, Number(td.dataset.points)])) })),
        lines: [...document.querySelectorAll('#score-chart .score-line')].map((l) => ({ seat: Number(l.dataset.seat), points: l.dataset.points.split(',').map(Number), n: l.getAttribute('points').split(' ').length })),
        figures: [...document.querySelectorAll('#stats-figures tbody tr')].map((tr) => ({ seat: Number(tr.dataset.seat), cells: Object.fromEntries([...tr.querySelectorAll('td[data-figure]')].map((td) => [td.dataset.figure, Number(td.dataset.count)])) })),
        chart: (() => { const r = document.getElementById('score-chart').getBoundingClientRect(); return [r.width, r.height]; })(),
      }));
      assert(shown.kinds.length === n && shown.lines.length === n && shown.figures.length === n, `a row and a line for each player (${JSON.stringify(shown).slice(0, 200)})`);
      for (const row of shown.kinds) {
        for (const [k, pts] of Object.entries(kinds[row.seat])) assert(row.cells[k] === pts, `seat ${row.seat}: ${k} ${row.cells[k]} = ${pts} as the log has it`);
        for (const [k, pts] of Object.entries(row.cells)) assert(pts === (kinds[row.seat][k] || 0), `seat ${row.seat}: ${k} shown ${pts}`);
      }
      for (const l of shown.lines) {
        let sum = 0;
        const want = [...during[l.seat].map((x) => (sum += x)), view.final.scores[l.seat]];
        assert(JSON.stringify(l.points) === JSON.stringify(want) && l.n === want.length, `seat ${l.seat}'s line: the score after each of the ${view.turn} turns, then the end (${l.points.slice(-3)} vs ${want.slice(-3)})`);
      }
      for (const row of shown.figures) {
        for (const [f, c] of Object.entries(figures[row.seat])) assert(row.cells[f] === c, `seat ${row.seat}: ${c} ${f} put down (${row.cells[f]})`);
      }
      assert(shown.chart[0] > 200 && shown.chart[1] > 80, `the chart is drawn (${shown.chart})`);
      const fits = await p.evaluate(() => { const d = document.querySelector('dialog[open]'); return d.scrollWidth <= d.clientWidth + 1 && document.documentElement.scrollWidth <= window.innerWidth + 1; });
      assert(fits, 'the statistics fit the width');
      await p.evaluate(() => document.getElementById('stats').scrollIntoView({ block: 'start' }));
      await pointShot(p, 'stats');
      await ctx.close();
    }
  });

  await check('a random first player (issue 31): the lobby\'s option has the server draw who begins, the seats going round from there, and this browser plays its own seat', async () => {
    for (const [width, height, phone] of [[390, 844, true], [1366, 768, false]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const p = await ctx.newPage();
      watchPage(p, `first-${width}`);
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      await p.selectOption('select[name="seat-1-type"]', 'invite');
      await p.fill('input[name="seat-1-name"]', 'Guest A');
      await p.click('#add-seat');
      await p.selectOption('select[name="seat-2-type"]', 'invite');
      await p.fill('input[name="seat-2-name"]', 'Guest B');
      await p.fill('input[name="seat-0-name"]', 'Tester');
      await p.check('#opt-random-first');
      assert(/random/i.test(await p.textContent('#first-words')), `the lobby says a random seat begins: "${await p.textContent('#first-words')}"`);
      if (phone) { await p.locator('#opt-random-first').scrollIntoViewIfNeeded(); await pointShot(p, 'first'); }
      const asked = ['Tester', 'Guest A', 'Guest B'];
      const firsts = new Set();
      let shot = phone;
      for (let g = 0; g < 10 && (firsts.size < 2 || !shot); g++) {
        if (g) { await p.goto(`${base}/`); await p.waitForSelector('body[data-ready="1"][data-page="home"]'); assert(await p.isChecked('#opt-random-first'), 'the option is kept for the next game'); }
        const created = p.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST');
        await p.click('#create-game');
        const res = await (await created).json();
        await p.waitForSelector('body[data-page="game"][data-status="active"]');
        const first = res.seats[0].asked;
        firsts.add(first);
        const view = await api(base, `/api/games/${res.game}`);
        const order = asked.map((_, k) => asked[(first + k) % 3]);
        assert(JSON.stringify(view.seats.map((s) => s.name)) === JSON.stringify(order) && JSON.stringify(view.setup.players) === JSON.stringify(order), `round the table from ${asked[first]}: ${view.seats.map((s) => s.name)}`);
        assert(res.seats.every((s, k) => s.asked === (first + k) % 3), 'each seat says where it was asked for');
        // This browser plays the tester's seat, wherever it now sits.
        const mine = (3 - first) % 3;
        const hash = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1));
        const joined = await (await fetch(`${base}/api/games/${res.game}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: hash.get('token') }) })).json();
        assert(hash.getAll('token').length === 1 && joined.seat === mine, `the tester plays seat ${mine} (${joined.seat})`);
        await p.waitForSelector(`.scores tr[data-seat="${mine}"] .tag.you`);
        assert((await p.textContent('#turn-head')).includes(order[0]) && view.to_act === 0, `the first to play is ${order[0]}: "${await p.textContent('#turn-head')}"`);
        const rec = await (await fetch(`${base}/api/games/${res.game}/record`)).json();
        assert(JSON.stringify(rec.setup.players) === JSON.stringify(order), 'the record has the players in turn order');
        if (!shot && first !== 0) { await pointShot(p, 'first'); shot = true; }
      }
      assert(firsts.size >= 2, `over the games more than one seat began (${[...firsts]})`);
      // Unticked: seat 1 begins.
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      await p.uncheck('#opt-random-first');
      const created = p.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST');
      await p.click('#create-game');
      const res = await (await created).json();
      assert(res.seats.map((s) => s.name).join() === asked.join(), `without the option the seats are as listed (${res.seats.map((s) => s.name)})`);
      await ctx.close();
    }
  });

  await check('the inspector after a ferry move that completes a road (issue 31): pointing at the road, it tells the road completed, not as it was', async () => {
    const file = path.join(ROOT, 'crates/server/tests/data/ferry-move-completes-road.json');
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [width, height, phone] of [[1366, 768, false], [390, 844, true]]) {
      const ctx = await browser.newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const p = await ctx.newPage();
      watchPage(p, `inspector-ferry-${width}`);
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      await p.setInputFiles('#open-file', file);
      await p.waitForSelector('body[data-page="replay"][data-replay-version="1"]');
      const opened = JSON.parse(await p.evaluate(() => sessionStorage.getItem('carcassonne.record'))).record;
      const feature = async (version) => {
        const r = await fetch(`${base}/api/records/feature`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ record: opened, version, at: [0, 0], piece: road }) });
        assert(r.ok, `POST /api/records/feature: ${r.status}`);
        return r.json();
      };
      // The start tile's road (D: west to east, through the middle).
      let road = null;
      for (let piece = 0; piece < 4 && road === null; piece++) {
        const r = await (await fetch(`${base}/api/records/feature`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ record: opened, version: 19, at: [0, 0], piece }) })).json();
        if (r.kind === 'road') road = piece;
      }
      assert(road !== null && record.turns[5].moves, 'the record moves a ferry in its sixth turn');
      const goTo = async (v) => {
        for (let i = 0; i < 40; i++) {
          const now = Number(await p.evaluate(() => document.body.dataset.replayVersion));
          if (now === v) return;
          await p.click(now < v ? '#replay-forward' : '#replay-back');
          await p.waitForFunction((n) => Number(document.body.dataset.replayVersion) !== n, now);
        }
      };
      await goTo(19);
      await p.click('button[aria-label="fit board"]');
      const [x, y] = await boardToScreen(p, 25, 50);
      const point = async () => { if (phone) await p.touchscreen.tap(x, y); else { await p.mouse.move(x - 4, y); await p.mouse.move(x, y); } };
      await point();
      await p.waitForSelector('#inspector:not(.hidden)[data-kind="road"][data-at="0,0"][data-version="19"]');
      const open = await feature(19);
      assert(!open.complete && await p.getAttribute('#inspector', 'data-complete') === '0' && Number(await p.getAttribute('#inspector', 'data-tiles')) === open.tiles.length, `before the move the road is open (${open.tiles.length} tiles)`);
      // The move, the pointer resting on the road: the card follows.
      await p.keyboard.press('ArrowRight');
      await p.waitForSelector('#inspector:not(.hidden)[data-version="20"]', { timeout: 5000 });
      const done = await feature(20);
      assert(done.complete && done.tiles.length === 5, `the server has the road completed by the move (${JSON.stringify(done)})`);
      const card = async () => ({ complete: await p.getAttribute('#inspector', 'data-complete'), tiles: Number(await p.getAttribute('#inspector', 'data-tiles')), text: await p.textContent('#inspector') });
      let c = await card();
      assert(c.complete === '1' && c.tiles === 5 && /scored|complete/i.test(c.text) && !/open \(/.test(c.text), `after the move the card tells the completed road: ${JSON.stringify(c)}`);
      assert(await p.locator('.highlight-tile').count() === 5, 'its five tiles are lit');
      await pointShot(p, 'inspector-ferry');
      // Pointed at again after the move: the same.
      if (!phone) { await p.mouse.move(x + 200, y + 200); await p.waitForSelector('#inspector.hidden', { timeout: 3000 }).catch(() => {}); }
      else await p.tap('#inspector .ins-close');
      await point();
      await p.waitForSelector('#inspector:not(.hidden)[data-version="20"][data-kind="road"]');
      c = await card();
      assert(c.complete === '1' && c.tiles === 5, `pointed at again, the road is complete: ${JSON.stringify(c)}`);
      // And back a step, open again: never a stale card either way.
      await p.keyboard.press('ArrowLeft');
      await p.waitForSelector('#inspector:not(.hidden)[data-version="19"][data-complete="0"]', { timeout: 5000 });
      await ctx.close();
    }
    // In a game being played: the card of the feature pointed at follows the view when a decision changes it.
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await ctx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const p = await ctx.newPage();
    watchPage(p, 'inspector-live');
    const { gameId, tokens } = await createFromHome(p, base, [['human', 'Ann'], ['human', 'Bob']]);
    const d = await waitMyTurn(p);
    await inspectStartCity(p, base, gameId, 'hover', { token: tokens[0] });
    assert(await p.getAttribute('#inspector', 'data-version') === d.version, 'the card tells the position shown');
    await p.keyboard.press(']');
    await p.keyboard.press('Enter');
    await waitVersionPast(p, Number(d.version));
    const now = await p.evaluate(() => document.body.dataset.version);
    await p.waitForSelector(`#inspector:not(.hidden)[data-version="${now}"][data-at="0,0"]`, { timeout: 5000 });
    const r = await (await fetch(`${base}/api/games/${gameId}/feature`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ at: [0, 0], piece: 0, token: tokens[0] }) })).json();
    assert(Number(await p.getAttribute('#inspector', 'data-tiles')) === r.tiles.length && await p.getAttribute('#inspector', 'data-complete') === (r.complete ? '1' : '0'), `after the tile, the card is the server's (${r.tiles.length} tiles)`);
    await ctx.close();
  });

  await check('hints: asked for in the lobby; the Hint button shows the strongest bot\'s choice, written in the record and shown with the scores', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-page="home"]');
    await page.check('#opt-hints');
    await page.click('#create-game');
    await page.waitForSelector('body[data-page="game"][data-status]');
    const id = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('game');
    const d = await waitMyTurn(page);
    assert(d.step === 'place', `the first decision is a placement (${d.step})`);
    assert(await page.locator('.tag.hints').count() === 0, 'no hint used yet');
    await page.click('#hint');
    await page.waitForSelector('#hint-what');
    const said = await page.getAttribute('#hint-what', 'data-action');
    const view = await api(base, `/api/games/${id}`);
    assert(view.legal.some((a) => a.text === said), `the hint is a legal action (${said})`);
    const m = /^place at \[(-?\d+), (-?\d+)\]/.exec(said);
    assert(m, `a placement is hinted at a placement step (${said})`);
    await page.waitForSelector(`[data-review-best="${m[1]},${m[2]}"]`);
    assert(await page.isDisabled('#hint'), 'one hint a decision');
    await page.waitForSelector('.tag.hints[data-hints="1"]');
    const record = await api(base, `/api/games/${id}/record`);
    assert(JSON.stringify(record.turns[record.turns.length - 1].hints) === '[0]', `the record has the hint (${JSON.stringify(record.turns.at(-1))})`);
    await shot(page, 'hint');
    // The next decision asks anew, by the key.
    await page.keyboard.press(']');
    await page.keyboard.press('Enter');
    await waitVersionPast(page, Number(d.version));
    const d2 = await waitMyTurn(page);
    assert(await page.locator('#hint-what').count() === 0, 'the hint was for the decision before');
    if (d2.step !== 'end_turn') {
      await page.keyboard.press('h');
      await page.waitForSelector('#hint-what');
      await page.waitForSelector('.tag.hints[data-hints="2"]');
    }
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-page="home"]');
    await page.uncheck('#opt-hints');
  });

  await check('odds overlays: each switched on shows the server\'s odds on the board (next tile, dead cells, completion), and off again', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-page="home"]');
    await page.click('#create-game');
    await page.waitForSelector('body[data-page="game"][data-status]');
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    const id = hash.get('game');
    // A few turns, so that features and cells are many.
    for (let i = 0; i < 3; i++) {
      const d = await waitMyTurn(page);
      // (A ferry must be placed: its first crossing; any other step is passed or ended.)
      const key = { place: null, place_ferry: '1', end_turn: 'Enter' }[d.step] ?? 'n';
      if (d.step === 'place') { await page.keyboard.press(']'); await page.keyboard.press('Enter'); } else await page.keyboard.press(key);
      await waitVersionPast(page, Number(d.version));
    }
    await waitMyTurn(page);
    // The odds as the page asks for them: the seat to act is this browser's,
    // so by its token, over its provisional decisions if it has any (a
    // version of those is not one of the game's yet).
    const post = async (path, body) => {
      const r = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (!r.ok) throw new Error(`POST ${path}: ${r.status}`);
      return r.json();
    };
    const toAct = (await api(base, `/api/games/${id}`)).to_act;
    let token = null;
    for (const t of hash.getAll('token')) if ((await post(`/api/games/${id}/join`, { token: t })).seat === toAct) token = t;
    assert(token, 'the seat to act is this browser\'s');
    const odds = await post(`/api/games/${id}/odds`, { token });
    assert(await page.locator('[data-odds-cell], [data-odds-feature]').count() === 0, 'no overlay until asked');
    await page.check('#overlay-next');
    const live = odds.cells.filter((c) => !c.dead);
    await page.waitForFunction((n) => document.querySelectorAll('.odds-next[data-odds-cell]').length === n, live.length, { timeout: 5000 });
    const c = live[0];
    const label = await page.textContent(`[data-odds-cell="${c.at[0]},${c.at[1]}"] text`);
    assert(label === `${Math.round(100 * c.next)}%`, `the cell says the server's chance (${label}, ${c.next})`);
    await page.check('#overlay-completion');
    await page.waitForFunction((n) => document.querySelectorAll('[data-odds-feature]').length === n, odds.features.length, { timeout: 5000 });
    await page.check('#overlay-dead');
    const dead = odds.cells.filter((x) => x.dead).length;
    await page.waitForFunction((n) => document.querySelectorAll('.odds-dead').length === n, dead, { timeout: 5000 });
    await shot(page, 'odds-overlays');
    for (const name of ['next', 'completion', 'dead']) await page.uncheck(`#overlay-${name}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-odds-cell], [data-odds-feature]').length === 0, null, { timeout: 5000 });
    // Back to the hot-seat game, at its placement, for the checks that follow.
    await page.goto(`${base}/?back=1#${hotSeatGame.toString()}`);
    await waitMyTurn(page);
  });

  await check('accounts (issue 29): register, sign in on another device, the game is listed there and its seat plays without its link; sign out everywhere; every text in English, German and Polish', async () => {
    const name = `E2E ${Date.now() % 100000}`;
    const password = 'lantern ferry meeple harbour';
    const signIn = async (p, register) => {
      await p.goto(`${base}/#account`);
      await p.waitForSelector(`body[data-ready="1"][data-page="account"] ${register ? '#register-form' : '#signin-form'}`);
      const form = register ? 'register' : 'signin';
      await p.fill(`#${form}-name`, name);
      await p.fill(`#${form}-password`, password);
      if (register) await p.fill('#register-again', password);
      await p.click(`#${form}-form-submit`);
      await p.waitForSelector('#account-link[data-signed-in="1"]', { timeout: 10000 });
      assert((await p.textContent('#account-link')).includes(name), 'the header names the account');
      assert(await p.locator('.toast[data-code="cookie"]').count() === 0, 'Chromium keeps the Secure cookie from http://127.0.0.1');
    };
    const laptopCtx = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    await laptopCtx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const laptop = await laptopCtx.newPage();
    watchPage(laptop, 'laptop');
    // A weak password is refused, with its typed code, nothing made.
    await laptop.goto(`${base}/#account`);
    await laptop.waitForSelector('body[data-ready="1"][data-page="account"] #register-form');
    await laptop.fill('#register-name', name);
    await laptop.fill('#register-password', 'password1234');
    await laptop.fill('#register-again', 'password1234');
    await laptop.click('#register-form-submit');
    await laptop.waitForSelector('#register-form-error[data-code="weak_password"]');
    await signIn(laptop, true);
    const cookie = (await laptopCtx.cookies()).find((c) => c.name === 'carcassonne_session');
    assert(cookie && cookie.httpOnly && cookie.secure && cookie.sameSite === 'Lax', `the session cookie: ${JSON.stringify(cookie && { ...cookie, value: '…' })}`);
    assert(await laptop.evaluate(() => !document.cookie.includes('carcassonne_session')), 'no script reads the session');
    await shot(laptop, 'account-signed-in');
    // A game made here: its seat is the account's, named after it.
    const { gameId } = await createFromHome(laptop, base, [['human', ''], ['bot', '']]);
    const view = await api(base, `/api/games/${gameId}`);
    assert(view.seats[0].name === name, `the seat is named after the account (${view.seats[0].name})`);

    // Another device: signed in, the game is listed, and its seat plays without its link.
    const phoneCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phoneCtx.addInitScript(() => { try { localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const phone = await phoneCtx.newPage();
    watchPage(phone, 'phone');
    await signIn(phone, false);
    await phone.goto(`${base}/`);
    await phone.waitForSelector(`body[data-ready="1"][data-page="home"] #account-games-home li[data-game="${gameId}"]`);
    await shot(phone, 'account-games-listed');
    await phone.click(`#account-games-home li[data-game="${gameId}"] a[data-open]`);
    await phone.waitForSelector('body[data-page="game"][data-status]');
    const hash = new URLSearchParams((await phone.evaluate(() => location.hash)).slice(1));
    assert(hash.getAll('token').length === 0 && hash.getAll('seat').join() === '0', `opened by the account's seat, no token: ${hash}`);
    const before = (await api(base, `/api/games/${gameId}`)).version;
    const d = await playToEndOfTurn(phone);
    if (d.step === 'end_turn') await phone.click('#end-turn');
    await waitVersionPast(phone, before);
    const history = await api(base, `/api/games/${gameId}/actions`);
    assert(history.actions.some((a) => a.seat === 0), 'the seat played from the other device');

    // Sign out everywhere on the phone: the laptop is signed out too.
    await phone.goto(`${base}/#account`);
    await phone.waitForSelector('#sign-out-everywhere');
    await phone.click('#sign-out-everywhere');
    await phone.waitForSelector('#account-link:not([data-signed-in="1"])');
    await laptop.goto(`${base}/`);
    await laptop.reload();
    await laptop.waitForSelector('body[data-ready="1"] #account-link:not([data-signed-in="1"])');
    assert(await laptop.locator('#account-games-home:not(.hidden)').count() === 0, 'no account\'s games listed once signed out');
    await laptopCtx.close();
    await phoneCtx.close();

    // Every text of the account's pages in German and Polish.
    for (const locale of ['de-DE', 'pl-PL']) {
      const ctx = await browser.newContext({ locale, viewport: { width: 1280, height: 820 } });
      const p = await ctx.newPage();
      watchPage(p, `account-${locale}`);
      await signIn(p, false);
      await p.goto(`${base}/`);
      await p.waitForSelector(`body[data-ready="1"][data-page="home"] #account-games-home li[data-game="${gameId}"]`);
      await p.goto(`${base}/#account`);
      await p.waitForSelector('#change-password');
      await p.fill('#password-old', 'not the password at all');
      await p.fill('#password-new', 'another lantern ferry harbour');
      await p.fill('#password-again', 'another lantern ferry harbour');
      await p.click('#password-form-submit');
      await p.waitForSelector('#password-form-error[data-code="wrong_password"]');
      await p.click('#sign-out');
      await p.waitForSelector('#signin-form');
      const missing = await p.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await ctx.close();
    }
  });

  await check('pan and zoom: drag, Ctrl+wheel, keys and buttons move the view; a drag picks nothing; the wheel turns the tile', async () => {
    const vb = () => page.evaluate(() => document.querySelector('svg.board').getAttribute('viewBox').split(' ').map(Number));
    const box = await page.locator('svg.board').boundingBox();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const b0 = await vb();
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 150, cy + 80, { steps: 8 });
    await page.mouse.up();
    const b1 = await vb();
    assert(b1[0] < b0[0] - 50 && b1[1] < b0[1] - 25, `dragging pans (${b0} -> ${b1})`);
    assert(await page.locator('[data-ghost]').count() === 0, 'the drag did not select a position');
    // Placing a tile, the wheel turns it; Ctrl+wheel zooms.
    await page.mouse.move(cx + 140, cy + 70);
    const r0 = await page.evaluate(() => document.querySelector('#drawn-tile')?.dataset.rot);
    await page.mouse.wheel(0, 120);
    await sleep(150);
    const r1 = await page.evaluate(() => document.querySelector('#drawn-tile')?.dataset.rot);
    assert(r0 !== r1 || await page.locator('#rotate[disabled]').count() > 0, `the wheel turns the tile (${r0} -> ${r1})`);
    assert((await vb())[2] === b1[2], 'the wheel alone does not zoom while placing');
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -500);
    await page.keyboard.up('Control');
    await sleep(100);
    const b2 = await vb();
    assert(b2[2] < b1[2] * 0.9, `Ctrl+wheel zooms in (${b1[2]} -> ${b2[2]})`);
    await page.keyboard.press('-');
    const b3 = await vb();
    assert(b3[2] > b2[2], 'the - key zooms out');
    await page.click('button[aria-label="zoom in"]');
    const b4 = await vb();
    assert(b4[2] < b3[2], 'the + button zooms in');
    await page.keyboard.press('ArrowLeft');
    const b5 = await vb();
    assert(b5[0] < b4[0], 'the arrow keys pan');
    await page.keyboard.press('0');
  });

  await check('after a server restart the page reconnects and fetches the view again', async () => {
    if (!server.restart) { log('skipped: the server is not ours to restart (SERVER_URL)'); return; }
    assert(hotSeatGame, 'the hot-seat game is open');
    const game = hotSeatGame.get('game');
    const tokens = hotSeatGame.getAll('token');
    // (Other checks opened other games in this page since.)
    await page.goto(`${base}/?restart=1#game=${game}${tokens.map((t) => `&token=${t}`).join('')}`);
    await page.waitForSelector('body[data-page="game"][data-conn="open"]');
    await waitMyTurn(page);
    await server.halt();
    await page.waitForSelector('body[data-conn="closed"]', { timeout: 15000 });
    await shot(page, 'server-down');
    await server.start();
    // Act for the seat to play through the API while the page is still away.
    const view = await api(base, `/api/games/${game}`);
    const action = view.legal.find((a) => a.type === 'place');
    const r = await fetch(`${base}/api/games/${game}/actions`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seat: view.to_act, token: tokens[view.to_act], version: view.version, action: { type: 'place', at: action.at, rot: action.rot } }),
    });
    assert(r.ok, `the action after the restart is accepted (${r.status})`);
    const { version } = await r.json();
    await page.waitForSelector('body[data-conn="open"]', { timeout: 30000 });
    await page.waitForFunction((v) => Number(document.body.dataset.version) === v, version, { timeout: 15000 });
    assert(await page.evaluate(() => document.body.dataset.step) === 'deploy', 'the page shows the new step');
    await shot(page, 'reconnected');
  });

  await check('the replay viewer lists the finished game and steps through it', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector(`#finished-games li[data-game="${finished.gameId}"]`);
    await page.click(`#finished-games li[data-game="${finished.gameId}"] a[data-replay]`);
    await page.waitForSelector('body[data-page="replay"][data-replay-version="1"]');
    const max = Number(await page.evaluate(() => document.body.dataset.replayMax));
    const view = await api(base, `/api/games/${finished.gameId}`);
    assert(max === view.version, `the replay covers every version (${max})`);
    await shot(page, 'replay-start');
    for (let i = 0; i < 5; i++) await page.click('#replay-forward');
    await page.waitForSelector('body[data-replay-version="6"]');
    await page.click('#replay-back');
    await page.waitForSelector('body[data-replay-version="5"]');
    for (let i = 0; i < 10; i++) await page.click('#replay-next-turn');
    await page.keyboard.press('ArrowRight');
    // Steps clicked in a row are fetched and drawn one after another: let
    // them settle, then compare the board drawn with the server's past view.
    let mid = -1;
    for (let settled = 0; settled < 3; ) {
      await page.waitForTimeout(200);
      const v = Number(await page.evaluate(() => document.body.dataset.replayVersion));
      settled = v === mid ? settled + 1 : 0;
      mid = v;
    }
    const past = await api(base, `/api/games/${finished.gameId}/view?version=${mid}`);
    const drawn = await page
      .waitForFunction((n) => document.querySelectorAll('.layer-tiles use').length === n, past.board.length, { timeout: 5000 })
      .then(() => past.board.length, async () => page.locator('.layer-tiles use').count());
    assert(drawn === past.board.length, `the board at version ${mid} has ${past.board.length} tiles (${drawn} drawn)`);
    await shot(page, 'replay-middle');
    // Stepping onto a scoring shows it on the board, as in the live game.
    const sc = view.log.find((e) => e.type === 'scored' && !e.end_of_game && (e.points || []).some((p) => p > 0));
    if (sc) {
      await page.goto(`${base}/?at=${sc.version - 1}#replay=${finished.gameId}&v=${sc.version - 1}`);
      await page.waitForSelector(`body[data-page="replay"][data-replay-version="${sc.version - 1}"]`);
      await page.click('#replay-forward');
      await page.waitForSelector(`[data-scoring="${sc.version}"]`);
      await shot(page, 'replay-scoring');
    }
    // Each step in a player's words, labelled with the turn its decision belongs to.
    const hist = (await api(base, `/api/games/${finished.gameId}/actions`)).actions;
    const names = view.seats.map((x) => x.name);
    const rawWords = /\b(road|city|field|corner|monastery):|\b[NESW]-[NESW]\b|\b(place_ferry|move_ferries|end_turn)\b|passes\./;
    const lastPass = hist.filter((a) => a.action.type === 'pass' && a.version < max).pop();
    const sample = [lastPass, hist.find((a) => a.action.type === 'deploy'), hist.find((a) => a.action.type === 'ferry'), hist.find((a) => a.action.type === 'move'),
      hist.find((a) => a.action.type === 'draw' && a.version > 3), hist.find((a) => a.action.type === 'place' && a.version > 3)].filter(Boolean);
    for (const a of sample) {
      const before = await api(base, `/api/games/${finished.gameId}/view?version=${a.version - 1}`);
      await page.goto(`${base}/?step=${a.version}#replay=${finished.gameId}&v=${a.version}`);
      await page.waitForSelector(`body[data-page="replay"][data-replay-version="${a.version}"]`);
      const banner = await page.textContent('.board-banner');
      const pos = await page.textContent('#replay-pos');
      const what = await page.textContent('#replay-what');
      const who = a.seat !== null && a.seat !== undefined ? names[a.seat] : names[before.current];
      assert(banner.startsWith(`Turn ${before.turn + 1} · ${names[before.current]}`) && pos.endsWith(`turn ${before.turn + 1}`),
        `step ${a.version} (${a.action.type}) is labelled with its own turn, ${before.turn + 1}: "${banner}", "${pos}"`);
      assert(!rawWords.test(banner) && !rawWords.test(what) && !/\(-?\d+, -?\d+\)/.test(what), `in a player's words: "${banner}", "${what}"`);
      if (a.action.type === 'pass') assert(what.includes(who) && /deploys no follower|moves no more ferries/.test(what), `a pass says what was passed: "${what}"`);
      if (a.action.type === 'deploy') assert(/: the (road|city|field|monastery)/.test(what), `a deployment names its feature: "${what}"`);
      if (a.action.type === 'ferry' || a.action.type === 'move') assert(/from the (north|east|south|west) jetty to the (north|east|south|west) jetty/.test(what), `a ferry's route in words: "${what}"`);
    }
    await pointShot(page, 'replay-steps');
    // The inspector in the replay, as the feature was at this step.
    await inspectStartCity(page, base, finished.gameId, 'hover', { version: Number(await page.evaluate(() => document.body.dataset.replayVersion)) });
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-replay-version="${max}"]`);
    await page.waitForSelector('.final table');
    await shot(page, 'replay-end');
  });

  await check('the review of a finished game: asked for in the replay, then its graph, its marks and the bot\'s better move', async () => {
    await page.goto(`${base}/#replay=${finished.gameId}`);
    await page.waitForSelector('body[data-page="replay"][data-replay-version="1"]');
    await page.waitForSelector('#review-start');
    await shot(page, 'review-offered');
    await page.click('#review-start');
    await page.waitForSelector('body[data-review="done"]', { timeout: 60000 });
    const status = await api(base, `/api/games/${finished.gameId}/review`);
    assert(status.status === 'done', `the server has the review (${status.status})`);
    const review = status.review;
    const lines = await page.locator('#review-graph polyline').count();
    assert(lines === review.players.length, `one line a player on the graph (${lines})`);
    const rows = await page.locator('#review-players tbody tr').count();
    assert(rows === review.players.length, `one row a player (${rows})`);
    const marked = review.decisions.filter((d) => d.mark);
    assert(await page.locator('#review-marks li').count() === marked.length, 'every marked move is listed');
    // The first decision where the bot preferred another placement: stepping
    // there shows its word on the move and draws its placement.
    const other = review.decisions.find((d) => d.best !== d.played && d.best.startsWith('place at'));
    if (other) {
      // (A query makes it a new page: the viewer keeps its own hash changes.)
      await page.goto(`${base}/?at=${other.index + 1}#replay=${finished.gameId}&v=${other.index + 1}`);
      await page.waitForSelector(`body[data-replay-version="${other.index + 1}"][data-review="done"]`);
      await page.waitForSelector('#review-what');
      const m = /^place at \[(-?\d+), (-?\d+)\]/.exec(other.best);
      await page.waitForSelector(`[data-review-best="${m[1]},${m[2]}"]`);
      await shot(page, 'review-better-move');
    }
    if (marked.length) {
      await page.click('#review-marks li a');
      await page.waitForSelector(`body[data-replay-version="${marked[0].index + 1}"]`);
      const what = await page.textContent('#review-what');
      assert(what.includes(marked[0].mark), `the mark is said (${what})`);
      assert(await page.locator('.log .move-mark').count() > 0, 'the log marks the moves');
    }
    // A click on the graph goes to a position of the game.
    // (The list's link may have scrolled the graph out of view: the locator scrolls it back.)
    const graph = page.locator('#review-graph');
    await graph.scrollIntoViewIfNeeded();
    const box = await graph.boundingBox();
    // (Right on a decision's x, not halfway between two, where rounding could go either way.)
    const last = review.decisions.length - 1;
    const i = Math.floor(last / 2);
    await graph.click({ position: { x: last > 0 ? (box.width * i) / last : 0, y: box.height * 0.5 } });
    const mid = review.decisions[i];
    await page.waitForSelector(`body[data-replay-version="${mid.index + 1}"]`);
    await shot(page, 'review-graph');
  });

  await check('open a record or a JCloisterZone saved game in the browser: checked, then in the replay viewer', async () => {
    const open = async (name, text) => {
      await page.goto(`${base}/`);
      await page.waitForSelector('body[data-ready="1"][data-page="home"] #open-file');
      await page.setInputFiles('#open-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    };
    // The finished game's record, as "Download record" saves it.
    const rec = await (await fetch(`${base}/api/games/${finished.gameId}/record`)).text();
    await open('game.json', rec);
    await page.waitForSelector('body[data-page="replay"][data-replay-source="file"][data-replay-version="1"]');
    const view = await api(base, `/api/games/${finished.gameId}`);
    const max = Number(await page.evaluate(() => document.body.dataset.replayMax));
    assert(max === view.version, `the record's every step (${max} of ${view.version})`);
    await page.click('#replay-forward');
    await page.waitForSelector('body[data-replay-version="2"]');
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-replay-version="${max}"] .final table`);
    await shot(page, 'record-opened');
    assert(await page.locator('.final td[data-hints]').count() === 0, 'no hints column for a game without hints');
    // A record whose players asked for hints: the final scores count each one's.
    const hinted = JSON.parse(rec);
    hinted.turns[4].hints = [1, 1];
    hinted.turns[7].hints = [0];
    await open('hinted.json', JSON.stringify(hinted));
    await page.waitForSelector('body[data-page="replay"][data-replay-source="file"][data-replay-version="1"]');
    await page.keyboard.press('End');
    await page.waitForSelector('.final tr[data-seat="1"] td[data-hints="2"]');
    await page.waitForSelector('.final tr[data-seat="0"] td[data-hints="1"]');
    await page.waitForSelector('.scores .tag.hints[data-hints="2"]');
    // A JCloisterZone saved game.
    await open('basic-502-0001.jcz', fs.readFileSync(path.join(ROOT, 'tests/data/jcz/basic-502-0001.jcz'), 'utf8'));
    await page.waitForSelector('body[data-page="replay"][data-replay-source="file"][data-replay-version="1"]');
    await page.keyboard.press('End');
    await page.waitForSelector('.final table');
    await shot(page, 'jcz-opened');
    // Anything else is refused, with the reason.
    await open('notes.txt', 'not a game at all');
    await page.waitForSelector('#open-error[data-code="invalid_record"]');
    const msg = await page.textContent('#open-error');
    assert(msg.includes('notes.txt') && /not JSON/.test(msg), `the reason is shown: ${msg}`);
    const broken = JSON.parse(rec);
    broken.turns[3].at = [50, 50];
    await open('broken.json', JSON.stringify(broken));
    await page.waitForFunction(() => /turn/i.test(document.querySelector('#open-error')?.textContent || ''));
    await shot(page, 'record-refused');
    assert(await page.evaluate(() => document.body.dataset.page) === 'home', 'a refused file opens nothing');
  });

  await check('Inns & Cathedrals with The Ferries, six seats: inns, cathedrals and the big follower, played to the end by clicking', async () => {
    // The lobby allows six seats only with Inns & Cathedrals.
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"][data-page="home"]');
    if (await page.isChecked('#exp-inns')) await page.click('#exp-inns');
    while (await page.locator('.seat-row').count() < 5) await page.click('#add-seat');
    assert(await page.isDisabled('#add-seat'), 'without Inns & Cathedrals a sixth seat cannot be added');
    for (let g = 1; g <= MAX_GAMES; g++) {
      const res = await playOneGame(page, base, cat, g, null, { inns: true, seats: 6, label: 'inns-' });
      const view = await api(base, `/api/games/${res.gameId}`);
      assert(view.status === 'finished' && view.setup.expansions.includes('inns') && view.seats.length === 6, 'a finished six-seat I&C game');
      assert(view.figures.some((f) => f.figure === 'big' && f.each === 1), 'the view lists the big follower');
      const rows = await page.locator('table.scores tr').count();
      assert(rows === 6, `six rows on the score board (${rows})`);
      assert(await page.locator('#tile-defs .inn').count() > 0 && await page.locator('#tile-defs .cathedral').count() > 0, 'inns and cathedrals are drawn');
      const placedMarks = view.board.filter((t) => cat.get(t.tile)?.features.some((f) => f.mark)).length;
      log(`I&C game ${g}: ${placedMarks} tiles with an inn or a cathedral, ${JSON.stringify(res.stats)}`);
      if (res.stats.bigDeployed > 0) {
        await shot(page, 'inns-final');
        return;
      }
      log(`I&C game ${g} never let the tester deploy the big follower: another game`);
    }
    throw new Error(`no I&C game out of ${MAX_GAMES} let the tester deploy the big follower`);
  });

  await check('Abbey & Mayor with The Ferries, hot-seat: an abbey placed in a hole and a wagon moved, by clicking', async () => {
    for (let g = 1; g <= MAX_GAMES + 1; g++) {
      const res = await playAbbeyGame(page, base, cat, g);
      const view = await api(base, `/api/games/${res.gameId}`);
      assert(view.setup.expansions.includes('abbey') && view.setup.expansions.includes('ferries'), 'an A&M + Ferries game');
      assert(['mayor', 'wagon', 'barn'].every((f) => view.figures.some((x) => x.figure === f && x.each === 1)), 'the view lists the mayor, the wagon and the barn');
      assert(await page.locator('table.scores [data-abbey]').count() === 2, 'the score board shows each seat\'s abbey');
      if (res.stats.abbeys && res.stats.wagonMoves) {
        const told = (await page.textContent('.log')) || '';
        assert(told.includes('placed the abbey') && told.includes('moved the wagon'), 'the game log tells of the abbey and the wagon');
        await shot(page, 'abbey-final');
        // The next games of this browser go without it.
        await page.goto(`${base}/`);
        await page.waitForSelector('body[data-ready="1"][data-page="home"]');
        if (await page.isChecked('#exp-abbey')) await page.click('#exp-abbey');
        return;
      }
      log(`A&M game ${g} placed ${res.stats.abbeys} abbeys and moved ${res.stats.wagonMoves} wagons: another game`);
    }
    throw new Error(`no A&M game out of ${MAX_GAMES + 1} had both an abbey placed and a wagon moved`);
  });

  await check('Traders & Builders with The Ferries, hot-seat: the builder\'s second turn and the pig, by clicking; goods and the T&B tiles drawn', async () => {
    // The tiles: goods on their cities, T24's roads one over the other, T23's road ending alone.
    const defs = await page.evaluate(() => ({
      t1: document.querySelectorAll('#tile-T1-0 [data-good="grain"]').length,
      t2: document.querySelectorAll('#tile-T2-90 [data-good="wine"]').length,
      t3: document.querySelectorAll('#tile-T3-0 [data-good="cloth"]').length,
      bridge: document.querySelectorAll('#tile-T24-0 [data-bridge]').length,
      deadEnd: document.querySelectorAll('#tile-T23-0 [data-dead-end]').length,
      village: document.querySelectorAll('#tile-T23-0 .village').length,
    }));
    assert(defs.t1 === 1 && defs.t2 === 1 && defs.t3 === 1, `the goods are drawn on their cities (${JSON.stringify(defs)})`);
    assert(defs.bridge === 1 && defs.deadEnd === 1 && defs.village === 0, `T24 has a bridge, T23 a road ending alone (${JSON.stringify(defs)})`);
    for (let g = 1; g <= MAX_GAMES + 1; g++) {
      const res = await playTradersGame(page, base, cat, g);
      const view = await api(base, `/api/games/${res.gameId}`);
      assert(view.setup.expansions.includes('traders') && view.setup.expansions.includes('ferries'), 'a T&B + Ferries game');
      assert(['builder', 'pig'].every((f) => view.figures.some((x) => x.figure === f && x.each === 1)), 'the view lists the builder and the pig');
      if (res.stats.secondTurns) {
        const told = (await page.textContent('.log')) || '';
        assert(told.includes('plays a second turn'), 'the game log tells of the second turn');
        await shot(page, 'traders-final');
        // The replay says it too.
        const hist = await api(base, `/api/games/${res.gameId}/actions`);
        const at = view.log.find((e) => e.type === 'second_turn');
        const drawAfter = hist.actions.find((x) => x.version > at.version && x.action.type === 'draw');
        await page.goto(`${base}/#replay=${res.gameId}&v=${drawAfter.version}`);
        await page.waitForSelector(`body[data-page="replay"][data-replay-version="${drawAfter.version}"]`);
        await page.waitForSelector('#second-turn-banner');
        await shot(page, 'traders-replay-second-turn');
        await page.goto(`${base}/`);
        await page.waitForSelector('body[data-ready="1"][data-page="home"]');
        if (await page.isChecked('#exp-traders')) await page.click('#exp-traders');
        if (!res.stats.pigs) log('no pig could be deployed in this deal');
        return;
      }
      log(`T&B game ${g} had no second turn: another game`);
    }
    throw new Error(`no T&B game out of ${MAX_GAMES + 1} had a second turn`);
  });

  await check('The River, hot-seat: the spring starts the game, the river is drawn and laid first, by the keys', async () => {
    const { gameId, tokens } = await createHotSeatGame(page, base, ['Rhine', 'Rhone'], ['river'], 'river-home');
    log(`River game: ${gameId}`);
    const start = await api(base, `/api/games/${gameId}`);
    assert(start.board[0].tile === 'RS', `the spring at [0, 0] (${JSON.stringify(start.board)})`);
    assert(start.bag.tiles.D === 4, 'D is in the bag');
    // Tiles are drawn once in the page's <defs> and used on the board.
    await page.waitForSelector('svg.board use[href="#tile-RS-0"]');
    assert(await page.locator('#tile-RS-0 .river').count() === 1 && await page.locator('#tile-RS-0 .river-pool').count() === 1, "the spring's river and pool are drawn");
    for (let placed = 0, steps = 0; placed < 4 && steps < 40; steps++) {
      const d = await waitMyTurn(page);
      const view = await seatView(base, gameId, tokens[Number(d.toAct)]);
      if (process.env.E2E_TRACE) log(`river: v${view.version} ${view.step} ${view.drawn}`);
      if (view.step === 'deploy') { await page.keyboard.press('n'); await waitVersionPast(page, view.version); continue; }
      if (view.step === 'end_turn') {
        await page.click('#end-turn');
        await page.waitForFunction((v) => (document.body.dataset.step !== 'end_turn' || Number(document.body.dataset.version) > v) && document.body.dataset.pending === '0', view.version, { polling: 50 });
        continue;
      }
      placed++;
      assert(view.step === 'place' && /^R[1-9]$/.test(view.drawn), `a river tile first (${view.step} ${view.drawn})`);
      const target = view.legal.find((a) => a.type === 'place');
      const key = `${target.at[0]},${target.at[1]}`;
      for (let i = 0; i < 400; i++) {
        if (await page.evaluate(() => document.querySelector('[data-ghost]')?.dataset.ghost ?? null) === key) break;
        await page.keyboard.press(']');
      }
      for (let i = 0; i < 5 && Number(await page.getAttribute('[data-ghost]', 'data-rot')) !== target.rot; i++) await page.keyboard.press('r');
      await page.click('#confirm');
      await waitVersionPast(page, view.version);
    }
    // The seat's own view: its turn's placement is provisional until it ends.
    const after = await seatView(base, gameId, tokens[Number((await waitMyTurn(page)).toAct)]);
    assert(after.board.length === 5 && after.board.slice(1).every((t) => /^R[1-9]$/.test(t.tile)), `four river tiles laid (${after.board.map((t) => t.tile)})`);
    const used = await page.evaluate(() => [...document.querySelectorAll('svg.board use')].map((u) => u.getAttribute('href')).filter((h) => /^#tile-R[1-9]-/.test(h)));
    assert(used.length >= 4, `the river tiles are on the board (${used})`);
    for (const h of used) assert(await page.locator(`${h} .river`).count() === 1, `${h} draws its river`);
    await shot(page, 'river-laid');
  });

  await check('The Abbot and The Labyrinth, hot-seat: gardens and the maze drawn, an abbot deployed and taken back early for its points, by a click and by the key', async () => {
    const errors = [];
    const onConsole = (m) => { if (m.type() === 'error') errors.push(m.text()); };
    page.on('console', onConsole);
    try {
      let done = null;
      for (let g = 1; g <= MAX_GAMES && !done; g++) {
        const res = await playAbbotGame(page, base, g);
        if (g === 1) {
          // The tiles are drawn once in the page's <defs>: the gardens in their fields, the maze.
          for (const id of ['EG', 'HG', 'IG', 'MG', 'NG', 'RG', 'UG', 'VG']) {
            for (const rot of [0, 90, 180, 270]) assert(await page.locator(`#tile-${id}-${rot} [data-garden]`).count() === 1, `${id} at ${rot} draws its garden`);
          }
          assert(await page.locator('#tile-LA-0 .maze-hedge').count() === 1, 'the labyrinth draws its maze');
          const view = res.start;
          assert(JSON.stringify(view.setup.expansions) === '["abbot","labyrinth"]' && !view.setup.rules?.['labyrinth-variant'], `the setup (${JSON.stringify(view.setup)})`);
          // Each garden tile takes the place of a plain copy (E: 5 without The Abbot).
          const dealt = (id) => (view.bag.tiles[id] || 0) + (view.drawn === id ? 1 : 0);
          for (const id of ['EG', 'HG', 'IG', 'MG', 'NG', 'RG', 'UG', 'VG', 'LA']) assert(dealt(id) === 1, `${id} is in the bag`);
          assert(dealt('E') === 4, `4 plain E (${dealt('E')})`);
        }
        if (res.stats.takenBack) done = res;
      }
      assert(done, `no abbot was taken back in ${MAX_GAMES} games`);
      assert(errors.length === 0, `no console errors (${errors.join('; ')})`);
    } finally {
      page.off('console', onConsole);
    }
  });

  await check('The Abbot and The Labyrinth in the lobby: the basic labyrinth is sent as a rule, and the list names both', async () => {
    const { gameId } = await createHotSeatGame(page, base, ['Maze', 'Walker'], ['abbot', 'labyrinth'], null, { basic: true, listed: true });
    const view = await api(base, `/api/games/${gameId}`);
    assert(view.setup.rules?.['labyrinth-variant'] === 'basic', `the rule was sent (${JSON.stringify(view.setup)})`);
    await page.goto(`${base}/`);
    const row = page.locator(`#active-games li[data-game="${gameId}"] .meta`);
    await row.waitFor();
    const meta = await row.textContent();
    assert(meta.includes('The Abbot + The Labyrinth') && meta.includes('basic labyrinth'), `the list names them: "${meta}"`);
    // Unticked for the next games: the variant goes with The Labyrinth.
    await page.click('#rule-labyrinth-basic');
    await page.click('#exp-labyrinth');
    assert(await page.isDisabled('#rule-labyrinth-basic'), 'without The Labyrinth its variant is not offered');
    await page.click('#exp-abbot');
  });

  await check('chat (issue 29): the players talk between themselves, the spectators apart; text is never markup; a muted name stays muted', async () => {
    const r = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seats: [{ type: 'human', name: 'Ann' }, { type: 'human', name: 'Bob' }], expansions: [] }) });
    const created = await r.json();
    const gameId = created.game;
    const toks = created.seats.map((s) => s.token);
    const open = async (hash, label) => {
      const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const p = await ctx.newPage();
      watchPage(p, label);
      await p.goto(`${base}/#${hash}`);
      await p.waitForSelector('body[data-page="game"][data-status] section.chat');
      return { ctx, p };
    };
    const ann = await open(`game=${gameId}&token=${toks[0]}`, 'chat-ann');
    const bob = await open(`game=${gameId}&token=${toks[1]}`, 'chat-bob');
    const eve = await open(`game=${gameId}`, 'chat-eve');
    const texts = (p, sel = 'section.chat > ol.chat-lines li') => p.evaluate((sel) => [...document.querySelectorAll(sel)].map((li) => ({
      who: li.querySelector('.chat-who').textContent, text: li.querySelector('.chat-text').textContent, markup: li.querySelector('.chat-text').children.length,
    })), sel);
    const say = async (p, text) => { await p.fill('.chat-form input[aria-label="your message"]', text); await p.press('.chat-form input[aria-label="your message"]', 'Enter'); };
    // Ann to Bob, with markup that must stay text.
    await say(ann.p, '<b>good luck</b> Bob');
    await bob.p.waitForFunction(() => document.querySelectorAll('section.chat > ol.chat-lines li').length === 1);
    const atBob = await texts(bob.p);
    assert(atBob[0].who === 'Ann' && atBob[0].text === '<b>good luck</b> Bob' && atBob[0].markup === 0, `Bob reads Ann's words as typed: ${JSON.stringify(atBob)}`);
    assert((await texts(ann.p)).length === 1, 'Ann sees her own message');
    // Eve, a spectator, under her name; the players do not see it during play.
    assert(await eve.p.isVisible('.chat-form input.chat-name'), 'a spectator gives a name');
    await eve.p.fill('.chat-form input.chat-name', 'Eve');
    await say(eve.p, 'play the ferry!');
    await eve.p.waitForFunction(() => document.querySelectorAll('section.chat > ol.chat-lines li').length === 1);
    const atEve = await texts(eve.p);
    assert(atEve.length === 1 && atEve[0].who === 'Eve', `the spectator sees the spectators' room only: ${JSON.stringify(atEve)}`);
    await bob.p.waitForTimeout(500);
    assert((await texts(bob.p)).length === 1 && (await texts(bob.p, '.chat-after li')).length === 0, 'the players never see the spectators during play');
    assert(!(await bob.p.isVisible('.chat-form input.chat-name')), 'a player speaks under the seat\'s name');
    // A name the spectator may not take: the server says why.
    await eve.p.fill('.chat-form input.chat-name', 'ann');
    await say(eve.p, 'I am Ann');
    await eve.p.waitForSelector('.toast.error');
    assert((await eve.p.textContent('.toast.error')).includes('name of a seat'), 'refused: a seat\'s name');
    // Bob mutes Ann: hidden, and still so after a reload.
    await bob.p.click('section.chat > ol.chat-lines li .chat-mute');
    assert((await texts(bob.p)).length === 0 && (await bob.p.textContent('.chat-muted')).includes('Ann'), 'muted');
    await pointShot(bob.p, 'chat');
    await bob.p.reload();
    await bob.p.waitForSelector('body[data-page="game"][data-status] section.chat');
    await bob.p.waitForTimeout(500);
    assert((await texts(bob.p)).length === 0 && await bob.p.isVisible('.chat-muted'), 'still muted after a reload');
    await bob.p.click('.chat-muted button');
    await bob.p.waitForFunction(() => document.querySelectorAll('section.chat > ol.chat-lines li').length === 1);
    await pointShot(eve.p, 'chat-spectator');
    for (const x of [ann, bob, eve]) await x.ctx.close();
  });

  await check('ratings: a new account has no rating; a rated game against the beginner bot, made from the home page and played to the end by the keys, with a chat line; then its player page shows the rating after 1 game with its graph, and the ratings page lists it (1366 and 390 px; German and Polish)', async () => {
    const name = `Rated ${Date.now() % 100000}`;
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await ctx.addInitScript(() => { try { if (localStorage.getItem('carcassonne.autoEnd') === null) localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const p = await ctx.newPage();
    watchPage(p, 'rated');
    // An account, made on the account page; it has no rating yet.
    await registerInUI(p, base, name);
    await p.waitForSelector('#account-rating #account-player-link');
    assert((await p.textContent('#account-rating')).includes('No rating yet'), `the account page says there is no rating: "${await p.textContent('#account-rating')}"`);
    await p.click('#account-player-link');
    await p.waitForSelector('body[data-page="player"] #player-summary[data-kind="player"] #player-rating.no-rating');
    assert((await p.textContent('#player-summary h2')).includes(name), 'the page names the player');
    assert(await p.locator('#rating-chart').count() === 0 && (await p.textContent('#rating-summary')).includes('No rated game yet'), 'no graph before a rated game');
    // A name no one has: said so.
    await p.goto(`${base}/#player=${encodeURIComponent('No One Here')}`);
    await p.waitForSelector('#player-missing');

    // The home page's form: rated, against the beginner; no hints, only the ladder's levels.
    await p.goto(`${base}/`);
    await p.waitForSelector('body[data-ready="1"][data-page="home"] #opt-rated');
    while (await p.locator('.seat-row').count() > 2) await p.click('.seat-row:last-child button[aria-label^="remove seat"]');
    while (await p.locator('.seat-row').count() < 2) await p.click('#add-seat');
    await p.selectOption('select[name="seat-0-type"]', 'human');
    await p.selectOption('select[name="seat-1-type"]', 'bot');
    await p.selectOption('select[name="seat-1-level"]', 'random');
    await p.check('#opt-hints');
    for (const x of ['ferries', 'inns', 'abbey', 'traders', 'river', 'abbot', 'labyrinth']) if (await p.isChecked(`#exp-${x}`)) await p.uncheck(`#exp-${x}`);
    await p.check('#opt-rated');
    const levels = await p.$$eval('select[name="seat-1-level"] option', (os) => os.map((o) => o.value));
    assert(levels.join() === 'beginner,easy,medium,hard,expert', `a rated game's bots: the ladder's levels only (${levels})`);
    assert(await p.isDisabled('#opt-hints') && !(await p.isChecked('#opt-hints')), 'no hints in a rated game');
    // Two seats played here: not a rated game, said before the server is asked.
    await p.selectOption('select[name="seat-1-type"]', 'human');
    await p.waitForSelector('#rated-problem');
    assert(await p.isDisabled('#create-game'), 'refused in the form');
    await p.selectOption('select[name="seat-1-type"]', 'bot');
    await p.selectOption('select[name="seat-1-level"]', 'beginner');
    assert(await p.locator('#rated-problem').count() === 0 && !(await p.isDisabled('#create-game')), 'the seats make a rated game');
    await pointShot(p, 'rated-form');
    const [req] = await Promise.all([p.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games'), p.click('#create-game')]);
    const sent = req.postDataJSON();
    assert(sent.rated === true && sent.seats[0].mine === true && !sent.hints && sent.seats[1].level === 'beginner', `the form sends a rated game: ${JSON.stringify(sent)}`);
    await p.waitForSelector('body[data-page="game"][data-status="active"]');
    const gameId = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1)).get('game');
    assert((await api(base, `/api/games/${gameId}`)).rated === true, 'the server made it rated');
    await p.waitForSelector('#rated-badge:not(.hidden)');

    // Played to the end by the keys: ] and Enter place, N passes, Enter ends the turn.
    for (let i = 0; i < 400; i++) {
      const d = await waitMyTurn(p, 120000);
      if (d.status === 'finished') break;
      if (d.step === 'place') await placeByKeys(p);
      else await p.keyboard.press(d.step === 'end_turn' ? 'Enter' : 'n');
      // (The last turn's end may bring the game's end without a newer version.)
      await p.waitForFunction((v) => document.body.dataset.status === 'finished' || (Number(document.body.dataset.version) > v && document.body.dataset.pending === '0'), Number(d.version), { timeout: 30000, polling: 50 });
    }
    await p.waitForSelector('body[data-status="finished"] dialog[open] #close-final');
    await p.click('#close-final');
    // A word to the bot, in the players' room.
    await p.fill('.chat-form input[aria-label="your message"]', 'good game');
    await p.press('.chat-form input[aria-label="your message"]', 'Enter');
    await p.waitForFunction(() => [...document.querySelectorAll('section.chat > ol.chat-lines li .chat-text')].some((e) => e.textContent === 'good game'));
    // Over: the way to the player's new rating.
    await p.click('#my-rating');
    await p.waitForSelector('body[data-page="player"] #player-rating[data-games="1"]');
    const me = await api(base, `/api/players/${encodeURIComponent(name)}`);
    assert(me.rating && me.rating.games === 1 && me.history.length === 1 && me.history[0].game === gameId, `the server rated the game: ${JSON.stringify(me).slice(0, 300)}`);
    const shown = await p.evaluate(() => ({
      rating: document.querySelector('#player-rating .rating').dataset.rating,
      text: document.getElementById('player-rating').textContent,
      points: document.querySelectorAll('#rating-chart .rating-point').length,
      band: document.querySelectorAll('#rating-chart .band').length,
      label: document.getElementById('rating-chart').getAttribute('aria-labelledby'),
      summary: document.getElementById('rating-summary').textContent,
      games: document.querySelector('#player-stats tr[data-stat="games"] td').textContent,
      rated: document.querySelector('#player-stats tr[data-stat="rated"] td').textContent,
    }));
    assert(Number(shown.rating) === Math.round(me.rating.rating) && shown.text.includes(`± ${Math.round(me.rating.deviation)}`), `the rating as the server has it (${shown.text})`);
    assert(shown.text.includes('after 1 rated game') && shown.text.includes('provisional'), `after 1 game, provisional: "${shown.text}"`);
    assert(shown.points === 1 && shown.band === 1, `the graph: one game, its band (${shown.points}, ${shown.band})`);
    assert(shown.label === 'rating-summary' && shown.summary.includes(String(Math.round(me.rating.rating))), `the graph told in words: "${shown.summary}"`);
    assert(shown.games === '1' && shown.rated === '1', `the statistics: 1 game, 1 rated (${shown.games}, ${shown.rated})`);
    await pointShot(p, 'player');
    // The ratings page lists the player, linked to its page, and the five levels.
    await p.click('#player-ratings-link');
    await p.waitForSelector('body[data-page="ratings"] #ratings-players-table');
    const row = p.locator('#ratings-players-table tbody tr', { hasText: name });
    assert(await row.count() === 1 && (await row.getAttribute('class')) === 'me', 'the player is listed, marked as this browser\'s');
    assert((await row.textContent()).includes(`${Math.round(me.rating.rating)} ± ${Math.round(me.rating.deviation)}`), `with its rating: "${await row.textContent()}"`);
    assert(await p.locator('#ratings-levels-table tbody tr').count() === 5, 'the five levels');
    await pointShot(p, 'ratings');

    // On a phone: the player page fits, its graph readable.
    const state = await ctx.storageState();
    const phoneCtx = await browser.newContext({ storageState: state, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const q = await phoneCtx.newPage();
    watchPage(q, 'rated-phone');
    await q.goto(`${base}/#player=${encodeURIComponent(name)}`);
    await q.waitForSelector('body[data-page="player"] #rating-chart');
    const fit = await q.evaluate(() => ({ wide: document.documentElement.scrollWidth, chart: document.getElementById('rating-chart').getBoundingClientRect().width }));
    assert(fit.wide <= 391 && fit.chart > 300, `the page fits 390 px, the graph nearly as wide (${JSON.stringify(fit)})`);
    await pointShot(q, 'player');
    await q.goto(`${base}/#ratings`);
    await q.waitForSelector('body[data-page="ratings"] #ratings-players-table');
    assert(await q.evaluate(() => document.documentElement.scrollWidth) <= 391, 'the ratings fit 390 px');
    await pointShot(q, 'ratings');
    await phoneCtx.close();

    // The pages' words in German and Polish.
    for (const locale of ['de-DE', 'pl-PL']) {
      const lc = await browser.newContext({ storageState: state, locale, viewport: { width: 1280, height: 820 } });
      const l = await lc.newPage();
      watchPage(l, `rated-${locale}`);
      await l.goto(`${base}/#player=${encodeURIComponent(name)}`);
      await l.waitForSelector('body[data-ready="1"][data-page="player"] #rating-chart');
      await l.goto(`${base}/#player=beginner`);
      await l.waitForSelector('#player-summary[data-kind="level"] #rating-chart');
      await l.goto(`${base}/#ratings`);
      await l.waitForSelector('#ratings-players-table');
      await l.goto(`${base}/#account`);
      await l.waitForSelector('#account-rating .rating');
      await l.goto(`${base}/`);
      await l.waitForSelector('body[data-page="home"] #opt-rated');
      await l.check('#opt-rated');
      await l.selectOption('select[name="seat-1-type"]', 'human');
      await l.waitForSelector('#rated-problem');
      await l.goto(`${base}/#game=${gameId}`);
      await l.waitForSelector('body[data-status="finished"] #rated-badge:not(.hidden)');
      const missing = await l.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await lc.close();
    }
    await ctx.close();
  });

  await check('lobby: two players paired by quick match land at their own seats of one game (the wait found again after a reload); a table opened in the lobby is listed with its player, joined, and both land in its game (1366 and 390 px; German and Polish)', async () => {
    const stamp = Date.now() % 100000;
    const names = [`Ann ${stamp}`, `Bob ${stamp}`];
    const actx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const bctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const a = await actx.newPage();
    const b = await bctx.newPage();
    watchPage(a, 'lobby-a');
    watchPage(b, 'lobby-b');
    await registerInUI(a, base, names[0]);
    await registerInUI(b, base, names[1]);
    const home = async (p) => {
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"] #lobby #quick-match');
    };
    const inGame = async (p) => {
      await p.waitForSelector('body[data-page="game"][data-status="active"]', { timeout: 20000 });
      const hash = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1));
      assert(hash.getAll('token').length === 0 && hash.getAll('seat').length === 1, `the game opened at the account's seat: #${hash}`);
      return { game: hash.get('game'), seat: Number(hash.get('seat')) };
    };
    /** Both pages in game `game`, each at its own seat, marked as its player's. */
    const bothSeated = async (ga, gb, what) => {
      assert(ga.game && ga.game === gb.game, `${what}: one game for both (${ga.game}, ${gb.game})`);
      assert(ga.seat !== gb.seat, `${what}: each at its own seat (${ga.seat}, ${gb.seat})`);
      const view = await api(base, `/api/games/${ga.game}`);
      assert(view.seats.length === 2 && view.seats[ga.seat].name === names[0] && view.seats[gb.seat].name === names[1], `${what}: the seats are the accounts' (${view.seats.map((x) => x.name)})`);
      for (const [p, name] of [[a, names[0]], [b, names[1]]]) {
        await p.waitForSelector('.scores .tag.you');
        const mine = await p.$$eval('.scores .tag.you', (es) => es.map((e) => e.closest('tr').textContent));
        assert(mine.length === 1 && mine[0].includes(name), `${what}: the page plays its player's seat (${mine})`);
      }
      return view;
    };

    // Quick match: A waits for a person (no bot); the wait is found again after a reload.
    await home(a);
    const exps = await a.$$eval('#quick-match-box input[type=checkbox]', (es) => es.filter((e) => e.checked).map((e) => e.value));
    assert(exps.join() === 'ferries', `The Ferries ticked by default, nothing else (${exps})`);
    await a.selectOption('#quick-bot-after', '');
    const [qreq] = await Promise.all([a.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/quick-match'), a.click('#quick-match')]);
    const qsent = qreq.postDataJSON();
    assert(qsent.expansions.join() === 'ferries' && !('bot_after' in qsent), `quick match asked with The Ferries, no bot: ${JSON.stringify(qsent)}`);
    await a.waitForSelector('#quick-waiting #quick-status');
    await a.reload();
    await a.waitForSelector('body[data-ready="1"] #quick-waiting #quick-status');
    await a.waitForFunction(() => /Waiting for another player: \d+:\d\d\./.test(document.getElementById('quick-status').textContent));
    assert(await a.locator('#quick-match').count() === 0 && await a.locator('#quick-cancel').count() === 1, 'while waiting: the time waited and Cancel, no second Quick match');
    await pointShot(a, 'lobby-quick-waiting');
    // B asks too: paired with A at once, both in the same game.
    await home(b);
    await b.click('#quick-match');
    const qb = await inGame(b);
    const qa = await inGame(a);
    const quickView = await bothSeated(qa, qb, 'quick match');
    assert(quickView.rated === true, 'a quick match is rated');

    // A table in the lobby: A opens one for two; B sees it with A's name, joins, and both land in its game.
    await home(a);
    await a.click('#open-table summary');
    await a.selectOption('#table-humans', '2');
    const [treq] = await Promise.all([a.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/lobby'), a.click('#open-table-submit')]);
    const tsent = treq.postDataJSON();
    assert(tsent.humans === 2 && tsent.bots.length === 0 && tsent.expansions.join() === 'ferries' && tsent.undo === true, `the table's setup: ${JSON.stringify(tsent)}`);
    await a.waitForSelector('#lobby-tables li[data-mine="1"] button[data-close]');
    const table = await a.getAttribute('#lobby-tables li[data-mine="1"]', 'data-table');
    await home(b);
    const row = b.locator(`#lobby-tables li[data-table="${table}"]`);
    await row.waitFor();
    const who = row.locator('.lobby-player a');
    assert(await who.count() === 1 && (await who.textContent()) === names[0] && (await who.getAttribute('href')) === `#player=${encodeURIComponent(names[0])}`, `the table lists A, linked to A's page (${await row.textContent()})`);
    assert(/The Ferries · Not rated · 1 seat free/.test(await row.textContent()), `its options and free seat: "${await row.textContent()}"`);
    assert(await row.locator('button[data-join]').count() === 1, 'B may join it');
    assert(await b.evaluate(() => document.documentElement.scrollWidth) <= 391, 'the lobby fits 390 px');
    await b.click('#open-table summary');
    const small = await smallTargets(b);
    assert(small.small.length === 0, `at 390 px every control of the lobby takes a fingertip; smaller: ${small.small.join('; ')}`);
    await b.click('#open-table summary');
    for (const p of [a, b]) await p.evaluate(() => window.scrollTo(0, 0));
    await pointShot(a, 'lobby');
    await pointShot(b, 'lobby');
    await row.locator('button[data-join]').click();
    const tb = await inGame(b);
    const ta = await inGame(a);
    assert(ta.game !== qa.game, 'the table\'s game is a new one');
    await bothSeated(ta, tb, 'the table');
    const started = await api(base, `/api/lobby/${table}`);
    assert(started.status === 'started' && started.game === ta.game, `the table started that game (${JSON.stringify(started).slice(0, 200)})`);
    const state = await actx.storageState();
    await actx.close();
    await bctx.close();

    // The lobby's words in German and Polish: a table opened and closed, a quick match waited for and cancelled.
    for (const locale of ['de-DE', 'pl-PL']) {
      const lc = await browser.newContext({ storageState: state, locale, viewport: { width: 1280, height: 820 } });
      const l = await lc.newPage();
      watchPage(l, `lobby-${locale}`);
      await home(l);
      await l.click('#open-table summary');
      await l.check('#table-bot-easy');
      await l.click('#open-table-submit');
      await l.waitForSelector('#lobby-tables li[data-mine="1"] button[data-close]');
      await l.click('#lobby-tables li[data-mine="1"] button[data-close]');
      await l.waitForSelector('#lobby-tables li[data-mine="1"]', { state: 'detached' });
      await l.click('#quick-match');
      await l.waitForSelector('#quick-waiting #quick-status');
      await l.click('#quick-cancel');
      await l.waitForSelector('#quick-match');
      assert((await api(base, '/api/lobby')).tables.length === 0, 'no table left open');
      const missing = await l.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await lc.close();
    }
  });

  await check('your turn: the tab title says so, and a notification if allowed, when the tab is not in front', async () => {
    const ctx2 = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    // The tab is put behind by the test (a headless browser has no other
    // window to bring in front), and notifications are recorded.
    await ctx2.addInitScript(() => {
      window.__hidden = false;
      window.__notes = [];
      Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
      Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
      function Recorded(title, options) { window.__notes.push({ title, body: options && options.body }); }
      Recorded.permission = 'default';
      Recorded.requestPermission = async () => { Recorded.permission = 'granted'; return 'granted'; };
      window.Notification = Recorded;
    });
    const p = await ctx2.newPage();
    watchPage(p, 'notify');
    await p.goto(`${base}/`);
    await p.waitForSelector('body[data-ready="1"][data-page="home"]');
    await p.click('#create-game');
    await waitMyTurn(p);
    await p.click('#notify-toggle');
    await p.waitForSelector('#notify-toggle[aria-pressed="true"]');
    const title0 = await p.title();
    assert(!title0.includes('Your turn'), `no call while in front (${title0})`);
    await p.evaluate(() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); });
    // Play the turn out; the bot answers; the turn comes back while the tab is behind.
    let d = await waitMyTurn(p);
    const start = Number(d.version);
    await p.keyboard.press(']');
    await p.keyboard.press('Enter');
    for (let i = 0; i < 12; i++) {
      await waitVersionPast(p, Number(d.version));
      d = await waitMyTurn(p);
      if (d.step === 'place' && Number(d.version) > start + 1) break;
      if (d.step === 'deploy' || d.step === 'move_ferries') await p.keyboard.press('n');
      else if (d.step === 'place_ferry') await p.keyboard.press('1');
      else if (d.step === 'end_turn') await p.keyboard.press('Enter');
    }
    await p.waitForFunction(() => document.title.startsWith('▶ Your turn'), null, { timeout: 15000 });
    await shot(p, 'your-turn-while-behind');
    const notes = await p.evaluate(() => window.__notes);
    assert(notes.length === 1 && /your turn/i.test(notes[0].title), `one notification (${JSON.stringify(notes)})`);
    await p.evaluate(() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); });
    await p.waitForFunction(() => !document.title.includes('Your turn'));
    await ctx2.close();
  });

  await check('colours per seat; the UI in German and in Polish, chosen from the browser\'s language', async () => {
    for (const [locale, words] of [['de-DE', { create: 'Anlegen und öffnen', turn: 'Du bist dran', easy: 'leicht', place: 'Legen' }], ['pl-PL', { create: 'Utwórz i otwórz', turn: 'Twój ruch', easy: 'łatwy', place: 'Połóż' }]]) {
      const ctx3 = await browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
      const p = await ctx3.newPage();
      watchPage(p, locale);
      await p.goto(`${base}/`);
      await p.waitForSelector('body[data-ready="1"][data-page="home"]');
      assert(await p.evaluate(() => document.documentElement.lang) === locale.slice(0, 2), 'the page says its language');
      assert((await p.textContent('#create-game')).includes(words.create), `home in ${locale}: "${await p.textContent('#create-game')}"`);
      // Seat 1 takes green; seat 2 takes green from it, and seat 1 gets seat 2's colour back.
      await p.selectOption('select[name="seat-0-colour"]', 'green');
      await p.selectOption('select[name="seat-1-colour"]', 'green');
      assert(await p.inputValue('select[name="seat-0-colour"]') === 'blue', 'choosing a taken colour swaps the two');
      await p.selectOption('select[name="seat-0-colour"]', 'orange');
      await shot(p, `home-${locale}`);
      // The seats' controls show their words whole; each expansion's box stands at the start of its own words.
      await p.selectOption('select[name="seat-1-type"]', 'bot');
      const cut = await p.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        const out = [];
        for (const sel of document.querySelectorAll('.seat-row select:not(.colour)')) {
          const cs = getComputedStyle(sel);
          ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18;
          for (const o of sel.options) if (ctx.measureText(o.text).width > room) out.push(`${sel.name}: "${o.text}" (${Math.round(ctx.measureText(o.text).width)} > ${Math.round(room)})`);
        }
        return out;
      });
      assert(cut.length === 0, `the seat controls fit their words: ${cut.join('; ')}`);
      const boxes = await p.evaluate(() => [...document.querySelectorAll('fieldset > label > input[type=checkbox]')].map((i) => {
        const l = i.parentElement.getBoundingClientRect(), r = i.getBoundingClientRect();
        return { id: i.id, dx: r.left - l.left, dy: r.top - l.top };
      }));
      assert(boxes.length >= 7 && boxes.every((b) => b.dx < 7 && b.dy < 12), `each check box at the start of its label: ${JSON.stringify(boxes.filter((b) => b.dx >= 7 || b.dy >= 12))}`);
      await pointShot(p, `home-${locale.slice(0, 2)}`);
      await p.click('#create-game');
      await waitMyTurn(p);
      const game = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1)).get('game');
      const view = await api(base, `/api/games/${game}`);
      assert(view.seats[0].colour === 'orange' && view.seats[1].colour === 'green', `the server has the colours (${JSON.stringify(view.seats)})`);
      const fill = await p.getAttribute('.scores tr[data-seat="0"] td:first-child svg path', 'fill');
      assert(fill === '#ea580c', `seat 1 is drawn orange (${fill})`);
      assert((await p.textContent('.board-banner')).includes(words.turn), `the game in ${locale}: "${await p.textContent('.board-banner')}"`);
      assert((await p.textContent('.scores tr[data-seat="1"] .tag')).includes(words.easy), `the bot's level in ${locale}`);
      const botSeat = await p.textContent('.scores tr[data-seat="1"] td.name > div');
      assert(botSeat.startsWith(`Bot 2 (${words.easy})`), `the bot's default name in ${locale}: "${botSeat}"`);
      await p.keyboard.press('?');
      await p.waitForSelector('#help-dialog[open]');
      await p.keyboard.press('Escape');
      await shot(p, `game-${locale}`);
      // A tile placed: the Place button, then the follower's spots, in the language (directions too).
      await p.keyboard.press(']');
      const placeBtn = await p.textContent('#confirm');
      assert(placeBtn.includes(words.place) && !/\(/.test(placeBtn), `the Place button: "${placeBtn}"`);
      const vPlace = Number(await p.evaluate(() => document.body.dataset.version));
      await p.keyboard.press('Enter');
      await waitVersionPast(p, vPlace);
      if (await p.evaluate(() => document.body.dataset.step) === 'deploy') {
        const opts = (await p.locator('button.opt').allTextContents()).join(' | ');
        assert(!/(?<!\p{L})(N|E|S|W|NNE|ENE|ESE|SSE|SSW|WSW|WNW|NNW)(?!\p{L})|\b(road|city|field):/u.test(opts), `the spots in ${locale}, directions in words: "${opts}"`);
        await pointShot(p, `spots-${locale.slice(0, 2)}`);
      }
      // The finished game: its final scores and its replay.
      await p.goto(`${base}/#game=${finished.gameId}`);
      await p.waitForSelector('dialog[open] .final table');
      await p.click('#close-final');
      await p.goto(`${base}/#replay=${finished.gameId}`);
      await p.waitForSelector('body[data-page="replay"][data-replay-version="1"]');
      for (let i = 0; i < 6; i++) await p.click('#replay-next-turn');
      assert((await p.textContent('.log-section')).length > 0, 'the log is shown');
      // The replay's banner and steps in the language: steps and features in words.
      for (let i = 0; i < 8; i++) {
        const v = Number(await p.evaluate(() => document.body.dataset.replayVersion));
        const banner = await p.textContent('.board-banner');
        const what = await p.textContent('#replay-what');
        assert(!/\b(draw|deploy|place_ferry|move_ferries|end turn|place)\b|\b(road|city|field|corner):|\b[NESW]-[NESW]\b/.test(`${banner} ${what}`), `replay step ${v} in ${locale}: "${banner}" / "${what}"`);
        await p.click('#replay-forward');
        await p.waitForFunction((v) => Number(document.body.dataset.replayVersion) > v, v);
      }
      await shot(p, `replay-${locale}`);
      const missing = await p.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await ctx3.close();
      // On a phone the header stays on one line, in either language.
      const ctx4 = await browser.newContext({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const q = await ctx4.newPage();
      watchPage(q, `${locale}-phone`);
      await q.goto(`${base}/#game=${game}`);
      await q.waitForSelector('body[data-page="game"][data-status="active"]');
      await q.waitForSelector('#conn:not(.hidden)');
      const line = await q.evaluate(() => {
        const kids = [...document.querySelectorAll('header.top > *')].filter((e) => e.getClientRects().length && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().width > 0);
        const mids = kids.map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; });
        return { spread: Math.max(...mids) - Math.min(...mids), height: document.querySelector('header.top').getBoundingClientRect().height, wide: document.documentElement.scrollWidth };
      });
      assert(line.spread < 6 && line.height < 56 && line.wide <= 391, `the phone header fits one line in ${locale} (${JSON.stringify(line)})`);
      await pointShot(q, `header-${locale.slice(0, 2)}`);
      await ctx4.close();
    }
  });

  await check('clocks (issue 29): the home form sends a time control; each seat\'s clock beside its score counts down by the server\'s time; a seat whose time runs out is played by the bot and the game goes on; a game lost on time says so; the account\'s "Your turn" list (1366 and 390 px; German and Polish)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await ctx.addInitScript(() => { try { if (localStorage.getItem('carcassonne.autoEnd') === null) localStorage.setItem('carcassonne.autoEnd', '0'); } catch (_) { /* fine */ } });
    const p = await ctx.newPage();
    watchPage(p, 'clock');
    const clockOf = (seat) => `.scores tr[data-seat="${seat}"] .seat-clock`;
    const readClock = (seat) => p.textContent(clockOf(seat));
    const players = [{ type: 'human', name: 'Clock Tester' }, { type: 'human', name: 'Late Friend' }];
    /** A game made through the API from the page (the form's clocks are minutes long), opened at this browser's seat 0. */
    const openMade = async (clock) => {
      const made = await p.evaluate(async (body) => {
        const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        return r.json();
      }, { seats: players, expansions: [], undo: true, clock });
      assert(made.game && made.seats[0].token, `the game is made: ${JSON.stringify(made).slice(0, 200)}`);
      await p.goto(`${base}/#game=${made.game}&token=${made.seats[0].token}`);
      await p.waitForSelector(`body[data-page="game"][data-game="${made.game}"] ${clockOf(0)}`);
      return made.game;
    };

    // The home form: this browser's seat and an invited player's, Fischer 5 min + 5 s, a bot on timeout.
    await p.goto(`${base}/`);
    await p.waitForSelector('body[data-ready="1"][data-page="home"] #opt-clock');
    while (await p.locator('.seat-row').count() > 2) await p.click('.seat-row:last-child button[aria-label^="remove seat"]');
    while (await p.locator('.seat-row').count() < 2) await p.click('#add-seat');
    await p.selectOption('select[name="seat-0-type"]', 'human');
    await p.fill('input[name="seat-0-name"]', players[0].name);
    await p.selectOption('select[name="seat-1-type"]', 'invite');
    await p.fill('input[name="seat-1-name"]', players[1].name);
    assert(await p.inputValue('#opt-clock') === '' && await p.isDisabled('#opt-timeout-lose'), 'no clock at first, and nothing to say of a timeout');
    const offered = await p.$$eval('#opt-clock option', (os) => os.map((o) => o.textContent));
    for (const w of ['No clock', '1 h per move', '1 day per move', '3 days per move', 'Fischer 5 min + 5 s', 'Fischer 10 min + 10 s', 'Fischer 25 min + 10 s']) {
      assert(offered.includes(w), `the form offers "${w}" (${offered.join(', ')})`);
    }
    await p.selectOption('#opt-clock', 'fischer-5-5');
    assert(!(await p.isDisabled('#opt-timeout-lose')) && await p.isChecked('#opt-timeout-bot'), 'with a clock: a bot plays on timeout, unless the seat is to lose');
    const [req] = await Promise.all([p.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games'), p.click('#create-game')]);
    const sent = req.postDataJSON();
    assert(JSON.stringify(sent.clock) === JSON.stringify({ base: 300, increment: 5, on_timeout: 'bot' }), `the form sends the clock: ${JSON.stringify(sent.clock)}`);
    await p.waitForSelector(`body[data-page="game"][data-status="active"] ${clockOf(0)}.running`);
    const formGame = new URLSearchParams((await p.evaluate(() => location.hash)).slice(1)).get('game');
    const formView = await api(base, `/api/games/${formGame}`);
    assert(formView.clock?.setup?.base === 300 && formView.clock.running?.seat === 0, `the server runs seat 1's clock: ${JSON.stringify(formView.clock)}`);
    const words = await p.textContent('#clock-setup');
    assert(words.includes('Fischer 5 min + 5 s, a bot plays on timeout'), `the time control is named: "${words}"`);
    // Two readings two seconds apart: fewer seconds left, never more than the bank.
    const secs = (text) => { const m = /^(\d+):(\d\d)$/.exec(text); return m ? Number(m[1]) * 60 + Number(m[2]) : NaN; };
    const a = await readClock(0);
    await sleep(2200);
    const b = await readClock(0);
    assert(secs(a) <= 300 && secs(b) < secs(a), `this seat's clock counts down (${a}, then ${b})`);
    assert(await readClock(1) === '5:00' && !(await p.locator(`${clockOf(1)}.running`).count()), `the other seat's bank stands (${await readClock(1)})`);
    assert(await p.locator('.turn-clock .seat-clock.running').count() === 1, 'the turn panel shows the time left too');
    await pointShot(p, 'clock');
    // On a phone: the clocks beside the scores, nothing wider than the screen.
    const phoneCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const phone = await phoneCtx.newPage();
    watchPage(phone, 'clock-phone');
    await phone.goto(`${base}/#game=${formGame}`);
    await phone.waitForSelector(`body[data-page="game"][data-status="active"] ${clockOf(0)}.running`);
    const fit = await phone.evaluate(() => {
      const r = document.querySelector('.scores tr[data-seat="0"] .seat-clock').getBoundingClientRect();
      return { wide: document.documentElement.scrollWidth, right: r.right, width: r.width };
    });
    assert(fit.wide <= 391 && fit.right <= 390 && fit.width > 20, `the clocks fit the phone (${JSON.stringify(fit)})`);
    await phone.locator('.scores').scrollIntoViewIfNeeded();
    await pointShot(phone, 'clock');

    // Fischer 10 s + 0 s: this seat's clock counts down in tenths, warned; the turn played, the invited seat (nobody plays it) runs out.
    const outGame = await openMade({ base: 10, increment: 0, on_timeout: 'bot' });
    await p.waitForSelector(`${clockOf(0)}.running.low`);
    const t1 = await readClock(0);
    await sleep(1000);
    const t2 = await readClock(0);
    assert(/^0:0\d\.\d$/.test(t1) && /^0:0\d\.\d$/.test(t2) && t1 !== t2, `under 10 s the clock shows tenths, counting down (${t1}, then ${t2})`);
    const d = await playToEndOfTurn(p);
    if (d.step === 'end_turn') await p.click('#end-turn');
    await p.waitForSelector(`${clockOf(1)}.running`, { timeout: 10000 });
    assert(!(await p.locator(`${clockOf(0)}.running`).count()), 'this seat\'s clock stops once its turn is over');
    await p.waitForSelector(`.scores tr[data-seat="1"] .tag.out-of-time`, { timeout: 20000 });
    assert((await p.textContent('.scores tr[data-seat="1"] .tag.out-of-time')).includes('bot plays (time ran out)'), 'the seat out of time is marked');
    assert(await p.locator(`${clockOf(1)}.out`).count() === 1 && await readClock(1) === '0:00', `its clock shows it ran out (${await readClock(1)})`);
    const back = await waitMyTurn(p, 20000);
    const outView = await api(base, `/api/games/${outGame}`);
    assert(back.status === 'active' && back.mine === '1' && outView.clock.out.includes(1) && outView.turn >= 2, `the bot played the invited seat and this seat is to act again (${JSON.stringify(outView.clock)}, turn ${outView.turn})`);
    await pointShot(p, 'clock-out');

    // Per move 10 s, the seat loses: this seat does nothing, and loses on time.
    const lostGame = await openMade({ per_move: 10, on_timeout: 'lose' });
    assert((await p.textContent('#clock-setup')).includes('10 s per move, the seat loses on timeout'), `named: "${await p.textContent('#clock-setup')}"`);
    assert(await readClock(1) === '0:10', `the other seat has a turn's time (${await readClock(1)})`);
    await p.waitForSelector('body[data-status="finished"] dialog[open] .final .forfeit', { timeout: 45000 });
    const said = await p.textContent('dialog[open] .final');
    assert(said.includes('Clock Tester lost on time') && said.includes('Late Friend wins'), `the end says who lost on time and who won: "${said.slice(0, 160)}"`);
    assert((await p.textContent('.board-banner')).includes('Clock Tester lost on time'), 'the banner too');
    const lastLine = await p.$$eval('.log-section .log > .entry', (es) => es.length ? { type: es[es.length - 1].dataset.type, text: es[es.length - 1].textContent } : null);
    assert(lastLine?.type === 'lost_on_time' && lastLine.text.includes('Clock Tester lost on time'), `the game log's last line says who lost on time (${JSON.stringify(lastLine)})`);
    const lostView = await api(base, `/api/games/${lostGame}`);
    assert(lostView.final.forfeit === 0 && JSON.stringify(lostView.final.winners) === '[1]', `the server has it so (${JSON.stringify(lostView.final)})`);
    await pointShot(p, 'clock-lost');
    await p.click('#close-final');
    await phoneCtx.close();

    // Signed in: the games where it is the account's turn, most urgent first, with their time left, on the account page and the player's own page.
    const name = `Clock ${Date.now() % 100000}`;
    await registerInUI(p, base, name);
    const mk = (clock) => p.evaluate(async (body) => (await (await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()).game,
      { seats: [{ type: 'human', name, mine: true }, { type: 'bot', level: 'easy' }], expansions: [], ...(clock ? { clock } : {}) });
    const slow = await mk(null);
    const day = await mk({ per_move: 86400 });
    const hour = await mk({ per_move: 3600 });
    // The page of the account (shown since it registered) afresh.
    await p.goto(`${base}/#account`);
    await p.reload();
    await p.waitForSelector(`#your-turn li[data-game="${slow}"]`, { timeout: 5000 });
    const order = await p.$$eval('#your-turn li[data-game]', (ls) => ls.map((l) => l.dataset.game));
    assert(JSON.stringify(order) === JSON.stringify([hour, day, slow]), `most urgent first (${order} vs ${[hour, day, slow]})`);
    const left = await p.textContent(`#your-turn li[data-game="${hour}"] .turn-left`);
    assert(/^(59:\d\d|1:00:00) left$/.test(left), `the time left: "${left}"`);
    const dayLeft = await p.textContent(`#your-turn li[data-game="${day}"] .turn-left`);
    assert(/^(23:59:\d\d|1 d 0 h) left$/.test(dayLeft), `a day's time left: "${dayLeft}"`);
    assert(await p.getAttribute(`#your-turn li[data-game="${hour}"] a[data-play]`, 'href') === `#game=${hour}&seat=0`, 'each links to its game at the account\'s seat');
    await pointShot(p, 'clock-your-turn');
    await p.goto(`${base}/#player=${encodeURIComponent(name)}`);
    await p.waitForSelector(`#your-turn li[data-game="${hour}"]`);
    await p.click(`#your-turn li[data-game="${hour}"] a[data-play]`);
    await p.waitForSelector(`body[data-page="game"][data-game="${hour}"][data-mine="1"] ${clockOf(0)}.running`);
    const state = await ctx.storageState();
    await ctx.close();

    // Every text of the clocks in German and Polish: the form, a running clock, a seat out of time, a game lost on time, the account's list.
    for (const locale of ['de-DE', 'pl-PL']) {
      const lc = await browser.newContext({ storageState: state, locale, viewport: { width: 1280, height: 820 } });
      const l = await lc.newPage();
      watchPage(l, `clock-${locale}`);
      await l.goto(`${base}/`);
      await l.waitForSelector('body[data-ready="1"][data-page="home"] #opt-clock');
      await l.selectOption('#opt-clock', 'move-1d');
      await l.click('#open-table summary');
      await l.selectOption('#table-clock', 'fischer-10-10');
      for (const g of [formGame, outGame, lostGame]) {
        await l.goto(`${base}/#game=${g}`);
        await l.waitForSelector(`body[data-page="game"][data-game="${g}"] #clock-setup`);
      }
      await l.waitForSelector('dialog[open] .final .forfeit');
      await l.goto(`${base}/#account`);
      await l.waitForSelector(`#your-turn li[data-game="${day}"] .turn-left`);
      const missing = await l.evaluate(() => [...window.__i18n.missing]);
      assert(missing.length === 0, `every text has its ${locale} words (missing: ${JSON.stringify(missing)})`);
      await lc.close();
    }
  });

  await check('no script errors in any page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('; '));
  });
  await context.close();
  await spectCtx.close();
} catch (e) {
  results.push({ name: 'setup', ok: false, error: e });
  console.log(`FAIL - setup: ${e && e.stack ? e.stack : e}`);
} finally {
  await browser.close().catch(() => {});
  cleanup();
  if (server) await server.stop();
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
