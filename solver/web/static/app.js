// The web game's page: draws the table the server describes, sends the
// player's moves, keeps the game in localStorage. ES modules: no library, no build step.
import { makeApi, Superseded, Busy } from "./api.js";
import { storage } from "./store.js";
import { drawTable, el as makeEl } from "./table.js";

const { load, store } = storage("tomb-solver.");
const MAX_DEAL = 10n ** 20n;
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => makeEl(document, tag, cls, text);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

let variants = [];
const saved = load("games", { current: null, games: {}, aside: null });
const stats = load("stats", {});
const settings = load("settings", { indicator: false, winnableOnly: false });
let game = null; // {variant, deal, steps, redo, played, won, watched}
let view = null; // the server's view of the game now
let selected = null; // the place (data-key) whose card waits for a destination
let focusKey = null; // the keyboard's place (data-key)
let hintMove = null;
let watching = false;
let endShown = null;
let dealVerdict = null; // {key, v}: the server's verdict on the deal being played
let asked = null; // {key, controller, promise}: the hint asked for the position now

// -- storage and requests

function persist() {
  saved.current = game.variant;
  saved.games[game.variant] = game;
  store("games", saved);
}

// The static site (<meta name="solver-mode" content="local">, which
// make site adds) has no server: api.js asks local.js instead.
const LOCAL = (document.querySelector('meta[name="solver-mode"]') || {}).content === "local";
// Its service worker (sw.js) keeps every file of the site: once loaded,
// the game plays offline, and a phone can install it. It is registered
// once the page has what it needs, so that its copy of the site does not
// hold up the first deal.
const keepOffline = () => {
  if ("serviceWorker" in navigator)
    navigator.serviceWorker.register(new URL("sw.js", import.meta.url).href).catch(() => {});
};
const api = makeApi({ local: LOCAL, base: import.meta.url, ready: keepOffline });
const gameBody = (extra) => Object.assign({ variant: game.variant, deal: game.deal, steps: game.steps }, extra);
const positionKey = () => `${game.variant}/${game.deal}/${JSON.stringify(game.steps)}`;

// Actions run one after another, never two at once; body[data-pending]
// counts those not finished (the browser tests wait for 0).
let queue = Promise.resolve();
let pending = 0;
function act(fn) {
  document.body.dataset.pending = ++pending;
  queue = queue
    .then(fn)
    .catch((e) => {
      if (e instanceof Superseded) return;
      stopWatching();
      if (e instanceof Busy) return say(`${e.message}.`, "error", { label: "Try again", run: () => act(fn) });
      say(e.message || String(e), "error");
    })
    .finally(() => {
      document.body.dataset.pending = --pending;
    });
  return queue;
}
function say(text, kind, button) {
  const m = $("message");
  m.textContent = text;
  m.className = kind || "";
  if (button) {
    const b = el("button", "inline", button.label);
    b.type = "button";
    b.onclick = () => {
      b.remove();
      button.run();
      focusTable();
    };
    m.append(" ", b);
  }
}

// -- the game

function freshGame(variant, deal) {
  return { variant, deal: String(deal), steps: [], redo: [], played: false, won: false, watched: false };
}
const unfinished = () => game && view && game.steps.length > 0 && !view.won && !view.stuck;

// A game left unfinished (by New deal, Replay, or choosing another game)
// is put aside, never lost: "Back to deal N" (or Undo at the start of the
// next deal) brings it back.
function putAside() {
  if (!unfinished()) return;
  saved.aside = JSON.parse(JSON.stringify(game));
  store("games", saved);
}
function asideText() {
  const a = saved.aside;
  if (!a) return "";
  const title = a.variant === game.variant ? "" : `${titleOf(a.variant)}, `;
  return `Back to ${title}deal ${a.deal} (${plural(a.steps.length, "move")})`;
}
async function backToAside() {
  const a = saved.aside;
  if (!a) return;
  saved.aside = unfinished() ? JSON.parse(JSON.stringify(game)) : null;
  stopWatching();
  const was = game;
  game = Object.assign(freshGame(a.variant, a.deal), a);
  selected = hintMove = null;
  try {
    await refresh();
  } catch (e) {
    game = was;
    throw e;
  }
  say(`Back to deal ${game.deal}, where you left it (${plural(game.steps.length, "move")}).`);
}

