"""The C core built for WebAssembly (make wasm) finds what the native core
finds: the same verdict, best score, positions and line, deal by deal and
from positions in mid-game, on every variant; and the structs its JavaScript
loader (solver/web/static/core.js) fills are byte for byte the native ones.
Run by Node (tests/wasm_check.mjs)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from solver import core, families, position_after, solve, start_position
from solver.core import ffi
from solver.variants import load, names

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "build" / "wasm" / "core.wasm"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not WASM.exists(), reason="no node, or no build/wasm/core.wasm (make wasm)"
)

#: A cap that decides most of these and stops the rest at the same point
#: in both builds (a positions limit, unlike a time limit, is the same work).
LIMITS = {"positions": 300_000}


def plain(value: Any, ctype: Any) -> Any:
    """A struct's field as JSON: a number, or a list (nested for 2-D)."""
    if ctype.kind == "array":
        return [plain(v, ctype.item) for v in value]
    return int(value)


def fields(struct: Any) -> dict[str, Any]:
    """The fields of a cffi struct (a pointer to it) by their C names."""
    return {name: plain(getattr(struct, name), f.type) for name, f in ffi.typeof(struct).item.fields}


def given_of(pos: Any, limits: dict[str, int] = LIMITS) -> dict[str, Any]:
    """What the WebAssembly build is given to search ``pos`` (all shortcuts)."""
    family = families.of(pos.variant)
    return {
        "family": family.name,
        "rules": fields(family.rules_struct(pos.variant)),
        "position": fields(family.position_struct(pos)),
        "flags": core.flags_for(True, family.name),
        "limits": limits,
    }


def case(pos: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the WebAssembly build is given for ``pos``, and what the native
    core finds from it (a new search, all shortcuts, the cap above)."""
    family = families.of(pos.variant)
    search = core.Search(pos, core.flags_for(True, family.name))
    search.set_limits(LIMITS["positions"], None, None)
    out = search.outcome(search.run_here(), text=True)
    found = {
        "verdict": out.verdict,
        "reason": out.reason,
        "positions": out.positions,
        "line": out.text,
        "best": None if out.verdict == "won" else out.score,
        "bytes": bytes(ffi.buffer(family.position_struct(pos))).hex(),
    }
    return given_of(pos), found


def positions() -> list[Any]:
    """Deal starts of every variant, and positions in mid-game: after a
    third and two thirds of a line the solver found."""
    out = []
    for name in names():
        v = load(name)
        for deal in (1, 2, 3, 14):
            out.append(start_position(deal, v))
        line = solve(5, v).moves
        out += [position_after(5, v, line[: len(line) * k // 3]) for k in (1, 2)]
    return out


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    cases = [(pos, *case(pos)) for pos in positions()]
    path = tmp_path_factory.mktemp("wasm") / "cases.json"
    path.write_text(json.dumps([given for _, given, _ in cases]), encoding="utf-8")
    run = subprocess.run(
        [NODE, str(ROOT / "tests" / "wasm_check.mjs"), str(WASM), str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    return [(pos, found, got) for (pos, _, found), got in zip(cases, results, strict=True)]


def test_the_webassembly_core_finds_what_the_native_core_finds(compared):
    decided = 0
    for pos, found, got in compared:
        where = f"{pos.variant.name}, deal {pos.deal.number if pos.deal else '?'}, {len(pos.history)} moves in"
        mine = {k: got[k] for k in ("verdict", "reason", "positions", "line")}
        assert mine == {k: found[k] for k in mine}, where
        if found["best"] is not None:
            assert got["best"] == found["best"], where
        decided += found["verdict"] != "unknown"
    assert decided >= len(compared) * 3 // 4, "too few decided cases to compare lines"


def test_the_loader_fills_the_structs_as_the_native_build_lays_them_out(compared):
    for pos, found, got in compared:
        assert got["bytes"] == found["bytes"], pos.variant.name


def test_every_variant_and_its_families_are_compared(compared):
    assert {pos.variant.name for pos, _, _ in compared} == set(names())
    assert any(pos.history for pos, _, _ in compared if families.of(pos.variant) is families.TOMB)


def _leb128(data: bytes, at: int) -> tuple[int, int]:
    """An unsigned LEB128 number of a WebAssembly module at ``at``, and where it ends."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def wasm_exports(data: bytes) -> list[str]:
    """The names a WebAssembly module exports (its export section, id 7)."""
    assert data[:4] == b"\0asm"
    at = 8
    while at < len(data):
        section, at = data[at], at + 1
        size, at = _leb128(data, at)
        if section == 7:
            count, pos = _leb128(data, at)
            names = []
            for _ in range(count):
                length, pos = _leb128(data, pos)
                names.append(data[pos : pos + length].decode())
                pos += length + 1  # the kind
                _, pos = _leb128(data, pos)  # the index
            return names
        at += size
    return []


def test_no_study_switch_ships_in_core_wasm_or_in_the_module():
    """The study build's switches (csrc/study.h), one of which makes a
    verdict mean nothing, are neither exported by core.wasm nor in the
    native module; the search and play verbs are."""
    exports = wasm_exports(WASM.read_bytes())
    assert "solver_run" in exports and "solver_play_moves" in exports and "solver_new" in exports
    assert not [name for name in exports if "debug" in name]
    assert not [name for name in dir(core.lib) if "debug" in name]
