// local.js - the web game's API with no server: what solver/web/__init__.py
// (_Api) answers, computed in the browser (or in Node, for the tests). The
// rules of play are the C core's (csrc/play.h, in core.wasm through
// core.js); the searches of the hints run where the caller's `search`
// function runs them (a Web Worker a search in the browser: workerSearch);
// the words are words.js's, the server's own.
//
//   const api = createLocalApi({ core, search, data, bits });
//   const answer = await api("/api/play", body, signal);   // or throws
//
// An error is thrown as an Error whose message is the server's "error"
// text, with the server's HTTP status in `status`; a request whose signal
// aborts throws an Error named "AbortError". Like the server it keeps no
// game: each request carries the variant, the deal and the steps, which are
// replayed (the last game replayed is kept, so that the next request, a
// step longer or shorter, replays only what differs).
//
// `data` is the site's site-data.json (solver/web/site.py, site_data):
// {variants, first: the /api/variants answer; rules: {name: {family, decks,
// cards, rules: its rules struct's fields, blind_players, flags: the
// search's shortcuts}}},
// and where it gives them, a variant's index ({first, last, unknown}: else
// the variants list's), and the hints' limits. `bits(name)` gives the verdict
// index's bitset of a variant (inflated: a Uint8Array), or {bits, unknown}.
//
// The rules of play, their refusals, the table a player sees, a
// position's key and the careful blind player are the core's. Ported from
// Python, and to be kept in step with it: solver/session.py (Game,
// _Lines), solver/families/player.py (a player's move named among the
// legal ones), solver/hints.py (hint, _fallback), solver/blind.py (where
// the careful player is asked: fair hints, the hints' fallback, the
// difficulty), solver/verdicts (lookup, random_deal, difficulty) and
// solver/web/__init__.py (the routes, _view, _hint_json, _fair_hint_json,
// _search_winnable).

import { Core } from "./core.js";
import {
  MoveError,
  brief,
  cardOf,
  describe,
  isObject,
  moveJson,
  parseMove,
  placeKind,
  say,
  stepName,
  stepText,
} from "./words.js";

const MAX_NUMBER = 10n ** 20n;
const MAX_MOVES = 5000;
const LINE_ROOM = 10000;
const VIEW_ROOM = 32768; // bytes for a view's or a layout's JSON: a jewel box's are under 2,000 and 8,000
const DIFFICULTIES = {
  blind: "a careful player who cannot see the stock wins it",
  sighted: "only a player who sees the stock wins it; the careful blind player loses it",
  lost: "no line wins it (proven)",
  unknown: "the solver could not tell within its limit",
};
// The hints' limit in the browser: 3 s of wall clock, 256 MiB.
export const HINT_LIMITS = { positions: 50_000_000, seconds: 3, memory: 256 * 2 ** 20 };

// -- errors, as the server sends them

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
class IllegalMove extends MoveError {}
const bad = (status, message) => new ApiError(status, message);

function abortError() {
  const e = new Error("superseded");
  e.name = "AbortError";
  return e;
}
const checkSignal = (signal) => {
  if (signal && signal.aborted) throw abortError();
};

// -- the C core's rules of play

class Play {
  constructor(core) {
    this.core = core;
    this.c = core.c;
    this.L = core.layout;
    this.K = core.constants;
    const c = this.c;
    this.moveSize = this.L.solver_move[""];
    this.stateBuf = c.malloc(Math.max(...core.families.map((f) => this.L[f.table][""])));
    this.movesBuf = c.malloc(this.moveSize * this.K.PLAY_MAX_MOVES);
    this.record = c.malloc(this.moveSize);
    this.played = c.malloc(this.moveSize);
    this.viewBuf = c.malloc(VIEW_ROOM);
    this.keyBuf = c.malloc(this.K.SOLVER_KEY_ROOM);
    this.err = c.malloc(240);
    this.cardsBuf = c.malloc(104);
    this.textBuf = c.malloc(64);
    // The words of a move, the core's (csrc/play/vocabulary.c): the kinds of
    // place by number, and the actions.
    this.places = this.L.places;
    this.actions = Object.fromEntries(this.L.actions.map((name, a) => [name, a]));
  }

  mem() {
    return this.core.bytes();
  }
  view() {
    return new DataView(this.c.memory.buffer);
  }
  errText() {
    const bytes = this.mem();
    const end = bytes.indexOf(0, this.err);
    return this.core.text(this.err, (end < 0 ? this.err + 239 : end) - this.err);
  }
  load(state) {
    this.mem().set(state, this.stateBuf);
  }
  save(size) {
    return this.mem().slice(this.stateBuf, this.stateBuf + size);
  }

  placeName(kind, index) {
    const { name, numbering } = this.places[kind];
    if (numbering === this.K.SOLVER_NUMBERED_SUIT) return `${name}:${"CSHD"[index]}`;
    return index ? `${name}:${index}` : name;
  }

  // The kind of place a family names `kind` (solver_place_kind), or -1.
  kindOf(family, kind) {
    return this.core.families[family].places.find((k) => this.places[k].name === kind) ?? -1;
  }