async function startGame(variant, deal) {
  stopWatching();
  putAside();
  game = freshGame(variant, deal);
  selected = hintMove = null;
  focusKey = null;
  await refresh();
  say(
    `Deal ${game.deal}: good luck.` +
      (saved.aside ? ` Your last game is put aside: “${asideText()}” brings it back.` : ""),
  );
}

async function refresh() {
  const data = await api("/api/state", gameBody());
  setView(data.view);
}

function setView(v) {
  const before = cardPlaces();
  view = v;
  persist();
  render();
  animateFrom(before);
  updateStatus();
  checkEnd();
  updateIndicator();
}

async function playMove(move, auto) {
  const data = await api("/api/play", gameBody({ move, auto: auto !== false }));
  game.steps.push(data.step);
  game.redo = [];
  selected = hintMove = null;
  say(data.text); // the server's words: "Played J♦ waste → cell 1; then by itself: 5♥ cell 2 → tomb."
  setView(data.view);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const titleOf = (name) => (variants.find((v) => v.name === name) || { title: name }).title || name;

// Undo and redo move a step from one list to the other and replay; a
// replay the server refuses puts it back. The step is named in the
// server's words (view.last.name: "J♦ waste → cell 1", "turn the stock").
const lastName = () => (view.last ? `: ${view.last.name}` : "");
async function shift(from, to, done) {
  to.push(from.pop());
  selected = hintMove = null;
  try {
    await refresh();
  } catch (e) {
    from.push(to.pop());
    throw e;
  }
  if (!view.won && !view.stuck) say(done()); // else the end of the game is said
}
async function undo() {
  if (!game.steps.length) {
    if (saved.aside) return backToAside();
    return say("This is the start of the deal: nothing to undo.");
  }
  const undone = lastName();
  await shift(game.steps, game.redo, () => `Undone${undone} (${plural(game.steps.length, "step")} from the start).`);
}
async function redo() {
  if (!game.redo.length) return say("Nothing to redo.");
  await shift(game.redo, game.steps, () => `Redone${lastName()}.`);
}

async function restart() {
  while (game.steps.length) game.redo.push(game.steps.pop());
  selected = hintMove = null;
  await refresh();
  say("Back at the start of the deal; Redo plays the moves again.");
}

async function finish() {
  const data = await api("/api/finish", gameBody());
  game.steps.push(...data.steps);
  game.redo = [];
  selected = hintMove = null;
  setView(data.view);
}

// The stock's action (the layout names it); one the rules refuse now is
// asked for anyway, so that the player reads why.
async function stockAction() {
  const m = view.legal.find((x) => x.action !== "move");
  if (m) return playMove(m);
  const deck = $("table").querySelector('[data-key="@deck"]');
  try {
    await api("/api/play", gameBody({ move: { action: deck ? deck.dataset.action : "turn" } }));
  } catch (e) {
    if (e instanceof Superseded || e instanceof Busy) throw e;
    return say(e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".");
  }
  await refresh();
}

// The solver's hint for the position now: one request a position, shared
// by the Hint button and the indicator; a request for a position the game
// has left is aborted (the server then stops its search).
function hintNow() {
  const key = positionKey();
  if (asked && asked.key === key) return asked.promise;
  if (asked) asked.controller.abort();
  const controller = new AbortController();
  const promise = api("/api/hint", gameBody(), controller.signal).then((d) => d.hint);
  asked = { key, controller, promise };
  promise.catch(() => {
    if (asked && asked.promise === promise) asked = null;
  });
  return promise;
}
function dropStaleHint() {
  if (asked && asked.key !== positionKey()) {
    asked.controller.abort();
    asked = null;
  }
}

function showHint(h) {
  hintMove = h.move;
  if (h.move) {
    if (h.move.action === "move") {
      selected = h.move.from;
      focusKey = targetKey(h.move);
    } else {
      selected = null;
      focusKey = "@deck";
    }
  }
  render();
}

async function hint() {
  if (view.won) return say("The deal is won.", "end");
  say("The solver is thinking…", "hint");
  const key = positionKey();
  const h = await hintNow();
  if (key !== positionKey()) return;
  showHint(h);
  say(h.text, "hint");
  showIndicator(h);
}

async function fairHint() {
  if (view.won) return say("The deal is won.", "end");
  const h = (await api("/api/hint", gameBody({ fair: true }))).hint;
  showHint(h);
  say(h.text, "hint");
}

async function newDeal() {
  const data = await api("/api/new", { variant: game.variant, winnable_only: $("winnable-only").checked });
  await startGame(game.variant, data.deal);
}

// -- watching the solver play its line

function stopWatching() {
  watching = false;
  $("watch").classList.remove("on");
  $("watch").setAttribute("aria-pressed", "false");
}
function toggleWatch() {
  if (watching) return stopWatching();
  watching = true;
  $("watch").classList.add("on");
  $("watch").setAttribute("aria-pressed", "true");
  tick();
}
function tick() {
  act(async () => {
    if (!watching) return;
    const h = await hintNow();
    if (!watching) return;
    if (!h.move) {
      stopWatching();
      return say(h.text, "end");
    }
    game.watched = true;
    await playMove(h.move, false);
    say("The solver: " + h.text, "hint");
    if (watching && !view.won && !view.stuck) return setTimeout(tick, 350);
    stopWatching();
    checkEnd();
  });
}

// -- the end of a game, the indicator, the status line

function checkEnd() {
  const over = view.won || view.stuck;
  if (!over) {
    endShown = null;
    return;
  }
  // A game counts once, and not at all once the solver has played in it.
  const entry = stats[game.variant] || (stats[game.variant] = { played: 0, won: 0 });
  if (!game.watched) {
    if (!game.played) {
      entry.played += 1;
      game.played = true;
    }
    if (view.won && !game.won) {
      entry.won += 1;
      game.won = true;
    }
    store("stats", stats);
    persist();
  }
  updateStatus();
  const key = `${game.variant}/${game.deal}/${game.steps.length}`;
  if (endShown === key || watching) return;
  endShown = key;
  const head = view.won
    ? `Won! All ${view.total} cards are home.`
    : `No move is left: ${view.score} of ${view.total} cards home.`;
  say(head + " Asking the solver about this deal…", "end");
  fetchVerdict()
    .then((v) => {
      if (endShown === key) say(`${head} ${verdictText(v)}`, "end");
    })
    .catch((e) => {
      if (endShown === key) say(`${head} (${e.message})`, "end");
    });
}

// The verdict on the deal (and its difficulty), asked once a deal.
let verdictAsked = null;
function fetchVerdict() {
  const key = `${game.variant}/${game.deal}`;
  if (dealVerdict && dealVerdict.key === key) return Promise.resolve(dealVerdict.v);
  if (verdictAsked && verdictAsked.key === key) return verdictAsked.promise;
  const promise = api("/api/verdict", { variant: game.variant, deal: game.deal }).then((v) => {
    dealVerdict = { key, v };
    if (game && `${game.variant}/${game.deal}` === key) updateStatus();
    return v;
  });
  verdictAsked = { key, promise };
  promise.catch(() => {
    if (verdictAsked && verdictAsked.promise === promise) verdictAsked = null;
  });
  return promise;
}

function verdictText(v) {
  const deal = `Deal ${v.deal}`;
  const from = v.source === "index" ? " (the verdict index)" : "";
  let text;
  if (v.verdict === "won") text = `${deal} can be won${from}`;
  else if (v.verdict === "lost") text = `${deal} cannot be won: every line was explored${from}`;
  else text = `${deal}: the solver could not tell within its limit whether it can be won`;
  if (v.difficulty_text && v.verdict !== "lost") text += `; ${v.difficulty_text}`;
  return text + ".";
}
function shortVerdict(v) {
  const level = {
    blind: "winnable, a careful blind player wins it",
    sighted: "winnable, only seeing the stock",
    lost: "lost",
    unknown: "unknown",
  };
  if (v.difficulty) return level[v.difficulty];
  return { won: "winnable", lost: "lost", unknown: "unknown" }[v.verdict];
}

// The indicator uses every proof the page has: a deal proven lost is
// lost in every position; a deal proven won is won at its start; else
// the solver's hint for the position (which a line proven won continues).
async function updateIndicator() {
  dropStaleHint();
  const box = $("winnable");
  if (!settings.indicator || view.won) {
    box.textContent = "";
    box.className = "";
    return;
  }
  const key = positionKey();
  box.textContent = "…";
  box.className = "";
  try {
    if (!indexed()) {
      // no index: the deal's verdict is a search of its own, asked after the hint's
      const h = await hintNow();
      if (key === positionKey()) showIndicator(h);
      fetchVerdict().catch(() => {});
      return;
    }
    const v = await fetchVerdict();
    if (key !== positionKey()) return;
    if (v.verdict === "lost") {
      // lost everywhere; the search may add the best score
      showIndicator({ verdict: "lost", proof: "index" });
      const h = await hintNow();
      if (key === positionKey() && h.verdict === "lost" && h.proof === "search") showIndicator(h);
      return;
    }
    if (v.verdict === "won" && !game.steps.length) return showIndicator({ verdict: "won" });
    const h = await hintNow();
    if (key === positionKey()) showIndicator(h);
  } catch (e) {
    if (key === positionKey() && !(e instanceof Superseded)) {
      box.textContent = "";
      box.className = "";
    }
  }
}
// Whether the verdict index holds the deal being played (its answer is then at once).
function indexed() {
  const v = variants.find((x) => x.name === game.variant);
  if (!v || !v.index || !/^[0-9]+$/.test(game.deal)) return false;
  const n = Number(game.deal);
  return n >= v.index.first && n <= v.index.last;
}
function showIndicator(h) {
  if (!settings.indicator) return;
  const box = $("winnable");
  if (h.verdict === "won") {
    box.textContent = "✓ can still be won";
    box.className = "yes";
  } else if (h.verdict === "lost" && h.proof === "index") {
    box.textContent = "✗ cannot be won: the deal is proven lost";
    box.className = "no";
  } else if (h.verdict === "lost") {
    box.textContent = `✗ cannot be won any more (best ${h.score})`;
    box.className = "no";
  } else {
    box.textContent = "? unknown within the limit";
    box.className = "maybe";
  }
}

function updateStatus() {
  const known = dealVerdict && dealVerdict.key === `${game.variant}/${game.deal}` ? dealVerdict.v : null;
  const shown = known && (settings.indicator || view.won || view.stuck);
  $("deal-info").textContent = `Deal ${game.deal}` + (shown ? ` · ${shortVerdict(known)}` : "");
  $("score").textContent = `Score ${view.score}/${view.total} · ${plural(game.steps.length, "move")}`;
  $("counter").textContent = view.layout.status;
  const s = stats[game.variant] || { played: 0, won: 0 };
  $("wins").textContent = `Wins here: ${s.won} of ${plural(s.played, "game")} finished`;
  $("undo").disabled = !game.steps.length && !saved.aside;
  $("undo").title = !game.steps.length && saved.aside ? `U: ${asideText()}` : "U";
  $("restart").disabled = !game.steps.length;
  $("redo").disabled = !game.redo.length;
  $("finish").disabled = !view.finishable;
  $("fair-hint").disabled = !view.fair_hint || view.won || view.stuck;
  $("fair-hint").title = view.fair_hint
    ? "the careful player's move, from what you can see"
    : "no blind player is written for this game";
  const back = $("back-to-previous");
  back.hidden = !saved.aside;
  back.textContent = asideText();
  // The deal's number goes into its field when the deal changes, not on
  // every update: an answer arriving (the indicator's) must not wipe a
  // number the player is typing.
  const dealInput = $("deal-input");
  if (dealInput.dataset.shown !== `${game.variant}/${game.deal}`) {
    dealInput.value = game.deal;
    dealInput.dataset.shown = `${game.variant}/${game.deal}`;
  }
  $("variant").value = game.variant;
  const v = variants.find((x) => x.name === game.variant);
  $("description").textContent = v ? v.description : "";
}
// -- drawing the table

function render() {
  const box = $("table");
  const hadFocus = box.contains(document.activeElement);
  drawTable(box, view.layout, window.innerWidth <= 640);
  const places = [...box.querySelectorAll("[data-key]")];
  if (focusKey && !places.some((p) => p.dataset.key === focusKey)) focusKey = null;
  const targets = selected ? movesFrom(selected).map((m) => m.to) : [];
  const hintDst = hintMove && hintMove.action === "move" ? targetKey(hintMove) : null;
  for (const p of places) {
    const key = p.dataset.key;
    p.classList.toggle("selected", key === selected);
    p.classList.toggle("target", targets.includes(p.dataset.place));
    p.classList.toggle("focus", key === focusKey);
    p.tabIndex = key === (focusKey || places[0].dataset.key) ? 0 : -1;
    if (hintMove && hintMove.action === "move") {
      p.classList.toggle("hint-src", key === hintMove.from);
      p.classList.toggle("hint-dst", key === hintDst);
    }
  }
  if (hadFocus || tableWanted) focusTable();
}

// -- places and moves

const kind = (key) => key.split(":")[0];
const isHome = (placeName) => $("table").querySelector(`[data-place="${CSS.escape(placeName)}"][data-home]`) !== null;
const placeOf = (key) => {
  const p = $("table").querySelector(`[data-key="${CSS.escape(key)}"]`);
  return p ? p.dataset.place : key.split("#")[0];
};
const movesFrom = (key) => view.legal.filter((m) => m.action === "move" && m.from === placeOf(key));
const findMove = (from, to) =>
  view.legal.find((m) => m.action === "move" && m.from === placeOf(from) && m.to === placeOf(to));
// The spot a move lands on: of two spots of one place (two foundations
// of a suit), the one that takes the card.
function targetKey(move) {
  const table = $("table");
  const spots = [...table.querySelectorAll(`[data-place="${CSS.escape(move.to)}"]`)];
  if (spots.length < 2) return move.to;
  const src = table.querySelector(`[data-key="${CSS.escape(move.from)}"]`);
  const cards = src ? src.querySelectorAll(".card") : [];
  const code = move.card || (cards.length ? cards[cards.length - 1].dataset.card : null);
  return (spots.find((p) => p.dataset.takes === code) || spots[0]).dataset.key;
}

// The move a tap (or Enter) makes from a place: the first move home if
// there is one, else the only destination, or the first of several of
// one kind (the cells, the corners); null when the player must choose.
function tapMove(moves) {
  const home = moves.filter((m) => isHome(m.to));
  const pool = home.length ? home : moves;
  return new Set(pool.map((m) => kind(m.to))).size === 1 ? pool[0] : null;
}

function choose(key, viaKeyboard) {
  if (key === "@deck") return act(stockAction);
  if (selected && selected !== key) {
    const m = findMove(selected, key);
    if (m) return act(() => playMove(m));
  }
  if (viaKeyboard && hintMove && hintMove.action !== "move" && key === focusKey) {
    const m = hintMove;
    return act(() => playMove(m));
  }
  const moves = movesFrom(key);
  if (!moves.length) {
    const was = selected;
    selected = null;
    render();
    return say(was && was !== key ? "The card cannot go there." : "No move from there.");
  }
  const m = selected === key || viaKeyboard ? moves[0] : tapMove(moves);
  if (m) return act(() => playMove(m));
  selected = key;
  render();
  say("Choose where it goes: tap a highlighted place (or tap the card again).");
}

// -- cards that move: each card slides from where it was (off when the
// player asks for reduced motion)

function cardPlaces() {
  const out = new Map();
  for (const c of $("table").querySelectorAll(".card[data-card]")) out.set(c.dataset.card, c.getBoundingClientRect());
  return out;
}
let animationDone = null;
function animateFrom(before) {
  if (reducedMotion.matches || !before.size) return;
  let moved = 0;
  for (const c of $("table").querySelectorAll(".card[data-card]")) {
    const was = before.get(c.dataset.card);
    if (!was) continue;
    const now = c.getBoundingClientRect();
    const dx = was.left - now.left,
      dy = was.top - now.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    moved += 1;
    c.style.transition = "none";
    c.style.transform = `translate(${dx}px, ${dy}px)`;
    c.style.zIndex = "50";
    requestAnimationFrame(() => {
      c.style.transition = "transform 160ms ease-out";
      c.style.transform = "";
    });
    setTimeout(() => {
      c.style.zIndex = "";
      c.style.transition = "";
      c.style.transform = "";
    }, 200);
  }
  if (moved) {
    document.body.dataset.animating = "1";
    clearTimeout(animationDone);
    animationDone = setTimeout(() => {
      delete document.body.dataset.animating;
    }, 220);
  }
}

// -- pointer: tap, or drag a card to its place (mouse, pen or finger)

let drag = null;
function endDrag() {
  if (!drag) return null;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  return d;
}
$("table").addEventListener("pointerdown", (e) => {
  const p = e.target.closest("[data-key]");
  if (!p || (e.pointerType === "mouse" && e.button !== 0)) return;
  endDrag();
  drag = { key: p.dataset.key, x: e.clientX, y: e.clientY, ghost: null, node: p, id: e.pointerId };
  try {
    p.setPointerCapture(e.pointerId);
  } catch (err) {
    /* the pointer is gone */
  }
});
$("table").addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6 || drag.key === "@deck") return;
    const cards = drag.node.querySelectorAll(".card");
    if (!cards.length) return;
    if (!movesFrom(drag.key).length) {
      drag.refused = true;
      return;
    }
    drag.ghost = cards[cards.length - 1].cloneNode(true);
    drag.ghost.classList.add("dragging");
    document.body.append(drag.ghost);
    selected = drag.key;
    render();
  }
  e.preventDefault();
  drag.ghost.style.left = e.clientX - 30 + "px";
  drag.ghost.style.top = e.clientY - 20 + "px";
});
$("table").addEventListener("pointerup", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const d = endDrag();
  if (d.refused) return say("That card cannot move now.");
  if (!d.ghost) {
    const under = document.elementFromPoint(e.clientX, e.clientY);
    if (under && d.node.contains(under)) choose(d.key, false);
    return;
  }
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const target = under && under.closest("#table [data-key]");
  if (!target || target.dataset.key === d.key) {
    selected = null;
    return render();
  }
  const m = findMove(d.key, target.dataset.key);
  selected = null;
  if (m) act(() => playMove(m));
  else {
    render();
    say("The card cannot go there.");
  }
});
// The browser took the pointer (a scroll, a system gesture): nothing moves
// and nothing is left behind.
const cancelDrag = (e) => {
  if (!drag || (e.pointerId !== undefined && e.pointerId !== drag.id)) return;
  const d = endDrag();
  if (d.ghost) {
    selected = null;
    render();
  }
};
$("table").addEventListener("pointercancel", cancelDrag);
$("table").addEventListener("lostpointercapture", (e) => {
  if (drag && drag.ghost) cancelDrag(e);
});

