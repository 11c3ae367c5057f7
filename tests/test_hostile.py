"""Hostile inputs at every door where a user hands the library data: nested,
oversized and special inputs (hypothesis, with the profiles of
tests/test_properties.py, and a plain test for each concrete case).

The inputs: lists and objects nested up to 3,000 deep (Python objects built
without recursion, and JSON text), TOML nested the same way or made of
~200 KB of dotted keys, strings of up to 100,000 characters (NUL bytes,
lone surrogates, path separators), bytes that are not UTF-8, whole numbers
up to 10**5000 (as Python ints and as text), floats (nan, inf, 1e308), and
special files: a symlink to /dev/zero or /dev/urandom, a FIFO without a
writer, a directory, a missing path, a path holding NUL.

The doors: the API (Deal.parse, number_from_text, to_deal, Move.from_json,
Move.parse, parse_move, variants.parse/load/load_file, solve, Limit,
position_after, Result.from_json/loads, Game, Game.play, hint_after), the
command line (``solver.cli.main`` in the test's process: every subcommand),
and the web game (the ``server`` fixture: a real ``python -m solver serve``).

What is expected:

- the API answers, or raises a :class:`~solver.SolverError` with a message;
  any other exception (RecursionError, OSError, TypeError, OverflowError,
  MemoryError, AttributeError, a bare ValueError) fails;
- the command line returns 2 with a message on stderr starting ``error: ``
  (or argparse's usage error, ``SystemExit(2)``); no exception escapes
  ``main``, no traceback is printed;
- the web game answers 4xx with ``{"error": "..."}``; never a 500;
- nowhere a message that is Python's own text (:data:`PYTHON_TEXTS`, such as
  "Exceeds the limit (4300 digits) for integer string conversion");
- every call ends within :data:`CALL_SECONDS` (a FIFO that blocks, a
  /dev/zero read to the end, a parser gone quadratic fail the test).

Each API and command-line call runs in a forked child of the test's process
(:func:`guarded`), in its own process group, its address space capped
(:data:`CHILD_MEMORY` above what it holds at the fork): a call that hangs or
eats memory is killed and fails its test instead of stalling the suite. The
child never starts a real server (``serve`` calls only reach its argument
checks). ``TOMB_PROPERTIES=properties-long`` runs 500 examples a property.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import reprlib
import resource
import select
import signal
import sqlite3
import sys
import time
import tomllib
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import properties_profile

from solver import Game, Limit, Move, Result, SolverError, hint_after, position_after, solve, variants
from solver.api import to_deal
from solver.batch import COLUMNS
from solver.cli import main
from solver.deals import Deal, number_from_text
from solver.session import parse_move

PROFILE = properties_profile()

#: A search small enough for an example: a few milliseconds.
SMALL = Limit(positions=3000, seconds=None, memory=2**28)
#: The longest a call may take (its searches are a few milliseconds).
CALL_SECONDS = 5.0
#: A special file (a FIFO, /dev/urandom) is refused at once by a reader that
#: checks what it opens; one that does not blocks or reads forever.
SPECIAL_SECONDS = 2.5
#: The address space a child may grow by: more than any call here needs.
CHILD_MEMORY = 768 * 2**20
VARIANT = "napoleons-tomb"
ROOT = Path(__file__).resolve().parent.parent
TOMB_TOML = (ROOT / "solver" / "variants" / f"{VARIANT}.toml").read_text(encoding="utf-8")

#: Python's own messages: a library error that shows one of these passed an
#: exception of Python's through instead of saying what is wrong with the
#: input. The first anywhere in a message, the second at its start (after
#: the command line's "error: "): wrapped in the library's own sentence
#: ("the request body is not JSON ('utf-8' codec can't decode...)") they are
#: a detail, not the message.
PYTHON_TEXTS = (
    "Exceeds the limit",
    "set_int_max_str_digits",
    "maximum recursion depth",
    "Traceback (most recent call",
    "has no attribute",
    "internal error (",
)
PYTHON_OPENINGS = (
    "[Errno",
    "invalid literal for int()",
    "could not convert string to float",
    "'utf-8' codec",
    "unsupported operand",
    "'<' not supported",
    "'>' not supported",
    "'<=' not supported",
    "cannot fit 'int'",
    "int too large",
    "Python int too large",
    "embedded null",
    "unhashable type",
    "object of type",
    "argument of type",
    "'int' object",
    "'NoneType' object",
    "'list' object",
    "'dict' object",
    "'str' object",
    "'float' object",
    "'bytes' object",
    "expected str, bytes",
)


def python_text(message: str) -> str | None:
    """The text of Python's that ``message`` shows (:data:`PYTHON_TEXTS`
    anywhere, :data:`PYTHON_OPENINGS` at its start), or None."""
    found = next((t for t in PYTHON_TEXTS if t in message), None)
    opening = message.removeprefix("error: ").lstrip()
    return found or next((t for t in PYTHON_OPENINGS if opening.startswith(t)), None)


def shown(value: object) -> str:
    """A short repr of any value (a 5,000-digit int, a list 3,000 deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"<{'-' if value < 0 else ''}int of about {int(value.bit_length() * math.log10(2)) + 1:,} digits>"
    try:
        return reprlib.repr(value)
    except (RecursionError, ValueError):
        return f"<a {type(value).__name__}>"


# ===========================================================================
# Running a call in a child process, within a time and a memory bound
# ===========================================================================


@dataclass
class Outcome:
    """How a guarded call ended: ``answer`` (``value`` summarises it),
    ``error`` (a SolverError), ``crash`` (any other exception), ``timeout``
    or ``died`` (killed by a signal: a segfault, the memory cap)."""

    kind: str
    type: str = ""
    message: str = ""
    where: str = ""
    value: Any = None

    def __str__(self) -> str:
        if self.kind == "answer":
            return f"answered {self.value!r}"
        text = self.message if len(self.message) <= 300 else self.message[:300] + "..."
        head = f"{self.type}: {text}" if self.type else text
        return head + (f" [raised at {self.where}]" if self.where else "")


def _vm_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _where(exc: BaseException) -> str:
    """The last frame of the library (else the last frame) that ``exc`` passed."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}solver{os.sep}" in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return ""
    name = frame.filename
    with contextlib.suppress(ValueError):
        name = str(Path(name).relative_to(ROOT))
    return f"{name}:{frame.lineno} in {frame.name}: {(frame.line or '').strip()}"


def _exception(kind: str, exc: BaseException) -> dict[str, Any]:
    try:
        message = str(exc)
    except Exception as inner:  # an exception whose own str() fails
        message = f"<str() of the exception raised {type(inner).__name__}>"
    return {"kind": kind, "type": type(exc).__name__, "message": message[:4000], "where": _where(exc)}


def _child(call: Callable[[], Any], summarise: Callable[[Any], Any], w: int) -> None:
    try:
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        cap = _vm_bytes() + CHILD_MEMORY
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        try:
            value = call()
        except SolverError as exc:
            report = _exception("error", exc)
        except BaseException as exc:
            report = _exception("crash", exc)
        else:
            report = {"kind": "answer", "value": summarise(value)}
        data = (json.dumps(report) + "\n").encode()
    except BaseException as exc:  # the report itself failed
        data = (
            json.dumps(
                {
                    "kind": "crash",
                    "type": type(exc).__name__,
                    "message": f"test_hostile could not report the outcome: {exc!r}"[:2000],
                }
            )
            + "\n"
        ).encode()
    while data:
        data = data[os.write(w, data) :]


def guarded(
    call: Callable[[], Any], seconds: float = CALL_SECONDS, summarise: Callable[[Any], Any] = lambda v: type(v).__name__
) -> Outcome:
    """``call()`` in a forked child, killed (with its process group) after
    ``seconds``; its outcome."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(r)
            _child(call, summarise, w)
        finally:
            os._exit(0)
    os.close(w)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    data, timed_out = b"", False
    deadline = time.monotonic() + seconds
    try:
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([r], [], [], left)
            if ready:
                chunk = os.read(r, 1 << 16)
                if not chunk:
                    break
                data += chunk
    finally:
        os.close(r)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # the child (done or not) and anything it started
        _, status = os.waitpid(pid, 0)
    if data.endswith(b"\n"):
        return Outcome(**json.loads(data))
    if timed_out:
        return Outcome("timeout", message=f"still running after {seconds:g} s (killed)")
    how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
    return Outcome("died", message=f"the call's process died without an answer ({how})")


def expect_answer_or_refusal(outcome: Outcome, what: str) -> None:
    """A normal answer, or a SolverError whose message is the library's own."""
    if outcome.kind == "answer":
        return
    expect_refusal(outcome, what)


def expect_refusal(outcome: Outcome, what: str) -> None:
    """A SolverError with a message of the library's own."""
    assert outcome.kind == "error", f"{what}: {outcome}"
    assert outcome.message.strip(), f"{what}: {outcome.type} without a message"
    raw = python_text(outcome.message)
    assert raw is None, f"{what}: {outcome.type} with Python's own message ({raw!r}): {outcome}"


# ---------------------------------------------------------------------------
# The command line, in the child


def _no_real_server(stub_serve: bool) -> None:
    """In the child of a ``serve`` call: a server that would start raises
    instead; ``stub_serve``: serve() itself returns at once (the call tests
    what ``serve`` checks before serving)."""
    with contextlib.suppress(ImportError):
        import uvicorn

        def refuse(*args: object, **kwargs: object) -> None:
            raise RuntimeError("test_hostile: a real server was about to start")

        uvicorn.Server.run = refuse  # type: ignore[method-assign]
    if stub_serve:
        import solver.web

        solver.web.serve = lambda *args, **kwargs: 0  # type: ignore[assignment]


def cli(argv: list[str], stdin: bytes = b"", *, stub_serve: bool = False, seconds: float = CALL_SECONDS) -> Outcome:
    """``main(argv)`` in a child: its exit code, stdout and stderr (the value
    of an ``answer``), or the exception that escaped it."""

    def call() -> dict[str, Any]:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        if argv and argv[0] == "serve":
            _no_real_server(stub_serve)
        out, err = io.StringIO(), io.StringIO()
        rc, code = None, None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(list(argv))
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
        return {"rc": rc, "exit": code, "stderr": err.getvalue()[:4000], "stdout": out.getvalue()[-500:]}

    return guarded(call, seconds, summarise=lambda v: v)


def expect_cli_refusal(outcome: Outcome, what: str, *, answers: bool = False) -> None:
    """Exit 2 with ``error: ...`` on stderr (or argparse's usage error);
    ``answers``: a normal exit (0, 1, 3) is also right."""
    assert outcome.kind == "answer", (
        f"{what}: {outcome} (escaped main)" if outcome.kind == "crash" else f"{what}: {outcome}"
    )
    run = outcome.value
    err = run["stderr"]
    assert "Traceback" not in err, f"{what}: a traceback on stderr: {err[:600]}"
    if run["rc"] is None:
        assert run["exit"] == 2 and "error:" in err, f"{what}: SystemExit({run['exit']!r}), stderr {err[:300]!r}"
        return
    if answers and run["rc"] in (0, 1, 3):
        return
    assert run["rc"] == 2, f"{what}: exit {run['rc']!r}, stderr {err[:300]!r}"
    assert err.startswith("error: "), f"{what}: stderr does not start 'error: ': {err[:300]!r}"
    raw = python_text(err)
    assert raw is None, f"{what}: Python's own message ({raw!r}) on stderr: {err[:300]!r}"


# ---------------------------------------------------------------------------
# The web game


def post(server, path: str, raw: bytes, method: str = "POST") -> tuple[int, Any]:
    return server.request(path, raw=raw, method=method)


def expect_web_refusal(status: int, data: Any, what: str, *, answers: bool = False) -> None:
    """A 4xx with {"error": "..."} of the library's own words (``answers``: a 200 is right too)."""
    assert status < 500, f"{what}: status {status}: {data}"
    if answers and status == 200:
        assert isinstance(data, dict) and "error" not in data, f"{what}: 200 with {str(data)[:300]}"
        return
    assert 400 <= status < 500, f"{what}: status {status}, not a refusal: {str(data)[:300]}"
    assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"].strip(), (
        f"{what}: status {status} without an error message: {str(data)[:300]}"
    )
    raw = python_text(data["error"])
    assert raw is None, f"{what}: status {status} with Python's own message ({raw!r}): {data['error'][:300]!r}"


