// store.js keeps the page's games, and never stops a game over storage.
import assert from "node:assert/strict";
import { test } from "node:test";
import { storage } from "../../solver/web/static/store.js";

function memory() {
  const items = new Map();
  return {
    items,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
  };
}

test("a value stored is loaded back, under its prefix", () => {
  const backing = memory();
  const { load, store } = storage("p.", backing);
  store("games", { current: "napoleons-tomb", games: { a: [1, 2] } });
  assert.deepEqual(load("games", null), { current: "napoleons-tomb", games: { a: [1, 2] } });
  assert.deepEqual([...backing.items.keys()], ["p.games"]);
});

test("a value missing or unreadable gives the fallback", () => {
  const backing = memory();
  const { load } = storage("p.", backing);
  assert.equal(load("stats", "none"), "none");
  backing.items.set("p.stats", "{not json");
  assert.equal(load("stats", "none"), "none");
  backing.items.set("p.stats", "null");
  assert.equal(load("stats", "none"), "none");
});

test("a storage that refuses leaves the page playing", () => {
  const refusing = {
    getItem() {
      throw new Error("SecurityError");
    },
    setItem() {
      throw new Error("QuotaExceededError");
    },
  };
  const { load, store } = storage("p.", refusing);
  assert.doesNotThrow(() => store("games", {}));
  assert.equal(load("games", 7), 7);
});
