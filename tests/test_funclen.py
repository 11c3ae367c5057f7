"""tools/funclen.py, the size limit on functions (make funclen, make
pyfunclen): a function one line over the limit is flagged, one at the
limit is not, in C and in Python."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "funclen.py"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, TOOL, *map(str, args)], capture_output=True, text=True, check=False)


def python_function(name: str, lines: int) -> str:
    """A function of `lines` lines, its def included, under a decorator."""
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 2))
    return f"@staticmethod\ndef {name}():\n{body}    return 0\n"


def c_function(name: str, lines: int) -> str:
    """A function of `lines` lines, from its signature to its brace."""
    body = "".join(f"    x += {i};\n" for i in range(lines - 5))
    return f"/* {name} */\nstatic int {name}(void)\n{{\n    int x = 0;\n{body}    return x;\n}}\n"


def test_a_python_function_over_the_limit_is_flagged_and_one_at_it_is_not(tmp_path: Path) -> None:
    source = tmp_path / "long.py"
    source.write_text(python_function("over", 51) + "\n\n" + python_function("at_limit", 50))
    result = run("--max-py", "50", source)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{source}:2: over is 51 lines (over 50)"]


def test_methods_and_nested_functions_are_named_and_counted_on_their_own(tmp_path: Path) -> None:
    source = tmp_path / "nested.py"
    nested = "".join("    " + line if line else "" for line in python_function("inner", 51).splitlines(True))
    methods = "class Game:\n    def method(self):\n        pass\n\n\n"
    source.write_text(methods + "def outer():\n" + nested + "    return 1\n")
    listing = run("--list", source).stdout.splitlines()
    assert listing == [f"{source}:2: Game.method 2", f"{source}:6: outer 54", f"{source}:8: outer.inner 51"]
    assert run("--max-py", "51", source).stdout.splitlines() == [f"{source}:6: outer is 54 lines (over 51)"]


def test_a_c_function_over_the_limit_is_flagged_and_one_at_it_is_not(tmp_path: Path) -> None:
    source = tmp_path / "long.c"
    source.write_text(c_function("over", 81) + "\n" + c_function("at_limit", 80))
    result = run("--max", "80", source)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{source}:2: over is 81 lines (over 80)"]


def test_files_within_both_limits_pass(tmp_path: Path) -> None:
    c_source, py_source = tmp_path / "ok.c", tmp_path / "ok.py"
    c_source.write_text(c_function("short", 80))
    py_source.write_text(python_function("short", 50))
    result = run("--max", "80", "--max-py", "50", c_source, py_source)
    assert (result.returncode, result.stdout) == (0, "")