# ===========================================================================
# Hostile inputs
# ===========================================================================


@dataclass(frozen=True)
class Hostile:
    """An input and a short text saying what it is (hypothesis shows the text)."""

    label: str
    value: Any = field(compare=False)

    def __repr__(self) -> str:
        return self.label


def nest(depth: int, kind: str = "list", leaf: object = 1, key: str = "a") -> object:
    """``leaf`` inside ``depth`` lists (``list``), objects (``dict``) or both
    by turns (``mixed``), built without recursion."""
    value = leaf
    for i in range(depth):
        value = [value] if kind == "list" or (kind == "mixed" and i % 2) else {key: value}
    return value


def nest_json(depth: int, kind: str = "list", leaf: str = "1", key: str = "a") -> str:
    """The JSON text of :func:`nest`."""
    if kind == "list":
        return "[" * depth + leaf + "]" * depth
    if kind == "dict":
        return f'{{"{key}": ' * depth + leaf + "}" * depth
    half = (depth + 1) // 2
    return f'[{{"{key}": ' * half + leaf + "}]" * half


def nest_toml(depth: int, kind: str = "list") -> str:
    """A TOML value nested ``depth`` deep: arrays, inline tables, or both."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    if kind == "dict":
        return "{b = " * depth + "1" + "}" * depth
    half = (depth + 1) // 2
    return "[{b = " * half + "1" + "}]" * half


DEPTHS = st.one_of(st.integers(1, 60), st.integers(900, 3000))
KINDS = st.sampled_from(["list", "dict", "mixed"])
KEYS = st.sampled_from(["a", "action", "cards", "moves", "steps", "variant", "deal", "stock"])
UNITS = ["a", "\0", "/", "\\", "../", "\udcff", "\x7f", "é", "♥", " ", "\n", "JD ", '"', "{", "[", "8H waste → "]
LENGTHS = st.one_of(st.integers(0, 60), st.integers(4000, 100_000))
DIGITS = st.one_of(st.integers(1, 60), st.integers(4290, 5001))
FLOATS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, -0.0]


def _text(unit: str, n: int) -> Hostile:
    count = max(0, min(n, 100_000 // len(unit)))
    return Hostile(f"str of {count:,} x {unit!r}", unit * count)


def _number(digits: int, negative: bool, nines: bool) -> Hostile:
    value = 10**digits - 1 if nines else 10**digits
    label = f"{'-' if negative else ''}{'10**' + str(digits) + (' - 1' if nines else '')}"
    return Hostile(f"int {label}", -value if negative else value)


strings = st.builds(_text, st.sampled_from(UNITS), LENGTHS)
#: Strings for a command line: no digit strings short enough to be a deal number.
digit_texts = st.builds(
    lambda k, sign, unit: Hostile(f"text of {sign}{k:,} x {unit!r}", sign + unit * k),
    st.one_of(st.integers(21, 60), st.integers(4290, 5001)),
    st.sampled_from(["", "-", "+", " "]),
    st.sampled_from(["9", "1", "\u0669"]),
)
numbers = st.one_of(
    st.builds(_number, DIGITS, st.booleans(), st.booleans()),
    st.sampled_from(
        [
            Hostile("int 0", 0),
            Hostile("int -1", -1),
            Hostile("int 2**63", 2**63),
            Hostile("int 2**64", 2**64),
            Hostile("int -2**63 - 1", -(2**63) - 1),
        ]
    ),
)
floats = st.sampled_from([Hostile(f"float {x!r}", x) for x in FLOATS])
oddities = st.sampled_from(
    [Hostile(repr(x), x) for x in (None, True, False, (), [], {}, set(), b"", 0.5)] + [Hostile("object()", object())]
)
blobs = st.builds(
    lambda unit, n: Hostile(f"bytes of {n:,} x {unit!r}", unit * n),
    st.sampled_from([b"\xff", b"\x00", b"\xc3", b"\xed\xa0\x80", b"9"]),
    LENGTHS,
)
nested_objects = st.builds(
    lambda depth, kind, key: Hostile(f"{kind} nested {depth:,} deep ({key!r})", nest(depth, kind, 1, key)),
    DEPTHS,
    KINDS,
    KEYS,
)


def _json_number(digits: int, sign: str, form: str) -> Hostile:
    body = {"int": "9" * digits, "exp": f"1e{digits}", "frac": "0." + "0" * digits + "1"}[form]
    return Hostile(f"JSON number {sign}{form} of {digits:,} digits", (sign + body).encode())


#: JSON texts (bytes): nested, numbers, strings, not-UTF-8, literals.
json_texts = st.one_of(
    st.builds(
        lambda depth, kind, key: Hostile(
            f"JSON {kind} nested {depth:,} deep", nest_json(depth, kind, "1", key).encode()
        ),
        DEPTHS,
        KINDS,
        KEYS,
    ),
    st.builds(_json_number, DIGITS, st.sampled_from(["", "-"]), st.sampled_from(["int", "exp", "frac"])),
    st.sampled_from(
        [
            Hostile(f"JSON {t}", t.encode())
            for t in (
                "NaN",
                "Infinity",
                "-Infinity",
                "1e400",
                "-1e400",
                "1e308",
                "0",
                "-1",
                "true",
                "null",
                "[]",
                "{}",
                '""',
                '"\\u0000"',
                '"\\ud800"',
            )
        ]
    ),
    st.builds(lambda s: Hostile(f"JSON string of {s.label}", json.dumps(s.value).encode()), strings),
    st.builds(
        lambda n: Hostile(f"JSON string of {n:,} bytes not UTF-8", b'"' + b"\xff" * n + b'"'), st.integers(1, 100_000)
    ),
)


def _decoded(h: Hostile) -> Hostile:
    return Hostile(h.label + " (as text)", h.value.decode("utf-8", "surrogateescape"))


def _result_template() -> dict[str, Any]:
    return solve(1, VARIANT, SMALL).to_json()


#: Valid objects of the library's formats, a field of which a draw replaces.
TEMPLATES: dict[str, dict[str, Any]] = {
    "move": {"action": "move", "card": "8H", "from": "waste", "to": "cell"},
    "turn": {"action": "turn", "cards": ["9C"]},
    "player move": {"action": "move", "from": "waste", "to": "cell:1"},
    "result": _result_template(),
    "variant": tomllib.loads(TOMB_TOML),
}

base_values = st.one_of(nested_objects, strings, numbers, floats, oddities, blobs, st.builds(_decoded, json_texts))


def _shaped(name: str, data: st.DataObject) -> Hostile:
    template = TEMPLATES[name]
    key = data.draw(st.sampled_from([*template, "extra"]))
    inner = data.draw(base_values)
    return Hostile(f"{name} with {key}={inner.label}", {**template, key: inner.value})


shaped_values = st.builds(_shaped, st.sampled_from(sorted(TEMPLATES)), st.data())
listed_values = st.builds(lambda h: Hostile(f"[{h.label}]", [h.value]), base_values)
hostile_values = st.one_of(base_values, shaped_values, listed_values)

#: Strings for the command line's arguments (never a valid deal, range or name).
cli_strings = st.one_of(
    st.builds(_text, st.sampled_from([u for u in UNITS if u.strip()]), LENGTHS),
    digit_texts,
    st.builds(lambda h: Hostile(h.label, h.value.decode("utf-8", "surrogateescape")), json_texts),
).filter(lambda h: h.value != "")
#: --port values no server can listen on.
ports = st.one_of(
    st.builds(
        lambda k, sign: Hostile(f"text {sign}10**{k}", sign + "1" + "0" * k),
        st.integers(5, 5000),
        st.sampled_from(["", "-"]),
    ),
    st.sampled_from(
        [Hostile(t, t) for t in ("70000", "-1", "65536", "1e3", "nan", "0x10000", "\u0667\u0660\u0660\u0660\u0660")]
    ),
)


def _toml_field(key: str, value: str) -> bytes:
    """The Napoleon's Tomb file with ``key``'s value (``turn``, ``name``...) replaced by ``value``."""
    lines = []
    for line in TOMB_TOML.splitlines():
        if line.split("=")[0].strip() == key:
            line = f"{key} = {value}"
        lines.append(line)
    return "\n".join(lines).encode("utf-8", "surrogatepass")


TOML_VALUES = st.one_of(
    st.builds(lambda d: ("9" * d, f"{d:,} digits"), st.one_of(st.integers(19, 60), st.integers(4290, 5001))),
    st.builds(lambda d: ("-" + "9" * d, f"-{d:,} digits"), st.integers(19, 5001)),
    st.sampled_from([(t, t) for t in ("nan", "inf", "-inf", "1e308", "1e400", "0", "-1", "true", '""', "[]", "{}")]),
    st.builds(lambda depth, kind: (nest_toml(depth, kind), f"{kind} nested {depth:,} deep"), DEPTHS, KINDS),
    st.builds(lambda h: (json.dumps(h.value), h.label), strings),
)

#: Variant files (bytes): nested, dotted keys, huge values in a valid file, not UTF-8.
toml_files = st.one_of(
    st.builds(
        lambda depth, kind: Hostile(f"TOML {kind} nested {depth:,} deep", f"a = {nest_toml(depth, kind)}\n".encode()),
        DEPTHS,
        KINDS,
    ),
    # ~2 bytes a key: 100,000 keys are 200 KB.
    st.builds(
        lambda k: Hostile(f"TOML of {k:,} dotted keys", ("b." * k + "c = 1\n").encode()),
        st.sampled_from([1, 100, 1_000, 10_000, 100_000]),
    ),
    st.builds(
        lambda k: Hostile(f"TOML table header of {k:,} dotted keys", ("[" + "t." * k + "u]\nx = 1\n").encode()),
        st.sampled_from([1, 100, 1_000, 10_000, 100_000]),
    ),
    st.builds(
        lambda key, v: Hostile(f"variant file with {key} = {v[1]}", _toml_field(key, v[0])),
        st.sampled_from(["turn", "passes", "count", "name", "description", "family", "accept_from", "sixes"]),
        TOML_VALUES,
    ),
    st.builds(
        lambda n: Hostile(f"variant file behind {n:,} bytes not UTF-8", b"\xff" * n + TOMB_TOML.encode()),
        st.integers(1, 100_000),
    ),
    st.builds(
        lambda n: Hostile(f"variant file with {n:,} NUL bytes", TOMB_TOML.encode() + b"\0" * n), st.integers(1, 100_000)
    ),
)

#: Files of moves for `hint` (bytes): JSON nested, huge numbers, long lines, not UTF-8.
moves_files = st.one_of(
    json_texts,
    st.builds(lambda h: Hostile(f'{{"moves": {h.label}}}', b'{"moves": ' + h.value + b"}"), json_texts),
    st.builds(
        lambda h: Hostile(
            f'[{{"action": "turn", "cards": {h.label}}}]', b'[{"action": "turn", "cards": ' + h.value + b"}]"
        ),
        json_texts,
    ),
    st.builds(
        lambda h: Hostile(f'{{"moves": [], "deal": {h.label}}}', b'{"moves": [], "deal": ' + h.value + b"}"), json_texts
    ),
    st.builds(
        lambda h: Hostile(f'{{"moves": [], "variant": {h.label}}}', b'{"moves": [], "variant": ' + h.value + b"}"),
        json_texts,
    ),
    st.builds(lambda h: Hostile(f"printed moves: {h.label}", h.value.encode("utf-8", "surrogateescape")), strings),
)


# ===========================================================================
# Special files
# ===========================================================================

SPECIAL = ["dev-zero", "dev-urandom", "fifo", "directory", "missing", "nul-in-path", "name-of-300-characters"]


def special_path(kind: str, folder: Path) -> str:
    """A path of ``kind`` in ``folder`` (made there, once)."""
    path = folder / f"{kind}.toml"
    if kind in ("dev-zero", "dev-urandom") and not path.is_symlink():
        path.symlink_to("/dev/zero" if kind == "dev-zero" else "/dev/urandom")
    elif kind == "fifo" and not path.exists():
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir(exist_ok=True)
    elif kind == "nul-in-path":
        return str(folder / "a\0b.toml")
    elif kind == "name-of-300-characters":
        return str(folder / ("x" * 300 + ".toml"))
    return str(path)


def seconds_for(kind: str) -> float:
    return SPECIAL_SECONDS if kind in ("dev-zero", "dev-urandom", "fifo") else CALL_SECONDS


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A folder for the files of the hypothesis tests (one file a draw, rewritten)."""
    return tmp_path_factory.mktemp("hostile")