  // A place name as the core's (kind, index) in a family, as
  // play.place_record reads it (a bare suited place: SOLVER_ANY_SUIT; a
  // place of another family's, for the family's rules to refuse), or null
  // for no such place in any game.
  placeOf(name, family) {
    const i = name.indexOf(":");
    const kind = i < 0 ? name : name.slice(0, i),
      index = i < 0 ? "" : name.slice(i + 1);
    let k = this.kindOf(family, kind);
    if (k < 0) k = this.places.findIndex((p) => p.name === kind);
    if (k < 0) return null;
    if (this.places[k].numbering === this.K.SOLVER_NUMBERED_SUIT) {
      if (!index) return [k, this.K.SOLVER_ANY_SUIT];
      return index.length === 1 && "CSHD".includes(index) ? [k, "CSHD".indexOf(index)] : null;
    }
    if (!index) return [k, 0];
    return /^[0-9]+$/.test(index) && Number(index) < 100 ? [k, Number(index)] : null;
  }

  // A place as the solution format names it: a kind numbered for the
  // player only (the Tomb's cells, corners) by its kind alone.
  engineName(name, family) {
    const k = name ? this.kindOf(family, placeKind(name)) : -1;
    return k >= 0 && this.places[k].numbering === this.K.SOLVER_NUMBERED_FOR_PLAYER ? placeKind(name) : name;
  }

  isHome(name, family) {
    const k = name ? this.kindOf(family, placeKind(name)) : -1;
    return k >= 0 && this.places[k].home;
  }

  recordable(m, family) {
    return [m.src, m.dst].every((p) => !p || this.placeOf(p, family) !== null);
  }

  writeRecord(m, family) {
    const v = this.view(),
      o = this.L.solver_move,
      p = this.record;
    this.mem().fill(0, p, p + this.moveSize);
    v.setInt32(p + o.action[0], this.actions[m.action], true);
    v.setInt32(p + o.card[0], m.card === null || m.card === undefined ? this.K.SOLVER_NO_CARD : m.card, true);
    if (m.src) {
      const [k, i] = this.placeOf(m.src, family) || [99, 0];
      v.setInt32(p + o.src[0], k, true);
      v.setInt32(p + o.src_index[0], i, true);
    }
    if (m.dst) {
      const [k, i] = this.placeOf(m.dst, family) || [99, 0];
      v.setInt32(p + o.dst[0], k, true);
      v.setInt32(p + o.dst_index[0], i, true);
    }
  }

  // A move record of the core as a move of the player's notation (no card
  // of a turn, a deal or a jewel).
  readRecord(p) {
    const v = this.view(),
      o = this.L.solver_move,
      K = this.K;
    const get = (f) => v.getInt32(p + o[f][0], true);
    const action = get("action");
    if (action === K.SOLVER_TURN) return { action: "turn", card: null, src: null, dst: null };
    if (action === K.SOLVER_DEAL) return { action: "deal", card: null, src: null, dst: null };
    if (action === K.SOLVER_REDEAL) return { action: "redeal", card: null, src: null, dst: null };
    if (action === K.SOLVER_JEWEL_FILL) {
      return { action: "jewel", card: null, src: null, dst: this.placeName(get("dst"), get("dst_index")) };
    }
    return {
      action: "move",
      card: get("card"),
      src: this.placeName(get("src"), get("src_index")),
      dst: this.placeName(get("dst"), get("dst_index")),
    };
  }
}

// -- a variant: its rules, its structs, its place of the rules of play

class Rules {
  constructor(play, name, info) {
    Object.assign(this, info);
    this.name = name;
    this.play = play;
    const fam = play.core.family(info.family);
    this.fam = fam;
    this.type = fam.table;
    this.size = play.L[this.type][""];
    this.ptr = play.core.struct(fam.rules, info.rules);
    const c = play.c;
    [this.cStart, this.cMoves, this.cApply, this.cAuto] = ["start", "moves", "apply", "auto"].map(
      (f) =>
        (...args) =>
          c[`solver_play_${f}`](fam.number, ...args),
    );
  }

  // The start of deal `number` (a BigInt), as the core lays it out.
  start(number) {
    const p = this.play,
      c = p.c;
    const text = new TextEncoder().encode(number.toString() + "\0");
    p.mem().set(text, p.textBuf);
    const n = c.solver_deal(p.textBuf, this.decks, p.cardsBuf);
    if (n < 0) throw bad(400, `deal number ${number} is out of range: deal numbers are 1 to 10**20`);
    if (this.cStart(this.ptr, p.cardsBuf, n, p.stateBuf, p.err, 240) !== 0) {
      throw bad(400, p.errText());
    }
    return p.save(this.size);
  }

  // The legal moves of state into the play's moves buffer: how many there.
  listMoves(state) {
    const p = this.play;
    p.load(state);
    const n = this.cMoves(this.ptr, p.stateBuf, p.movesBuf, p.K.PLAY_MAX_MOVES, p.err, 240);
    if (n < 0) throw bad(400, p.errText());
    return Math.min(n, p.K.PLAY_MAX_MOVES);
  }

  moves(state) {
    const p = this.play,
      out = [];
    for (let i = 0, n = this.listMoves(state); i < n; i++) out.push(p.readRecord(p.movesBuf + i * p.moveSize));
    return out;
  }

