// The server's HTTP and WebSocket API (docs/api.md). Every refusal is an
// ApiError carrying the server's typed code and message.
import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(code, message, status = 0, extra = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.extra = extra;
  }
}

// A read refused for its rate is tried again after the server's Retry-After
// (at most this many times); writes are not repeated behind the user's back.
const READ_RETRIES = 2;

/**
 * The server's clock as its answers tell it: each answer's `Date` header (to
 * the second) bounds the difference between the server's clock and this
 * browser's, and the bounds narrow answer by answer (a clock set anew, on
 * either side, starts them again).
 */
let skew = { lo: -Infinity, hi: Infinity };
function noteDate(res, sent) {
  const date = Date.parse(res.headers.get('Date') || '');
  if (!Number.isFinite(date)) return;
  // The answer was made between `sent` and now, in the second `date` names.
  const lo = date - Date.now(), hi = date + 1000 - sent;
  skew = lo > skew.hi || hi < skew.lo ? { lo, hi } : { lo: Math.max(skew.lo, lo), hi: Math.min(skew.hi, hi) };
}

/** Now by the server's clock (ms since 1970), as near as its answers tell: a game's clock runs by it. */
export function serverNow() {
  return Date.now() + (Number.isFinite(skew.lo) && Number.isFinite(skew.hi) ? (skew.lo + skew.hi) / 2 : 0);
}

async function request(method, path, body, retries = READ_RETRIES) {
  let res;
  const sent = Date.now();
  try {
    res = await fetch(path, {
      method,
      headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError('network', t('cannot reach the server ({reason})', { reason: e.message }));
  }
  noteDate(res, sent);
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = null; }
  }
  if (res.status === 429 && method === 'GET' && retries > 0) {
    const wait = Math.min(10, Math.max(1, Number(res.headers.get('Retry-After')) || 1));
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return request(method, path, body, retries - 1);
  }
  if (!res.ok) {
    const err = data && data.error;
    if (err && err.code) throw new ApiError(err.code, err.message || err.code, res.status, err);
    throw new ApiError(`http_${res.status}`, `the server answered ${res.status} ${res.statusText}`, res.status);
  }
  return data;
}

/**
 * A seat's credentials in a request's body: its token, or for a seat of the
 * signed-in account opened without one (`session:N`, see game.js) its
 * number, which the server checks against the session's account.
 */
export function seatAuth(token) {
  const m = /^session:(\d+)$/.exec(token || '');
  return m ? { seat: Number(m[1]) } : token ? { token } : {};
}

/** Whether a seat of this page is the account's, opened without its token. */
export function bySession(token) { return /^session:\d+$/.test(token || ''); }

export const api = {
  tiles: () => request('GET', '/api/tiles'),
  createGame: (body) => request('POST', '/api/games', body),
  join: (game, token) => request('POST', `/api/games/${enc(game)}/join`, seatAuth(token)),
  listGames: (status = 'all', limit = 50, offset = 0) =>
    request('GET', `/api/games?status=${enc(status)}&limit=${limit}&offset=${offset}`),
  view: (game) => request('GET', `/api/games/${enc(game)}`),
  viewAt: (game, version) => request('GET', `/api/games/${enc(game)}/view?version=${version}`),
  act: (game, seat, token, version, action) =>
    request('POST', `/api/games/${enc(game)}/actions`, { ...seatAuth(token), seat, version, action }),
  history: (game) => request('GET', `/api/games/${enc(game)}/actions`),
  /** body: { file } (a record's or a .jcz's text) or { record, version } */
  recordView: (body) => request('POST', '/api/records/view', body),
  /** The inspector on a record opened here: body { record, version, at, piece }. */
  recordFeature: (body) => request('POST', '/api/records/feature', body),
  /** body: { at, piece, version?, token? } */
  feature: (game, { token, ...body }) => request('POST', `/api/games/${enc(game)}/feature`, { ...body, ...seatAuth(token) }),
  recordUrl: (game) => `/api/games/${enc(game)}/record`,
  review: (game) => request('GET', `/api/games/${enc(game)}/review`),
  startReview: (game) => request('POST', `/api/games/${enc(game)}/review`, {}),
  /** The odds overlays' figures: at `version`, or the seat's own position with `token`. */
  odds: (game, { version, token } = {}) => (token
    ? request('POST', `/api/games/${enc(game)}/odds`, seatAuth(token))
    : request('GET', `/api/games/${enc(game)}/odds${version ? `?version=${version}` : ''}`)),
  /** A chat message: body { token, text } (a seat's) or { name?, text } (a spectator's). */
  say: (game, body) => request('POST', `/api/games/${enc(game)}/chat`, body, 0),
  /** The spectators' room. */
  chat: (game) => request('GET', `/api/games/${enc(game)}/chat`),
  hint: (game, token, version) => request('POST', `/api/games/${enc(game)}/hint`, { ...seatAuth(token), version }),
  // Accounts (docs/api.md, Accounts): the session is a cookie the page never sees.
  register: (name, password) => request('POST', '/api/accounts', { name, password }),
  signIn: (name, password) => request('POST', '/api/session', { name, password }),
  signOut: () => request('DELETE', '/api/session'),
  me: () => request('GET', '/api/me'),
  changePassword: (old, next) => request('POST', '/api/me/password', { old, new: next }),
  signOutEverywhere: () => request('DELETE', '/api/me/sessions'),
  deleteAccount: (password) => request('POST', '/api/me/delete', { password }),
  // Ratings (docs/api.md, Ratings): an account's or a bot level's page, and the lists.
  player: (name) => request('GET', `/api/players/${enc(name)}`),
  ratings: (limit = 100) => request('GET', `/api/ratings?limit=${limit}`),
  // The lobby (docs/api.md, Lobby): tables waiting for their players, and quick match.
  tables: (limit = 50) => request('GET', `/api/lobby?limit=${limit}`),
  table: (id) => request('GET', `/api/lobby/${enc(id)}`),
  /** setup: { humans, bots, expansions, edition?, rules?, rated, undo } */
  openTable: (setup) => request('POST', '/api/lobby', setup),
  joinTable: (id) => request('POST', `/api/lobby/${enc(id)}/join`, {}),
  leaveTable: (id) => request('POST', `/api/lobby/${enc(id)}/leave`, {}),
  /** body: { expansions?, bot_after? (seconds; absent: wait for a player however long) } */
  quickMatch: (body) => request('POST', '/api/quick-match', body),
  quickStatus: () => request('GET', '/api/quick-match'),
  cancelQuick: () => request('DELETE', '/api/quick-match'),
};

