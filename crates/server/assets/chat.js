// A game's chat beside the board (docs/api.md, Chat). A seat's holder
// talks in the players' room; anyone else in the spectators', under a name
// this browser remembers. Players see the spectators' room only once the
// game is over. Messages are text, always: written with textContent, never
// through the dictionary or as markup. Muting is this browser's: a muted
// name's messages are hidden, per game.
import { api, seatAuth } from './api.js';
import { h, clear, showError } from './ui.js';
import { t } from './i18n.js';

const NAME_KEY = 'carcassonne.chatName';
const MAX_TEXT = 500;

function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || 'null') ?? fallback; } catch (_) { return fallback; }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* private mode */ }
}

export class ChatPanel {
  /**
   * `speaker()` gives the seat this browser speaks as, `{ seat, token }`,
   * or null for a spectator.
   */
  constructor(gameId, { speaker }) {
    this.gameId = gameId;
    this.speaker = speaker;
    this.lines = new Map(); // room -> Map(id -> message)
    this.mutedKey = `carcassonne.muted.${gameId}`;
    this.muted = new Set(load(this.mutedKey, []));
    this.over = false;
    this.list = h('ol.chat-lines', { 'aria-live': 'polite', 'aria-label': 'chat messages' });
    this.after = h('div.chat-after.hidden', h('h4', 'What the spectators said'), h('ol.chat-lines'));
    this.mutedNote = h('p.chat-muted.hidden');
    this.input = h('input', { type: 'text', maxlength: MAX_TEXT, placeholder: 'Say something…', 'aria-label': 'your message', autocomplete: 'off' });
    this.name = h('input.chat-name', { type: 'text', maxlength: 32, placeholder: 'your name', 'aria-label': 'your name', value: load(NAME_KEY, '') });
    this.sendBtn = h('button', { type: 'submit' }, 'Send');
    this.form = h('form.chat-form', { onsubmit: (e) => { e.preventDefault(); this.send(); } }, this.name, this.input, this.sendBtn);
    // Keys typed here are words, not the board's shortcuts.
    this.form.addEventListener('keydown', (e) => e.stopPropagation());
    this.room = h('p.chat-room');
    this.element = h('section.chat', { 'aria-label': 'chat' }, h('h3', 'Chat'), this.room, this.list, this.mutedNote, this.form, this.after);
    this.renderRoom();
  }

  mine() { return this.speaker() ? 'players' : 'spectators'; }

  renderRoom() {
    const players = this.mine() === 'players';
    this.room.textContent = players ? t('Between the players: spectators do not see it.') : t('Among the spectators: the players see it once the game is over.');
    this.name.classList.toggle('hidden', players);
  }

  /** A `chat` message of the socket, or messages read over HTTP. */
  receive(room, messages) {
    const held = this.lines.get(room) || new Map();
    this.lines.set(room, held);
    for (const m of messages || []) held.set(m.id, m);
    this.render();
  }

  /** The game ended (or was over when opened): the spectators' room opens to the players. */
  async gameOver() {
    if (this.over) return;
    this.over = true;
    if (this.mine() !== 'players') return;
    try {
      const r = await api.chat(this.gameId);
      this.receive('spectators', r.messages);
    } catch (_) { /* the players' room still works */ }
  }

  render() {
    this.renderRoom();
    this.fill(this.list, this.mine());
    const other = this.mine() === 'players' ? 'spectators' : null;
    const shown = other && this.over && (this.lines.get(other)?.size || 0) > 0;
    this.after.classList.toggle('hidden', !shown);
    if (shown) this.fill(this.after.querySelector('ol'), other);
    const n = this.muted.size;
    this.mutedNote.classList.toggle('hidden', n === 0);
    clear(this.mutedNote);
    if (n) {
      this.mutedNote.append(document.createTextNode(t('Muted: {names}', { names: [...this.muted].join(', ') }) + ' '),
        h('button.link', { type: 'button', onclick: () => { this.muted.clear(); save(this.mutedKey, []); this.render(); } }, 'unmute all'));
    }
  }

  fill(list, room) {
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    clear(list);
    const held = [...(this.lines.get(room)?.values() || [])].sort((a, b) => a.id - b.id);
    for (const m of held) {
      if (this.muted.has(m.name)) continue;
      const who = h('span.chat-who');
      who.textContent = m.name;
      const said = h('span.chat-text');
      said.textContent = m.text;
      const when = new Date(m.at * 1000);
      const li = h('li', { dataset: { id: String(m.id), room }, title: when.toLocaleString() }, who, ' ', said);
      // One's own name is not muted.
      if (!(room === this.mine() && this.isMe(m))) {
        li.append(h('button.chat-mute', { type: 'button', title: 'mute this name', 'aria-label': 'mute this name', onclick: () => this.mute(m.name) }, '🔇'));
      }
      list.append(li);
    }
    if (stick) list.scrollTop = list.scrollHeight;
  }

  isMe(m) {
    const me = this.speaker();
    return m.seat !== null && m.seat !== undefined ? !!me && m.seat === me.seat : m.name === this.name.value.trim();
  }

  mute(name) {
    this.muted.add(name);
    save(this.mutedKey, [...this.muted]);
    this.render();
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const token = this.speaker()?.token;
    const body = token ? { ...seatAuth(token), text } : { text, ...(this.name.value.trim() ? { name: this.name.value.trim() } : {}) };
    if (!token) save(NAME_KEY, this.name.value.trim());
    this.sendBtn.disabled = true;
    try {
      const r = await api.say(this.gameId, body);
      this.input.value = '';
      this.receive(r.message.room, [r.message]);
    } catch (e) {
      showError(e, 'Chat');
    } finally {
      this.sendBtn.disabled = false;
    }
  }
}
