"""Peak resident memory of `solve` against its memory limit (issue 20; the
figures are in docs/search.md, "Limits and resuming").

Run: ``.venv/bin/python bench/memory_limit.py [--cases finnish,jewel,classic]``.

Each case runs ``python -m solver solve DEAL -v VARIANT --max-memory MIB
--json`` as a child process and reads its peak resident set size: from
``/usr/bin/time -v`` when it is installed (Debian's package ``time``), else
from ``os.wait4`` (``ru_maxrss``, the same figure). The baseline is the
peak of ``python -m solver variants``: the interpreter with the package
imported and no search. A line shows the limit, the verdict, the peak, the
peak less the baseline as a share of the limit (the bound docs/search.md
states: at most 1.1), the bytes the search counted at its largest and when it
stopped, and the CPU seconds of the process.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"
MIB = 2**20

#: (group, variant, deal, limits in MiB)
CASES = [
    ("finnish", "napoleonin-hauta", 78606, (32, 64, 128, 256)),
    ("finnish", "napoleonin-hauta", 35118, (32, 64, 128, 256)),
    ("jewel", "paciencia-porta-joias-free", 903, (32, 128)),
    ("classic", "napoleons-tomb", 361030, (8, 16, 64)),
]


def measure(args: list[str]) -> tuple[int, float, str]:
    """Peak RSS in bytes, CPU seconds and stdout of a child running args."""
    use_time = os.access(TIME, os.X_OK)
    cmd = [TIME, "-v", *args] if use_time else args
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        err.seek(0)
        text, errors = out.read(), err.read()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1, 3):
        sys.exit(f"failed ({code}): {' '.join(args)}\n{errors}")
    rss = usage.ru_maxrss * 1024
    if use_time:
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", errors).group(1)) * 1024
    return rss, usage.ru_utime + usage.ru_stime, text


def solve_args(variant: str, deal: int, limit_mib: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "solver",
        "solve",
        str(deal),
        "-v",
        variant,
        "--max-memory",
        str(limit_mib),
        "--max-seconds",
        "600",
        "--json",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="finnish,jewel,classic", help="groups to run, comma-separated")
    opts = ap.parse_args()
    groups = set(opts.cases.split(","))
    if not os.access(TIME, os.X_OK):
        print("(no /usr/bin/time: peaks from os.wait4)")
    base, _, _ = measure([sys.executable, "-m", "solver", "variants"])
    print(f"baseline (python -m solver variants): {base / MIB:.1f} MiB")
    print(
        f"{'variant':<28} {'deal':>6} {'limit':>6} {'verdict':<16} {'peak RSS':>9} "
        f"{'-base/limit':>11} {'counted peak':>12} {'held':>8} {'CPU s':>6}"
    )
    for group, variant, deal, limits in CASES:
        if group not in groups:
            continue
        for limit in limits:
            rss, cpu, out = measure(solve_args(variant, deal, limit))
            data = json.loads(out)
            stats = data.get("stats", {})
            verdict = data["verdict"] + (f"/{data['reason']}" if data.get("reason") else "")
            peak = stats.get("peak_bytes")
            held = stats.get("held_bytes")
            peak_s = f"{peak / MIB:.1f}" if peak is not None else "-"
            held_s = f"{held / MIB:.1f}" if held is not None else "-"
            print(
                f"{variant:<28} {deal:>6} {limit:>6} {verdict:<16} {rss / MIB:>9.1f} "
                f"{(rss - base) / (limit * MIB):>11.2f} {peak_s:>12} {held_s:>8} {cpu:>6.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