  // The core's move applied: the position after it and the move as made
  // (every place numbered), or {error}.
  applyRecord(state, move) {
    const p = this.play;
    p.load(state);
    p.writeRecord(move, this.fam.number);
    if (this.cApply(this.ptr, p.stateBuf, p.record, p.played, p.err, 240) !== 0) return { error: p.errText() };
    return { state: p.save(this.size), played: p.readRecord(p.played) };
  }

  auto(state, enabled) {
    const p = this.play;
    p.load(state);
    return this.cAuto(this.ptr, p.stateBuf, enabled ? 1 : 0, p.record) ? p.readRecord(p.record) : null;
  }

  score(state) {
    const p = this.play;
    p.load(state);
    return p.c.solver_play_score(this.fam.number, this.ptr, p.stateBuf);
  }

  restricted(state) {
    const p = this.play;
    p.load(state);
    return p.c.solver_play_restricted(this.fam.number, this.ptr, p.stateBuf) > 0;
  }

  // The position the search takes (a tomb_table's pos; a family's position).
  searchPosition(state) {
    const at = this.fam.position_in_table;
    return state.slice(at, at + this.play.L[this.fam.position][""]);
  }

  // The exact position (every place, every card: solver_play_key), as a
  // string: two positions are equal when their keys are.
  key(s) {
    const p = this.play;
    p.load(s);
    const n = p.c.solver_play_key(this.fam.number, this.ptr, p.stateBuf, 0, p.keyBuf, p.K.SOLVER_KEY_ROOM, p.err, 240);
    if (n < 0) throw bad(400, p.errText());
    return String.fromCharCode(...p.mem().subarray(p.keyBuf, p.keyBuf + n));
  }

  // -- the careful blind player (solver/blind.py: the core's, play.h)

  // Its move in state, from what a player sees, or null where it would stop.
  careful(state) {
    const p = this.play,
      K = p.K;
    const n = this.listMoves(state);
    const i = p.c.solver_play_choose(
      this.fam.number,
      this.ptr,
      p.stateBuf,
      K.SOLVER_BLIND_CAREFUL,
      K.SOLVER_BLIND_WITHIN,
      -1,
      p.movesBuf,
      n,
      p.err,
      240,
    );
    if (i < -1) throw bad(400, p.errText());
    return i < 0 ? null : p.readRecord(p.movesBuf + i * p.moveSize);
  }

  // blind.play with the careful player: does it win the deal from state?
  carefulWins(state, maxMoves = 10000) {
    const p = this.play,
      K = p.K;
    p.load(state);
    const n = p.c.solver_play_blind(
      this.fam.number,
      this.ptr,
      p.stateBuf,
      K.SOLVER_BLIND_CAREFUL,
      K.SOLVER_BLIND_WITHIN,
      -1,
      maxMoves,
      0,
      0,
      0,
      p.err,
      240,
    );
    if (n < 0) throw bad(400, p.errText());
    return p.c.solver_play_score(this.fam.number, this.ptr, p.stateBuf) === this.cards;
  }

  // -- a player's move (Player.play): the legal move it names, else the
  // move as it is given, played by the core. Returns {played, state};
  // throws IllegalMove with the core's reason, naming nothing the player
  // cannot see.
  apply(state, move) {
    const refuse = (why) => new IllegalMove(`${describe(move)}: ${why}`);
    if (move.action === "move" && (!move.src || !move.dst)) {
      throw refuse("a move needs 'from' and 'to': place names such as 'waste', 'cell:2' or 'pile:7'");
    }
    const named = this.moves(state).find((m) => names(move, m));
    if (!named && !this.play.recordable(move, this.fam.number)) {
      throw refuse(`there is no place ${move.src || move.dst} in this game`);
    }
    const out = this.applyRecord(state, named || move);
    if (out.error === undefined) return { played: out.played, state: out.state };
    if (named) throw new Error(`the core refuses its own move ${describe(named)}: ${out.error}`);
    throw refuse(out.error);
  }

  // -- the table as the player sees it: the core's view (solver_play_view)
  // and its layout for the renderer (solver_play_layout)

  table(s) {
    return this.json("view", s);
  }
  layout(s) {
    return this.json("layout", s);
  }
  json(verb, s) {
    const p = this.play;
    p.load(s);
    const n = p.c[`solver_play_${verb}`](this.fam.number, this.ptr, p.stateBuf, p.viewBuf, VIEW_ROOM, p.err, 240);
    if (n < 0) throw bad(400, p.errText());
    if (n >= VIEW_ROOM) throw new Error(`a ${verb} of ${n} bytes: more than the ${VIEW_ROOM} kept for it`);
    return JSON.parse(p.core.text(p.viewBuf, n));
  }

  // -- a move of a line of the search (the solution format's) played by
  // the core: {played (the player's notation: a card's place numbered as
  // the core put it), state}, or {error} (Player.to_player)

  lineMove(state, m) {
    const card = m.card === undefined || m.card === null ? null : cardIndex(m.card);
    return this.applyRecord(state, { action: m.action, card, src: m.from ?? null, dst: m.to ?? null });
  }

  toPlayer(state, m) {
    const out = this.lineMove(state, m);
    return out.error === undefined ? out.played : null;
  }
}

const cardIndex = (text) => cardOf("A23456789TJQK".indexOf(text[0]) + 1, text[1]);

