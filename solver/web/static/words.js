// words.js - the player's notation and the words a player reads, for the
// page that plays with no server (local.js): a port of solver/notation.py
// (parse_move, move_json, say, step_text, step_name, describe), of the
// cards' notation (solver/cards.py) and of the short repr error messages
// use (solver/inputs.py, brief), so that every text is the server's.
//
// A move here is {action, card, src, dst}: card a card index 0..51 (or
// null), src and dst place names of the player's notation ("cell:2",
// "kbase:H", "stock"...), or null.

export const RANKS = "A23456789TJQK";
export const SUITS = "CSHD";
export const SUIT_SYMBOLS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const SYMBOL_SUITS = { "♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D" };

export const ACTIONS = ["turn", "deal", "redeal", "jewel", "move"];
export const BLIND_ACTIONS = ["turn", "deal", "redeal", "jewel"];
const FIELDS = ["action", "from", "to", "card", "text"];

export class MoveError extends Error {}

// -- cards

export const cardRank = (i) => (i % 13) + 1;
export const cardSuit = (i) => SUITS[Math.floor(i / 13)];
export const cardText = (i) => RANKS[i % 13] + cardSuit(i);
export const cardPretty = (i) => (i % 13 === 9 ? "10" : RANKS[i % 13]) + SUIT_SYMBOLS[cardSuit(i)];
export const cardOf = (rank, suit) => SUITS.indexOf(suit) * 13 + rank - 1;

// Card.parse: "JD", "10h", "td", "J♦"; a MoveError naming the token.
export function parseCard(token) {
  if (typeof token !== "string") throw new MoveError(`${brief(token)} is not text: a card is written like JD or 10♥`);
  const text = pyStrip(token);
  const chars = Array.from(text);
  if (chars.length < 2) {
    throw new MoveError(`${brief(token)} is not a card (expected rank and suit, like JD or 10♥)`);
  }
  const suitText = chars[chars.length - 1];
  let rankText = chars.slice(0, -1).join("").toUpperCase();
  const suit = SYMBOL_SUITS[suitText] || suitText.toUpperCase();
  if (rankText === "10") rankText = "T";
  if (rankText.length !== 1 || !RANKS.includes(rankText)) {
    throw new MoveError(`${brief(token)} is not a card: unknown rank ${brief(chars.slice(0, -1).join(""))}`);
  }
  if (suit.length !== 1 || !SUITS.includes(suit)) {
    throw new MoveError(`${brief(token)} is not a card: unknown suit ${brief(suitText)}`);
  }
  return cardOf(RANKS.indexOf(rankText) + 1, suit);
}

// Python's str.strip(): white space at both ends (Python counts the
// separators \x1c-\x1f as white space, which JavaScript's \s does not).
// eslint-disable-next-line no-control-regex
const pyStrip = (s) => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, "");

// -- places

export const placeKind = (place) => place.split(":")[0];
export const placeIndex = (place) => (place.includes(":") ? place.slice(place.indexOf(":") + 1) : "");

const PLACE_WORDS = { stock: "turned card", kbase: "King base", abase: "Ace base" };

// say_place: "cell 2" of "cell:2", "King base ♥" of "kbase:H".
export function sayPlace(place) {
  if (!place) return "?";
  const i = place.indexOf(":");
  const kind = i < 0 ? place : place.slice(0, i);
  const word = PLACE_WORDS[kind] || kind;
  if (i < 0) return word;
  const index = place.slice(i + 1);
  const suited = ["kbase", "abase", "foundation"].includes(kind);
  return `${word} ${suited ? SUIT_SYMBOLS[index] || index : index}`;
}

// -- the player's notation

// parse_move: a move of the player's notation from its JSON object.
export function parseMove(data) {
  if (!isObject(data)) throw new MoveError(`a move must be a JSON object, not ${brief(data)}`);
  checkDepth(data, "a move", 4);
  const action = data.action;
  if (!ACTIONS.includes(action)) {
    throw new MoveError(`unknown action ${brief(action)}; actions are ${ACTIONS.join(", ")}`);
  }
  if (BLIND_ACTIONS.includes(action) && ("card" in data || "cards" in data)) {
    const hidden = { turn: "the stock", deal: "the stock", jewel: "the jewels", redeal: "the stock" };
    throw new MoveError(`a ${action} names no card: the player cannot see ${hidden[action]}`);
  }
  const extra = Object.keys(data)
    .filter((k) => !FIELDS.includes(k))
    .sort(pyCompare);
  if (extra.length) {
    throw new MoveError(`unknown field ${brief(extra[0])} in a move; fields are ${FIELDS.join(", ")}`);
  }
  if ("text" in data && typeof data.text !== "string") {
    throw new MoveError(`'text' of a move must be text, not ${brief(data.text)}`);
  }
  if (BLIND_ACTIONS.includes(action)) {
    if (action === "jewel" && "to" in data) {
      if (typeof data.to !== "string")
        throw new MoveError(`'to' of a jewel must be a place name, not ${brief(data.to)}`);
      return { action, card: null, src: null, dst: data.to };
    }
    if ("from" in data || "to" in data) throw new MoveError(`a ${action} takes no 'from' or 'to'`);
    return { action, card: null, src: null, dst: null };
  }
  for (const name of ["from", "to"]) {
    const place = data[name];
    if (typeof place !== "string" || !place) {
      throw new MoveError(`a move needs '${name}': a place name such as 'waste', 'cell:2' or 'pile:7'`);
    }
  }
  let card = null;
  if (data.card !== undefined && data.card !== null) {
    if (typeof data.card !== "string")
      throw new MoveError(`'card' must be a card such as '8H', not ${brief(data.card)}`);
    card = parseCard(data.card);
  }
  return { action: "move", card, src: data.from, dst: data.to };
}

