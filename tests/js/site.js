// The static site's API in Node, as the page has it (local.js over
// core.wasm), from build/site (make site): for the unit tests.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../../solver/web/static/core.js";
import { createLocalApi, directSearch, inflate } from "../../solver/web/static/local.js";

export const SITE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "build", "site");

let api = null;
export async function siteApi() {
  if (!api) {
    const data = JSON.parse(readFileSync(join(SITE, "site-data.json"), "utf8"));
    const core = await Core.load(readFileSync(join(SITE, "core.wasm")));
    api = createLocalApi({
      core,
      search: directSearch(core),
      data,
      limits: data.limits,
      bits: async (name) => ({ bits: await inflate(readFileSync(join(SITE, "verdicts", `${name}.bits.zlib`))) }),
    });
  }
  return api;
}