RESULTS_SCHEMA = """
CREATE TABLE results (
    variant TEXT NOT NULL, deal INTEGER NOT NULL, verdict TEXT NOT NULL, reason TEXT, score INTEGER NOT NULL,
    positions INTEGER NOT NULL, seconds REAL NOT NULL, table_bytes INTEGER NOT NULL, line TEXT NOT NULL,
    limits TEXT NOT NULL, solved_at TEXT NOT NULL, PRIMARY KEY (variant, deal)
) WITHOUT ROWID
"""


def make_db(path: Path, positions: object = 10) -> Path:
    """A batch database (solver/batch/database.py's results table) of deals 1-3 of
    napoleons-tomb, ``positions`` in each row's positions column."""
    conn = sqlite3.connect(path)
    conn.execute(RESULTS_SCHEMA)
    limits = json.dumps({"positions": 3000, "seconds": None, "memory": 2**28})
    rows = [(VARIANT, n, "won", None, 52, positions, 0.01, 0, "[]", limits, "2024-01-01T00:00:00") for n in (1, 2, 3)]
    conn.executemany(f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})", rows)
    conn.commit()
    conn.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    return str(make_db(tmp_path_factory.mktemp("db") / "results.db"))


# ===========================================================================
# The API: hypothesis
# ===========================================================================


