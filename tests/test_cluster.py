"""Tests of batch runs on Dask (solver/batch/cluster.py) and of Parquet output
(solver/batch/parquet.py): real Dask, on loopback only (docs/batch.md).

A LocalCluster starts in about 2 s, so each run here costs a few seconds;
the batches solve 3-card deals under the position limit of test_batch.py.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from distributed import Client
from test_batch import LIMIT_ARGS, ROOT, VARIANT, assert_error, children, count, rows, run, solved_count, wait_for_rows

from solver import Limit, batch, solve
from solver.batch import parquet

LOCAL = ("--scheduler", "local", "--workers", "2")


def batch_args(deals: str, *where: str, limits=LIMIT_ARGS) -> list[str]:
    return ["batch", "--variant", VARIANT, "--deals", deals, *where, *limits]


def start(*args: str, module: str = "solver", env: dict | None = None, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        **popen,
    )


def comparable(row: dict) -> dict:
    """A row without what depends on the clock: seconds, solved_at, and the
    line's stats.seconds."""
    row = {k: v for k, v in row.items() if k not in ("seconds", "solved_at")}
    line = json.loads(row.pop("line"))
    line.get("stats", {}).pop("seconds", None)
    return {**row, "line": line}


def same_rows(a: dict, b: dict) -> None:
    assert sorted(a) == sorted(b)
    for n in a:
        assert comparable(a[n]) == comparable(b[n]), n


def parquet_rows(out: Path) -> dict[int, dict]:
    return {r["deal"]: r for r in parquet.read_rows(out, VARIANT).to_pylist()}


def gone(pids: list[int], timeout: float = 15) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not any(
            Path(f"/proc/{pid}").exists() and "(Z)" not in Path(f"/proc/{pid}/stat").read_text() for pid in pids
        ):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(scope="module")
def pool_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("pool") / "pool.sqlite"
    proc = run(*batch_args("1-60", "--db", str(db), "--jobs", "2"))
    assert proc.returncode == 0, proc.stderr
    return db


# ---------------------------------------------------------------------------
# A LocalCluster


def test_a_local_cluster_stores_the_rows_of_the_process_pool(pool_db, tmp_path):
    db = tmp_path / "dask.sqlite"
    proc = run(*batch_args("1-60", "--db", str(db), *LOCAL))
    assert proc.returncode == 0, proc.stderr
    assert solved_count(proc.stdout) == 60 and "Dask LocalCluster tcp://127.0.0.1:" in proc.stdout
    assert "2 workers" in proc.stdout and "Traceback" not in proc.stderr
    assert "60/60 deals (100.0%)" in proc.stderr  # the same progress line
    same_rows(rows(db), rows(pool_db))
    assert {r["verdict"] for r in rows(db).values()} >= {"won", "unknown"}
    # stats cannot tell the engines apart: the same counts, positions and lost scores
    a, b = batch.stats(db)[0], batch.stats(pool_db)[0]
    assert (a.won, a.lost, a.unknown, a.reasons, a.ranges, list(a.positions), a.lost_scores) == (
        b.won,
        b.lost,
        b.unknown,
        b.reasons,
        b.ranges,
        list(b.positions),
        b.lost_scores,
    )