// -- keyboard: the table is one stop of the Tab order; arrows move the
// focus between its places, which are named for assistive technology

let tableWanted = false; // the focus belongs on the table (after a control was used)
function focusTable() {
  tableWanted = false;
  const places = [...$("table").querySelectorAll("[data-key]")];
  const p = places.find((x) => x.dataset.key === focusKey) || places.find((x) => x.tabIndex === 0) || places[0];
  if (p && document.activeElement !== p) p.focus({ preventScroll: true });
}
$("table").addEventListener("focusin", (e) => {
  const p = e.target.closest("[data-key]");
  if (!p) return;
  focusKey = p.dataset.key;
  for (const x of $("table").querySelectorAll("[data-key]")) {
    x.tabIndex = x === p ? 0 : -1;
    x.classList.toggle("focus", x === p);
  }
});

// Left and right go through the places in reading order (rows top to
// bottom, each left to right), so that every place is reached; up and
// down go to the nearest place above or below.
function moveFocus(dx, dy) {
  const places = [...$("table").querySelectorAll("[data-key]")];
  if (!places.length) return;
  const centre = (p) => {
    const r = p.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + Math.min(r.height, 60) / 2 };
  };
  const current = places.find((p) => p.dataset.key === focusKey);
  let best = null;
  if (!current) best = places[0];
  else if (dx) {
    const order = places
      .map((p) => ({ p, c: centre(p) }))
      .sort((a, b) => (Math.abs(a.c.y - b.c.y) > 24 ? a.c.y - b.c.y : a.c.x - b.c.x))
      .map((o) => o.p);
    const i = order.indexOf(current) + dx;
    best = order[(i + order.length) % order.length];
  } else {
    const c = centre(current);
    let bestScore = Infinity;
    for (const p of places) {
      if (p === current) continue;
      const q = centre(p);
      const along = (q.y - c.y) * dy;
      if (along <= 4) continue;
      const score = along + 2 * Math.abs(q.x - c.x);
      if (score < bestScore) {
        bestScore = score;
        best = p;
      }
    }
  }
  if (!best) return;
  focusKey = best.dataset.key;
  best.focus();
}