def _game_play(v: object) -> object:
    return Game(VARIANT, 1).play(v)  # type: ignore[arg-type]


API: dict[str, Callable[[Any], object]] = {
    "Deal.parse": Deal.parse,
    "Deal.parse(decks=2)": lambda v: Deal.parse(v, 2),
    "number_from_text": number_from_text,
    "to_deal": to_deal,
    "to_deal(decks=2)": lambda v: to_deal(v, 2),
    "Move.from_json": Move.from_json,
    "Move.parse": Move.parse,
    "parse_move": parse_move,
    "variants.parse": variants.parse,
    "variants.load": variants.load,
    "variants.load_file": variants.load_file,
    "solve(deal=v)": lambda v: solve(v, VARIANT, SMALL),
    "solve(variant=v)": lambda v: solve(1, v, SMALL),
    "solve(limit=v)": lambda v: solve(1, VARIANT, limit=v),
    "Limit(positions=v)": lambda v: Limit(positions=v, seconds=None, memory=2**28),
    "Limit(seconds=v)": lambda v: Limit(positions=3000, seconds=v, memory=2**28),
    "Limit(memory=v)": lambda v: Limit(positions=3000, seconds=None, memory=v),
    "position_after(moves=v)": lambda v: position_after(1, VARIANT, v),
    "position_after(moves=[v])": lambda v: position_after(1, VARIANT, [v]),
    "position_after(deal=v)": lambda v: position_after(v, VARIANT, []),
    "Result.from_json": Result.from_json,
    "Result.loads": Result.loads,
    "Game(variant=v)": lambda v: Game(v, 1),
    "Game(deal=v)": lambda v: Game(VARIANT, v),
    "Game.play": _game_play,
    "hint_after(deal=v)": lambda v: hint_after(v, VARIANT, (), SMALL),
    "hint_after(moves=v)": lambda v: hint_after(1, VARIANT, v, SMALL),
}


@pytest.mark.parametrize("entry", sorted(API))
@PROFILE
@given(value=hostile_values)
def test_api_answers_or_refuses_hostile_values(entry, value):
    expect_answer_or_refusal(guarded(lambda: API[entry](value.value)), f"{entry} of {value.label}")


VARIANT_FILE_DOORS = ["load_file", "variants --variant-file", "solve --variant-file", "serve --variant-file"]


@pytest.mark.parametrize("door", VARIANT_FILE_DOORS)
@PROFILE
@given(content=toml_files)
def test_variant_files_of_hostile_toml_are_read_or_refused(scratch, door, content):
    path = scratch / f"variant-{door.split()[0]}.toml"
    path.write_bytes(content.value)
    what = f"{door} of {content.label}"
    if door == "load_file":
        expect_answer_or_refusal(guarded(lambda: variants.load_file(path)), what)
    elif door == "variants --variant-file":
        expect_cli_refusal(cli(["variants", "--variant-file", str(path)]), what, answers=True)
    elif door == "solve --variant-file":
        expect_cli_refusal(
            cli(["solve", "1", "--variant-file", str(path), "--max-positions", "3000"]), what, answers=True
        )
    else:
        expect_cli_refusal(
            cli(["serve", "--port", "0", "--variant-file", str(path)], stub_serve=True), what, answers=True
        )


# ===========================================================================
# The command line: hypothesis
# ===========================================================================


def _file(folder: Path, name: str, content: bytes) -> str:
    path = folder / name
    path.write_bytes(content)
    return str(path)


#: command -> (what is drawn, argv of the drawn value, the scratch folder, the database).
CLI_COMMANDS: dict[str, tuple[str, Callable[[Any, Path, str], list[str]]]] = {
    "solve DEAL": ("arg", lambda s, d, b: ["solve", s, "--max-positions", "3000"]),
    "solve --variant": ("arg", lambda s, d, b: ["solve", "1", "--variant", s]),
    "solve --cards": ("arg", lambda s, d, b: ["solve", "--cards", s, "--max-positions", "3000"]),
    "hint --deal": ("arg", lambda s, d, b: ["hint", "--deal", s, "--moves", os.devnull]),
    "hint --cards": ("arg", lambda s, d, b: ["hint", "--cards", s, "--moves", os.devnull]),
    "hint --variant": ("arg", lambda s, d, b: ["hint", "--deal", "1", "--variant", s, "--moves", os.devnull]),
    "hint --moves FILE": (
        "moves",
        lambda m, d, b: ["hint", "--deal", "1", "--max-positions", "3000", "--moves", _file(d, "moves.json", m)],
    ),
    "hint --moves -": ("stdin", lambda m, d, b: ["hint", "--deal", "1", "--max-positions", "3000"]),
    "play --deals": ("arg", lambda s, d, b: ["play", "--deals", s]),
    "play --variant": ("arg", lambda s, d, b: ["play", "--variant", s, "--deals", "1"]),
    "batch --deals": (
        "arg",
        lambda s, d, b: ["batch", "--deals", s, "--db", str(d / "batch.db"), "--jobs", "1", "--max-positions", "3000"],
    ),
    "batch --variant": (
        "arg",
        lambda s, d, b: [
            "batch",
            "--variant",
            s,
            "--deals",
            "1",
            "--db",
            str(d / "batch.db"),
            "--jobs",
            "1",
            "--max-positions",
            "3000",
        ],
    ),
    "stats --variant": ("arg", lambda s, d, b: ["stats", "--db", b, "--variant", s]),
    "winnable DEAL": ("arg", lambda s, d, b: ["winnable", s, "--max-positions", "3000"]),
    "winnable --variant": ("arg", lambda s, d, b: ["winnable", "1", "--variant", s]),
    "index --deals": ("arg", lambda s, d, b: ["index", "--db", b, "--deals", s, "--out", str(d / "index")]),
    "index --variant": ("arg", lambda s, d, b: ["index", "--db", b, "--variant", s, "--out", str(d / "index")]),
    "serve --port": ("port", lambda s, d, b: ["serve", "--port", s]),
    "serve --host": ("arg", lambda s, d, b: ["serve", "--host", s, "--port", "70000"]),
}
CLI_DRAWS = {"arg": cli_strings, "moves": moves_files, "stdin": moves_files, "port": ports}