// player.names: does the player's `move` name the legal move `m`? Its
// action, and for a card move its places (a bare "cell", "kbase"... names
// the first of its kind m could be; a bare source needs the card) and its
// card, where it gives them.
function names(move, m) {
  if (move.action !== m.action) return false;
  if (m.action !== "move") return move.dst === null || move.dst === m.dst;
  if (move.card !== null && move.card !== m.card) return false;
  if (!move.src || !move.dst) return false;
  const srcOk = move.src === m.src || (!move.src.includes(":") && move.card !== null && placeKind(m.src) === move.src);
  return srcOk && (move.dst === m.dst || (!move.dst.includes(":") && placeKind(m.dst) === move.dst));
}

const sameMove = (a, b) => a.action === b.action && a.card === b.card && a.src === b.src && a.dst === b.dst;

// The legal moves as the solution format names them (CorePlay.legal), each
// once: a Tomb card going to a cell or a corner once, onto the first that
// takes it.
function engineMoves(rules, legal) {
  const seen = new Set(),
    out = [];
  const name = (p) => rules.play.engineName(p, rules.fam.number);
  for (const m of legal) {
    const key = [m.action, m.card, name(m.src), name(m.dst)].join("/");
    if (!seen.has(key)) {
      seen.add(key);
      out.push(m);
    }
  }
  return out;
}

// -- the lines of recent hints (session._Lines)

class Lines {
  constructor(room = LINE_ROOM) {
    this.lines = new Map();
    this.room = room;
    this.kept = 0;
    this.count = 0;
  }

  get(key, scoreNow) {
    for (const id of [...this.lines.keys()].reverse()) {
      const entry = this.lines.get(id);
      const k = entry.where.get(key);
      if (k !== undefined && k < entry.h.line.length) {
        this.lines.delete(id);
        this.lines.set(id, entry);
        const rest = entry.h.line.slice(k);
        return { ...entry.h, move: rest[0], line: rest, fromLine: true, scoreNow };
      }
    }
    return null;
  }

  put(rules, variant, state, h) {
    if ((h.verdict !== "won" && h.verdict !== "lost") || !h.line.length || !h.fromLine) return;
    const where = new Map([[variant + "\n" + rules.key(state), 0]]);
    let k = 0;
    for (const m of h.line) {
      k += 1;
      const after = rules.lineMove(state, m);
      if (after.error !== undefined) break;
      state = after.state;
      where.set(variant + "\n" + rules.key(state), k);
    }
    this.count += 1;
    this.lines.set(this.count, { where, h });
    this.kept += where.size;
    while (this.kept > this.room && this.lines.size > 1) {
      const [oldest] = this.lines.keys();
      this.kept -= this.lines.get(oldest).where.size;
      this.lines.delete(oldest);
    }
  }
}

// -- the verdict index

class Index {
  constructor(info, bits) {
    this.first = BigInt(info.first);
    this.last = BigInt(info.last);
    this.bits = bits;
    this.unknown = new Set((info.unknown || []).map(String));
    this.won = null;
  }
  verdict(deal) {
    if (deal < this.first || deal > this.last) return null;
    if (this.unknown.has(deal.toString())) return "unknown";
    const i = Number(deal - this.first);
    return (this.bits[i >> 3] >> (i & 7)) & 1 ? "won" : "lost";
  }
  wonDeals() {
    if (this.won === null) {
      let n = 0;
      for (const b of this.bits) for (let x = b; x; x &= x - 1) n++;
      this.won = n;
    }
    return this.won;
  }
}

// zlib's bytes inflated (the index's <variant>.bits.zlib).
export async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// -- a game, replayed (session.Game)

class Game {
  constructor(rules, deal, auto) {
    this.rules = rules;
    this.deal = deal;
    this.auto = auto;
    this.start = null;
    this.steps = []; // {moves (as played), state, text (its JSON), count}
  }
  get state() {
    return this.steps.length ? this.steps[this.steps.length - 1].state : this.start;
  }

  // Game.play: the move and what the rules then do by themselves.
  step(state, move, auto) {
    const first = this.rules.apply(state, move);
    const played = [first.played];
    state = first.state;
    for (let extra; (extra = this.rules.auto(state, auto)) !== null;) {
      const next = this.rules.apply(state, extra);
      played.push(next.played);
      state = next.state;
    }
    return { moves: played, state };
  }

  play(move, auto = this.auto) {
    const s = this.step(this.state, move, auto);
    this.steps.push({ ...s, text: null });
    return s.moves;
  }

  // Game.finish_steps: the steps home with nothing left to decide, or null.
  finishSteps() {
    const steps = [];
    let state = this.state;
    const total = this.rules.cards;
    while (this.rules.score(state) !== total) {
      const legal = this.rules.moves(state);
      const home = legal.find((m) => m.action === "move" && this.rules.play.isHome(m.dst, this.rules.fam.number));
      const stock = legal.find((m) => m.action !== "move");
      if ((!home && !stock) || steps.length > 4 * total) return null;
      const s = this.step(state, home || stock, this.auto);
      steps.push(s);
      state = s.state;
    }
    return steps;
  }

