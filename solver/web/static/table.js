// table.js - the table drawn as its layout declares it (the core's,
// docs/web.md, "The layout"): areas, each a grid of spots; a spot is a
// place (data-key, data-place) drawn as a stack (its top card, a back when
// face down, or its empty slot) or a fan, its label under it, named for a
// screen reader by the layout's words. Nothing here knows a game.

const SUIT = { C: "♣", S: "♠", H: "♥", D: "♦" };
const RANK = { T: "10" };

// An element of `doc` with its class and text.
export function el(doc, tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(doc, code) {
  const rank = RANK[code[0]] || code[0];
  const suit = code[1];
  const c = el(doc, "div", "card" + (suit === "H" || suit === "D" ? " red" : ""));
  c.dataset.card = code;
  c.setAttribute("aria-hidden", "true");
  // The rank and suit are drawn by the style sheet from these attributes,
  // so that the place's name (its aria-label) is all that is read.
  const corner = el(doc, "span", "corner");
  corner.dataset.rank = rank;
  corner.dataset.suit = SUIT[suit];
  const pip = el(doc, "span", "pip");
  pip.dataset.suit = SUIT[suit];
  c.append(corner, pip);
  return c;
}

function hidden(doc, cls, text) {
  const e = el(doc, "div", cls);
  if (text !== undefined) e.dataset.text = text;
  e.setAttribute("aria-hidden", "true");
  return e;
}

// A place: data-key (unique on the table), data-place (its name in the
// moves), a button for assistive technology named by what it holds.
function placeEl(doc, s, fanned) {
  const p = el(doc, "div", `place ${s.key && fanned ? `fan-${s.fan}` : "stack"}`);
  if (s.key) {
    p.dataset.key = s.key;
    p.dataset.place = s.place || s.key;
    p.setAttribute("role", "button");
    p.tabIndex = -1;
  } else p.setAttribute("role", "img");
  p.setAttribute("aria-label", s.name);
  return p;
}

// How far apart the cards of a pile fanned down lie: closer as the pile
// grows, so that the whole box fits the screen.
export function downStep(n, phone) {
  const room = phone ? 150 : 190; // the pile's height beyond its first card
  const full = phone ? 15 : 20;
  return n > 1 ? Math.max(phone ? 9 : 11, Math.min(full, Math.floor(room / (n - 1)))) : full;
}

function spotEl(doc, s, phone) {
  const fanned = s.fan !== "stack";
  const node = placeEl(doc, s, fanned);
  if (s.cards.length) s.cards.forEach((c) => node.append(cardEl(doc, c)));
  else node.append(s.back && s.count ? hidden(doc, "card back") : hidden(doc, "slot", s.empty));
  if (s.fan === "down") node.style.setProperty("--down", `${downStep(s.cards.length, phone)}px`);
  if (s.fan !== "down" && (!fanned || s.count > s.cards.length) && s.count > 1) {
    const c = hidden(doc, "count");
    c.dataset.n = String(s.count);
    node.append(c);
  }
  if (s.outline) node.classList.add("outlined");
  if (s.takes) node.dataset.takes = s.takes;
  if (s.home) node.dataset.home = "";
  if (s.action) node.dataset.action = s.action;
  const wrap = el(doc, "div", "spot");
  wrap.append(node, Object.assign(hidden(doc, "label"), { textContent: s.label }));
  if (s.at) {
    wrap.style.gridRow = s.at[0];
    wrap.style.gridColumn = s.span ? `${s.at[1]} / span ${s.span}` : s.at[1];
  } else if (s.span) wrap.style.gridColumn = `span ${s.span}`;
  return wrap;
}

function areaEl(doc, a, phone) {
  const area = el(doc, "div", "area");
  const column = a.step ? `calc((var(--cw) + var(--gutter)) * ${a.step})` : "auto";
  area.style.setProperty("--cols", `repeat(${a.columns}, ${column})`);
  if (a.narrow) area.style.setProperty("--cols-narrow", `repeat(${a.narrow}, ${column})`);
  if (a.order) area.style.setProperty("--order", a.order);
  area.classList.toggle("spaced", !a.step);
  a.spots.forEach((s) => area.append(spotEl(doc, s, phone)));
  return area;
}

// Draws `layout` into `box` (its children replaced); `phone`: a narrow
// screen, where fanned piles lie closer.
export function drawTable(box, layout, phone) {
  const doc = box.ownerDocument;
  box.textContent = "";
  box.className = `flow-${layout.flow}`;
  layout.areas.forEach((a) => box.append(areaEl(doc, a, phone)));
}