document.addEventListener("keydown", (e) => {
  const typing = e.target.closest("input:not([type=checkbox]), select, textarea");
  if (typing || e.ctrlKey || e.metaKey || e.altKey || !view) return;
  const onControl = e.target.closest("button, input, a, select");
  if (onControl && (e.key === " " || e.key === "Enter")) return; // the control's own key
  const onTable = !!e.target.closest("#table");
  const keys = {
    ArrowLeft: () => moveFocus(-1, 0),
    ArrowRight: () => moveFocus(1, 0),
    ArrowUp: () => moveFocus(0, -1),
    ArrowDown: () => moveFocus(0, 1),
    Enter: () => (focusKey ? choose(focusKey, true) : moveFocus(1, 0)),
    " ": () => {
      if (focusKey && movesFrom(focusKey).length) {
        selected = focusKey;
        render();
        say("Now move to a place and press Enter.");
      }
    },
    Escape: () => {
      selected = null;
      render();
    },
    d: () => act(stockAction),
    u: () => act(undo),
    y: () => act(redo),
    h: () => act(hint),
    n: () => act(newDeal),
    w: () => toggleWatch(),
    f: () => {
      if (view.finishable) act(finish);
    },
  };
  const f = keys[e.key] || keys[e.key.toLowerCase()];
  if (!f) return;
  e.preventDefault();
  if (e.key.length === 1 || e.key === "Enter") stopWatchingUnless(e.key.toLowerCase() === "w");
  if (!onTable && (e.key === "Enter" || e.key === " ")) tableWanted = true;
  f();
});
function stopWatchingUnless(keep) {
  if (!keep) stopWatching();
}