// move_json: a move's JSON object in the player's notation; text: with
// the words of what to do.
export function moveJson(move, text = false) {
  let out;
  if (move.action === "move") {
    out = { action: "move", from: move.src, to: move.dst };
    if (move.card !== null && move.card !== undefined) out.card = cardText(move.card);
  } else if (move.action === "jewel" && move.dst) {
    out = { action: "jewel", to: move.dst };
  } else {
    out = { action: move.action };
  }
  if (text) out.text = say(move);
  return out;
}

// -- the words

export const TENSES = ["do", "done", "auto", "name"];
export const WORDS = {
  turn: ["turn the stock", "turned the stock", "the stock turned", "turn the stock"],
  deal: ["deal a round", "dealt a round", "a round dealt", "deal a round"],
  redeal: ["redeal", "redealt", "the stock redealt", "redeal"],
  jewel: [
    "open the next jewel{into}",
    "opened the next jewel{into}",
    "the next jewel opened{into}",
    "open the next jewel{into}",
  ],
  move: ["play {card}{src} → {dst}", "played {card}{src} → {dst}", "{card}{src} → {dst}", "{card}{src} → {dst}"],
};

export function say(move, tense = "do", capital = null) {
  const words = WORDS[move.action];
  let text;
  if (!words) text = move.action;
  else {
    const fill = {
      card: move.card !== null && move.card !== undefined ? cardPretty(move.card) + " " : "",
      src: sayPlace(move.src),
      dst: sayPlace(move.dst),
      into: move.dst ? ` into ${sayPlace(move.dst)}` : "",
    };
    text = words[TENSES.indexOf(tense)].replace(/\{(card|src|dst|into)\}/g, (_, k) => fill[k]);
  }
  if (capital === null) capital = tense === "do" || tense === "done";
  return capital ? text.slice(0, 1).toUpperCase() + text.slice(1) : text;
}

export function stepText(step) {
  if (!step.length) return "";
  const [first, ...auto] = step;
  const then = auto.length ? `; then by itself: ${auto.map((m) => say(m, "auto")).join(", ")}` : "";
  return `${say(first, "done")}${then}.`;
}

export function stepName(step) {
  if (!step.length) return "";
  const [first, ...auto] = step;
  return [say(first, "name"), ...auto.map((m) => say(m, "auto"))].join(", then ");
}

export const describe = (move) => say(move, "name");

// -- Python's repr, as solver/inputs.py's brief() writes it (reprlib: at
// most 4 levels, 6 items, 60 characters of a string)

export const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// Python orders str keys by code point.
export function pyCompare(a, b) {
  const x = Array.from(a),
    y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

// Python's repr() of a str, whole.
export function pyRepr(s) {
  return pyStrRepr(s);
}

function pyStrRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      out +=
        c < 0x100
          ? "\\x" + c.toString(16).padStart(2, "0")
          : c < 0x10000
            ? "\\u" + c.toString(16).padStart(4, "0")
            : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

function cut(s, max) {
  if (s.length <= max) return s;
  const i = Math.max(0, Math.floor((max - 3) / 2)),
    j = Math.max(0, max - 3 - i);
  return s.slice(0, i) + "..." + s.slice(s.length - j);
}

function pyFloat(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e16 || a < 1e-4)) {
    const [m, e] = x.toExponential().split("e");
    const n = Number(e);
    return `${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : s + ".0";
}

function repr1(x, level) {
  if (x === null || x === undefined) return "None";
  if (x === true) return "True";
  if (x === false) return "False";
  if (typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x))) {
    const big = BigInt(x);
    const digits = (big < 0n ? -big : big).toString();
    if ((big < 0n ? -big : big) >= 2n ** 128n)
      return `<a whole number of ${Number(digits.length).toLocaleString("en-US")} digits>`;
    return cut(big.toString(), 40);
  }
  if (typeof x === "number") return cut(pyFloat(x), 60);
  if (typeof x === "string") {
    const chars = Array.from(x);
    let s = pyStrRepr(chars.slice(0, 60).join(""));
    if (Array.from(s).length > 60) {
      const i = 28,
        j = 29;
      const t = Array.from(
        pyStrRepr(
          chars
            .slice(0, i)
            .concat(chars.slice(chars.length - j))
            .join(""),
        ),
      );
      s = t.slice(0, i).join("") + "..." + t.slice(t.length - j).join("");
    }
    return s;
  }
  if (Array.isArray(x)) {
    if (level <= 0 && x.length) return "[...]";
    const pieces = x.slice(0, 6).map((e) => repr1(e, level - 1));
    if (x.length > 6) pieces.push("...");
    return `[${pieces.join(", ")}]`;
  }
  if (isObject(x)) {
    const keys = Object.keys(x).sort(pyCompare);
    if (!keys.length) return "{}";
    if (level <= 0) return "{...}";
    const pieces = keys.slice(0, 6).map((k) => `${repr1(k, level - 1)}: ${repr1(x[k], level - 1)}`);
    if (keys.length > 6) pieces.push("...");
    return `{${pieces.join(", ")}}`;
  }
  return cut(String(x), 60);
}

export const brief = (value) => repr1(value, 4);

// check_depth: lists and objects nested more than limit levels deep.
export function checkDepth(value, what, limit) {
  let level = [value];
  for (let n = 0; n <= limit; n++) {
    level = level.filter((x) => x !== null && typeof x === "object");
    if (!level.length) return;
    level = level.flatMap((x) => (Array.isArray(x) ? x : Object.values(x)));
  }
  throw new MoveError(`${what}: nested more than ${limit} levels deep`);
}
