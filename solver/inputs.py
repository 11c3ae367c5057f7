"""Reading what a user hands the library, within bounds: files of a bounded
size, JSON of a bounded depth, and a short repr of any value for an error
message.

Every reader here raises the error class its caller names (a
:class:`~solver.errors.SolverError`), with a message that says what was
wrong; none of them lets Python's own ``RecursionError``, ``OSError`` or
``MemoryError`` through, and none blocks on a file that never ends.

>>> brief([[[[["deep"]]]]])
'[[[[[...]]]]]'
>>> brief(10**4999)
'<a whole number of 5,000 digits>'
>>> check_depth([[[1]]], "moves", ValueError, limit=2)
Traceback (most recent call last):
...
ValueError: moves: nested more than 2 levels deep
"""

from __future__ import annotations

import json
import math
import os
import reprlib
import stat
from collections.abc import Callable
from typing import Any, NoReturn

#: The deepest nesting of lists and objects any input of the library needs
#: (a result is 4 levels deep, a game's steps 3); JSON deeper than this is
#: refused before it is used.
MAX_DEPTH = 64
#: The most digits of a whole number in JSON (a deal number has 21).
MAX_DIGITS = 100

_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6

Error = Callable[[str], Exception]


def brief(value: object) -> str:
    """A repr of ``value`` short enough for a message, whatever its size or
    depth (a 5,000-digit number, a list nested 1,000 deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"<a whole number of {len(str(abs(value))) if value.bit_length() < 14000 else _digits(value):,} digits>"
    try:
        return _REPR.repr(value)
    except (RecursionError, ValueError):  # a value whose own repr fails
        return f"<a {type(value).__name__}>"


def _digits(value: int) -> int:
    """The decimal digits of a number too long for str() (over 4,300)."""
    return int(math.log10(abs(value))) + 1


def shown_path(path: object) -> str:
    """A path as a message names it: whole, or its start when it is long."""
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(path)
    text = str(text)
    return text if len(text) <= 100 else f"{text[:60]}... ({len(text):,} characters)"


def check_depth(value: object, what: str, error: Error, limit: int = MAX_DEPTH) -> None:
    """Raise ``error`` if lists, tuples and dicts nest in ``value`` more than
    ``limit`` levels deep (counted without recursion)."""
    level: list[Any] = [value]
    for _ in range(limit + 1):
        level = [x for x in level if isinstance(x, (dict, list, tuple))]
        if not level:
            return
        level = [child for x in level for child in (x.values() if isinstance(x, dict) else x)]
    raise error(f"{what}: nested more than {limit} levels deep")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(len(text.lstrip("-")))
    return int(text)


class _TooLong(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def load_json(text: str | bytes, what: str, error: Error) -> Any:
    """``json.loads(text)``, with every failure an ``error`` naming ``what``:
    not JSON, nested over :data:`MAX_DEPTH` levels, a number of over
    :data:`MAX_DIGITS` digits."""
    try:
        data = json.loads(text, parse_int=_parse_int)
    except _TooLong as exc:
        raise error(f"{what}: a number of {exc.digits:,} digits; the numbers here have at most {MAX_DIGITS}") from None
    except RecursionError:
        raise error(f"{what}: nested more than {MAX_DEPTH} levels deep") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{what}: not JSON ({exc})") from None
    except ValueError as exc:  # a float or a constant json refuses
        raise error(f"{what}: not JSON ({exc})") from None
    check_depth(data, what, error)
    return data


def _refuse(path: object, what: str, why: str, error: Error) -> NoReturn:
    raise error(f"{shown_path(path)}: cannot read {what} ({why})")


def read_text(
    path: str | os.PathLike[str], what: str, error: Error, *, max_bytes: int, regular_only: bool = True
) -> str:
    """The UTF-8 text of the file at ``path``, of at most ``max_bytes``.

    With ``regular_only`` a device, a FIFO or a directory is refused without
    reading it; otherwise (a pipe given for standard input, say) it is read
    up to ``max_bytes`` and refused past that, so that ``/dev/zero`` cannot
    fill the memory. A FIFO is opened without blocking."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        _refuse(path, what, exc.strerror or str(exc), error)
    except ValueError:  # a NUL character in the path
        _refuse(brief(os.fspath(path)), what, "a path cannot hold a NUL character", error)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            _refuse(path, what, "it is a directory", error)
        if regular_only and not stat.S_ISREG(mode):
            _refuse(path, what, "it is not a regular file (a device, a FIFO or a socket)", error)
        if not stat.S_ISREG(mode):
            os.set_blocking(fd, True)  # a pipe: wait for its writer, as reading standard input does
        data = _read_at_most(fd, max_bytes + 1)
    except OSError as exc:
        _refuse(path, what, exc.strerror or str(exc), error)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        _refuse(path, what, f"it is over {max_bytes:,} bytes", error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        _refuse(path, what, "it is not UTF-8 text", error)


def _read_at_most(fd: int, size: int) -> bytes:
    chunks, total = [], 0
    while total < size:
        chunk = os.read(fd, min(65536, size - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)