// -- the controls: each gives the focus back to the table, so that the
// keys a player presses next play the game, not the button again

function control(id, fn) {
  $(id).addEventListener("click", () => {
    fn();
    tableWanted = true;
    focusTable();
  });
}
// A control that takes the game from the solver: its watching stops first.
const stopThen = (fn) => () => {
  stopWatching();
  act(fn);
};
control("undo", stopThen(undo));
control("redo", stopThen(redo));
control("restart", stopThen(restart));
control("hint", stopThen(hint));
control("fair-hint", stopThen(fairHint));
control("finish", stopThen(finish));
control("watch", toggleWatch);
control("new", () => act(newDeal));
control("back-to-previous", () => act(backToAside));
$("deal-form").onsubmit = (e) => {
  e.preventDefault();
  const text = $("deal-input").value.trim();
  if (!/^[0-9]{1,21}$/.test(text) || BigInt(text) < 1n || BigInt(text) > MAX_DEAL) {
    say(
      `"${text.slice(0, 30)}" is not a deal number: deals are 1 to 100000000000000000000 (10**20).` +
        ` Deal ${game.deal} goes on.`,
      "error",
    );
    $("deal-input").value = game.deal;
    return;
  }
  tableWanted = true;
  act(() => startGame(game.variant, BigInt(text).toString()));
};
$("variant").onchange = () => {
  tableWanted = true;
  act(() => {
    putAside();
    return resume($("variant").value);
  });
};
$("winnable-only").checked = settings.winnableOnly;
$("winnable-only").onchange = () => {
  settings.winnableOnly = $("winnable-only").checked;
  store("settings", settings);
};
$("indicator").checked = settings.indicator;
$("indicator").onchange = () => {
  settings.indicator = $("indicator").checked;
  store("settings", settings);
  updateIndicator();
};

