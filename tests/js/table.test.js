// table.js draws any family's table from the core's layout alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHTML } from "linkedom";
import { downStep, drawTable } from "../../solver/web/static/table.js";
import { siteApi } from "./site.js";

const VARIANTS = ["napoleons-tomb", "napoleonin-hauta", "paciencia-napoleao", "paciencia-porta-joias"];

async function layoutOf(variant, deal, moves = 0) {
  const api = await siteApi();
  let view = (await api("/api/state", { variant, deal, steps: [] })).view;
  const steps = [];
  for (let i = 0; i < moves && view.legal.length; i++) {
    const move = view.legal[(deal * 7 + i) % view.legal.length];
    const played = await api("/api/play", { variant, deal, steps, move });
    steps.push(played.step);
    view = played.view;
  }
  return view.layout;
}

function draw(layout) {
  const { document } = parseHTML("<main id='table'></main>");
  const box = document.getElementById("table");
  drawTable(box, layout, false);
  return box;
}

const spotsOf = (layout) => layout.areas.flatMap((a) => a.spots);

for (const variant of VARIANTS) {
  test(`${variant}: each spot is one place, named and holding its cards`, async () => {
    for (const moves of [0, 25]) {
      const layout = await layoutOf(variant, 3, moves);
      const box = draw(layout);
      assert.equal(box.className, `flow-${layout.flow}`);
      assert.equal(box.querySelectorAll(".area").length, layout.areas.length);
      for (const s of spotsOf(layout)) {
        const found = s.key
          ? box.querySelectorAll(`[data-key="${s.key}"]`)
          : [...box.querySelectorAll('[role="img"]')].filter((n) => n.getAttribute("aria-label") === s.name);
        assert.equal(found.length, 1, `${variant}: spot ${s.key || s.name}`);
        const node = found[0];
        assert.equal(node.getAttribute("aria-label"), s.name);
        if (s.key) {
          assert.equal(node.getAttribute("role"), "button");
          assert.equal(node.dataset.place, s.place || s.key);
        }
        const cards = [...node.querySelectorAll(".card[data-card]")].map((c) => c.dataset.card);
        assert.deepEqual(cards, s.cards);
        if (!s.cards.length && !(s.back && s.count)) {
          assert.equal(node.querySelector(".slot").dataset.text, s.empty);
        }
        assert.equal(node.hasAttribute("data-home"), Boolean(s.home));
        assert.equal(node.parentNode.querySelector(".label").textContent, s.label);
      }
      // Nothing is drawn that the layout does not hold.
      const drawn = box.querySelectorAll(".card[data-card]").length;
      assert.equal(
        drawn,
        spotsOf(layout).reduce((n, s) => n + s.cards.length, 0),
      );
    }
  });
}

test("a drawing replaces the one before", async () => {
  const layout = await layoutOf("paciencia-napoleao", 1);
  const box = draw(layout);
  drawTable(box, layout, true);
  assert.equal(box.querySelectorAll(".area").length, layout.areas.length);
});

test("the two foundations of a suit say which card each takes", async () => {
  const layout = await layoutOf("paciencia-porta-joias", 1);
  const box = draw(layout);
  const takes = spotsOf(layout).filter((s) => s.takes);
  assert.ok(takes.length > 0);
  for (const s of takes) assert.equal(box.querySelector(`[data-key="${s.key}"]`).dataset.takes, s.takes);
});

test("an area's grid has its columns, and a narrow screen's", async () => {
  const layout = await layoutOf("paciencia-porta-joias", 1);
  const box = draw(layout);
  layout.areas.forEach((a, i) => {
    const style = box.querySelectorAll(".area")[i].style;
    assert.match(style.getPropertyValue("--cols"), new RegExp(`^repeat\\(${a.columns}, `));
    if (a.narrow) assert.match(style.getPropertyValue("--cols-narrow"), new RegExp(`^repeat\\(${a.narrow}, `));
  });
});

test("a pile fanned down lies closer as it grows, never under its floor", () => {
  for (const phone of [false, true]) {
    let last = Infinity;
    for (let n = 1; n <= 40; n++) {
      const step = downStep(n, phone);
      assert.ok(step <= last && step >= (phone ? 9 : 11), `${n} cards: ${step}`);
      last = step;
    }
  }
});
