// core.js - the C core compiled to WebAssembly (make wasm: build/wasm/core.wasm),
// for a page's Web Worker and for Node. The module has no JavaScript glue of
// its own: it imports four WASI calls, given here, and exports the C API of
// csrc/solver.h, csrc/deck2.h and csrc/play.h. The structs it takes are filled from
// objects keyed by their C fields, at the offsets the module itself reports
// (solver_layout, csrc/wasm/layout.c): nothing of the C side is copied here
// by hand.
//
// Every clock the core reads is the wall clock (performance.now): in a
// browser a hint's seconds are the player's seconds.

const ERRNO_BADF = 8;

function wasi(memory) {
  const view = () => new DataView(memory().buffer);
  return {
    clock_time_get(id, precision, out) {
      view().setBigUint64(out, BigInt(Math.round(performance.now() * 1e6)), true);
      return 0;
    },
    fd_write(fd, iovs, count, written) {
      // The core writes nothing to a file; a stray write is counted, not shown.
      let bytes = 0;
      for (let i = 0; i < count; i++) bytes += view().getUint32(iovs + 8 * i + 4, true);
      view().setUint32(written, bytes, true);
      return 0;
    },
    fd_close: () => ERRNO_BADF,
    fd_seek: () => ERRNO_BADF,
  };
}

const VERDICTS = [
  "won",
  "lost",
  ["unknown", "positions"],
  ["unknown", "seconds"],
  ["unknown", "memory"],
  ["unknown", "interrupted"],
];

export class Core {
  // The module compiled once (from a URL or Response), to instantiate here
  // and to post to each worker, which then neither fetches nor compiles it.
  static async compile(source) {
    const response = source instanceof Response ? source : await fetch(source);
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    return response.headers.get("content-type") === "application/wasm"
      ? WebAssembly.compileStreaming(response)
      : WebAssembly.compile(await response.arrayBuffer());
  }

  // source: a compiled WebAssembly.Module, the module's bytes (an
  // ArrayBuffer or a typed array), or a URL or Response to fetch it from.
  static async load(source) {
    let instance;
    const imports = { wasi_snapshot_preview1: wasi(() => instance.exports.memory) };
    if (source instanceof WebAssembly.Module) {
      instance = await WebAssembly.instantiate(source, imports);
    } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
      ({ instance } = await WebAssembly.instantiate(source, imports));
    } else {
      // Streaming compiles as it downloads, where the server names the type
      // (application/wasm); a server that does not still serves the bytes.
      const response = source instanceof Response ? source : await fetch(source);
      if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
      const bytes = response.headers.get("content-type") === "application/wasm" ? null : await response.arrayBuffer();
      ({ instance } = bytes
        ? await WebAssembly.instantiate(bytes, imports)
        : await WebAssembly.instantiateStreaming(response, imports));
    }
    instance.exports._initialize();
    return new Core(instance);
  }

  constructor(instance) {
    this.c = instance.exports;
    const size = this.c.solver_layout(0, 0);
    const buf = this.c.malloc(size + 1);
    this.c.solver_layout(buf, size + 1);
    this.layout = JSON.parse(this.text(buf, size));
    this.c.free(buf);
    this.constants = this.layout.constants;
    this.families = this.layout.families.map((f, number) => ({ ...f, number }));
  }

  // A game family of the core by its name ("tomb", "napoleao", "jewel"):
  // its number and its structs' types (csrc/families/registry.c).
  family(name) {
    const found = this.families.find((f) => f.name === name);
    if (!found) throw new Error(`the core has no game family ${JSON.stringify(name)}`);
    return found;
  }

  bytes() {
    return new Uint8Array(this.c.memory.buffer);
  }

  text(ptr, length) {
    return new TextDecoder().decode(this.bytes().subarray(ptr, ptr + length));
  }

  // A struct of type (tomb_rules, jewel_position...) from fields: a number
  // for an int field, an array (nested for a 2-D one) for an array field,
  // each element a byte or an int as the field's size says. Fields left out
  // are zero. Or the struct's bytes themselves, a Uint8Array of its size
  // (a position the rules of play made: local.js). Returns its address, to
  // free.
  struct(type, fields) {
    const shape = this.layout[type];
    const ptr = this.c.malloc(shape[""]);
    if (fields instanceof Uint8Array) {
      if (fields.length !== shape[""]) throw new Error(`${type}: ${fields.length} bytes for a struct of ${shape[""]}`);
      this.bytes().set(fields, ptr);
      return ptr;
    }
    this.bytes().fill(0, ptr, ptr + shape[""]);
    const view = new DataView(this.c.memory.buffer);
    for (const [name, value] of Object.entries(fields)) {
      if (!(name in shape) || name === "") throw new Error(`${type} has no field ${name}`);
      const [offset, size] = shape[name];
      const flat = typeof value === "number" ? [value] : value.flat(Infinity);
      const step = size / (typeof value === "number" ? 1 : flat.length);
      if (step !== 1 && step !== 4) throw new Error(`${type}.${name}: ${flat.length} values for ${size} bytes`);
      flat.forEach((x, i) =>
        step === 1 ? view.setUint8(ptr + offset + i, x) : view.setInt32(ptr + offset + 4 * i, x, true),
      );
    }
    return ptr;
  }

  // Searches a position: its family's name, its rules and position as
  // fields (struct), flags (the shortcuts), limits {positions, seconds,
  // memory} (0 or left out: none). Returns the verdict, its reason, the best
  // score, the positions stored, the seconds, and the line (the win, or the
  // line to the best score) as the solution format's JSON text of its moves.
  search(family, rules, position, flags, limits = {}) {
    const c = this.c;
    const f = this.family(family);
    const r = this.struct(f.rules, rules),
      p = this.struct(f.position, position),
      err = c.malloc(256);
    try {
      const s = c.solver_new(f.number, r, p, flags >>> 0, err, 256);
      if (!s) throw new Error(this.text(err, this.bytes().indexOf(0, err) - err));
      try {
        c.solver_set_limits(s, BigInt(limits.positions || 0), limits.seconds || 0, BigInt(limits.memory || 0));
        return this.outcome(s, c.solver_run(s));
      } finally {
        c.solver_free(s);
      }
    } finally {
      c.free(r);
      c.free(p);
      c.free(err);
    }
  }

  outcome(s, status) {
    const c = this.c;
    if (!(status in VERDICTS)) throw new Error(`the search core failed (status ${status})`);
    const [verdict, reason] = typeof VERDICTS[status] === "string" ? [VERDICTS[status], null] : VERDICTS[status];
    const shape = this.layout.solver_stats;
    const stats = c.malloc(shape[""]);
    try {
      c.solver_get_stats(s, stats);
      const view = new DataView(c.memory.buffer);
      const which = verdict === "won" ? 0 : 1;
      return {
        verdict,
        reason,
        best: view.getInt32(stats + shape.best_score[0], true),
        positions: Number(view.getBigUint64(stats + shape.positions[0], true)),
        seconds: view.getFloat64(stats + shape.seconds[0], true),
        peak_bytes: Number(view.getBigUint64(stats + shape.peak_bytes[0], true)),
        line: this.lineText(s, which),
      };
    } finally {
      c.free(stats);
    }
  }

  lineText(s, which) {
    let size = 16384;
    for (;;) {
      const buf = this.c.malloc(size);
      try {
        const n = this.c.solver_line_text(s, which, buf, size);
        if (n < 0) throw new Error("the core could not write the line");
        if (n < size) return this.text(buf, n);
        size = n + 1;
      } finally {
        this.c.free(buf);
      }
    }
  }
}