  view() {
    const r = this.rules,
      s = this.state;
    const legal = r.moves(s);
    const score = r.score(s),
      won = score === r.cards;
    const last = this.steps.length ? this.steps[this.steps.length - 1].moves : null;
    return {
      variant: r.name,
      family: r.family,
      fair_hint: r.blind_players,
      deal: dealJson(this.deal),
      score,
      total: r.cards,
      won,
      stuck: !won && !legal.length,
      steps: this.steps.length,
      moves_played: this.steps.reduce((n, x) => n + x.moves.length, 0),
      can_undo: this.steps.length > 0,
      can_redo: false,
      finishable: !won && legal.length > 0 && this.finishSteps() !== null,
      table: r.table(s),
      layout: r.layout(s),
      legal: legal.map((m) => ({ ...moveJson(m), text: say(m) })),
      last: last ? { text: stepText(last), name: stepName(last) } : null,
    };
  }
}

const dealJson = (deal) => (deal <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(deal) : deal.toString());

// -- the API

// The API's state, kept from one request to the next (the rules of each
// variant asked, the lines of recent hints, the verdict indexes loaded,
// the counts of /api/status, the last game replayed), its helpers and its
// routes.
class LocalApi {
  constructor({ core, search, data, bits, limits, random }) {
    Object.assign(this, { search, data, bits, limits, random });
    this.play = new Play(core);
    this.rulesOf = new Map();
    this.lines = new Lines();
    this.indexes = new Map();
    this.counts = { searches: 0, stopped: 0, refused: 0, waiting: 0 };
    this.cached = null; // the last game replayed
    this.names = Object.keys(data.rules).sort();
    this.listed = Object.fromEntries(data.variants.map((v) => [v.name, v]));
    for (const name of this.names) checkRules(name, data.rules[name]);
    // The routes, by path.
    this.routes = {
      "/api/variants": () => this.variants(),
      "/api/status": () => this.status(),
      "/api/state": (body) => this.state(body),
      "/api/play": (body) => this.playStep(body),
      "/api/hint": (body, signal) => this.hint(body, signal),
      "/api/finish": (body) => this.finish(body),
      "/api/new": (body, signal) => this.newDeal(body, signal),
      "/api/verdict": (body, signal) => this.verdict(body, signal),
    };
  }

  // What the rules of play and the searches need of a variant, as the site
  // data gives it: whether the blind players play it and the search's
  // flags are its family's, which only the Python side knows.
  infoOf(name) {
    const r = this.data.rules[name];
    return {
      family: r.family,
      decks: r.decks,
      cards: r.cards,
      rules: r.rules,
      blind_players: r.blind_players,
      flags: r.flags,
      index: r.index ?? (this.listed[name] && this.listed[name].index) ?? null,
    };
  }

  variantOf(body) {
    const name = body.variant;
    if (typeof name !== "string") throw bad(400, `'variant' must be a variant name, not ${brief(name)}`);
    if (!Object.prototype.hasOwnProperty.call(this.data.rules, name)) {
      throw bad(400, `unknown variant ${brief(name)}; variants are ${this.names.join(", ")}`);
    }
    if (!this.rulesOf.has(name)) this.rulesOf.set(name, new Rules(this.play, name, this.infoOf(name)));
    return this.rulesOf.get(name);
  }

  // _game: the game of the request, its steps replayed as listed (from
  // the last game replayed, where its steps begin the same).
  gameOf(body) {
    const auto = "auto" in body ? body.auto : true;
    if (typeof auto !== "boolean") throw bad(400, `'auto' must be true or false, not ${brief(auto)}`);
    const rules = this.variantOf(body),
      deal = dealOf(body),
      steps = stepsOf(body);
    const game = new Game(rules, deal, auto);
    const cached = this.cached;
    const same = cached && cached.rules === rules && cached.deal === deal;
    game.start = same ? cached.start : rules.start(deal);
    const texts = steps.map((s) => JSON.stringify(s));
    let k = 0;
    if (same) {
      while (k < texts.length && k < cached.steps.length && cached.steps[k].text === texts[k]) k++;
      game.steps = cached.steps.slice(0, k);
    }
    this.replay(game, steps, texts, k);
    return game;
  }

  // The steps from the k-th on played into the game; the game, as far as
  // it got, kept as the last replayed.
  replay(game, steps, texts, k) {
    const rules = game.rules;
    try {
      for (; k < steps.length; k++) {
        const step = steps[k];
        if (!step.length) throw new MoveError("a step is a non-empty list of moves");
        const moves = step.map(parseMove);
        let state = game.state;
        const played = [];
        for (const m of moves) {
          const out = rules.apply(state, m);
          played.push(out.played);
          state = out.state;
        }
        game.steps.push({ moves: played, state, text: texts[k] });
      }
    } catch (e) {
      if (e instanceof MoveError) throw bad(422, `step ${k + 1}: ${e.message}`);
      throw e;
    } finally {
      this.cached = { rules, deal: game.deal, start: game.start, steps: game.steps.slice() };
    }
  }

  // The game after a step played: the next request, which sends the step
  // back as it came, replays nothing.
  remember(game, json) {
    game.steps[game.steps.length - 1].text = JSON.stringify(json);
    this.cached = { rules: game.rules, deal: game.deal, start: game.start, steps: game.steps.slice() };
  }

