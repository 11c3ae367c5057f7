// The C core built for WebAssembly (build/wasm/core.wasm) searching the cases
// tests/test_wasm.py hands it: node tests/wasm_check.mjs CASES.json.
// Prints one JSON result a case: what the search found, and the bytes of the
// position struct core.js made (checked against the native struct's).
import { readFileSync } from "node:fs";
import { Core } from "../solver/web/static/core.js";

const [wasmPath, casesPath] = process.argv.slice(2);
const core = await Core.load(readFileSync(wasmPath));
const out = [];
for (const c of JSON.parse(readFileSync(casesPath, "utf8"))) {
  const type = core.family(c.family).position;
  const ptr = core.struct(type, c.position);
  const bytes = Buffer.from(core.bytes().slice(ptr, ptr + core.layout[type][""])).toString("hex");
  core.c.free(ptr);
  const started = process.cpuUsage();
  const found = core.search(c.family, c.rules, c.position, c.flags, c.limits);
  const used = process.cpuUsage(started);
  out.push({ ...found, bytes, cpu: (used.user + used.system) / 1e6 });
}
process.stdout.write(JSON.stringify(out));
