// search-worker.js - a search of the C core (core.js, core.wasm) in a Web
// Worker, so that the page never waits on it: the page posts
// {id, family, rules, position, flags, limits} and gets back {id, result}
// or {id, error} (the position may be the struct's bytes, a Uint8Array:
// core.js, struct). A search nobody waits for any more is stopped by ending
// the worker (worker.terminate()) and starting another: the core runs in the
// worker's one thread, which nothing else can interrupt.

import { Core } from "./core.js";

// The module the page posts first ({module}: compiled once, for every
// worker), else the one beside this file or the one the worker's address
// names (search-worker.js?wasm=URL).
let core = null;
const load = () => {
  const named = new URL(self.location.href).searchParams.get("wasm");
  return Core.load(named ? new URL(named, self.location.href) : new URL("./core.wasm", import.meta.url));
};

self.onmessage = async (event) => {
  if (event.data.module) {
    core = Core.load(event.data.module);
    return;
  }
  const { id, family, rules, position, flags, limits } = event.data;
  try {
    core = core || load();
    const result = (await core).search(family, rules, position, flags, limits);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
