// api.js turns the server's answers into data or errors a player may read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Busy, makeApi, Superseded } from "../../solver/web/static/api.js";

const answering = (status, body) => async () => ({ status, ok: status < 400, json: async () => body });
const failing = (error) => async () => {
  throw error;
};
const abort = () => Object.assign(new Error("aborted"), { name: "AbortError" });

test("a GET has no body; a POST sends its JSON", async () => {
  const asked = [];
  const api = makeApi({
    local: false,
    fetcher: async (path, options) => {
      asked.push([path, options]);
      return { status: 200, ok: true, json: async () => ({ ok: 1 }) };
    },
  });
  assert.deepEqual(await api("/api/variants"), { ok: 1 });
  assert.deepEqual(await api("/api/play", { deal: 1 }), { ok: 1 });
  assert.equal(asked[0][1].method, undefined);
  assert.equal(asked[1][1].method, "POST");
  assert.equal(asked[1][1].body, '{"deal":1}');
});

test("a refusal is the server's own words", async () => {
  const api = makeApi({ local: false, fetcher: answering(422, { error: "the card cannot go there" }) });
  await assert.rejects(api("/api/play", {}), { message: "the card cannot go there" });
  const bare = makeApi({ local: false, fetcher: answering(500, {}) });
  await assert.rejects(bare("/api/play", {}), { message: "the server answered 500" });
});

test("a busy server is Busy, to try again", async () => {
  const api = makeApi({ local: false, fetcher: answering(503, { error: "too many hints waiting" }) });
  await assert.rejects(api("/api/hint", {}), (e) => e instanceof Busy && e.message === "too many hints waiting");
});

test("an aborted request is Superseded, a lost server says so", async () => {
  await assert.rejects(makeApi({ local: false, fetcher: failing(abort()) })("/api/hint", {}), Superseded);
  await assert.rejects(makeApi({ local: false, fetcher: failing(new TypeError("fetch failed")) })("/api/hint", {}), {
    message: /the server cannot be reached/,
  });
  const notJson = async () => ({
    status: 502,
    ok: false,
    json: async () => {
      throw new SyntaxError("Unexpected token");
    },
  });
  await assert.rejects(makeApi({ local: false, fetcher: notJson })("/api/state", {}), {
    message: "the server answered 502 without JSON",
  });
});

test("the static site's API knows only its own routes", async () => {
  const { siteApi } = await import("./site.js");
  const api = await siteApi();
  for (const path of ["toString", "constructor", "__proto__", "hasOwnProperty", "/api/nothing"]) {
    await assert.rejects(api(path, {}), { status: 404, message: `no such page: ${path}` });
  }
  assert.ok((await api("/api/variants")).variants.length > 0);
});
