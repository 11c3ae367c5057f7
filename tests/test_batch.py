"""Tests of batch runs and their statistics (solver/batch/, docs/batch.md).

The batches solve 3-card deals (most decided in a millisecond) under a small
position limit, so that results are deterministic and some deals stay unknown.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT, run

from solver import Limit, Result, batch, solve
from solver.blind import wilson
from solver.deals import DealError
from solver.rules import tomb

VARIANT = "napoleons-tomb-3"
POSITIONS = 20_000  # decides most 3-card deals, leaves about one in five unknown
LIMIT = Limit(positions=POSITIONS, seconds=60)
LIMIT_ARGS = ("--max-positions", str(POSITIONS), "--max-seconds", "60")


def run_batch(db: Path, deals: str, *extra: str, jobs: int = 2) -> subprocess.CompletedProcess:
    return run(
        "batch", "--variant", VARIANT, "--deals", deals, "--jobs", str(jobs), "--db", str(db), *(extra or LIMIT_ARGS)
    )


def start_batch(db: Path, deals: str, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "solver",
            "batch",
            "--variant",
            VARIANT,
            "--deals",
            deals,
            "--jobs",
            "2",
            "--db",
            str(db),
            *LIMIT_ARGS,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        **popen,
    )


def rows(db: Path) -> dict[int, dict]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return {r["deal"]: dict(r) for r in conn.execute("SELECT * FROM results ORDER BY deal")}
    finally:
        conn.close()


def count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db, timeout=5)
        try:
            return conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def wait_for_rows(db: Path, proc: subprocess.Popen, at_least: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while count(db) < at_least:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the batch stored too few rows in time"
        time.sleep(0.02)


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def solved_count(stdout: str) -> int:
    line = next(ln for ln in stdout.splitlines() if ln.startswith("solved "))
    return int(line.split()[1].replace(",", ""))


def assert_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(("error:", "usage:")) or ": error:" in proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)


@pytest.fixture(scope="module")
def db40(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("batch") / "results.sqlite"
    proc = run_batch(db, "1-40")
    assert proc.returncode == 0, proc.stderr
    return db


# ---------------------------------------------------------------------------
# Batch


def test_one_row_per_deal_with_the_verdicts_of_solve(db40):
    stored = rows(db40)
    assert sorted(stored) == list(range(1, 41))
    verdicts = set()
    for n, row in stored.items():
        r = solve(n, VARIANT, LIMIT)
        assert (row["variant"], row["verdict"], row["reason"], row["score"], row["positions"]) == (
            VARIANT,
            r.verdict,
            r.reason,
            r.score,
            r.stats.positions,
        ), n
        assert Result.from_json(row["line"]) == r  # the line: same deal, verdict, score, moves
        assert json.loads(row["limits"]) == {"positions": POSITIONS, "seconds": 60.0, "memory": 2 * 2**30}
        assert row["seconds"] >= 0 and row["table_bytes"] >= 0 and row["solved_at"].endswith("+00:00")
        verdicts.add(r.verdict)
    assert "won" in verdicts
    mode = sqlite3.connect(db40).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_stored_lines_replay_with_the_reference_engine(db40):
    for n, row in rows(db40).items():
        result = Result.from_json(row["line"])
        pos = result.position()  # replayed by solver.rules.tomb
        assert tomb.score(pos) == row["score"], n
        assert tomb.is_won(pos) == (row["verdict"] == "won"), n


def test_resume_solves_only_the_new_deals(tmp_path):
    db = tmp_path / "r.sqlite"
    first = run_batch(db, "1-10")
    assert first.returncode == 0, first.stderr
    assert solved_count(first.stdout) == 10
    before = rows(db)
    second = run_batch(db, "1-20")
    assert second.returncode == 0, second.stderr
    assert solved_count(second.stdout) == 10
    assert "10 of the 20 deals were already stored" in second.stdout
    after = rows(db)
    assert sorted(after) == list(range(1, 21))
    assert all(after[n] == before[n] for n in range(1, 11))  # untouched: same solved_at
    assert min(after[n]["solved_at"] for n in range(11, 21)) > max(before[n]["solved_at"] for n in before)
    third = run_batch(db, "5-15")
    assert third.returncode == 0 and solved_count(third.stdout) == 0
    assert rows(db) == after


def test_workers_are_forked_from_a_process_of_one_thread_alone():
    import threading

    alone = subprocess.run(
        [sys.executable, "-c", "from solver import batch; print(batch.start_method())"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert alone.stdout.strip() == ("fork" if sys.platform == "linux" else "spawn")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert batch.start_method() == "spawn"
    finally:
        stop.set()
        other.join()


def test_a_batch_in_a_process_of_several_threads_spawns_its_workers(tmp_path, monkeypatch):
    # Where the other tests' batch commands fork their workers.
    import multiprocessing
    import threading

    asked: list[str | None] = []
    get_context = multiprocessing.get_context
    monkeypatch.setattr(
        batch.pool.multiprocessing, "get_context", lambda method=None: asked.append(method) or get_context(method)
    )
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        db = tmp_path / "s.sqlite"
        summary = batch.run_batch(db, VARIANT, [(1, 6)], LIMIT, jobs=2, progress=None)
    finally:
        stop.set()
        other.join()
    assert asked == ["spawn"] and summary.solved == 6
    stored = rows(db)
    assert [stored[n]["verdict"] for n in range(1, 7)] == [solve(n, VARIANT, LIMIT).verdict for n in range(1, 7)]


def test_a_new_database_has_large_pages_and_an_old_one_keeps_its_own(tmp_path):
    new, old = tmp_path / "new.sqlite", tmp_path / "old.sqlite"
    made = sqlite3.connect(old)
    made.execute("PRAGMA page_size = 4096")
    made.execute(batch._SCHEMA)
    made.close()
    for db in (new, old):
        done = run_batch(db, "1-5")
        assert done.returncode == 0, done.stderr
        assert count(db) == 5
    assert sqlite3.connect(new).execute("PRAGMA page_size").fetchone() == (batch.PAGE_SIZE,) == (65536,)
    assert sqlite3.connect(old).execute("PRAGMA page_size").fetchone() == (4096,)


def test_a_killed_batch_loses_and_duplicates_nothing(tmp_path):
    db = tmp_path / "k.sqlite"
    proc = start_batch(db, "1-8000")  # more than it solves before the kill
    wait_for_rows(db, proc, 40)
    workers = children(proc.pid)
    proc.send_signal(signal.SIGKILL)  # a crash: no chance to clean up
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    kept = rows(db)
    assert 40 <= len(kept) < 8000
    end = time.monotonic() + 10  # orphaned workers notice and quit
    while any(Path(f"/proc/{pid}").exists() and "(Z)" not in Path(f"/proc/{pid}/stat").read_text() for pid in workers):
        assert time.monotonic() < end, "worker processes outlived their batch"
        time.sleep(0.1)
    again = run_batch(db, "1-8000")
    assert again.returncode == 0, again.stderr
    assert solved_count(again.stdout) == 8000 - len(kept)
    final = rows(db)
    assert sorted(final) == list(range(1, 8001))
    assert all(final[n] == kept[n] for n in kept)  # what was committed stays as it was
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT deal) FROM results").fetchone() == (8000, 8000)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for n in (1, 300, 8000):
        r = solve(n, VARIANT, LIMIT)
        assert (final[n]["verdict"], final[n]["score"]) == (r.verdict, r.score)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_the_process_group_stops_cleanly(tmp_path, signum):
    db = tmp_path / "i.sqlite"
    # Its own process group, all signalled at once: as Ctrl-C in a terminal does
    # (SIGINT), or `timeout`, systemd and `kill -- -PGID` (SIGTERM). The workers
    # get the signal too, and must not die of it.
    proc = start_batch(db, "1-100000", start_new_session=True)
    wait_for_rows(db, proc, 30)
    seen = count(db)
    os.killpg(proc.pid, signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum, (out, err)
    assert "worker process died" not in err, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted" in out and "run the same command again to resume" in out
    stored = rows(db)
    assert len(stored) >= seen
    assert solved_count(out) == len(stored)  # every deal it reports is committed
    assert not any(r["reason"] == "interrupted" for r in stored.values())


def test_sigint_to_the_batch_process_alone(tmp_path):
    db = tmp_path / "j.sqlite"
    proc = start_batch(db, "1-100000")
    wait_for_rows(db, proc, 30)
    proc.send_signal(signal.SIGINT)  # the workers do not get it: the batch stops them
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err, err
    assert solved_count(out) == count(db)


def test_a_dead_worker_stops_the_batch_with_exit_2(tmp_path):
    db = tmp_path / "w.sqlite"
    proc = start_batch(db, "1-100000")
    wait_for_rows(db, proc, 30)
    batch_cmdline = Path(f"/proc/{proc.pid}/cmdline").read_text()
    worker = next(
        pid
        for pid in children(proc.pid)  # forked, or spawned (not the resource tracker)
        if Path(f"/proc/{pid}/cmdline").read_text() == batch_cmdline
        or "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()
    )
    os.kill(worker, signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, (out, err)
    assert "error: a worker process died" in err and "Traceback" not in err
    assert count(db) >= 30


def test_a_worker_dying_while_it_hands_back_its_result_stops_the_batch(tmp_path):
    # The pool's own thread then waits forever for the rest of the message (CPython
    # 3.11); the batch must notice the death itself. CI once hung here, in the test above.
    db = tmp_path / "h.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "dying_worker",
                "--variant",
                VARIANT,
                "--deals",
                "1-2000",
                "--jobs",
                "2",
                "--db",
                str(db),
                *LIMIT_ARGS,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the batch hung after its worker died: {exc.stderr!r}")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "error: a worker process died" in proc.stderr and "Traceback" not in proc.stderr
    assert 40 not in rows(db) and count(db) >= 1


def test_retry_unknown_replaces_the_unknown_rows(tmp_path):
    db = tmp_path / "u.sqlite"
    first = run_batch(db, "1-30", "--max-positions", "500", "--max-seconds", "60")
    assert first.returncode == 0, first.stderr
    before = rows(db)
    unknown = {n for n, r in before.items() if r["verdict"] == "unknown"}
    assert 1 <= len(unknown) < 30
    plain = run_batch(db, "1-30", "--max-positions", "300000", "--max-seconds", "60")
    assert solved_count(plain.stdout) == 0  # without --retry-unknown: all done already
    retry = run_batch(db, "1-30", "--retry-unknown", "--max-positions", "300000", "--max-seconds", "60")
    assert retry.returncode == 0, retry.stderr
    assert solved_count(retry.stdout) == len(unknown)
    after = rows(db)
    assert sorted(after) == list(range(1, 31))
    for n in range(1, 31):
        if n in unknown:
            r = solve(n, VARIANT, Limit(positions=300_000, seconds=60))
            assert (after[n]["verdict"], after[n]["reason"], after[n]["score"]) == (r.verdict, r.reason, r.score)
            assert json.loads(after[n]["limits"])["positions"] == 300_000
            assert after[n]["solved_at"] > before[n]["solved_at"]
        else:
            assert after[n] == before[n]
    assert sum(after[n]["verdict"] == "won" for n in unknown) >= 1


def test_a_decided_row_is_never_replaced(tmp_path):
    db = tmp_path / "d.sqlite"
    conn = batch.connect(db)
    row = ("v", 1, "won", None, 52, 10, 0.1, 0, "{}", "{}", "2000-01-01T00:00:00+00:00")
    conn.execute(batch._UPSERT, row)
    conn.execute(batch._UPSERT, ("v", 1, "unknown", "seconds", 3, 9, 9.0, 0, "{}", "{}", "2001-01-01T00:00:00+00:00"))
    conn.commit()
    assert conn.execute("SELECT verdict, solved_at FROM results").fetchall() == [("won", "2000-01-01T00:00:00+00:00")]
    conn.close()


def test_in_process_run_batch_and_progress(tmp_path):
    db = tmp_path / "p.sqlite"
    out = io.StringIO()
    summary = batch.run_batch(db, VARIANT, [(1, 12), (20, 21)], LIMIT, jobs=1, progress=out)
    assert (summary.total, summary.todo, summary.solved, summary.skipped) == (14, 14, 14, 0)
    assert sum(summary.counts.values()) == 14 and summary.stopped_by is None
    assert sorted(rows(db)) == [*range(1, 13), 20, 21]
    text = out.getvalue()
    assert "14 to solve" in text and "14/14 deals (100.0%)" in text and "won" in text and "left" in text
    assert "\r" not in text  # not a terminal: plain lines


def test_progress_redraws_in_place_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")

    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    bar = batch.Progress(stream, total=100, every=0)
    bar.update(10, 7, 1, 2)
    bar.note("a line of its own")
    bar.update(50, 40, 5, 5)
    bar.close(100, 80, 10, 10)
    text = stream.getvalue()
    assert "\r" in text and text.endswith("\n")
    assert "a line of its own\n" in text
    last = text.rsplit("\r", 1)[-1]
    assert "100/100" in last and "won 80  lost 10  unknown 10" in last


# ---------------------------------------------------------------------------
# Deal ranges and errors


def test_parse_deals():
    assert batch.parse_deals("1-1000") == [(1, 1000)]
    assert batch.parse_deals("5") == [(5, 5)]
    assert batch.parse_deals("1-10,20-30") == [(1, 10), (20, 30)]
    assert batch.parse_deals(" 20-30 , 1-10,5,11 ") == [(1, 11), (20, 30)]
    for bad in ("", "0-5", "5-1", "abc", "1-", "-3", "1-2,x", "1--2", "1e3", str(2**63), "1-" + "9" * 5000):
        with pytest.raises(DealError, match="--deals"):
            batch.parse_deals(bad)


def test_to_solve_reads_windows_and_skips_stored(tmp_path):
    conn = batch.connect(tmp_path / "w.sqlite")
    for n, verdict in ((3, "won"), (4, "unknown"), (12, "lost")):
        conn.execute(batch._UPSERT, (VARIANT, n, verdict, None, 0, 0, 0.0, 0, "{}", "{}", "t"))
    conn.execute(batch._UPSERT, ("napoleons-tomb", 5, "won", None, 0, 0, 0.0, 0, "{}", "{}", "t"))
    ranges = [(1, 6), (10, 13)]
    assert list(batch.to_solve(conn, VARIANT, ranges, window=3)) == [1, 2, 5, 6, 10, 11, 13]
    assert list(batch.to_solve(conn, VARIANT, ranges, retry_unknown=True, window=2)) == [1, 2, 4, 5, 6, 10, 11, 13]
    assert batch.count_done(conn, VARIANT, ranges) == 3
    assert batch.count_done(conn, VARIANT, ranges, retry_unknown=True) == 2


@pytest.mark.parametrize("deals", ["0-5", "5-1", "abc", "1-", "1-10,x"])
def test_bad_ranges_exit_2(tmp_path, deals):
    proc = run_batch(tmp_path / "x.sqlite", deals)
    assert_error(proc, "--deals")
    assert not (tmp_path / "x.sqlite").exists()


def test_bad_variant_and_jobs_exit_2(tmp_path):
    assert_error(
        run("batch", "--variant", "spider", "--deals", "1", "--db", str(tmp_path / "x.sqlite")),
        "unknown variant 'spider'",
    )
    assert_error(run_batch(tmp_path / "x.sqlite", "1-3", jobs=0), "--jobs")
    assert_error(run("stats", "--db", str(tmp_path / "x.sqlite"), "--variant", "spider"), "unknown variant")


def test_not_a_database_exit_2(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all " * 100)
    assert_error(run_batch(junk, "1-3"), "junk.sqlite")
    assert_error(run("stats", "--db", str(junk)), "junk.sqlite")
    assert_error(run("stats", "--db", str(tmp_path / "missing.sqlite")), "no such database file")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE results (x)").connection.commit()
    assert_error(run_batch(other, "1-3"), "not a batch database")
    # A database of other tables is left as it was, not written into.
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE notes (x)").connection.commit()
    assert_error(run_batch(foreign, "1-3"), "holds the tables notes and no results table: not a batch database")
    tables = sqlite3.connect(foreign).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("notes",)]


def test_the_batch_says_what_it_found_at_db(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    out = run_batch(empty, "1-2")
    assert out.returncode == 0 and "already in " + str(empty) + " (an empty file, made a new database)" in out.stderr
    out = run_batch(empty, "1-3")
    assert out.returncode == 0 and f"1 to solve, 2 already in {empty}; " in out.stderr
    new = tmp_path / "new.sqlite"
    out = run_batch(new, "1")
    assert out.returncode == 0 and f"already in {new} (a new database)" in out.stderr


# ---------------------------------------------------------------------------
# Stats


@pytest.fixture
def known_db(tmp_path) -> Path:
    """7 won, 2 lost (best scores 20 and 30), 1 unknown of one variant; 1 deal of another."""
    db = tmp_path / "known.sqlite"
    conn = batch.connect(db)
    data = [(n, "won", None, 52, 100 * n, 0.01 * n) for n in range(1, 8)]
    data += [
        (8, "lost", None, 20, 5000, 2.5),
        (9, "lost", None, 30, 7000, 3.5),
        (10, "unknown", "seconds", 40, 9000, 10.0),
    ]
    conn.executemany(
        batch._UPSERT,
        [
            (VARIANT, n, v, reason, score, pos, sec, 1024, "{}", "{}", "2024-01-01T00:00:00+00:00")
            for n, v, reason, score, pos, sec in data
        ],
    )
    conn.execute(batch._UPSERT, ("napoleons-tomb", 77, "lost", None, 12, 1, 0.5, 0, "{}", "{}", "t"))
    conn.commit()
    conn.close()
    return db


def test_stats_counts_interval_and_distributions(known_db):
    proc = run("stats", "--db", str(known_db), "--variant", VARIANT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"{VARIANT}: 10 deals stored (deals 1-10)" in out
    lines = {ln.split()[0]: ln.split() for ln in out.splitlines() if ln.strip()}
    assert lines["won"][1:3] == ["7", "70.00%"]
    assert lines["lost"][1:3] == ["2", "20.00%"]
    assert lines["unknown"][1:3] == ["1", "10.00%"]
    lo, hi = wilson(7, 10)[0], wilson(8, 10)[1]
    assert f"win rate 70.00% to 80.00%, 95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%" in out
    assert "unknowns counted both ways" in out
    # nearest-rank percentiles of 100..700, 5000, 7000, 9000 positions
    assert lines["positions"][1:] == ["500", "7,000", "9,000", "9,000"]
    assert lines["seconds"][1:] == ["0.05", "3.5", "10.0", "10.0"]
    hardest = [ln.split()[0] for ln in out.split("hardest deals")[1].splitlines()[2:12]]
    assert hardest == ["10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    assert "best score of the 2 lost deals" in out
    hist = {ln.split()[0]: ln.split()[1:3] for ln in out.split("best score of the")[1].splitlines()[2:]}
    assert hist == {"20": ["1", "50.0%"], "30": ["1", "50.0%"]}
    assert "napoleons-tomb:" not in out


def test_stats_of_every_variant_stored(known_db):
    proc = run("stats", "--db", str(known_db))
    assert proc.returncode == 0, proc.stderr
    assert f"{VARIANT}: 10 deals stored" in proc.stdout
    assert "napoleons-tomb: 1 deals stored (deals 77)" in proc.stdout
    assert "win rate 0.00%, 95% Wilson interval 0.00% to" in proc.stdout  # no unknown: one interval


def test_stats_of_a_variant_not_stored_exit_2(known_db):
    assert_error(run("stats", "--db", str(known_db), "--variant", "napoleonin-hauta"), "no results stored")


def test_stats_on_a_batch_db(db40):
    proc = run("stats", "--db", str(db40))
    assert proc.returncode == 0, proc.stderr
    stored = rows(db40)
    lines = {ln.split()[0]: ln.split() for ln in proc.stdout.splitlines() if ln.strip()}
    for verdict in ("won", "lost", "unknown"):
        assert int(lines[verdict][1]) == sum(r["verdict"] == verdict for r in stored.values())
    assert lines["positions"][-1] == f"{max(r['positions'] for r in stored.values()):,}"


def test_stats_plot(known_db, tmp_path):
    png = tmp_path / "dist.png"
    proc = run("stats", "--db", str(known_db), "--plot", str(png))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert_error(proc, "matplotlib", "patience-solver[plot]")
        return
    assert proc.returncode == 0, proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot: {png}" in proc.stdout


# ---------------------------------------------------------------------------
# The rules of the variants stored


def variant_file(tmp_path: Path, changed: bool) -> Path:
    """A copy of the 3-card variant file; ``changed``: one pass instead of three, the name kept."""
    text = (ROOT / "solver" / "variants" / f"{VARIANT}.toml").read_text(encoding="utf-8")
    path = tmp_path / ("changed.toml" if changed else "copy.toml")
    path.write_text(text.replace("passes = 3", "passes = 1", 1) if changed else text, encoding="utf-8")
    return path


def batch_file(db: Path, deals: str, path: Path) -> subprocess.CompletedProcess:
    return run("batch", "--variant-file", str(path), "--deals", deals, "--jobs", "1", "--db", str(db), *LIMIT_ARGS)


def without_time(stored: dict[int, dict]) -> dict[int, tuple]:
    return {
        n: (r["variant"], r["verdict"], r["reason"], r["score"], r["positions"], Result.from_json(r["line"]))
        for n, r in stored.items()
    }


def test_a_variant_file_of_the_shipped_rules_batches_as_the_variant(tmp_path):
    named, db = tmp_path / "named.sqlite", tmp_path / "file.sqlite"
    assert run_batch(named, "1-12").returncode == 0
    proc = batch_file(db, "1-12", variant_file(tmp_path, changed=False))
    assert proc.returncode == 0, proc.stderr
    assert without_time(rows(db)) == without_time(rows(named))
    shipped = solve(1, VARIANT, Limit(positions=1)).fingerprint
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT variant, fingerprint FROM variants").fetchall() == [(VARIANT, shipped)]
    assert all(json.loads(r["line"])["fingerprint"] == shipped for r in rows(db).values())
    # and into the database of --variant: the same rules, so it resumes
    again = batch_file(named, "1-13", variant_file(tmp_path, changed=False))
    assert again.returncode == 0 and solved_count(again.stdout) == 1, again.stderr
    proc = run("stats", "--db", str(db))
    assert f"  rules {shipped} (the shipped rules)" in proc.stdout.splitlines()


def test_a_batch_refuses_other_rules_under_the_same_name(tmp_path):
    db = tmp_path / "r.sqlite"
    assert run_batch(db, "1-5").returncode == 0
    before = db.read_bytes(), rows(db)
    changed = variant_file(tmp_path, changed=True)
    proc = batch_file(db, "1-10", changed)
    assert_error(
        proc,
        str(db),
        f"holds {VARIANT} deals solved under the rules",
        str(changed),
        "one store holds one set of rules a variant",
    )
    assert (db.read_bytes(), rows(db)) == before  # untouched
    # the other way round: a database of the file's rules takes no deal of the shipped ones
    other = tmp_path / "other.sqlite"
    assert batch_file(other, "1-3", changed).returncode == 0
    assert_error(run_batch(other, "1-5"), "solved under the rules")
    assert_error(run("stats", "--db", str(db), "--variant-file", str(changed)), "solved under the rules")
    stats = run("stats", "--db", str(other))
    assert "(not the shipped rules, " in stats.stdout
    # and the verdict index takes only the shipped rules
    assert_error(
        run("index", "--db", str(other), "--variant", VARIANT, "--deals", "1-3", "--out", str(tmp_path / "ix")),
        "not the shipped ones",
    )
    assert not (tmp_path / "ix").exists()


def test_an_old_database_is_taken_as_the_shipped_rules(tmp_path):
    db = tmp_path / "old.sqlite"
    assert run_batch(db, "1-5").returncode == 0
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE variants")  # as a batch made them before
    conn.commit()
    conn.close()
    assert "  rules not recorded" in run("stats", "--db", str(db)).stdout
    assert_error(
        batch_file(db, "1-10", variant_file(tmp_path, changed=True)),
        "stored before the rules were recorded",
        "taken as the rules of the shipped",
    )
    proc = batch_file(db, "1-10", variant_file(tmp_path, changed=False))
    assert proc.returncode == 0 and solved_count(proc.stdout) == 5, proc.stderr
    shipped = solve(1, VARIANT, Limit(positions=1)).fingerprint
    assert sqlite3.connect(db).execute("SELECT fingerprint FROM variants").fetchall() == [(shipped,)]