function enc(s) { return encodeURIComponent(s); }

/** Close code of a seat's connection that a newer one of the same seat replaced. */
const REPLACED = 4001;

/**
 * A game's live WebSocket: pushes every view, reconnects with backoff, and
 * tells its owner when it (re)connects so the view can be fetched again.
 * With seats' tokens, the connection is the seats' own, which the server
 * never refuses for room (the tokens go in the subprotocol list, not in
 * the URL), and it brings their own views over their provisional decisions.
 */
export class GameSocket {
  constructor(game, { tokens = [], onView, onStatus, onOpen, onChat }) {
    this.game = game;
    this.tokens = tokens;
    this.onView = onView;
    this.onChat = onChat || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.retry = 0;
    this.closed = false;
    this.ws = null;
    this.pingTimer = null;
    this.connect();
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && (!this.ws || this.ws.readyState > 1)) this.reconnectNow();
    };
    document.addEventListener('visibilitychange', this.onVisible);
    this.onOnline = () => this.reconnectNow();
    window.addEventListener('online', this.onOnline);
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.game)}/ws`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus('connecting');
    let ws;
    // Every seat of this browser: their own views (over their provisional
    // decisions) come on this connection. The account's seats opened
    // without a token come by the session cookie, sent with the upgrade.
    const protocols = ['carcassonne', ...this.tokens.filter((t) => !bySession(t)).map((t) => `token.${t}`)];
    try { ws = new WebSocket(this.url(), protocols); } catch (_) { this.scheduleReconnect(); return; }
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus('open');
      this.onOpen();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        if (ws.readyState === 1) ws.send(JSON.stringify({ type: 'ping' }));
      }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      // The first view of a connection is the game as it is now, whatever came before.
      if (msg.type === 'view' && msg.view) { this.onView(msg.view, first); first = false; }
      if (msg.type === 'chat') this.onChat(msg.room, msg.messages);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      if (ev.code === REPLACED) {
        // Reconnecting would only push the newer tab out in turn.
        this.close();
        this.onStatus('replaced');
        return;
      }
      this.onStatus('closed');
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    const delay = Math.min(10000, 500 * 2 ** this.retry) * (0.75 + Math.random() * 0.5);
    this.retry++;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closed) return;
    clearTimeout(this.timer);
    if (this.ws && this.ws.readyState <= 1) return;
    this.retry = 0;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    if (this.ws) { const ws = this.ws; this.ws = null; try { ws.close(); } catch (_) { /* gone */ } }
  }
}

/** Human words for the server's error codes. */
export const ERROR_HELP = {
  malformed: 'The request was not understood.',
  invalid_setup: 'That game cannot be created.',
  bot_budget: 'That bot would think longer than this server allows.',
  not_found: 'No such game.',
  wrong_token: 'This link does not hold a valid seat token for that game.',
  nothing_to_undo: 'There is nothing of this turn to take back.',
  turn_not_over: 'The turn is not played out yet.',
  bot_seat: 'That seat is played by a bot.',
  stale_version: 'The game moved on before your action arrived; the board has been refreshed.',
  not_your_turn: 'It is another seat’s turn.',
  game_over: 'The game is already finished.',
  illegal_action: 'The rules do not allow that.',
  invalid_record: 'That file is no game record or saved game the rules allow.',
  too_large: 'The request was too large.',
  timeout: 'The request did not arrive in time.',
  busy: 'The server is busy. Try again later.',
  storage: 'The server could not store the action; nothing was changed. Try again.',
  internal: 'The server hit an unexpected error.',
  network: 'The server cannot be reached. Retrying…',
  hints_off: 'This game was created without hints.',
  hints_busy: 'No hint now: too many are under way. Try again in a moment.',
  bot_time_used: 'This address has used its bot time for the hour.',
  not_signed_in: 'Sign in first (or again: the session has ended).',
  not_your_seat: 'That seat is not your account’s: open the game with its link.',
  bad_credentials: 'No account has this name and password.',
  wrong_password: 'That is not your account’s password.',
  weak_password: 'Choose a longer password that is harder to guess.',
  invalid_name: 'That name cannot be an account’s.',
  name_taken: 'Another account has that name.',
  cross_site: 'The request came from another site’s page.',
  rate_limited: 'Too many requests: wait a moment and try again.',
  unsupported_media_type: 'The request was not sent as JSON.',
  table_closed: 'That table has started or closed meanwhile.',
  out_of_time: 'This seat’s time ran out: the bot plays for it.',
};
