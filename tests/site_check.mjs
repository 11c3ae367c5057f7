// The static site's API (solver/web/static/local.js) answering the requests
// tests/test_site_api.py hands it: node tests/site_check.mjs CASES.json.
// CASES: {wasm, data (site-data.json's object), verdicts (the folder of the
// <variant>.bits.zlib), seed, requests: [{path, body, abort?}]}. Prints one
// JSON line: the answers, each {answer}, {error, status} or {aborted}, in
// the order asked, and the API's /api/status at the end,
// on one API (the lines of its hints carry from one request to the next,
// as the server's do), its searches run here (directSearch).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Core } from "../solver/web/static/core.js";
import { createLocalApi, directSearch, inflate } from "../solver/web/static/local.js";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const core = await Core.load(readFileSync(cases.wasm));
// A seeded random (mulberry32), so that a run can be told again.
let seed = cases.seed >>> 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const api = createLocalApi({
  core,
  search: directSearch(core),
  data: cases.data,
  random,
  limits: cases.data.limits,
  bits: (name) => inflate(readFileSync(join(cases.verdicts, `${name}.bits.zlib`))),
});
const out = [];
const started = performance.now();
for (const { path, body, abort } of cases.requests) {
  // abort: the page no longer waits for the answer (its signal aborted).
  const signal = abort ? AbortSignal.abort() : undefined;
  try {
    out.push({ answer: await api(path, body, signal) });
  } catch (e) {
    if (e.name === "AbortError") out.push({ aborted: true });
    else out.push(e.status ? { error: e.message, status: e.status } : { error: String(e.stack || e), status: 0 });
  }
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ answers: out, seconds, status: await api("/api/status") }));