  async indexOf(rules) {
    const info = rules.index;
    if (!info) return null;
    if (!this.indexes.has(rules.name)) {
      const made = Promise.resolve(this.bits(rules.name)).then((got) => {
        const b = got instanceof Uint8Array ? got : got.bits;
        const need = Math.floor((info.last - info.first) / 8) + 1;
        if (b.length !== need) {
          throw bad(400, `the index of ${rules.name}: ${b.length} bytes do not cover deals ${info.first}-${info.last}`);
        }
        return new Index({ ...info, unknown: got instanceof Uint8Array ? info.unknown : got.unknown }, b);
      });
      this.indexes.set(rules.name, made);
      made.catch(() => this.indexes.delete(rules.name));
    }
    return this.indexes.get(rules.name);
  }

  async lookup(rules, deal) {
    const index = await this.indexOf(rules);
    return index ? index.verdict(deal) : null;
  }

  async runSearch(rules, position, signal) {
    this.counts.searches += 1;
    try {
      const given = { family: rules.family, rules: rules.rules, position, flags: rules.flags, limits: this.limits };
      return await this.search(given, signal);
    } catch (e) {
      if (e && e.name === "AbortError") this.counts.stopped += 1;
      throw e;
    }
  }

  // hints.hint: a search from the position, its line's first move (else a
  // sensible legal one), and what it proved.
  async searchHint(game, signal) {
    const rules = game.rules,
      state = game.state;
    const found = await this.runSearch(rules, rules.searchPosition(state), signal);
    const line = found.line ? JSON.parse(`[${found.line}]`) : [];
    const scoreNow = rules.score(state);
    let move = line.length ? line[0] : null;
    const fromLine = line.length > 0;
    if (move === null && scoreNow !== rules.cards) move = fallback(rules, state);
    return {
      move,
      fromLine,
      line,
      verdict: found.verdict,
      reason: found.reason,
      scoreNow,
      score: found.verdict === "won" ? rules.cards : found.best,
    };
  }

  async verdictOf(rules, deal, signal) {
    const found = await this.lookup(rules, deal);
    if (found !== null) return [found, "index"];
    const out = await this.runSearch(rules, rules.searchPosition(rules.start(deal)), signal);
    return [out.verdict, "search"];
  }

  async randomDeal(rules, winnableOnly) {
    const index = winnableOnly ? await this.indexOf(rules) : null;
    if (index === null) return 1 + Math.floor(this.random() * 1_000_000);
    if (index.wonDeals() === 0) throw bad(400, `the index of ${rules.name} holds no won deal`);
    const span = Number(index.last - index.first) + 1;
    for (;;) {
      const n = index.first + BigInt(Math.floor(this.random() * span));
      if (index.verdict(n) === "won") return Number(n);
    }
  }

  // -- the routes

  async api(path, body, signal) {
    checkSignal(signal);
    // Only the routes' own names: "toString" or "__proto__" is no page.
    const route = Object.hasOwn(this.routes, path) ? this.routes[path] : null;
    if (!route) throw bad(404, `no such page: ${path}`);
    const get = path === "/api/variants" || path === "/api/status";
    if (!get && !isObject(body)) throw bad(400, "the request body must be a JSON object");
    try {
      return await route(get ? {} : body, signal);
    } catch (e) {
      if (e instanceof ApiError || (e && e.name === "AbortError")) throw e;
      if (e instanceof MoveError) throw bad(422, e.message);
      throw bad(500, `internal error (${(e && e.name) || "Error"}): ${(e && e.message) || e}`);
    }
  }

  async variants() {
    return JSON.parse(JSON.stringify({ variants: this.data.variants, first: this.data.first }));
  }

  async status() {
    return { ...this.counts };
  }

  async state(body) {
    return { view: this.gameOf(body).view() };
  }

  async playStep(body) {
    const game = this.gameOf(body);
    if (!("move" in body)) throw bad(400, "give the 'move' to play");
    let step;
    try {
      step = game.play(parseMove(body.move));
    } catch (e) {
      if (e instanceof MoveError) throw bad(422, e.message);
      throw e;
    }
    const json = step.map((m) => moveJson(m));
    this.remember(game, json);
    return { step: json, text: stepText(step), view: game.view() };
  }

  async hint(body, signal) {
    const game = this.gameOf(body);
    const fair = "fair" in body ? body.fair : false;
    if (typeof fair !== "boolean") throw bad(400, `'fair' must be true or false, not ${brief(fair)}`);
    if (fair) return { hint: fairHint(game) };
    const rules = game.rules,
      state = game.state;
    let h = this.lines.get(rules.name + "\n" + rules.key(state), rules.score(state));
    if (h === null) {
      h = await this.searchHint(game, signal);
      this.lines.put(rules, rules.name, state, h);
    }
    const move = h.move === null ? null : h.fromLine ? rules.toPlayer(state, h.move) : h.move;
    const reason = h.reason === "interrupted" ? "seconds" : h.reason;
    const lost = h.verdict === "unknown" && (await this.lookup(rules, game.deal)) === "lost";
    checkSignal(signal);
    return { hint: hintJson({ ...h, move, reason, total: rules.cards }, !game.steps.length, lost) };
  }

