"""Each rule of play is written once in C (csrc/rules/), and both the
player's rules (csrc/play/) and the search (csrc/families/) call it.

Shown by breaking a rule function on purpose: in a copy of the package whose
core is built from a copy of csrc/ with one rule function changed, what the
player may do (Game.legal_moves, from the core's rules of play) and what the
search finds both change."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The sanitized runs (make test-asan) copy the tests without csrc/: there is
#: nothing to break a rule in, and the suite has run this test already.
pytestmark = pytest.mark.skipif(not (ROOT / "csrc").is_dir(), reason="no csrc/ beside this copy of the tests")

#: Each rule broken: its header in csrc/rules/, the rule's body, what it is
#: broken into, the variant whose play it changes, and whether the search
#: keeps its shortcuts. The Tomb's summaries count cards over places by the
#: order its rules give (docs/search.md): under other rules the line they
#: claim is not found and the search fails, so there the plain search shows
#: that the move generator calls the rule.
BROKEN = {
    # Every round may be dealt at once: the sheet's Napoleão plays as the free one.
    "napoleao_may_deal": (
        "napoleao_rules.h",
        "return !(any_fits && r->deal_when_stuck);",
        "return 1;",
        "paciencia-napoleao",
        True,
    ),
    # The first rounds' restriction forgotten: any card that fits goes home.
    "napoleao_fits": (
        "napoleao_rules.h",
        "return napoleao_base_wants(king_base, count) == rank && (!restricted || count == 0);",
        "return napoleao_base_wants(king_base, count) == rank;",
        "paciencia-napoleao-free",
        True,
    ),
    # The jewel box's piles built down whatever the colour.
    "jewel_build_fault": (
        "jewel_rules.h",
        "return card_red(card) == card_red(top) ? JEWEL_FAULT_COLOUR : JEWEL_ALLOWED;",
        "return JEWEL_ALLOWED;",
        "paciencia-porta-joias",
        True,
    ),
    # The tomb built up A..6 four times over instead of down 6..A.
    "tomb_wants": (
        "tomb_rules.h",
        "return n < TOMB_SIZE ? TOMB_BASE - n % TOMB_BASE : 0;",
        "return n < TOMB_SIZE ? 1 + n % TOMB_BASE : 0;",
        "napoleons-tomb",
        False,
    ),
    # No waste card into a cell.
    "tomb_routes": (
        "tomb_rules.h",
        "out |= r->cells > 0 ? TOMB_BIT(SOLVER_PLACE_CELL) : 0;",
        "out |= 0;",
        "napoleons-tomb",
        False,
    ),
}

#: What the probe prints, in the package of the current directory: the legal
#: moves after each of the first moves of deals 1-5 (the first legal move
#: played each time), and the verdicts, best scores and positions of the
#: searches of deals 1-5 within a small limit.
PROBE = """
import json, sys
from solver import Game, Limit, SolverError, solve
variant, shortcuts = sys.argv[1], sys.argv[2] == "True"
play, found = [], []
for deal in range(1, 6):
    g = Game(variant, deal)
    for _ in range(6):
        legal = g.legal_moves()
        play.append([str(m) for m in legal])
        if not legal:
            break
        try:
            g.play(legal[0])
        except SolverError as e:  # the Python side's own checks of a position
            play.append([type(e).__name__])
            break
    r = solve(deal, variant, Limit(positions=200_000, seconds=None), shortcuts=shortcuts)
    found.append([r.verdict, r.score, r.stats.positions])
print(json.dumps({"core": __import__("solver._core").__file__, "play": play, "search": found}))
"""


def probe(where: Path, variant: str, shortcuts: bool) -> dict[str, list[object]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, variant, str(shortcuts)], cwd=where, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def broken_copy(tmp: Path, rule: str) -> Path:
    """A copy of the package and of csrc/ under tmp, the rule broken in the
    copy's header and its core built from the copy (solver/_build.py)."""
    header, body, broken, _, _ = BROKEN[rule]
    shutil.copytree(ROOT / "csrc", tmp / "csrc")
    shutil.copytree(ROOT / "solver", tmp / "solver", ignore=shutil.ignore_patterns("_core*.so", "__pycache__"))
    path = tmp / "csrc" / "rules" / header
    text = path.read_text(encoding="utf-8")
    assert text.count(body) == 1, f"{rule}: its body is not in {header} once"
    path.write_text(text.replace(body, broken), encoding="utf-8")
    subprocess.run([sys.executable, str(tmp / "solver" / "_build.py")], cwd=tmp, check=True, timeout=600)
    return tmp


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_a_rule_broken_changes_what_the_player_and_the_search_may_do(rule, tmp_path):
    variant, shortcuts = BROKEN[rule][3:]
    shipped = probe(ROOT, variant, shortcuts)
    broken = probe(broken_copy(tmp_path, rule), variant, shortcuts)
    assert str(tmp_path) in broken["core"] and str(tmp_path) not in shipped["core"]
    assert broken["play"] != shipped["play"], "the player's rules do not call the rule"
    assert broken["search"] != shipped["search"], "the search does not call the rule"