@pytest.mark.parametrize("command", sorted(CLI_COMMANDS))
@PROFILE
@given(data=st.data())
def test_cli_answers_or_refuses_hostile_arguments(scratch, db, command, data):
    kind, argv_of = CLI_COMMANDS[command]
    value = data.draw(CLI_DRAWS[kind])
    argv = argv_of(value.value, scratch, db)
    outcome = cli(argv, stdin=value.value if kind == "stdin" else b"")
    expect_cli_refusal(outcome, f"{command} with {value.label}", answers=True)


# ===========================================================================
# The web game: hypothesis
# ===========================================================================

#: Each POST route's valid body (JSON text of each field).
BODIES: dict[str, dict[str, bytes]] = {
    "/api/state": {"variant": b'"napoleons-tomb"', "deal": b"5", "steps": b"[]"},
    "/api/play": {"variant": b'"napoleons-tomb"', "deal": b"5", "steps": b"[]", "move": b'{"action": "turn"}'},
    "/api/hint": {"variant": b'"napoleons-tomb"', "deal": b"5", "steps": b"[]"},
    "/api/new": {"variant": b'"napoleons-tomb"', "winnable_only": b"false"},
    "/api/verdict": {"variant": b'"napoleons-tomb"', "deal": b"5"},
}


def body_with(path: str, where: str, text: bytes) -> bytes:
    """The valid body of ``path`` with ``text`` put at ``where``: a field,
    ``steps[0][0]`` (a move of the steps), or ``body`` (the whole body)."""
    if where == "body":
        return text
    fields = dict(BODIES[path])
    if where == "steps[0][0]":
        fields["steps"] = b"[[" + text + b"]]"
    else:
        fields[where] = text
    return b"{" + b", ".join(json.dumps(k).encode() + b": " + v for k, v in fields.items()) + b"}"


WEB_PLACES = [
    (path, where)
    for path, fields in BODIES.items()
    for where in [
        "body",
        *fields,
        *(["steps[0][0]"] if "steps" in fields else []),
        *(["auto"] if "steps" in fields else []),
    ]
]


@pytest.mark.parametrize(("path", "where"), WEB_PLACES, ids=[f"{p}-{w}" for p, w in WEB_PLACES])
@PROFILE
@given(text=json_texts)
def test_web_answers_or_refuses_hostile_json(server, path, where, text):
    status, data = post(server, path, body_with(path, where, text.value))
    expect_web_refusal(status, data, f"POST {path} with {where} = {text.label}", answers=True)


# ===========================================================================
# The API: concrete cases
# ===========================================================================

DEEP = 3000


def test_deal_parse_refuses_100000_nul_characters():
    expect_refusal(guarded(lambda: Deal.parse("\0" * 100_000)), "Deal.parse of 100,000 NUL")


def test_deal_parse_refuses_100000_lone_surrogates():
    expect_refusal(guarded(lambda: Deal.parse("\udcff" * 100_000)), "Deal.parse of 100,000 lone surrogates")


def test_number_from_text_refuses_5000_digits():
    expect_refusal(guarded(lambda: number_from_text("9" * 5000)), "number_from_text of 5,000 digits")


def test_number_from_text_refuses_5000_non_ascii_digits():
    expect_refusal(guarded(lambda: number_from_text("\u0669" * 5000)), "number_from_text of 5,000 Arabic-Indic digits")


@pytest.mark.parametrize(
    "deal",
    [10**5000, -(10**5000), 0, "9" * 5000, "-" + "9" * 5000, math.nan, 1e308],
    ids=["10**5000", "-10**5000", "0", "5000-digit-text", "negative-5000-digit-text", "nan", "1e308"],
)
def test_to_deal_refuses_a_deal_number_out_of_range(deal):
    expect_refusal(guarded(lambda: to_deal(deal)), f"to_deal of {shown(deal)}")


def test_move_from_json_refuses_an_object_nested_3000_deep():
    expect_refusal(guarded(lambda: Move.from_json(nest(DEEP, "dict", 1, "action"))), "Move.from_json, 3,000 deep")


def test_move_from_json_refuses_cards_nested_3000_deep():
    move = {"action": "turn", "cards": nest(DEEP, "list", "9C")}
    expect_refusal(guarded(lambda: Move.from_json(move)), "Move.from_json, cards 3,000 deep")


def test_move_from_json_refuses_a_card_of_10_to_the_5000():
    move = {"action": "move", "card": 10**5000, "from": "waste", "to": "cell"}
    expect_refusal(guarded(lambda: Move.from_json(move)), "Move.from_json, card 10**5000")


def test_move_parse_refuses_100000_characters():
    expect_refusal(guarded(lambda: Move.parse("8H waste → " * 9000)), "Move.parse of 100,000 characters")


def test_parse_move_refuses_a_list_nested_3000_deep():
    expect_refusal(guarded(lambda: parse_move(nest(DEEP, "list"))), "parse_move of a list 3,000 deep")


def test_parse_move_refuses_a_place_nested_3000_deep():
    move = {"action": "move", "from": nest(DEEP, "mixed"), "to": "cell"}
    expect_refusal(guarded(lambda: parse_move(move)), "parse_move, 'from' 3,000 deep")


@pytest.mark.parametrize(
    "data", [[], "napoleons-tomb", None, 5, nest(DEEP, "list")], ids=["list", "str", "None", "int", "list-3000-deep"]
)
def test_variants_parse_refuses_what_is_not_a_table(data):
    expect_refusal(guarded(lambda: variants.parse(data)), f"variants.parse of {type(data).__name__}")


def test_variants_parse_refuses_a_table_nested_3000_deep():
    data = {**TEMPLATES["variant"], "stock": nest(DEEP, "dict", 1, "turn")}
    expect_refusal(guarded(lambda: variants.parse(data)), "variants.parse, stock 3,000 deep")


@pytest.mark.parametrize(
    "name",
    [
        "x" * 300,
        "x" * 100_000,
        "napoleons\0tomb",
        "../variants/napoleons-tomb",
        "..\\napoleons-tomb",
        "\udcff",
        5,
        None,
        nest(DEEP, "list"),
    ],
    ids=[
        "300-characters",
        "100000-characters",
        "nul",
        "slash",
        "backslash",
        "lone-surrogate",
        "int",
        "None",
        "list-3000-deep",
    ],
)
def test_variants_load_refuses_a_bad_name(name):
    expect_refusal(guarded(lambda: variants.load(name)), f"variants.load of {shown(name)}")


@pytest.mark.parametrize("kind", SPECIAL)
def test_load_file_refuses_a_special_file(tmp_path, kind):
    path = special_path(kind, tmp_path)
    expect_refusal(guarded(lambda: variants.load_file(path), seconds_for(kind)), f"load_file of a {kind}")


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
def test_load_file_refuses_toml_nested_3000_deep(tmp_path, kind):
    path = tmp_path / "deep.toml"
    path.write_text(f"a = {nest_toml(DEEP, kind)}\n")
    expect_refusal(guarded(lambda: variants.load_file(path)), f"load_file of TOML {kind} 3,000 deep")