  async finish(body) {
    const game = this.gameOf(body);
    const steps = game.finishSteps();
    if (steps === null) throw bad(400, "the game is not over yet: there are still choices to make");
    game.steps.push(...steps.map((s) => ({ ...s, text: null })));
    return {
      steps: steps.map((s) => s.moves.map((m) => moveJson(m))),
      texts: steps.map((s) => stepText(s.moves)),
      view: game.view(),
    };
  }

  async newDeal(body, signal) {
    const rules = this.variantOf(body);
    const only = "winnable_only" in body ? body.winnable_only : false;
    if (typeof only !== "boolean") throw bad(400, "'winnable_only' must be true or false");
    if (only && !rules.index) {
      const tries = 20;
      for (let t = 0; t < tries; t++) {
        const deal = BigInt(await this.randomDeal(rules, false));
        const out = await this.runSearch(rules, rules.searchPosition(rules.start(deal)), signal);
        if (out.verdict === "won") return { deal: Number(deal), source: "search" };
      }
      throw bad(503, `no won deal of ${rules.name} found in ${tries} tries: try again`);
    }
    return { deal: await this.randomDeal(rules, only), source: only ? "index" : "random" };
  }

  async verdict(body, signal) {
    const rules = this.variantOf(body),
      deal = dealOf(body);
    const [found, source] = await this.verdictOf(rules, deal, signal);
    const out = {
      variant: rules.name,
      deal: dealJson(deal),
      verdict: found,
      source,
      winnable: found === "won" ? true : found === "lost" ? false : null,
      difficulty: null,
    };
    if (rules.blind_players) {
      const level = rules.carefulWins(rules.start(deal))
        ? "blind"
        : found === "won"
          ? "sighted"
          : found === "lost"
            ? "lost"
            : "unknown";
      out.difficulty = level;
      out.difficulty_text = DIFFICULTIES[level];
    }
    return out;
  }
}

// The API: api(path, body, signal), a promise of the route's answer (see
// the top of this file); api.lines, the lines of its recent hints.
export function createLocalApi({ core, search, data, bits, limits = HINT_LIMITS, random = Math.random }) {
  const local = new LocalApi({ core, search, data, bits, limits, random });
  const api = (path, body, signal) => local.api(path, body, signal);
  api.lines = local.lines;
  return api;
}

// A variant's entry of the site data, checked for what site_data always
// writes of it and the API cannot work out: else an error naming it.
function checkRules(name, r) {
  const need = { blind_players: "boolean", flags: "number" };
  for (const [key, type] of Object.entries(need)) {
    if (typeof r[key] !== type) {
      throw new Error(
        `the site data of ${name} gives no '${key}' (a ${type}: solver/web/site.py, site_data, writes it)`,
      );
    }
  }
}

function dealOf(body) {
  let deal = body.deal;
  if (typeof deal === "string" && /^[0-9]+$/.test(deal.trim())) deal = numberFromText(deal);
  else if (typeof deal !== "number" || !Number.isInteger(deal)) {
    throw bad(400, `'deal' must be a deal number (1 to 10**20), not ${brief(deal)}`);
  } else deal = BigInt(deal);
  if (deal < 1n || deal > MAX_NUMBER) {
    throw bad(400, `deal number ${deal} is out of range: deal numbers are 1 to 10**20`);
  }
  return deal;
}

function stepsOf(body) {
  const steps = "steps" in body ? body.steps : [];
  if (!Array.isArray(steps) || !steps.every(Array.isArray)) {
    throw bad(400, "'steps' must be a list of steps, each a list of moves");
  }
  if (steps.reduce((n, s) => n + s.length, 0) > MAX_MOVES) {
    throw bad(413, `the game is over ${MAX_MOVES.toLocaleString("en-US")} moves long: start a new one`);
  }
  return steps;
}

// hints._fallback, in the player's notation.
function fallback(rules, state) {
  const legal = engineMoves(rules, rules.moves(state));
  if (!legal.length) return null;
  const candidates = [];
  if (rules.blind_players) {
    const choice = rules.careful(state);
    if (choice) candidates.push(choice);
  }
  for (const m of legal) if (!candidates.some((c) => sameMove(c, m))) candidates.push(m);
  for (const m of candidates) {
    const after = rules.apply(state, m).state;
    if (rules.score(after) === rules.cards || rules.moves(after).length) return m;
  }
  return candidates[0];
}

// _fair_hint_json: the careful player's move, as the page shows it.
function fairHint(game) {
  const rules = game.rules;
  if (!rules.blind_players) {
    throw bad(
      400,
      "a fair hint needs the blind player, written for the Napoleon's Tomb variants;" + ` ${rules.name} is not one`,
    );
  }
  const move = rules.careful(game.state);
  const text =
    move === null
      ? "Fair hint: the careful player would stop here (no move it likes)."
      : `Fair hint: ${say(move, "do", false)}. It is the careful player's move, chosen from what you` +
        " can see (never the stock's order): it proves nothing.";
  return {
    move: move === null ? null : moveJson(move, true),
    verdict: null,
    status: null,
    proof: null,
    fair: true,
    score: null,
    reason: null,
    text,
  };
}

