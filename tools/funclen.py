"""Fails on any C function longer than a limit (80 lines by default), and
on any Python function longer than its own (50 lines by default).

A C function's length counts from the first line of its signature to its
closing brace, both included; a Python function's, from its ``def`` to its
last line (its decorators left out). Usage:

    python tools/funclen.py [--max N] [--max-py M] FILE.c FILE.py ...

Prints ``file:line: name is N lines (over M)`` for each function over the
limit and exits 1 if there is one, else 0. The C scan is lexical: comments,
string and character literals and preprocessor lines are blanked first;
a function is a ``{`` at file scope whose declaration ends in ``)``. A
Python file is read with ``ast``: a method is named ``Class.method``, and a
function nested in another is counted in its parent's lines and on its own
(``outer.inner``).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

LIMIT = 80
LIMIT_PY = 50


class Function(NamedTuple):
    name: str
    first: int  # 1-based line of the signature's first line
    last: int  # 1-based line of the closing brace

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


def blank(text: str) -> str:
    """The source with comments, literals and preprocessor lines replaced by
    spaces, newlines kept, so that offsets and line numbers stay valid."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            # A directive, with its backslash continuations.
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


NAME_BEFORE_PAREN = re.compile(r"([A-Za-z_]\w*)\s*\(")


def functions(text: str) -> Iterator[Function]:
    """The function definitions of a C source, in order."""
    code = blank(text)
    depth = 0
    chunk = 0  # offset where the current file-scope declaration starts
    opened = -1  # offset of the body's `{` while inside a function
    head = ""
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                head = code[chunk:i]
                opened = i if head.rstrip().endswith(")") else -1
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if opened >= 0:
                    start = chunk + len(head) - len(head.lstrip())
                    match = _name(head)
                    yield Function(match, code.count("\n", 0, start) + 1, code.count("\n", 0, i) + 1)
                opened = -1
                chunk = i + 1
        elif c == ";" and depth == 0:
            chunk = i + 1


def _name(head: str) -> str:
    """The declared name: the first identifier followed by `(` outside any
    parentheses (so `int (*f)(void)`-style heads fall back to the last one)."""
    level = 0
    for i, c in enumerate(head):
        if c == "(":
            if level == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", head[:i])
                if m and m.group(1) not in {"__attribute__", "sizeof"}:
                    return m.group(1)
            level += 1
        elif c == ")":
            level -= 1
    found = NAME_BEFORE_PAREN.findall(head)
    return found[-1] if found else "?"


def python_functions(text: str, filename: str = "<unknown>") -> Iterator[Function]:
    """The function definitions of a Python source, in order, methods and
    nested functions included (named by their enclosing classes and
    functions)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[Function]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                yield Function(name, child.lineno, child.end_lineno or child.lineno)
                yield from walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)

    yield from walk(ast.parse(text, filename), "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=LIMIT, help="longest allowed C function, in lines")
    parser.add_argument("--max-py", type=int, default=LIMIT_PY, help="longest allowed Python function, in lines")
    parser.add_argument("--list", action="store_true", help="print every function's length")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    over = 0
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            found, limit = python_functions(text, str(path)), args.max_py
        else:
            found, limit = functions(text), args.max
        for f in found:
            if args.list:
                print(f"{path}:{f.first}: {f.name} {f.lines}")
            elif f.lines > limit:
                over += 1
                print(f"{path}:{f.first}: {f.name} is {f.lines} lines (over {limit})")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