async function resume(variant) {
  stopWatching();
  const g = saved.games[variant];
  if (g && Array.isArray(g.steps) && g.deal) {
    game = Object.assign(freshGame(variant, g.deal), g, { deal: String(g.deal) });
    selected = hintMove = focusKey = null;
    try {
      await refresh();
      return say(game.steps.length ? "Your game is back where you left it." : `Deal ${game.deal}.`);
    } catch (e) {
      game = freshGame(variant, g.deal);
      await refresh();
      return say(`The saved game could not be replayed (${e.message}): deal ${g.deal} starts afresh.`, "error");
    }
  }
  const data = await api("/api/new", { variant, winnable_only: $("winnable-only").checked });
  game = null;
  await startGame(variant, data.deal);
}

act(async () => {
  const data = await api("/api/variants");
  variants = data.variants;
  const select = $("variant");
  for (const family of [...new Set(variants.map((v) => v.family))]) {
    const group = el("optgroup");
    group.label = variants.find((v) => v.family === family).family_title || family;
    for (const v of variants.filter((x) => x.family === family)) {
      const o = el("option", "", v.title || v.name);
      o.value = v.name;
      o.title = v.description;
      group.append(o);
    }
    select.append(group);
  }
  const first = variants.some((v) => v.name === saved.current) ? saved.current : data.first;
  await resume(first);
});
