// search-worker.js - a search of the C core (core.js, core.wasm) in a Web
// Worker, so that the page never waits on it: the page posts
// {id, family, rules, position, flags, limits} and gets back {id, result}
// or {id, error} (the position may be the struct's bytes, a Uint8Array:
// core.js, struct). A search nobody waits for any more is stopped by ending
// the worker (worker.terminate()) and starting another: the core runs in the
// worker's one thread, which nothing else can interrupt.

import { Core } from "./core.js";

// The module beside this file, or the one the worker's address names
// (search-worker.js?wasm=URL: the static site keeps it beside its page).
const named = new URL(self.location.href).searchParams.get("wasm");
const core = Core.load(named ? new URL(named, self.location.href) : new URL("./core.wasm", import.meta.url));

self.onmessage = async (event) => {
  const { id, family, rules, position, flags, limits } = event.data;
  try {
    const result = (await core).search(family, rules, position, flags, limits);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
