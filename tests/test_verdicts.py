"""The verdict index (solver.verdicts): the shipped bitsets agree with the
solver, it is built from a batch database, verdict() answers from it and
beyond it, the difficulty of a deal, and the winnable and index commands."""

from __future__ import annotations

import json
import random
import zlib

import pytest
from support import ROOT, run

from solver import Limit, solve, verdicts
from solver.batch import parse_deals, run_batch
from solver.deals import DealError

SHIPPED = json.loads((ROOT / "solver" / "verdicts" / "index.json").read_text())


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_the_shipped_index_agrees_with_the_solver(variant):
    """Deals 1-100 and 30 drawn at random from the index's range: the
    index's verdict is the solver's, wherever the solver decides within its
    default limits (a slow build, the sanitized run's, stops some
    Porta-Jóias searches at 10 s: a limit contradicts nothing)."""
    ix = verdicts.index_of(variant)
    meta = SHIPPED[variant]
    assert (ix.first, ix.last) == (meta["first"], meta["last"]) and ix.first == 1
    assert ix.won_deals() == meta["won"] and meta["won"] + meta["lost"] + len(meta["unknown"]) == ix.last
    rng = random.Random(variant)
    decided = 0
    for deal in list(range(1, 101)) + [rng.randint(1, ix.last) for _ in range(30)]:
        found = solve(deal, variant).verdict
        if found != "unknown":
            decided += 1
            assert ix.verdict(deal) == found, deal
    assert decided >= 100
    assert ix.verdict(ix.last + 1) is None and ix.verdict(0) is None


def test_every_finnish_loss_in_the_index_is_a_classic_loss():
    """The Finnish rules allow every classic move (docs/winnability.md), so
    a deal they lose the classic loses too: two indexes built by separate
    batch runs, checked against each other bit by bit."""
    finnish, classic = verdicts.index_of("napoleonin-hauta"), verdicts.index_of("napoleons-tomb")
    assert finnish.first == classic.first == 1
    both = min(finnish.last, classic.last)
    n = (both + 7) // 8
    fin, cla = int.from_bytes(finnish.bits[:n], "little"), int.from_bytes(classic.bits[:n], "little")
    mask = (1 << both) - 1
    for deal in finnish.unknown | classic.unknown:
        if deal <= both:
            mask &= ~(1 << (deal - 1))
    lost_f, lost_c = ~fin & mask, ~cla & mask
    odd = lost_f & ~lost_c
    first = [i + 1 for i in range(odd.bit_length()) if odd >> i & 1][:5] if odd else []
    assert not odd, f"won by the classic rules, lost by the Finnish: {first}"
    assert bin(lost_f).count("1") < bin(lost_c).count("1")


def test_verdict_answers_from_the_index_and_beyond_it():
    assert verdicts.verdict(5, "napoleons-tomb-3") == ("won", "index")
    assert verdicts.verdict(1, "napoleons-tomb") == ("lost", "index")
    # Beyond the index: a search, or no answer without one.
    assert verdicts.verdict(10**15, "napoleons-tomb-3") == ("won", "search")
    assert verdicts.verdict(10**15, "napoleons-tomb-3", search=False) == (None, "none")
    # A variant without an index searches (paciencia-napoleao-free has none).
    assert verdicts.lookup(2, "paciencia-napoleao-free") is None
    assert verdicts.verdict(2, "paciencia-napoleao-free") == ("won", "search")
    # The sheet's Napoleão has one, as the Tomb's variants have.
    assert verdicts.verdict(2, "paciencia-napoleao") == ("won", "index")
    # A search stopped by its limit is unknown, not lost.
    assert verdicts.verdict(954, "paciencia-porta-joias-free", limit=Limit(positions=1000)) == ("unknown", "search")
    for bad in (0, -3, "x", True, 10**21):
        with pytest.raises(DealError):
            verdicts.verdict(bad, "napoleons-tomb-3")


def test_winnable_is_deprecated_and_still_answers():
    """verdicts.winnable() (True / False / None) warns, pointing to verdict()."""
    for deal, answer in ((5, True), (1, False)):
        variant = "napoleons-tomb-3" if deal == 5 else "napoleons-tomb"
        with pytest.warns(DeprecationWarning, match=r"winnable\(\) is deprecated: use solver\.verdicts\.verdict"):
            assert verdicts.winnable(deal, variant) is answer
    with pytest.warns(DeprecationWarning):
        assert verdicts.winnable(10**15, "napoleons-tomb-3", search=False) is None


def test_difficulty():
    assert verdicts.difficulty(5, "napoleons-tomb-3") == "blind"  # the careful player wins deal 5
    assert verdicts.difficulty(5, "napoleons-tomb") == "sighted"  # won, but not by the careful player
    assert verdicts.difficulty(1, "napoleons-tomb") == "lost"
    assert set(verdicts.DIFFICULTIES) == {"blind", "sighted", "lost", "unknown"}
    with pytest.raises(ValueError, match="blind players"):
        verdicts.difficulty(1, "paciencia-napoleao")


def test_random_winnable_deals_are_won():
    rng = random.Random(3)
    for _ in range(20):
        deal = verdicts.random_deal("napoleons-tomb-3", winnable_only=True, rng=rng)
        assert verdicts.lookup(deal, "napoleons-tomb-3") == "won"
    assert 1 <= verdicts.random_deal("paciencia-napoleao-free", winnable_only=True, rng=rng) <= 1_000_000


