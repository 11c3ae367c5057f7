// The web game's page: draws the table the server describes, sends the
// player's moves, keeps the game in localStorage. No library, no build step.
"use strict";
(() => {
  const SUIT = { C: "♣", S: "♠", H: "♥", D: "♦" };
  const RANK = { T: "10" };
  const FAMILY = { tomb: "Napoleon's Tomb", napoleao: "Paciência Napoleão", jewel: "Paciência do Porta-Jóias" };
  const HOME_KINDS = ["corner", "tomb", "kbase", "abase", "foundation"];
  const STORE = "tomb-solver.";
  const $ = (id) => document.getElementById(id);

  let variants = [];
  let saved = load("games", { current: null, games: {} });
  let stats = load("stats", {});
  const settings = load("settings", { indicator: false, winnableOnly: false });
  let game = null;      // {variant, deal, steps, redo, played, won}
  let view = null;      // the server's view of the game now
  let selected = null;  // the place whose card waits for a destination
  let focusKey = null;  // the keyboard's place
  let hintMove = null;
  let watching = false;
  let indicatorSeq = 0;
  let endShown = null;
  let dealVerdict = null;  // {key, v}: the server's verdict on the deal being played

  // -- storage and requests

  function load(key, fallback) {
    try {
      const value = JSON.parse(localStorage.getItem(STORE + key));
      return value === null || value === undefined ? fallback : value;
    } catch (e) {
      return fallback;
    }
  }
  function store(key, value) {
    try { localStorage.setItem(STORE + key, JSON.stringify(value)); } catch (e) { /* full or off: play on */ }
  }
  function persist() {
    saved.current = game.variant;
    saved.games[game.variant] = game;
    store("games", saved);
  }

  async function api(path, body) {
    const options = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    };
    let response;
    try {
      response = await fetch(path, options);
    } catch (e) {
      throw new Error("the server cannot be reached (is `python -m solver serve` running?)");
    }
    let data;
    try {
      data = await response.json();
    } catch (e) {
      throw new Error(`the server answered ${response.status} without JSON`);
    }
    if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
    return data;
  }
  const gameBody = (extra) => Object.assign({ variant: game.variant, deal: game.deal, steps: game.steps }, extra);

  // Actions run one after another, never two at once; body[data-pending]
  // counts those not finished (the browser tests wait for 0).
  let queue = Promise.resolve();
  let pending = 0;
  function act(fn) {
    document.body.dataset.pending = ++pending;
    queue = queue.then(fn).catch((e) => { stopWatching(); say(e.message || String(e), "error"); })
      .finally(() => { document.body.dataset.pending = --pending; });
    return queue;
  }
  function say(text, kind) {
    const m = $("message");
    m.textContent = text;
    m.className = kind || "";
  }

  // -- the game

  function freshGame(variant, deal) {
    return { variant, deal, steps: [], redo: [], played: false, won: false, watched: false };
  }

  async function startGame(variant, deal) {
    stopWatching();
    game = freshGame(variant, deal);
    selected = hintMove = null;
    focusKey = null;
    await refresh();
    say(`Deal ${deal}: good luck.`);
  }

  async function refresh() {
    const data = await api("/api/state", gameBody());
    setView(data.view);
  }

  function setView(v) {
    view = v;
    persist();
    render();
    updateStatus();
    checkEnd();
    updateIndicator();
  }

  async function playMove(move, auto) {
    const data = await api("/api/play", gameBody({ move, auto: auto !== false }));
    game.steps.push(data.step);
    game.redo = [];
    selected = hintMove = null;
    say(describeStep(data.step));
    setView(data.view);
  }

  // "J♦ waste → cell 1; then 5♥ cell 2 → tomb by itself"
  function describeStep(step) {
    const words = { turn: "Turned the stock", deal: "Dealt a round", redeal: "Redealt", jewel: "a jewel opened" };
    const one = (m) => m.action === "move"
      ? `${m.card ? pretty(m.card) + " " : ""}${m.from.replace(":", " ")} → ${m.to.replace(":", " ")}`
      : words[m.action];
    const [first, ...auto] = step;
    return one(first) + (auto.length ? `; then by itself: ${auto.map(one).join(", ")}` : "") + ".";
  }
  const pretty = (code) => (RANK[code[0]] || code[0]) + SUIT[code[1]];

  // Undo and redo move a step from one list to the other and replay; a
  // replay the server refuses puts it back.
  async function shift(from, to, done) {
    to.push(from.pop());
    selected = hintMove = null;
    try {
      await refresh();
    } catch (e) {
      from.push(to.pop());
      throw e;
    }
    say(done());
  }
  async function undo() {
    if (!game.steps.length) return say("This is the start of the deal: nothing to undo.");
    await shift(game.steps, game.redo,
      () => `Undone (${game.steps.length} step${game.steps.length === 1 ? "" : "s"} from the start).`);
  }
  async function redo() {
    if (!game.redo.length) return say("Nothing to redo.");
    await shift(game.redo, game.steps, () => "Redone.");
  }

  async function restart() {
    while (game.steps.length) game.redo.push(game.steps.pop());
    selected = hintMove = null;
    await refresh();
    say("Back at the start of the deal; Redo plays the moves again.");
  }

  async function stockAction() {
    const m = view.legal.find((x) => x.action !== "move");
    if (!m) {
      if (view.table.turned) return say("Place the turned card first.");
      return say(view.table.stock.count ? "The stock cannot be turned now." : "The stock is empty.");
    }
    await playMove(m);
  }

  async function hint() {
    if (view.won) return say("The deal is won.", "end");
    say("The solver is thinking…", "hint");
    const data = await api("/api/hint", gameBody());
    const h = data.hint;
    hintMove = h.move;
    if (h.move) {
      if (h.move.action === "move") {
        selected = h.move.from;
        focusKey = h.move.to;
      } else {
        selected = null;
        focusKey = "@deck";
      }
    }
    render();
    say(h.text, "hint");
    showIndicator(h);
  }

  async function newDeal() {
    const data = await api("/api/new", { variant: game.variant, winnable_only: $("winnable-only").checked });
    await startGame(game.variant, data.deal);
  }

  // -- watching the solver play its line

  function stopWatching() {
    watching = false;
    $("watch").classList.remove("on");
  }
  function toggleWatch() {
    if (watching) return stopWatching();
    watching = true;
    $("watch").classList.add("on");
    tick();
  }
  function tick() {
    act(async () => {
      if (!watching) return;
      const h = (await api("/api/hint", gameBody())).hint;
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
      if (!game.played) { entry.played += 1; game.played = true; }
      if (view.won && !game.won) { entry.won += 1; game.won = true; }
      store("stats", stats);
      persist();
    }
    updateStatus();
    const key = `${game.variant}/${game.deal}/${game.steps.length}`;
    if (endShown === key || watching) return;
    endShown = key;
    const head = view.won ? `Won! All ${view.total} cards are home.` :
      `No move is left: ${view.score} of ${view.total} cards home.`;
    say(head + " Asking the solver about this deal…", "end");
    fetchVerdict().then((v) => {
      if (endShown === key) say(`${head} ${verdictText(v)}`, "end");
    }).catch((e) => say(`${head} (${e.message})`, "end"));
  }

  // The verdict on the deal (and its difficulty), asked once a deal.
  async function fetchVerdict() {
    const key = `${game.variant}/${game.deal}`;
    if (!dealVerdict || dealVerdict.key !== key) {
      dealVerdict = { key, v: await api("/api/verdict", { variant: game.variant, deal: game.deal }) };
    }
    updateStatus();
    return dealVerdict.v;
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
    const level = { blind: "winnable, a careful blind player wins it", sighted: "winnable, only seeing the stock",
      lost: "lost", unknown: "unknown" };
    if (v.difficulty) return level[v.difficulty];
    return { won: "winnable", lost: "lost", unknown: "unknown" }[v.verdict];
  }

  function updateIndicator() {
    const box = $("winnable");
    if (!settings.indicator || view.won) {
      box.textContent = "";
      return;
    }
    fetchVerdict().catch(() => {});
    const seq = ++indicatorSeq;
    box.textContent = "…";
    box.className = "";
    api("/api/hint", gameBody()).then((data) => { if (seq === indicatorSeq) showIndicator(data.hint); })
      .catch(() => { if (seq === indicatorSeq) box.textContent = ""; });
  }
  function showIndicator(h) {
    if (!settings.indicator) return;
    const box = $("winnable");
    if (h.status === "won") { box.textContent = "✓ can still be won"; box.className = "yes"; }
    else if (h.status === "lost") { box.textContent = `✗ cannot be won any more (best ${h.score})`; box.className = "no"; }
    else { box.textContent = "? unknown within the limit"; box.className = "maybe"; }
  }

  function updateStatus() {
    const t = view.table;
    const known = dealVerdict && dealVerdict.key === `${game.variant}/${game.deal}` ? dealVerdict.v : null;
    const shown = known && (settings.indicator || view.won || view.stuck);
    $("deal-info").textContent = `Deal ${game.deal}` + (shown ? ` · ${shortVerdict(known)}` : "");
    $("score").textContent = `Score ${view.score}/${view.total} · ${game.steps.length} moves`;
    let counter = "";
    if (view.family === "tomb") {
      counter = t.tomb.wants === null ? "Tomb: full" :
        `Tomb: wants ${rankName(t.tomb.wants)} · round ${t.tomb.round} of ${t.tomb.rounds}`;
      if (t.pass.of > 1) counter += ` · pass ${t.pass.number} of ${t.pass.of}`;
    } else if (view.family === "napoleao") {
      counter = `Pass ${t.pass.number} of ${t.pass.of} · round ${t.round}` + (t.restricted ? " (only Kings and Aces leave the piles)" : "");
    } else if (view.family === "jewel") {
      counter = `Jewels left ${t.jewels.count} · stock ${t.stock.count}`;
    }
    $("counter").textContent = counter;
    const s = stats[game.variant] || { played: 0, won: 0 };
    $("wins").textContent = `Wins here: ${s.won} of ${s.played} game${s.played === 1 ? "" : "s"} finished`;
    $("undo").disabled = !game.steps.length;
    $("restart").disabled = !game.steps.length;
    $("redo").disabled = !game.redo.length;
    $("deal-input").value = game.deal;
    $("variant").value = game.variant;
    const v = variants.find((x) => x.name === game.variant);
    $("description").textContent = v ? v.description : "";
  }
  function rankName(r) {
    return { 1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen", 13: "a King" }[r] || `a ${r}`;
  }

  // -- drawing the table

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cardEl(code) {
    const rank = RANK[code[0]] || code[0];
    const suit = code[1];
    const c = el("div", "card" + (suit === "H" || suit === "D" ? " red" : ""));
    c.dataset.card = code;
    c.title = pretty(code);
    c.append(el("span", "corner"), el("span", "pip", SUIT[suit]));
    c.firstChild.append(rank, document.createElement("br"), SUIT[suit]);
    return c;
  }
  function backEl() { return el("div", "card back"); }
  function slotEl(text) { return el("div", "slot", text); }
  function place(key, cls) {
    const p = el("div", "place" + (cls ? " " + cls : ""));
    p.dataset.key = key;
    return p;
  }
  function withCount(p, count) {
    if (count > 1) p.append(el("span", "count", String(count)));
    return p;
  }
  function pile(key, top, count, empty) {
    const p = place(key, "stack");
    p.append(top ? cardEl(top) : slotEl(empty || ""));
    return withCount(p, count);
  }
  function at(node, row, col) {
    node.style.gridRow = row;
    node.style.gridColumn = col;
    return node;
  }
  function labelled(node, text) {
    const wrap = el("div");
    wrap.append(node, el("div", "label", text));
    return wrap;
  }
  function deck(t, emptyText) {
    const p = place("@deck", "stack");
    p.append(t.stock.count ? backEl() : slotEl(emptyText));
    return withCount(p, t.stock.count);
  }

  function renderTomb(t, box) {
    const grid = el("div", "tomb-grid");
    const corners = [[1, 1], [1, 5], [3, 1], [3, 5]];
    t.corners.forEach((c, i) => grid.append(at(labelled(pile(`corner:${i + 1}`, c.top, c.count, "7"),
      c.count ? `${c.count} card${c.count > 1 ? "s" : ""}` : "any 7"), ...corners[i])));
    const wants = t.tomb.wants === null ? "full" : `wants ${rankName(t.tomb.wants).split(" ")[1]}, round ${t.tomb.round}/${t.tomb.rounds}`;
    grid.append(at(labelled(pile("tomb", t.tomb.top, t.tomb.count, "6"), wants), 2, 3));
    grid.lastChild.classList.add("tomb-centre");
    grid.lastChild.lastChild.classList.add("two");
    const cells = [[1, 3], [2, 2], [2, 4], [3, 3]];   // north, west, east, south of the tomb
    t.cells.forEach((c, i) => grid.append(at(labelled(pile(`cell:${i + 1}`, c, 1, "cell"), `cell ${i + 1}`), ...cells[i])));
    box.append(grid);
    const row = el("div", "tomb-row");
    const pass = t.pass.of > 1 ? ` · pass ${t.pass.number}/${t.pass.of}` : "";
    const canRedeal = view.legal.some((m) => m.action === "redeal");
    row.append(labelled(deck(t, canRedeal ? "↻" : "empty"), `stock ${t.stock.count}${pass}`));
    const waste = place("waste", "fan-right");
    if (t.waste.fan.length) t.waste.fan.forEach((c) => waste.append(cardEl(c)));
    else waste.append(slotEl("waste"));
    row.append(labelled(withCount(waste, t.waste.count), `waste ${t.waste.count}`));
    if (t.reserve !== null) {
      const r = place("reserve", "fan-right reserve-sixes");
      if (t.reserve.length) t.reserve.forEach((c) => r.append(cardEl(c)));
      else r.append(slotEl("6s"));
      row.append(labelled(r, "sixes reserve"));
    }
    box.append(row);
  }

  function renderNapoleao(t, box) {
    const ring = el("div", "ring");
    const spots = [[1, 2], [1, 3], [1, 4], [1, 5], [2, 6], [3, 6], [4, 5], [4, 4], [4, 3], [4, 2], [3, 1], [2, 1]];
    t.piles.forEach((p, i) => ring.append(at(labelled(pile(`pile:${i + 1}`, p.top, p.count, ""), `pile ${i + 1}`), ...spots[i])));
    for (const [row, kind, first] of [[2, "kbase", "K"], [3, "abase", "A"]]) {
      const bases = at(el("div", "bases-row"), row, "2 / span 4");
      for (const s of "CSHD") {
        const b = t[kind + "s"][s];
        bases.append(labelled(pile(`${kind}:${s}`, b.top, b.count, first + SUIT[s]), `${b.count}/13`));
      }
      ring.append(bases);
    }
    box.append(ring);
    const row = el("div", "tomb-row");
    const canRedeal = view.legal.some((m) => m.action === "redeal");
    row.append(labelled(deck(t, canRedeal ? "↻" : "empty"), `stock ${t.stock.count} · pass ${t.pass.number}/${t.pass.of}`));
    box.append(row);
  }

  function renderJewel(t, box) {
    const b = el("div", "box");
    const lid = el("div", "box-row");
    t.lid.forEach((c, i) => lid.append(labelled(pile(`lid:${i + 1}`, c, 1, ""), `lid ${i + 1}`)));
    b.append(lid);
    const fanned = (key, cards, label) => {
      const p = place(key, "fan-down");
      if (cards.length) cards.forEach((c) => p.append(cardEl(c)));
      else p.append(slotEl(""));
      return labelled(p, label);
    };
    const middle = el("div", "box-middle");
    const left = el("div", "box-row");
    const right = el("div", "box-row");
    t.sides.forEach((cards, i) => (i < 2 ? left : right).append(fanned(`side:${i + 1}`, cards, `side ${i + 1}`)));
    const jewels = el("div", "place stack");
    jewels.append(t.jewels.count ? backEl() : slotEl("no jewels"));
    middle.append(left, labelled(withCount(jewels, t.jewels.count), `jewels ${t.jewels.count}`), right);
    b.append(middle);
    const bottom = el("div", "box-row");
    t.bottoms.forEach((cards, i) => bottom.append(fanned(`bottom:${i + 1}`, cards, `bottom ${i + 1}`)));
    b.append(bottom);
    const row = el("div", "box-row");
    row.append(labelled(deck(t, "empty"), `stock ${t.stock.count}`));
    row.append(labelled(pile("stock", t.turned, 1, "turned"), "turned card"));
    t.reserves.forEach((r, i) => row.append(labelled(pile(`reserve:${i + 1}`, r.top, r.count, ""), `reserve ${i + 1}`)));
    b.append(row);
    const homes = el("div", "foundations");
    for (const s of "CSHD") {
      t.foundations[s].forEach((f) => homes.append(labelled(pile(`foundation:${s}`, f.top, f.count, "A" + SUIT[s]), `${f.count}/13`)));
    }
    b.append(homes);
    box.append(b);
  }

  function render() {
    const box = $("table");
    box.textContent = "";
    ({ tomb: renderTomb, napoleao: renderNapoleao, jewel: renderJewel })[view.family](view.table, box);
    const places = [...box.querySelectorAll("[data-key]")];
    if (focusKey && !places.some((p) => p.dataset.key === focusKey)) focusKey = null;
    const targets = selected ? movesFrom(selected).map((m) => m.to) : [];
    for (const p of places) {
      const key = p.dataset.key;
      p.classList.toggle("selected", key === selected);
      p.classList.toggle("target", targets.includes(key));
      p.classList.toggle("focus", key === focusKey);
      if (hintMove && hintMove.action === "move") {
        p.classList.toggle("hint-src", key === hintMove.from);
        p.classList.toggle("hint-dst", key === hintMove.to);
      }
    }
  }

  // -- choosing moves

  const kind = (key) => key.split(":")[0];
  const movesFrom = (key) => view.legal.filter((m) => m.action === "move" && m.from === key);
  const findMove = (from, to) => view.legal.find((m) => m.action === "move" && m.from === from && m.to === to);

  // The move a tap (or Enter) makes from a place: the first move home if
  // there is one, else the only destination, or the first of several of
  // one kind (the cells, the corners); null when the player must choose.
  function tapMove(moves) {
    const home = moves.filter((m) => HOME_KINDS.includes(kind(m.to)));
    const pool = home.length ? home : moves;
    return new Set(pool.map((m) => kind(m.to))).size === 1 ? pool[0] : null;
  }

  function choose(key, viaKeyboard) {
    if (key === "@deck") return act(stockAction);
    if (selected && selected !== key) {
      const m = findMove(selected, key);
      if (m) return act(() => playMove(m));
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

  // -- pointer: tap, or drag a card to its place

  let drag = null;
  $("table").addEventListener("pointerdown", (e) => {
    const p = e.target.closest("[data-key]");
    if (!p || e.button !== 0) return;
    drag = { key: p.dataset.key, x: e.clientX, y: e.clientY, ghost: null, node: p };
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag) return;
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
    drag.ghost.style.left = e.clientX - 30 + "px";
    drag.ghost.style.top = e.clientY - 20 + "px";
  });
  window.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.refused) return say("That card cannot move now.");
    if (!d.ghost) {
      if (e.target.closest("[data-key]") === d.node || d.node.contains(e.target)) choose(d.key, false);
      return;
    }
    d.ghost.remove();
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && under.closest("[data-key]");
    if (!target || target.dataset.key === d.key) {
      selected = null;
      return render();
    }
    const m = findMove(d.key, target.dataset.key);
    selected = null;
    if (m) act(() => playMove(m));
    else { render(); say("The card cannot go there."); }
  });

  // -- keyboard

  function moveFocus(dx, dy) {
    const places = [...$("table").querySelectorAll("[data-key]")];
    if (!places.length) return;
    const current = places.find((p) => p.dataset.key === focusKey);
    if (!current) {
      focusKey = places[0].dataset.key;
      return render();
    }
    const r = current.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    let best = null, bestScore = Infinity;
    for (const p of places) {
      if (p === current) continue;
      const q = p.getBoundingClientRect();
      const px = q.left + q.width / 2 - cx, py = q.top + q.height / 2 - cy;
      const along = dx ? px * dx : py * dy;
      const across = dx ? Math.abs(py) : Math.abs(px);
      if (along <= 4) continue;
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = p; }
    }
    if (best) {
      focusKey = best.dataset.key;
      render();
    }
  }

  document.addEventListener("keydown", (e) => {
    const typing = e.target.closest("input:not([type=checkbox]), select, textarea");
    if (typing || e.ctrlKey || e.metaKey || e.altKey || !view) return;
    if (e.target.closest("button, input") && (e.key === " " || e.key === "Enter")) return;  // their own
    const keys = {
      ArrowLeft: () => moveFocus(-1, 0), ArrowRight: () => moveFocus(1, 0),
      ArrowUp: () => moveFocus(0, -1), ArrowDown: () => moveFocus(0, 1),
      Enter: () => (focusKey ? choose(focusKey, true) : moveFocus(1, 0)),
      " ": () => {
        if (focusKey && movesFrom(focusKey).length) { selected = focusKey; render(); say("Now move to a place and press Enter."); }
      },
      Escape: () => { selected = null; render(); },
      d: () => act(stockAction), u: () => act(undo), y: () => act(redo), h: () => act(hint),
      n: () => act(newDeal), w: () => toggleWatch(),
    };
    const f = keys[e.key] || keys[e.key.toLowerCase()];
    if (!f) return;
    e.preventDefault();
    if (e.key.length === 1 || e.key === "Enter") stopWatchingUnless(e.key.toLowerCase() === "w");
    f();
  });
  function stopWatchingUnless(keep) { if (!keep) stopWatching(); }

  // -- the controls

  $("undo").onclick = () => { stopWatching(); act(undo); };
  $("redo").onclick = () => { stopWatching(); act(redo); };
  $("restart").onclick = () => { stopWatching(); act(restart); };
  $("hint").onclick = () => { stopWatching(); act(hint); };
  $("watch").onclick = toggleWatch;
  $("new").onclick = () => act(newDeal);
  $("deal-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("deal-input").value.trim();
    if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
      return say(`"${text}" is not a deal number: the page plays deals 1 to ${Number.MAX_SAFE_INTEGER}.`, "error");
    }
    $("deal-input").blur();   // the keys play again
    act(() => startGame(game.variant, Number(text)));
  };
  $("variant").onchange = () => {
    $("variant").blur();
    act(() => resume($("variant").value));
  };
  $("winnable-only").checked = settings.winnableOnly;
  $("winnable-only").onchange = () => { settings.winnableOnly = $("winnable-only").checked; store("settings", settings); };
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
      game = Object.assign(freshGame(variant, g.deal), g);
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
    await startGame(variant, data.deal);
  }

  act(async () => {
    const data = await api("/api/variants");
    variants = data.variants;
    const select = $("variant");
    for (const family of [...new Set(variants.map((v) => v.family))]) {
      const group = el("optgroup");
      group.label = FAMILY[family] || family;
      for (const v of variants.filter((x) => x.family === family)) {
        const o = el("option", "", v.name);
        o.value = v.name;
        o.title = v.description;
        group.append(o);
      }
      select.append(group);
    }
    const first = variants.some((v) => v.name === saved.current) ? saved.current : data.first;
    await resume(first);
  });
})();