// deals.number_from_text of a text of digits (white space around them).
function numberFromText(text) {
  const significant = text.trim().replace(/^0+/, "");
  if (significant.length > 40) {
    throw bad(
      400,
      `deal number of ${significant.length} digits is out of range: deal numbers are` + ` 1 .. ${MAX_NUMBER} (10**20)`,
    );
  }
  const number = BigInt(significant || "0");
  if (number < 1n || number > MAX_NUMBER) {
    throw bad(400, `deal number ${number} is out of range: deal numbers are 1 .. ${MAX_NUMBER} (10**20)`);
  }
  return number;
}

// _hint_json: a hint as the page shows it.
function hintJson(h, atStart, dealLost) {
  let status = h.verdict,
    proof = h.verdict === "won" || h.verdict === "lost" ? "search" : null;
  if (status === "unknown" && dealLost) [status, proof] = ["lost", "index"];
  const never = atStart ? "cannot be won" : "can no longer be won";
  let text;
  if (h.move === null) {
    text =
      h.scoreNow === h.total
        ? `The deal is won: all ${h.total} cards are home.`
        : `No move is left: the game ends with ${h.scoreNow} cards home.`;
  } else {
    const head = say(h.move);
    if (status === "won") text = `${head}: this move keeps a win (proven: the solver's line wins from here).`;
    else if (proof === "index") {
      text =
        `${head}. This deal ${never} (proven: the verdict index holds its proof); the best line` +
        ` the solver found within its limit brings ${h.score} cards home.`;
    } else if (status === "lost") {
      text = `${head}. This deal ${never} (proven); best possible: ${h.score} cards home, and this move keeps it.`;
    } else {
      text =
        `${head}. The solver could not tell within its limit whether the deal can still be won;` +
        ` its best line found brings ${h.score} cards home.`;
    }
  }
  return {
    move: h.move === null ? null : moveJson(h.move, true),
    verdict: status,
    status,
    proof,
    score: h.score,
    reason: h.reason,
    text,
  };
}

// -- searches in Web Workers (the browser)

// A search function for createLocalApi: each search in a worker of its own
// (search-worker.js, given the compiled module `wasm`, or loading it from
// that URL), one kept ready for the next; a search whose signal aborts
// ends its worker, so it stops at once.
export function workerSearch(workerUrl, wasm) {
  const url = new URL(workerUrl);
  const compiled = wasm instanceof WebAssembly.Module;
  if (wasm && !compiled) url.searchParams.set("wasm", String(wasm));
  const spare = [];
  const make = () => {
    const worker = new Worker(url, { type: "module" });
    if (compiled) worker.postMessage({ module: wasm });
    return worker;
  };
  spare.push(make());
  let id = 0;
  return (given, signal) =>
    new Promise((resolve, reject) => {
      if (signal && signal.aborted) return reject(abortError());
      const worker = spare.pop() || make();
      const mine = ++id;
      const done = () => {
        if (signal) signal.removeEventListener("abort", stop);
        worker.onmessage = worker.onerror = null;
      };
      const stop = () => {
        done();
        worker.terminate();
        if (!spare.length) spare.push(make());
        reject(abortError());
      };
      if (signal) signal.addEventListener("abort", stop, { once: true });
      worker.onmessage = (e) => {
        if (e.data.id !== mine) return;
        done();
        if (spare.length) worker.terminate();
        else spare.push(worker);
        if (e.data.error !== undefined) reject(new Error(e.data.error));
        else resolve(e.data.result);
      };
      worker.onerror = (e) => {
        done();
        worker.terminate();
        reject(new Error(`the search worker failed (${e.message || "no message"})`));
      };
      worker.postMessage({ id: mine, ...given });
    });
}

// The API of the static site whose page is at pageUrl: core.wasm and
// site-data.json beside the page, the verdict index in verdicts/ (its
// index.json and <variant>.bits.zlib, as the package ships them).
export async function siteApi(pageUrl) {
  const base = new URL(".", pageUrl);
  const wasmUrl = new URL("core.wasm", base);
  const json = async (path) => {
    const r = await fetch(new URL(path, base));
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
  const [module, data] = await Promise.all([Core.compile(wasmUrl), json("site-data.json")]);
  const core = await Core.load(module);
  let meta = null;
  const bits = async (name) => {
    meta = meta || json("verdicts/index.json");
    const entry = (await meta)[name] || {};
    const r = await fetch(new URL(`verdicts/${name}.bits.zlib`, base));
    if (!r.ok) throw new Error(`verdicts/${name}.bits.zlib: ${r.status}`);
    const b = await inflate(new Uint8Array(await r.arrayBuffer()));
    if (entry.sha256 && globalThis.crypto && crypto.subtle) {
      const hex = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", b)))
        .map((x) => x.toString(16).padStart(2, "0"))
        .join("");
      if (hex !== entry.sha256) throw new Error(`verdicts/${name}.bits.zlib: the bitset does not match its SHA-256`);
    }
    return { bits: b, unknown: entry.unknown || [] };
  };
  const search = workerSearch(new URL("./search-worker.js", import.meta.url), module);
  return createLocalApi({ core, search, data, bits, limits: data.limits || HINT_LIMITS });
}

// A search function running in the calling thread (Node, the tests).
export const directSearch = (core) => async (given) =>
  core.search(given.family, given.rules, given.position, given.flags, given.limits);
