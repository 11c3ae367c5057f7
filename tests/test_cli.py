"""Tests of the command line, run as ``python -m solver ...`` in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, run

from solver import Deal, Position, Result, solve
from solver.rules import tomb
from solver.variants import load

CARD_RE = re.compile(r"^[A2-9TJQK][CDHS]$")

DEAL14 = str(Deal.from_number(14))


def assert_error(proc: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, nothing on stdout, a one-line message on stderr, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines, "no message on stderr"
    assert lines[-1].startswith("error:") or ": error:" in lines[-1], proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)
    return proc.stderr


def replays_to(data: dict) -> int:
    start = Position.start(Deal.from_cards(data["cards"]).cards, load(data["variant"]))
    return tomb.score(tomb.replay(start, data["moves"]))


# ---------------------------------------------------------------------------
# Success


def test_solve_14_prints_numbered_moves_and_exits_0():
    proc = run("solve", "14")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("napoleons-tomb, deal 14: WON")
    numbered = [ln.strip() for ln in lines if re.match(r"^\s*\d+\. ", ln)]
    assert numbered[0] == "1. turn 9♣"
    assert numbered[4] == "5. 8♥ waste → cell"
    assert [int(ln.split(".")[0]) for ln in numbered] == list(range(1, len(numbered) + 1))
    # the same line as the API's
    assert numbered == [f"{i}. {m}" for i, m in enumerate(solve(14).moves, 1)]


def test_solve_14_json_matches_the_solution_format():
    proc = run("solve", "14", "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.count("\n") == 1
    data = json.loads(proc.stdout)
    assert list(data) == ["variant", "fingerprint", "deal", "cards", "verdict", "reason", "score", "moves", "stats"]
    assert data["variant"] == "napoleons-tomb" and data["deal"] == 14
    assert data["fingerprint"] == load("napoleons-tomb").fingerprint
    assert data["verdict"] == "won" and data["reason"] is None and data["score"] == 52
    assert data["cards"] == DEAL14.split()
    assert all(CARD_RE.match(c) for c in data["cards"])
    for m in data["moves"]:
        assert m["action"] in ("turn", "redeal", "move")
        if m["action"] == "move":
            assert set(m) == {"action", "card", "from", "to"}
        elif m["action"] == "turn":
            assert set(m) == {"action", "cards"}
    assert set(data["stats"]) == {
        "positions",
        "seconds",
        "table_bytes",
        "peak_bytes",
        "held_bytes",
        "held",
        "refused_bytes",
    }
    assert replays_to(data) == 52
    result = Result.from_json(proc.stdout)
    assert result == solve(14)


@pytest.mark.parametrize(
    "cards",
    [
        DEAL14,
        DEAL14.lower(),
        DEAL14.replace("T", "10"),
        DEAL14.lower().replace("t", "10"),
        DEAL14.replace("C", "♣").replace("D", "♦").replace("H", "♥").replace("S", "♠"),
        ", ".join(DEAL14.split()),
        "\n".join(DEAL14.split()),
    ],
    ids=["plain", "lower", "ten", "lower-ten", "symbols", "commas", "newlines"],
)
def test_cards_option_accepts_every_notation(cards):
    proc = run("solve", "--cards", cards, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deal"] is None
    assert data["cards"] == DEAL14.split()
    assert data["verdict"] == "won"
    assert replays_to(data) == 52


def test_three_card_deal_5_exits_0():
    proc = run("solve", "5", "--variant", "napoleons-tomb-3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["variant"] == "napoleons-tomb-3" and data["verdict"] == "won"
    assert replays_to(data) == 52


def test_three_card_deal_5_text_short_option():
    proc = run("solve", "5", "-v", "napoleons-tomb-3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("napoleons-tomb-3, deal 5: WON")


def test_max_positions_gives_unknown_and_exit_3():
    proc = run("solve", "1", "--max-positions", "1000")
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr == ""
    head = proc.stdout.splitlines()[0]
    assert "UNKNOWN" in head and "positions" in head
    proc = run("solve", "1", "--max-positions", "1000", "--json")
    assert proc.returncode == 3
    data = json.loads(proc.stdout)
    assert data["verdict"] == "unknown" and data["reason"] == "positions"
    assert data["stats"]["positions"] <= 1000
    assert replays_to(data) == data["score"]


def test_no_shortcuts_same_verdict():
    proc = run("solve", "14", "--no-shortcuts", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "won"


def test_deal_number_with_spaces_around():
    proc = run("solve", " 14 ", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deal"] == 14


# ---------------------------------------------------------------------------
# Errors: exit 2, message on stderr, nothing on stdout, no traceback


@pytest.mark.parametrize(
    "deal, words",
    [
        ("0", ["deal number 0", "out of range", "10**20"]),
        ("abc", ["'abc'", "whole number"]),
        ("-5", ["'-5'"]),
        ("1.5", ["'1.5'"]),
        (str(10**21), [str(10**21), "out of range"]),
        (str(10**20 + 1), ["out of range"]),
        ("9" * 5000, ["of 5000 digits", "out of range"]),
    ],
)
def test_bad_deal_number(deal, words):
    args = ["solve", "--", deal] if deal.startswith("-") else ["solve", deal]
    assert_error(run(*args), *words)


def test_largest_deal_number_is_accepted():
    proc = run("solve", str(10**20), "--max-positions", "1000", "--json")
    assert proc.returncode in (0, 1, 3), proc.stderr
    assert json.loads(proc.stdout)["deal"] == 10**20


def test_a_non_ascii_digit_deal_is_an_error():
    assert_error(run("solve", "²"), "²")


def test_a_non_ascii_digit_deal_message_names_the_deal_number():
    assert_error(run("solve", "²"), "deal number")


def test_max_seconds_nan_is_rejected():
    proc = run("solve", "14", "--max-seconds", "nan")
    assert proc.returncode == 2


@pytest.mark.parametrize(
    "cards, words",
    [
        (" ".join(DEAL14.split()[:-1] + [DEAL14.split()[0]]), ["duplicate card 9C", "positions 1 and 52", "TC"]),
        (" ".join(DEAL14.split()[:51]), ["51 cards given", "52 expected", "TC"]),
        (DEAL14 + " 9C", ["53 cards given"]),
        (" ".join(DEAL14.split()[:-1] + ["ZZ"]), ["card 52", "'ZZ'"]),
        (" ".join(DEAL14.split()[:-1] + ["1C"]), ["card 52", "'1C'"]),
        (" ".join(DEAL14.split()[:-1] + ["TX"]), ["card 52", "'TX'"]),
        ("", ["empty deal"]),
        ("JD", ["1 cards given"]),
    ],
    ids=["duplicate", "51", "53", "unknown", "rank-1", "suit-X", "empty", "one"],
)
def test_malformed_cards(cards, words):
    assert_error(run("solve", "--cards", cards), *words)


def test_unknown_variant():
    assert_error(
        run("solve", "14", "--variant", "klondike"),
        "unknown variant 'klondike'",
        "napoleons-tomb",
        "napoleons-tomb-3",
        "napoleonin-hauta",
    )


def test_both_deal_and_cards():
    assert_error(run("solve", "14", "--cards", DEAL14), "--cards")


def test_neither_deal_nor_cards():
    assert_error(run("solve"), "--cards")


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "14", "--max-positions", "0"],
        ["solve", "14", "--max-positions", "-5"],
        ["solve", "14", "--max-positions", "many"],
        ["solve", "14", "--max-seconds", "0"],
        ["solve", "14", "--max-memory", "0"],
        ["solve", "14", "--bogus"],
        ["fly"],
        [],
    ],
)
def test_bad_options_exit_2_without_traceback(args):
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert "error" in proc.stderr


def test_help_exits_0():
    proc = run("solve", "--help")
    assert proc.returncode == 0
    assert "--cards" in proc.stdout and "--variant" in proc.stdout


def test_variants_command():
    proc = run("variants")
    assert proc.returncode == 0 and proc.stderr == ""
    names = [ln.split()[0] for ln in proc.stdout.splitlines()]
    assert sorted(names) == [
        "napoleonin-hauta",
        "napoleons-tomb",
        "napoleons-tomb-3",
        "paciencia-napoleao",
        "paciencia-napoleao-free",
        "paciencia-porta-joias",
        "paciencia-porta-joias-free",
    ]
    for ln in proc.stdout.splitlines():
        assert load(ln.split()[0]).description in ln


# ---------------------------------------------------------------------------
# The two-deck games on the command line


def test_two_deck_solve_json_replays():
    proc = run("solve", "2", "--variant", "paciencia-napoleao", "--json")
    assert proc.returncode == 0, proc.stderr
    result = Result.from_json(proc.stdout)
    assert result.verdict == "won" and result.score == 104 and len(result.cards) == 104
    assert result.position().won
    text = run("solve", "7", "--variant", "paciencia-porta-joias", "--max-positions", "2000000")
    assert text.returncode == 0, text.stderr
    assert "WON, 104/104 cards home" in text.stdout
    assert "jewel" in text.stdout and "reserve:" in text.stdout


def test_two_deck_cards_on_the_command_line():
    cards = " ".join(map(str, Deal.from_number(2, 2).cards))
    proc = run("solve", "--cards", cards, "--variant", "paciencia-napoleao", "--json")
    assert proc.returncode == 0, proc.stderr
    assert Result.from_json(proc.stdout).deal is None
    bad = cards.replace("7D", "7C", 1)
    assert_error(run("solve", "--cards", bad, "--variant", "paciencia-napoleao"), "7C", "3 times")
    assert_error(
        run("solve", "--cards", " ".join(cards.split()[:52]), "--variant", "paciencia-porta-joias"),
        "52 cards given, 104 expected",
    )
    # hint reads a two-deck deal as solve does, by number, by cards or from a
    # moves file: the hint from deal 2 after its first move is the line's next.
    solved = Result.from_json(proc.stdout)
    assert run("hint", "--variant", "paciencia-napoleao", "--cards", cards).stdout.startswith("Deal a round")
    moves = json.dumps({"variant": "paciencia-napoleao", "deal": 2, "moves": [solved.moves[0].to_json()]})
    after = run("hint", "--moves", "-", "--json", stdin=moves)
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout)["move"] == solved.moves[1].to_json()
    assert_error(run("play", "--variant", "paciencia-napoleao", "--deals", "1"), "Napoleon's Tomb")


# ---------------------------------------------------------------------------
# --variant-file


def shipped_copy(tmp_path: Path, name: str = "napoleons-tomb", old: str = "", new: str = "") -> Path:
    """A copy of a shipped variant file, ``old`` replaced by ``new``."""
    text = (ROOT / "solver" / "variants" / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{name}-{'changed' if old else 'copy'}.toml"
    path.write_text(text.replace(old, new, 1) if old else text, encoding="utf-8")
    return path


def test_variant_file_solves_as_the_variant(tmp_path):
    copy = shipped_copy(tmp_path)
    named = Result.from_json(run("solve", "14", "--json").stdout)
    proc = run("solve", "14", "--json", "--variant-file", str(copy))
    assert proc.returncode == 0, proc.stderr
    assert Result.from_json(proc.stdout) == named  # verdict, score, moves, fingerprint
    text = run("solve", "14", "--variant-file", str(copy))
    assert text.stdout.splitlines()[0].startswith("napoleons-tomb, deal 14: WON")


def test_variant_file_hints_and_plays_as_the_variant(tmp_path):
    copy = shipped_copy(tmp_path)
    moves = tmp_path / "moves.json"
    moves.write_text(json.dumps([m.to_json() for m in solve(14).moves[:6]]), encoding="utf-8")
    named = run("hint", "--deal", "14", "--moves", str(moves), "--json")
    filed = run("hint", "--deal", "14", "--moves", str(moves), "--json", "--variant-file", str(copy))
    assert named.returncode == filed.returncode == 0, filed.stderr
    assert json.loads(filed.stdout) == json.loads(named.stdout)
    named = json.loads(run("play", "--deals", "1-5", "--json").stdout)
    filed = json.loads(run("play", "--deals", "1-5", "--json", "--variant-file", str(copy)).stdout)
    assert filed == named and filed["fingerprint"] == load("napoleons-tomb").fingerprint


def test_variant_file_of_other_rules_is_labelled_and_not_answered_from_the_index(tmp_path):
    # the classic's name with the 3-card rules: its results carry the 3-card fingerprint
    changed = tmp_path / "changed.toml"
    changed.write_text(
        shipped_copy(tmp_path)
        .read_text(encoding="utf-8")
        .replace("turn = 1 ", "turn = 3 ")
        .replace("passes = 1 ", "passes = 3 "),
        encoding="utf-8",
    )
    proc = run("solve", "14", "--json", "--variant-file", str(changed))
    data = json.loads(proc.stdout)
    assert data["variant"] == "napoleons-tomb"
    assert data["fingerprint"] == load("napoleons-tomb-3").fingerprint != load("napoleons-tomb").fingerprint
    text = run("solve", "14", "--variant-file", str(changed)).stdout
    assert text.startswith(f"napoleons-tomb (rules {data['fingerprint']}, not the shipped ones), deal 14:")
    # deal 1 is in the classic's verdict index; these rules are not the index's
    shipped = json.loads(run("winnable", "1", "--json", "--variant-file", str(shipped_copy(tmp_path))).stdout)
    assert shipped["source"] == "index"
    other = json.loads(run("winnable", "1", "--json", "--no-search", "--variant-file", str(changed)).stdout)
    assert (other["source"], other["winnable"], other["fingerprint"]) == ("none", None, data["fingerprint"])


BROKEN_VARIANT = {
    "missing": None,
    "not TOML": "name = \n",
    "schema": 'name = "napoleons-tomb"\nfamily = "tomb"\n',
}


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "1"],
        ["hint", "--deal", "1"],
        ["play", "--deals", "1"],
        ["batch", "--deals", "1", "--db", "{db}"],
        ["stats", "--db", "{db}"],
        ["winnable", "1"],
        ["index", "--db", "{db}", "--out", "{dir}"],
        ["variants"],
        ["serve", "--port", "0"],
    ],
)
@pytest.mark.parametrize("kind", sorted(BROKEN_VARIANT))
def test_a_broken_variant_file_exits_2_naming_the_file(tmp_path, command, kind):
    path = tmp_path / "mine.toml"
    if BROKEN_VARIANT[kind] is not None:
        path.write_text(BROKEN_VARIANT[kind], encoding="utf-8")
    db = tmp_path / "r.sqlite"
    args = [a.format(db=db, dir=tmp_path / "ix") for a in command]
    proc = subprocess.run(
        [sys.executable, "-m", "solver", *args, "--variant-file", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        input="",
    )
    words = {
        "missing": "cannot read the variant file",
        "not TOML": "not valid TOML",
        "schema": "field 'description' is missing",
    }[kind]
    assert_error(proc, str(path), words)
    assert not db.exists()


def test_variant_and_variant_file_together_exit_2(tmp_path):
    proc = run("solve", "1", "--variant", "napoleons-tomb", "--variant-file", str(shipped_copy(tmp_path)))
    assert proc.returncode == 2 and "not allowed with" in proc.stderr and "Traceback" not in proc.stderr