def chaos(chaos: str, *args: str, **env) -> subprocess.Popen:
    """The batch command run by tests/chaos_chunk.py with CHAOS=``chaos``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)]), "CHAOS": chaos, **env}
    return start(*args, module="chaos_chunk", env=env)


def test_a_worker_killed_mid_chunk_costs_only_the_rerun_of_its_chunk(tmp_path):
    db = tmp_path / "chaos.sqlite"
    pid_file = tmp_path / "worker.pid"
    proc = chaos(f"pause:1200:{pid_file}", *batch_args("1-2500", "--db", str(db), *LOCAL)[1:])
    end = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.02)
    os.kill(int(pid_file.read_text()), signal.SIGKILL)  # in the middle of its chunk
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, (out, err)
    assert "Traceback" not in err
    assert "died; Dask runs its chunk again (deals from" in err, err
    assert solved_count(out) == 2500  # each chunk stored once
    stored = rows(db)
    assert sorted(stored) == list(range(1, 2501))
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT deal) FROM results").fetchone() == (2500, 2500)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not any(r["reason"] == "crashed" for r in stored.values())
    for n in (1, 1200, 2500):
        r = solve(n, VARIANT, Limit(positions=20_000, seconds=60))
        assert (stored[n]["verdict"], stored[n]["score"], stored[n]["positions"]) == (
            r.verdict,
            r.score,
            r.stats.positions,
        )


def test_a_deal_that_kills_its_workers_is_stored_as_crashed(tmp_path, pool_db):
    db = tmp_path / "crash.sqlite"
    proc = chaos(
        "crash:17", *batch_args("1-40", "--db", str(db), *LOCAL)[1:], DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="1"
    )  # Dask gives up after 2 deaths
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, (out, err)
    assert "deal 17 stored as unknown (crashed): 2 workers died running it" in err, err
    stored = rows(db)
    assert sorted(stored) == list(range(1, 41))
    crashed = stored.pop(17)
    assert (crashed["verdict"], crashed["reason"], crashed["score"]) == ("unknown", "crashed", 0)
    assert "workers died running it" in json.loads(crashed["line"])["error"]
    expected = rows(pool_db)
    for n, row in stored.items():  # the others as usual
        assert comparable(row) == comparable(expected[n]), n
    assert batch.stats(db)[0].reasons.get("crashed") == 1


def test_resume_after_the_client_is_killed(tmp_path):
    db = tmp_path / "kill.sqlite"
    proc = start(*batch_args("1-2500", "--db", str(db), *LOCAL))
    wait_for_rows(db, proc, 200, timeout=60)
    workers = children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    kept = rows(db)
    assert 200 <= len(kept) < 2500
    assert gone(workers), "the LocalCluster's processes outlived their client"
    again = run(*batch_args("1-2500", "--db", str(db), *LOCAL), timeout=120)
    assert again.returncode == 0, again.stderr
    assert solved_count(again.stdout) == 2500 - len(kept)
    final = rows(db)
    assert sorted(final) == list(range(1, 2501))
    assert all(final[n] == kept[n] for n in kept)


def test_ctrl_c_to_the_process_group_stops_a_local_cluster_cleanly(tmp_path):
    db = tmp_path / "int.sqlite"
    proc = start(*batch_args("1-100000", "--db", str(db), *LOCAL), start_new_session=True)
    wait_for_rows(db, proc, 100, timeout=60)
    workers = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)  # the workers get it too
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "run the same command again to resume" in out
    assert solved_count(out) == count(db)
    assert gone(workers)


# ---------------------------------------------------------------------------
# Parquet


def test_stats_read_parquet_as_they_read_the_database(pool_db, tmp_path):
    out = tmp_path / "pq"
    store = parquet.ParquetStore(out)
    stored = list(rows(pool_db).values())
    for part in (stored[:25], stored[25:]):  # two chunks, as a batch writes them
        store.write(
            parquet.pack_rows(
                [tuple(r[c] for c in batch.COLUMNS) for r in part], solve(1, VARIANT, Limit(positions=1)).fingerprint
            )
        )
    assert parquet_rows(out) == rows(pool_db)
    a = run("stats", "--out", str(out))
    b = run("stats", "--db", str(pool_db))
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout


def test_parquet_from_a_local_cluster_resumes_and_retries(pool_db, tmp_path):
    out = tmp_path / "pq"
    first = run(*batch_args("1-30", "--out", str(out), *LOCAL))
    assert first.returncode == 0, first.stderr
    second = run(*batch_args("1-60", "--out", str(out)))  # on the pool: the same files
    assert second.returncode == 0, second.stderr
    assert solved_count(second.stdout) == 30 and "30 of the 60 deals were already stored" in second.stdout
    files = list((out / VARIANT).glob("*.parquet"))
    assert sum(pq.read_metadata(f).num_rows for f in files) == 60  # no deal twice
    same_rows(parquet_rows(out), rows(pool_db))
    unknown = {n for n, r in parquet_rows(out).items() if r["verdict"] == "unknown"}
    assert unknown
    retry = run(
        *batch_args(
            "1-60",
            "--out",
            str(out),
            "--retry-unknown",
            *LOCAL,
            limits=("--max-positions", "300000", "--max-seconds", "60"),
        )
    )
    assert retry.returncode == 0, retry.stderr
    assert solved_count(retry.stdout) == len(unknown)
    after = parquet_rows(out)  # one row a deal: the new one
    assert sorted(after) == list(range(1, 61))
    for n in unknown:
        r = solve(n, VARIANT, Limit(positions=300_000, seconds=60))
        assert (after[n]["verdict"], after[n]["score"]) == (r.verdict, r.score)
    st = run("stats", "--out", str(out))
    assert st.returncode == 0, st.stderr
    lines = {ln.split()[0]: ln.split() for ln in st.stdout.splitlines() if ln.strip()}
    assert int(lines["won"][1]) == sum(r["verdict"] == "won" for r in after.values())


# ---------------------------------------------------------------------------
# A real scheduler and workers (dask scheduler, dask worker) on loopback


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a `dask scheduler` on loopback, and a helper to start `dask worker`s."""
    where = tmp_path_factory.mktemp("dask")
    info = where / "scheduler.json"
    procs = [
        subprocess.Popen(
            [
                str(Path(sys.executable).parent / "dask"),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(info),
            ],
            cwd=where,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    end = time.monotonic() + 60
    while not info.exists() or not info.read_text().strip():
        assert time.monotonic() < end and procs[0].poll() is None, "dask scheduler did not start"
        time.sleep(0.1)
    address = json.loads(info.read_text())["address"]

    def worker(*command: str, env: dict | None = None, nworkers: int = 1) -> subprocess.Popen:
        client = Client(address, timeout=30)
        try:
            before = len(client.nthreads())
            p = subprocess.Popen(
                [*command, address, "--nthreads", "1", "--nworkers", str(nworkers), "--no-dashboard"],
                cwd=where,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            procs.append(p)
            client.wait_for_workers(before + nworkers, timeout=60)
        finally:
            client.close()
        return p

    yield address, worker
    for p in reversed(procs):
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def stop_worker(address: str, *procs: subprocess.Popen) -> None:
    """Stop these `dask worker`s, the cluster's last ones, and wait until it has none."""
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(timeout=30)
    client = Client(address, timeout=30)
    end = time.monotonic() + 30
    try:
        while client.nthreads() and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        client.close()


DASK_WORKER = (str(Path(sys.executable).parent / "dask"), "worker")


def test_a_batch_on_a_dask_scheduler_and_workers(scheduler, pool_db, tmp_path):
    address, worker = scheduler
    p = worker(*DASK_WORKER, nworkers=2)
    try:
        db = tmp_path / "real.sqlite"
        proc = run(*batch_args("1-60", "--db", str(db), "--scheduler", address))
        assert proc.returncode == 0, proc.stderr
        assert f"Dask {address}, 2 workers" in proc.stdout
        same_rows(rows(db), rows(pool_db))
    finally:
        stop_worker(address, p)


def refused_at_start(scheduler, tmp_path, command, *words: str, env: dict | None = None) -> None:
    """A batch on the cluster with one worker started by ``command`` stops at once,
    with an error naming that worker and saying ``words``."""
    address, worker = scheduler
    p = worker(*command, "--no-nanny", env=env)
    try:
        proc = run(*batch_args("1-20", "--db", str(tmp_path / "x.sqlite"), "--scheduler", address))
        assert_error(proc, "error: the worker tcp://127.0.0.1:", *words)
        assert count(tmp_path / "x.sqlite") == 0
    finally:
        stop_worker(address, p)


def test_a_worker_without_the_package_is_named_at_start(scheduler, tmp_path):
    refused_at_start(
        scheduler,
        tmp_path,
        (sys.executable, str(ROOT / "tests" / "bare_worker.py")),
        "cannot import the solver package",
        "patience-solver[cluster]",
    )


def other_version(tmp_path: Path) -> dict:
    """The environment of a worker that imports a copy of the package with one
    file changed (PYTHONPATH comes before the installed package)."""
    other = tmp_path / "other"
    shutil.copytree(ROOT / "solver", other / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "solver" / "deals.py", "a", encoding="utf-8") as f:
        f.write("\n# another version\n")
    return {**os.environ, "PYTHONPATH": str(other)}


def test_a_worker_of_another_version_is_named_at_start(scheduler, tmp_path):
    refused_at_start(
        scheduler,
        tmp_path,
        DASK_WORKER,
        "runs another version of patience-solver",
        "the digest of its files",
        env=other_version(tmp_path),
    )


@pytest.mark.slow
def test_a_worker_of_another_version_that_joins_later_stops_the_batch(scheduler, tmp_path):
    address, worker = scheduler
    workers = [worker(*DASK_WORKER)]
    db = tmp_path / "late.sqlite"
    proc = start(*batch_args("1-100000", "--db", str(db), "--scheduler", address))
    try:
        wait_for_rows(db, proc, 50, timeout=60)
        workers.append(worker(*DASK_WORKER, "--no-nanny", env=other_version(tmp_path)))
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, (out, err)
        assert "error: the worker tcp://127.0.0.1:" in err and "runs another version of patience-solver" in err, err
        assert "Traceback" not in err and count(db) >= 50
    finally:
        if proc.poll() is None:
            proc.kill()
        stop_worker(address, *workers)


# ---------------------------------------------------------------------------
# Errors


def test_a_scheduler_that_does_not_answer_is_named(tmp_path):
    import socket

    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start_time = time.monotonic()
    proc = run(
        *batch_args(
            "1-5",
            "--db",
            str(tmp_path / "x.sqlite"),
            "--scheduler",
            f"tcp://127.0.0.1:{port}",
            "--connect-timeout",
            "1",
        )
    )
    assert_error(proc, f"no Dask scheduler answers at tcp://127.0.0.1:{port}", "waited 1 s")
    assert time.monotonic() - start_time < 30


@pytest.mark.parametrize(
    "args, words",
    [
        (("--scheduler", "tcp://127.0.0.1:notaport"), ("not a scheduler address",)),
        (("--scheduler", "local", "--jobs", "2"), ("--jobs", "--workers")),
        (
            (
                "--workers",
                "2",
            ),
            ("--workers", "--scheduler local"),
        ),
        (("--scheduler", "local", "--workers", "0"), ("--workers must be at least 1",)),
    ],
)
def test_bad_cluster_arguments_exit_2(tmp_path, args, words):
    assert_error(run(*batch_args("1-5", "--db", str(tmp_path / "x.sqlite"), *args)), *words)


def test_db_and_out_together_exit_2(tmp_path):
    assert_error(
        run(*batch_args("1-5", "--db", str(tmp_path / "x.sqlite"), "--out", str(tmp_path / "o"))), "--out", "--db"
    )
    assert_error(run(*batch_args("1-5")), "--db", "--out")
    assert_error(run("stats", "--db", str(tmp_path / "x.sqlite"), "--out", str(tmp_path / "o")), "--out", "--db")
    assert_error(run("stats", "--out", str(tmp_path / "missing")), "no such directory of Parquet files")
    assert not (tmp_path / "x.sqlite").exists() and not (tmp_path / "o").exists()


def without(module: str, *args: str) -> subprocess.CompletedProcess:
    """The CLI in a Python where ``module`` cannot be imported."""
    code = f"import sys; sys.modules[{module!r}] = None; from solver.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_without_dask_the_scheduler_says_how_to_install_it(tmp_path):
    proc = without("distributed", *batch_args("1-5", "--db", str(tmp_path / "x.sqlite"), *LOCAL))
    assert_error(proc, "needs Dask distributed", "pip install 'patience-solver[cluster]'")
    plain = without("distributed", *batch_args("1-5", "--db", str(tmp_path / "y.sqlite"), "--jobs", "1"))
    assert plain.returncode == 0, plain.stderr  # the local batch needs no Dask


def test_without_pyarrow_out_says_how_to_install_it(tmp_path):
    assert_error(
        without("pyarrow", *batch_args("1-5", "--out", str(tmp_path / "o"))),
        "needs pyarrow",
        "pip install 'patience-solver[cluster]'",
    )
    assert_error(without("pyarrow", "stats", "--out", str(tmp_path)), "needs pyarrow")


def test_a_file_in_the_parquet_directory_that_is_not_ours_is_named(tmp_path):
    out = tmp_path / "pq"
    (out / VARIANT).mkdir(parents=True)
    (out / VARIANT / "1-5-junk.parquet").write_bytes(b"not parquet")
    assert_error(run(*batch_args("1-5", "--out", str(out))), "1-5-junk.parquet", "not a Parquet file")
    assert_error(run("stats", "--out", str(out)), "1-5-junk.parquet")


def test_parquet_files_carry_their_rules_and_a_batch_refuses_others(tmp_path):
    from solver.variants import load_file

    text = (ROOT / "solver" / "variants" / f"{VARIANT}.toml").read_text(encoding="utf-8")
    changed = tmp_path / "changed.toml"
    changed.write_text(text.replace("passes = 3", "passes = 1", 1), encoding="utf-8")
    out = tmp_path / "pq"
    batch.run_batch(None, load_file(changed), [(1, 3)], Limit(positions=20_000), jobs=1, out=out, progress=None)
    files = sorted((out / VARIANT).glob("*.parquet"))
    assert parquet.rules_of(out, VARIANT) == {load_file(changed).fingerprint}
    with pytest.raises(batch.BatchError, match="solved under the rules"):
        batch.run_batch(None, VARIANT, [(1, 5)], Limit(positions=20_000), jobs=1, out=out, progress=None)
    assert sorted((out / VARIANT).glob("*.parquet")) == files
    st = run("stats", "--out", str(out))
    assert f"  rules {load_file(changed).fingerprint} (not the shipped rules, " in st.stdout