@pytest.fixture(scope="module")
def batch_db(tmp_path_factory):
    """Classic deals 1-40 and 45-50 (a hole at 41-44), through the batch."""
    db = tmp_path_factory.mktemp("batch") / "classic.sqlite"
    run_batch(db, "napoleons-tomb", parse_deals("1-40,45-50"), Limit(), jobs=1)
    return db


def test_the_index_is_built_from_a_batch_database(batch_db, tmp_path):
    ix = verdicts.build(batch_db, "napoleons-tomb", 1, 50, tmp_path)
    # It stops before the first deal the database does not hold.
    assert (ix.first, ix.last) == (1, 40)
    assert [ix.verdict(d) for d in range(1, 41)] == [solve(d).verdict for d in range(1, 41)]
    meta = json.loads((tmp_path / "index.json").read_text())["napoleons-tomb"]
    assert meta["won"] + meta["lost"] == 40 and meta["unknown"] == [] and meta["asked"] == [1, 50]
    assert meta["note"] == "deals 41-50 were not decided when the index was built: verdict() searches there"
    assert meta["limits"] == [{"memory": 2**31, "positions": 50_000_000, "seconds": 10.0}]
    # A bitset that does not match its SHA-256 is refused.
    path = tmp_path / "napoleons-tomb.bits.zlib"
    bits = bytearray(zlib.decompress(path.read_bytes()))
    bits[0] ^= 1
    path.write_bytes(zlib.compress(bytes(bits)))
    verdicts._loaded.clear()
    with pytest.raises(verdicts.VerdictIndexError, match="does not match its SHA-256"):
        verdicts.index_of("napoleons-tomb", tmp_path)
    verdicts._loaded.clear()
    with pytest.raises(verdicts.VerdictIndexError, match="holds no napoleons-tomb deal from 41 on"):
        verdicts.build(batch_db, "napoleons-tomb", 41, 50, tmp_path)


def test_an_index_is_extended_by_a_database_of_the_deals_after_it(batch_db, tmp_path):
    verdicts.build(batch_db, "napoleons-tomb", 1, 20, tmp_path)
    later = tmp_path / "later.sqlite"
    run_batch(later, "napoleons-tomb", parse_deals("21-30"), Limit(), jobs=1)
    # Without --extend the later database alone cannot start at deal 1.
    with pytest.raises(verdicts.VerdictIndexError, match="holds no napoleons-tomb deal from 1 on"):
        verdicts.build(later, "napoleons-tomb", 1, 30, tmp_path)
    verdicts._loaded.clear()
    ix = verdicts.build(later, "napoleons-tomb", 1, 30, tmp_path, extend=True)
    assert (ix.first, ix.last) == (1, 30)
    assert [ix.verdict(d) for d in range(1, 31)] == [solve(d).verdict for d in range(1, 31)]
    assert ix.meta["won"] + ix.meta["lost"] == 30
    assert ix.meta["from"].endswith("--deals 1-20; then python -m solver batch --variant napoleons-tomb --deals 21-30")
    verdicts._loaded.clear()
    # An index that already covers the range, or none at all, is not extended.
    with pytest.raises(verdicts.VerdictIndexError, match="covers deals 1-30: it cannot be extended to 1-25"):
        verdicts.build(later, "napoleons-tomb", 1, 25, tmp_path, extend=True)
    with pytest.raises(verdicts.VerdictIndexError, match="holds no index of napoleons-tomb-3 to extend"):
        verdicts.build(later, "napoleons-tomb-3", 1, 30, tmp_path, extend=True)
    out = run(
        "index",
        "--db",
        str(later),
        "--variant",
        "napoleons-tomb",
        "--deals",
        "1-40",
        "--out",
        str(tmp_path),
        "--extend",
    )
    assert out.returncode == 2 and "holds no napoleons-tomb deal from 31 on" in out.stderr, out.stderr


def test_the_index_command(batch_db, tmp_path):
    out = run("index", "--db", str(batch_db), "--variant", "napoleons-tomb", "--deals", "1-50", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "napoleons-tomb: deals 1-40 (the database holds no deal 41: the index stops before it)" in out.stdout
    assert (tmp_path / "napoleons-tomb.bits.zlib").is_file()
    bad = run("index", "--db", str(tmp_path / "none.sqlite"), "--variant", "napoleons-tomb")
    assert bad.returncode == 2 and "no such database file" in bad.stderr and "Traceback" not in bad.stderr


def test_the_winnable_command():
    out = run("winnable", "5", "--variant", "napoleons-tomb-3", "--difficulty")
    assert out.returncode == 0
    assert out.stdout.strip() == (
        "napoleons-tomb-3, deal 5: won (from the verdict index);"
        " difficulty blind: a careful player who cannot see the stock wins it"
    )
    out = run("winnable", "1", "--variant", "napoleons-tomb", "--json")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    assert data["verdict"] == "lost" and data["winnable"] is False  # "winnable": deprecated, one release
    out = run("winnable", "1", "--variant", "napoleons-tomb")
    assert out.returncode == 1
    assert out.stdout.strip() == "napoleons-tomb, deal 1: lost, no line wins it (from the verdict index)"
    out = run("winnable", "3000000", "--variant", "napoleons-tomb-3", "--no-search")
    assert out.returncode == 3 and "not in the verdict index" in out.stdout
    out = run("winnable", "x", "--variant", "napoleons-tomb")
    assert out.returncode == 2 and out.stderr.startswith("error: deal number 'x'")