def test_load_file_refuses_200_kb_of_dotted_keys(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_text("b." * 100_000 + "c = 1\n")
    expect_refusal(guarded(lambda: variants.load_file(path)), "load_file of 100,000 dotted keys")


def test_load_file_refuses_a_table_header_of_200_kb_of_dotted_keys(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_text("[" + "t." * 100_000 + "u]\nx = 1\n")
    expect_refusal(guarded(lambda: variants.load_file(path)), "load_file of a header of 100,000 dotted keys")


@pytest.mark.parametrize(
    "value",
    ["9" * 5000, "-" + "9" * 5000, "9" * 30, "nan", "inf", "1e400"],
    ids=["5000-digits", "minus-5000-digits", "30-digits", "nan", "inf", "1e400"],
)
def test_load_file_refuses_an_odd_number_in_a_variant_file(tmp_path, value):
    path = tmp_path / "odd.toml"
    path.write_bytes(_toml_field("turn", value))
    expect_refusal(guarded(lambda: variants.load_file(path)), f"load_file with turn = {value[:12]}")


def test_load_file_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b"\xff\xfe" * 50_000)
    expect_refusal(guarded(lambda: variants.load_file(path)), "load_file of bytes not UTF-8")


@pytest.mark.parametrize("path", [5, None, b"\xff", nest(DEEP, "list")], ids=["int", "None", "bytes", "list"])
def test_load_file_refuses_a_path_that_is_not_a_path(path):
    expect_refusal(guarded(lambda: variants.load_file(path)), f"load_file of {type(path).__name__}")


@pytest.mark.parametrize(
    "limit", [5, 0, "x", Limit, math.nan], ids=["limit=5", "limit=0", "limit='x'", "the-class-Limit", "limit=nan"]
)
def test_solve_refuses_a_limit_that_is_not_a_limit(limit):
    """A value that is not a Limit (nor None) is refused, not read as no
    limit given (0 and "" would run the default 10-second search)."""
    expect_refusal(guarded(lambda: solve(1, VARIANT, limit=limit)), f"solve with limit={limit!r}")


def test_solve_refuses_a_300_character_variant_name():
    expect_refusal(guarded(lambda: solve(1, "x" * 300, SMALL)), "solve with a 300-character variant")


def test_solve_refuses_a_5000_digit_deal():
    expect_refusal(guarded(lambda: solve("9" * 5000, VARIANT, SMALL)), "solve of a 5,000-digit deal")


def test_solve_refuses_a_deal_of_10_to_the_5000():
    expect_refusal(guarded(lambda: solve(10**5000, VARIANT, SMALL)), "solve of deal 10**5000")


@pytest.mark.parametrize("name", ["positions", "seconds", "memory"])
@pytest.mark.parametrize(
    "value",
    [10**400, -(10**400), 10**5000, math.inf, math.nan, 1e308, "5", 2**63],
    ids=["10**400", "-10**400", "10**5000", "inf", "nan", "1e308", "text", "2**63"],
)
def test_limit_refuses_a_huge_or_odd_bound(name, value):
    bounds: dict[str, Any] = {"positions": 3000, "seconds": None, "memory": 2**28, name: value}
    if name == "seconds" and value == 1e308:
        expect_answer_or_refusal(guarded(lambda: Limit(**bounds)), f"Limit({name}=1e308)")
        return
    expect_refusal(guarded(lambda: Limit(**bounds)), f"Limit({name}={shown(value)})")


@pytest.mark.parametrize(
    "moves",
    [
        nest(DEEP, "list"),
        [nest(DEEP, "dict", 1, "action")],
        [{"action": "turn", "cards": nest(DEEP, "list", "9C")}],
        5,
        None,
        10**5000,
    ],
    ids=["list-3000-deep", "move-3000-deep", "cards-3000-deep", "int", "None", "10**5000"],
)
def test_position_after_refuses_odd_moves(moves):
    expect_refusal(guarded(lambda: position_after(1, VARIANT, moves)), "position_after of odd moves")


def test_position_after_refuses_a_300_character_variant():
    expect_refusal(guarded(lambda: position_after(1, "x" * 300, [])), "position_after, 300-character variant")


@pytest.mark.parametrize(
    "text",
    [
        nest_json(DEEP, "list"),
        nest_json(DEEP, "dict"),
        "9" * 5000,
        "-" + "9" * 5000,
        "NaN",
        "1e400",
        '"\\ud800"',
        "\0" * 100_000,
    ],
    ids=[
        "list-3000-deep",
        "object-3000-deep",
        "5000-digits",
        "minus-5000-digits",
        "NaN",
        "1e400",
        "lone-surrogate",
        "100000-nul",
    ],
)
@pytest.mark.parametrize("reader", ["from_json", "loads"])
def test_result_refuses_hostile_json_text(reader, text):
    read = getattr(Result, reader)
    expect_refusal(guarded(lambda: read(text)), f"Result.{reader} of {text[:12]!r}")


def test_result_from_json_refuses_bytes_that_are_not_utf8():
    expect_refusal(guarded(lambda: Result.from_json(b"\xff" * 1000)), "Result.from_json of bytes not UTF-8")


@pytest.mark.parametrize(
    "key", ["verdict", "reason", "variant", "fingerprint", "deal", "score", "cards", "moves", "stats"]
)
@pytest.mark.parametrize("value", [nest(DEEP, "mixed"), 10**5000, math.nan], ids=["mixed-3000-deep", "10**5000", "nan"])
def test_result_from_json_refuses_a_hostile_field(key, value):
    data = {**TEMPLATES["result"], key: value}
    if key == "deal" and value == 10**5000:
        expect_answer_or_refusal(guarded(lambda: Result.from_json(data)), "Result.from_json, deal 10**5000")
        return
    expect_refusal(guarded(lambda: Result.from_json(data)), f"Result.from_json with {key} hostile")


def test_result_from_json_refuses_a_stats_count_of_10_to_the_5000():
    data = {**TEMPLATES["result"], "stats": {"positions": 10**5000, "seconds": 1e308}}
    expect_answer_or_refusal(guarded(lambda: Result.from_json(data)), "Result.from_json, stats 10**5000")


def test_game_refuses_a_300_character_variant():
    expect_refusal(guarded(lambda: Game("x" * 300, 1)), "Game of a 300-character variant")


@pytest.mark.parametrize("deal", ["9" * 5000, 10**5000, nest(DEEP, "list")], ids=["5000-digits", "10**5000", "nested"])
def test_game_refuses_a_hostile_deal(deal):
    expect_refusal(guarded(lambda: Game(VARIANT, deal)), "Game of a hostile deal")


@pytest.mark.parametrize(
    "move",
    [
        nest(DEEP, "dict", 1, "action"),
        {"action": "move", "from": "waste", "to": nest(DEEP, "list")},
        {"action": "move", "from": "waste", "to": "cell", "card": "\0" * 100_000},
        {"action": "move", "from": "/" * 100_000, "to": "cell"},
        10**5000,
        "8H",
    ],
    ids=["object-3000-deep", "place-3000-deep", "card-of-100000-nul", "place-of-100000-slashes", "10**5000", "text"],
)
def test_game_play_refuses_a_hostile_move(move):
    expect_refusal(guarded(lambda: _game_play(move)), "Game.play of a hostile move")


def test_hint_after_refuses_moves_nested_3000_deep():
    expect_refusal(
        guarded(lambda: hint_after(1, VARIANT, [nest(DEEP, "dict", 1, "action")], SMALL)),
        "hint_after, a move 3,000 deep",
    )


def test_hint_after_refuses_a_5000_digit_deal():
    expect_refusal(guarded(lambda: hint_after("9" * 5000, VARIANT, (), SMALL)), "hint_after of a 5,000-digit deal")


# ===========================================================================
# The command line: concrete cases
# ===========================================================================

LONG_NAME = "x" * 300
HUGE_DEAL = "9" * 5000
LIMITED = ["--max-positions", "3000"]


def test_cli_solve_refuses_a_300_character_variant_name():
    expect_cli_refusal(cli(["solve", "1", "--variant", LONG_NAME]), "solve --variant of 300 characters")


def test_cli_solve_refuses_a_5000_digit_deal_number():
    expect_cli_refusal(cli(["solve", HUGE_DEAL, *LIMITED]), "solve of a 5,000-digit deal")


def test_cli_solve_refuses_5000_digits_of_cards():
    expect_cli_refusal(cli(["solve", "--cards", HUGE_DEAL, *LIMITED]), "solve --cards of 5,000 digits")


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
def test_cli_solve_refuses_a_variant_file_nested_3000_deep(tmp_path, kind):
    path = tmp_path / "deep.toml"
    path.write_text(f"a = {nest_toml(DEEP, kind)}\n")
    expect_cli_refusal(cli(["solve", "1", "--variant-file", str(path)]), f"solve --variant-file {kind} 3,000 deep")


def test_cli_solve_refuses_a_variant_file_of_200_kb_of_dotted_keys(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_text("b." * 100_000 + "c = 1\n")
    expect_cli_refusal(cli(["solve", "1", "--variant-file", str(path)]), "solve --variant-file of dotted keys")


def test_cli_variants_refuses_a_variant_file_with_a_5000_digit_number(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_bytes(_toml_field("turn", "9" * 5000))
    expect_cli_refusal(cli(["variants", "--variant-file", str(path)]), "variants --variant-file, turn of 5,000 digits")


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("command", ["variants", "solve", "hint", "play", "winnable", "serve"])
def test_cli_refuses_a_special_variant_file(tmp_path, command, kind):
    path = special_path(kind, tmp_path)
    argv = {
        "variants": ["variants", "--variant-file", path],
        "solve": ["solve", "1", "--variant-file", path, *LIMITED],
        "hint": ["hint", "--deal", "1", "--variant-file", path, "--moves", os.devnull],
        "play": ["play", "--deals", "1", "--variant-file", path],
        "winnable": ["winnable", "1", "--variant-file", path, *LIMITED],
        "serve": ["serve", "--port", "0", "--variant-file", path],
    }[command]
    expect_cli_refusal(cli(argv, stub_serve=True, seconds=seconds_for(kind)), f"{command} --variant-file {kind}")


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize("depth", [1000, DEEP])
def test_cli_hint_refuses_moves_nested_deep(tmp_path, kind, depth):
    path = tmp_path / "moves.json"
    path.write_text(nest_json(depth, kind, "1", "moves"))
    expect_cli_refusal(
        cli(["hint", "--deal", "1", "--moves", str(path), *LIMITED]), f"hint --moves, JSON {kind} {depth:,} deep"
    )


def test_cli_hint_refuses_moves_nested_3000_deep_on_standard_input():
    stdin = ('{"moves": ' + nest_json(DEEP, "list") + "}").encode()
    expect_cli_refusal(cli(["hint", "--deal", "1", *LIMITED], stdin=stdin), "hint, stdin JSON 3,000 deep")


def test_cli_hint_refuses_a_move_with_5000_digit_cards():
    stdin = b'[{"action": "turn", "cards": ' + b"9" * 5000 + b"}]"
    expect_cli_refusal(cli(["hint", "--deal", "1", *LIMITED], stdin=stdin), "hint, a move of 5,000 digits")


def test_cli_hint_refuses_a_moves_object_with_a_5000_digit_deal():
    stdin = b'{"moves": [], "deal": ' + b"9" * 5000 + b"}"
    expect_cli_refusal(cli(["hint", *LIMITED], stdin=stdin), "hint, 'deal' of 5,000 digits in the moves")


def test_cli_hint_refuses_a_moves_object_with_a_300_character_variant():
    stdin = json.dumps({"moves": [], "deal": 1, "variant": LONG_NAME}).encode()
    expect_cli_refusal(cli(["hint", *LIMITED], stdin=stdin), "hint, 'variant' of 300 characters in the moves")


def test_cli_hint_refuses_moves_that_are_not_utf8():
    expect_cli_refusal(cli(["hint", "--deal", "1", *LIMITED], stdin=b"\xff" * 1000), "hint, stdin not UTF-8")


def test_cli_hint_refuses_a_5000_digit_deal():
    expect_cli_refusal(cli(["hint", "--deal", HUGE_DEAL, "--moves", os.devnull]), "hint --deal of 5,000 digits")


@pytest.mark.parametrize("kind", SPECIAL)
def test_cli_hint_refuses_a_special_moves_file(tmp_path, kind):
    """A FIFO may be read (``--moves <(...)`` is one): one without a writer
    is no moves, or refused; never a wait without end."""
    path = special_path(kind, tmp_path)
    expect_cli_refusal(
        cli(["hint", "--deal", "1", "--moves", path, *LIMITED], seconds=seconds_for(kind)),
        f"hint --moves {kind}",
        answers=kind == "fifo",
    )


def test_cli_play_refuses_a_300_character_variant_name():
    expect_cli_refusal(cli(["play", "--variant", LONG_NAME, "--deals", "1"]), "play --variant of 300 characters")


@pytest.mark.parametrize(
    "deals",
    ["1-9223372036854775807", f"1-{HUGE_DEAL}", "1-" + "9" * 30],
    ids=["to-2**63-1", "to-5000-digits", "to-30-digits"],
)
def test_cli_play_refuses_a_huge_deal_range(deals):
    expect_cli_refusal(cli(["play", "--deals", deals]), f"play --deals {deals[:30]}")


def test_cli_batch_refuses_a_300_character_variant_name(tmp_path):
    expect_cli_refusal(
        cli(["batch", "--variant", LONG_NAME, "--deals", "1", "--db", str(tmp_path / "b.db")]),
        "batch --variant of 300 characters",
    )


def test_cli_batch_refuses_a_5000_digit_deal_range(tmp_path):
    expect_cli_refusal(
        cli(["batch", "--deals", f"1-{HUGE_DEAL}", "--db", str(tmp_path / "b.db")]), "batch --deals of 5,000 digits"
    )


@pytest.mark.parametrize("kind", [k for k in SPECIAL if k != "missing"] + ["in-a-missing-folder"])
def test_cli_batch_refuses_a_special_database(tmp_path, kind):
    """(A missing file is a new database: not this test's.)"""
    path = special_path(kind, tmp_path) if kind in SPECIAL else str(tmp_path / "missing" / "results.db")
    expect_cli_refusal(
        cli(["batch", "--deals", "1", "--db", path, "--jobs", "1", *LIMITED], seconds=seconds_for(kind)),
        f"batch --db {kind}",
    )


@pytest.mark.parametrize("where", ["existing-file", "proc"])
def test_cli_batch_refuses_an_out_folder_it_cannot_make(tmp_path, where):
    out = str(tmp_path / "file") if where == "existing-file" else "/proc/x"
    if where == "existing-file":
        Path(out).write_text("not a folder")
    expect_cli_refusal(cli(["batch", "--deals", "1", "--out", out, "--jobs", "1", *LIMITED]), f"batch --out {where}")


def test_cli_stats_refuses_text_in_a_numeric_column(tmp_path):
    path = make_db(tmp_path / "text.db", positions="many")
    expect_cli_refusal(cli(["stats", "--db", str(path)]), "stats --db with text in 'positions'")


def test_cli_stats_refuses_a_300_character_variant_name(db):
    expect_cli_refusal(cli(["stats", "--db", db, "--variant", LONG_NAME]), "stats --variant of 300 characters")


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("command", ["stats", "index"])
def test_cli_refuses_a_special_database(tmp_path, command, kind):
    path = special_path(kind, tmp_path)
    argv = (
        ["stats", "--db", path]
        if command == "stats"
        else ["index", "--db", path, "--deals", "1-3", "--out", str(tmp_path / "index")]
    )
    expect_cli_refusal(cli(argv, seconds=seconds_for(kind)), f"{command} --db {kind}")


@pytest.mark.parametrize("where", ["existing-file", "proc"])
def test_cli_stats_refuses_an_out_folder_that_is_not_one(tmp_path, where):
    out = str(tmp_path / "file") if where == "existing-file" else "/proc/x"
    if where == "existing-file":
        Path(out).write_text("not a folder")
    expect_cli_refusal(cli(["stats", "--out", out]), f"stats --out {where}")


def test_cli_winnable_refuses_a_5000_digit_deal():
    expect_cli_refusal(cli(["winnable", HUGE_DEAL, *LIMITED]), "winnable of a 5,000-digit deal")


def test_cli_winnable_refuses_a_300_character_variant_name():
    expect_cli_refusal(cli(["winnable", "1", "--variant", LONG_NAME]), "winnable --variant of 300 characters")


@pytest.mark.parametrize("where", ["existing-file", "proc"])
def test_cli_index_refuses_an_out_folder_it_cannot_write(tmp_path, db, where):
    out = str(tmp_path / "file") if where == "existing-file" else "/proc/x"
    if where == "existing-file":
        Path(out).write_text("not a folder")
    expect_cli_refusal(cli(["index", "--db", db, "--deals", "1-3", "--out", out]), f"index --out {where}")


@pytest.mark.parametrize("deals", ["1-9223372036854775807", f"1-{HUGE_DEAL}"], ids=["to-2**63-1", "to-5000-digits"])
def test_cli_index_refuses_a_huge_deal_range(tmp_path, db, deals):
    """A range to 2**63-1 is a range a database may hold: the index stops at
    the first deal the database lacks (an answer), or the range is refused;
    never a bit array of 2**63 bits."""
    expect_cli_refusal(
        cli(["index", "--db", db, "--deals", deals, "--out", str(tmp_path / "index")]),
        f"index --deals {deals[:30]}",
        answers=deals == "1-9223372036854775807",
    )


def test_cli_index_refuses_a_300_character_variant_name(tmp_path, db):
    expect_cli_refusal(
        cli(["index", "--db", db, "--variant", LONG_NAME, "--out", str(tmp_path / "index")]),
        "index --variant of 300 characters",
    )


@pytest.mark.parametrize(
    "port", ["70000", "-1", "99999999999999999999999", HUGE_DEAL], ids=["70000", "-1", "23-digits", "5000-digits"]
)
def test_cli_serve_refuses_a_port_out_of_range(port):
    expect_cli_refusal(cli(["serve", "--port", port]), f"serve --port {port[:25]}")


@pytest.mark.parametrize("content", ["nested", "dotted", "huge-number"])
def test_cli_serve_refuses_a_bad_variant_file_before_serving(tmp_path, content):
    path = tmp_path / "bad.toml"
    path.write_bytes(
        {
            "nested": f"a = {nest_toml(DEEP, 'mixed')}\n".encode(),
            "dotted": ("b." * 100_000 + "c = 1\n").encode(),
            "huge-number": _toml_field("turn", "9" * 5000),
        }[content]
    )
    expect_cli_refusal(
        cli(["serve", "--port", "0", "--variant-file", str(path)], stub_serve=True), f"serve --variant-file {content}"
    )


# ===========================================================================
# The web game: concrete cases
# ===========================================================================

POST_PATHS = sorted(BODIES)


@pytest.mark.parametrize("depth", [1000, DEEP])
@pytest.mark.parametrize("path", POST_PATHS)
def test_web_refuses_a_body_nested_deep(server, path, depth):
    status, data = post(server, path, nest_json(depth, "list").encode())
    expect_web_refusal(status, data, f"POST {path}, a body {depth:,} deep")


@pytest.mark.parametrize("where", ["steps", "steps[0][0]", "variant", "deal"])
@pytest.mark.parametrize("path", ["/api/state", "/api/play", "/api/hint"])
def test_web_refuses_a_field_nested_1000_deep(server, path, where):
    status, data = post(server, path, body_with(path, where, nest_json(1000, "mixed", "1", "action").encode()))
    expect_web_refusal(status, data, f"POST {path}, {where} 1,000 deep")


def test_web_refuses_a_move_nested_1000_deep(server):
    status, data = post(
        server, "/api/play", body_with("/api/play", "move", nest_json(1000, "dict", "1", "action").encode())
    )
    expect_web_refusal(status, data, "POST /api/play, the move 1,000 deep")


@pytest.mark.parametrize("path", POST_PATHS)
def test_web_refuses_a_300_character_variant(server, path):
    status, data = post(server, path, body_with(path, "variant", json.dumps(LONG_NAME).encode()))
    expect_web_refusal(status, data, f"POST {path}, a 300-character variant")


@pytest.mark.parametrize("path", POST_PATHS)
def test_web_refuses_a_variant_of_100000_characters(server, path):
    status, data = post(server, path, body_with(path, "variant", json.dumps("\0/" * 50_000).encode()))
    expect_web_refusal(status, data, f"POST {path}, a 100,000-character variant")


@pytest.mark.parametrize("written", ["number", "string"])
@pytest.mark.parametrize("path", ["/api/state", "/api/play", "/api/hint", "/api/verdict"])
def test_web_refuses_a_5000_digit_deal(server, path, written):
    text = HUGE_DEAL.encode() if written == "number" else json.dumps(HUGE_DEAL).encode()
    status, data = post(server, path, body_with(path, "deal", text))
    expect_web_refusal(status, data, f"POST {path}, a 5,000-digit deal ({written})")


@pytest.mark.parametrize(
    "deal",
    ["-" + "9" * 30, "1e400", "NaN", "Infinity", "1e308", "5.0", '"-5"', '"\\u0000"'],
    ids=["minus-30-digits", "1e400", "NaN", "Infinity", "1e308", "5.0", "text-minus-5", "nul"],
)
def test_web_refuses_an_odd_deal(server, deal):
    status, data = post(server, "/api/state", body_with("/api/state", "deal", deal.encode()))
    expect_web_refusal(status, data, f"POST /api/state, deal {deal}")


WRONG_TYPES = [
    ("/api/state", "variant", "5"),
    ("/api/state", "variant", "[]"),
    ("/api/state", "variant", "null"),
    ("/api/state", "deal", "[]"),
    ("/api/state", "deal", "true"),
    ("/api/state", "deal", "{}"),
    ("/api/state", "steps", "{}"),
    ("/api/state", "steps", '"x"'),
    ("/api/state", "steps", "[5]"),
    ("/api/state", "steps", "[[]]"),
    ("/api/state", "steps[0][0]", "5"),
    ("/api/state", "auto", '"yes"'),
    ("/api/play", "move", '"8H"'),
    ("/api/play", "move", "[]"),
    ("/api/play", "move", '{"action": 5}'),
    ("/api/play", "move", '{"action": "move", "from": 5}'),
    ("/api/new", "winnable_only", "3"),
    ("/api/verdict", "variant", "{}"),
    ("/api/hint", "steps", '[[{"action": "move", "from": "waste", "to": "cell", "card": 99}]]'),
]


@pytest.mark.parametrize(("path", "where", "text"), WRONG_TYPES, ids=[f"{p}-{w}-{t}" for p, w, t in WRONG_TYPES])
def test_web_refuses_a_field_of_the_wrong_type(server, path, where, text):
    status, data = post(server, path, body_with(path, where, text.encode()))
    expect_web_refusal(status, data, f"POST {path}, {where} = {text}")


@pytest.mark.parametrize(
    "body",
    [b"\xff\xfe" * 1000, b"9" * 5000, b"NaN", b'"' + b"x" * 100_000 + b'"'],
    ids=["not-utf8", "5000-digits", "NaN", "a-string"],
)
def test_web_refuses_a_body_that_is_not_an_object(server, body):
    status, data = post(server, "/api/state", body)
    expect_web_refusal(status, data, "POST /api/state of a body that is no object")


def test_web_variants_answers_a_get_with_hostile_query(server):
    status, data = server.request(f"/api/variants?variant={LONG_NAME}&deal={HUGE_DEAL}&steps=%5B%5B%5B", method="GET")
    assert status == 200 and "variants" in data, f"GET /api/variants with a hostile query: {status} {str(data)[:300]}"
