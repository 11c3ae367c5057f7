"""Speed of the search, measured with pytest-benchmark (not asserted).

Run: ``make bench`` (or ``.venv/bin/python -m pytest bench --benchmark-enable
--benchmark-only``). Each benchmark solves a fixed deal with a fixed limit, so
its rounds are comparable between versions; positions per second are printed
in the benchmark's extra info.
"""

import pytest

from solver import Limit, solve

CASES = [
    # (variant, deal, limit): quick wins and a fixed slice of a hard search.
    ("napoleons-tomb", 14, Limit(positions=None, seconds=None)),
    ("napoleons-tomb-3", 7, Limit(positions=None, seconds=None)),
    ("napoleonin-hauta", 9, Limit(positions=None, seconds=None)),
    ("napoleons-tomb", 1, Limit(positions=2_000_000, seconds=None)),
    # The classic's hardest lost deal of 1-100,000 (the most positions), decided.
    ("napoleons-tomb", 50261, Limit(positions=None, seconds=None)),
    ("napoleonin-hauta", 1, Limit(positions=2_000_000, seconds=None)),
    # Lost Finnish deals, decided: 535 (best 25; the first Finnish loss
    # proof), 78606 (best 40), the hardest of 1-100,000 until the other
    # moves were read from the bits, and 35118 (best 44), the hardest since.
    ("napoleonin-hauta", 535, Limit(positions=None, seconds=None)),
    ("napoleonin-hauta", 78606, Limit(positions=None, seconds=None)),
    ("napoleonin-hauta", 35118, Limit(positions=None, seconds=None)),
    # The two-deck games: a quick win each, a fixed slice of a hard search,
    # and hard decided deals: strict Napoleao 4417 (lost, best 96, the most
    # positions of 1-10,000), free Napoleao 39 and 522 (won by the restarts
    # from the best line), Porta-Joias 170 and 4636 (won; 4636 in 13 million
    # positions, among the hardest wins of 1-10,000).
    ("paciencia-napoleao", 2, Limit(positions=None, seconds=None)),
    ("paciencia-napoleao", 4417, Limit(positions=None, seconds=None)),
    ("paciencia-napoleao-free", 5, Limit(positions=2_000_000, seconds=None)),
    ("paciencia-napoleao-free", 39, Limit(positions=None, seconds=None)),
    ("paciencia-napoleao-free", 522, Limit(positions=None, seconds=None)),
    ("paciencia-porta-joias", 7, Limit(positions=None, seconds=None)),
    ("paciencia-porta-joias", 170, Limit(positions=None, seconds=None)),
    ("paciencia-porta-joias", 4636, Limit(positions=None, seconds=None)),
    ("paciencia-porta-joias-free", 1, Limit(positions=1_000_000, seconds=None)),
]


@pytest.mark.parametrize("variant,deal,limit", CASES, ids=[f"{v}-{d}" for v, d, _ in CASES])
def test_solve(benchmark, variant, deal, limit):
    result = benchmark.pedantic(solve, args=(deal, variant, limit), rounds=3, iterations=1)
    benchmark.extra_info["verdict"] = result.verdict
    benchmark.extra_info["positions"] = result.stats.positions
    benchmark.extra_info["positions_per_second"] = round(result.stats.positions / max(result.stats.seconds, 1e-9))
    benchmark.extra_info["table_bytes"] = result.stats.table_bytes
    assert result.verdict in ("won", "lost", "unknown")


@pytest.mark.parametrize("last", [100, 1000])
def test_first_classic_deals(benchmark, last):
    """Throughput on the classic, one process: deals 1-100 (94 won, 6 lost)
    and 1-1,000 (949 won, 51 lost)."""

    def run():
        return [solve(n, "napoleons-tomb").verdict for n in range(1, last + 1)]

    verdicts = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["won"] = verdicts.count("won")
    benchmark.extra_info["lost"] = verdicts.count("lost")
    benchmark.extra_info["unknown"] = verdicts.count("unknown")


def test_first_100_three_card(benchmark):
    """Throughput on the 3-card deal: every deal is won in the first search or
    the restarts."""

    def run():
        return [solve(n, "napoleons-tomb-3").verdict for n in range(1, 101)]

    verdicts = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["won"] = verdicts.count("won")
    benchmark.extra_info["unknown"] = verdicts.count("unknown")


def test_first_100_finnish(benchmark):
    """Throughput on the Finnish rules at the default limits: deals 1-100."""

    def run():
        return [solve(n, "napoleonin-hauta").verdict for n in range(1, 101)]

    verdicts = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["won"] = verdicts.count("won")
    benchmark.extra_info["lost"] = verdicts.count("lost")
    benchmark.extra_info["unknown"] = verdicts.count("unknown")
