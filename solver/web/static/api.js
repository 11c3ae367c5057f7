// api.js - the page's requests: to the server (solver/web/__init__.py), or,
// on the static site, to local.js, which answers as the server would with
// the rules of play and the hints computed by core.wasm in this browser.

// An answer nobody waits for any more (its request aborted).
export class Superseded extends Error {}
// The server (or the page's own searches) too busy to answer now.
export class Busy extends Error {}

// `api(path, body, signal)`: the answer's JSON, or one of the errors above,
// or an Error whose message a player may read. `local`: answer with
// local.js (its module beside `base`), else ask the server with `fetcher`;
// `ready` is called once local.js is loaded.
export function makeApi({ local, base, fetcher = (...args) => fetch(...args), ready = () => {} }) {
  let localApi = null;
  async function askLocal(path, body, signal) {
    if (!localApi) {
      localApi = import(new URL("local.js", base).href).then((m) => m.siteApi(globalThis.document.baseURI));
      localApi.then(ready, () => {
        localApi = null;
      });
    }
    let call;
    try {
      call = await localApi;
    } catch (e) {
      throw new Error(`the game cannot start in this browser (${e.message || e})`, { cause: e });
    }
    try {
      return await call(path, body === undefined ? undefined : JSON.parse(JSON.stringify(body)), signal);
    } catch (e) {
      if (e.name === "AbortError") throw new Superseded("superseded");
      if (e.status === 503) throw new Busy(e.message);
      throw e;
    }
  }

  async function askServer(path, body, signal) {
    const options =
      body === undefined
        ? { signal }
        : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
    let response;
    try {
      response = await fetcher(path, options);
    } catch (e) {
      if (e.name === "AbortError") throw new Superseded("superseded");
      throw new Error("the server cannot be reached (is `python -m solver serve` running?)", { cause: e });
    }
    let data;
    try {
      data = await response.json();
    } catch (e) {
      if (e.name === "AbortError") throw new Superseded("superseded");
      throw new Error(`the server answered ${response.status} without JSON`, { cause: e });
    }
    if (response.status === 503) throw new Busy(data.error || "the server is busy");
    if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
    return data;
  }

  return local ? askLocal : askServer;
}
