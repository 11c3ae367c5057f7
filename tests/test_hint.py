"""Hints from any position (issue 5): the API and the ``hint`` command."""

from __future__ import annotations

import json
import sys

import pytest
from support import run

from solver import (
    DEFAULT_HINT_LIMIT,
    Hint,
    IllegalMoveError,
    Limit,
    Move,
    MoveError,
    hint,
    hint_after,
    play,
    position_after,
    solve,
    start_position,
)
from solver.rules import tomb

# ---------------------------------------------------------------------------
# Following hints


@pytest.mark.parametrize(
    "variant,deal",
    [
        ("napoleons-tomb", 14),
        ("napoleons-tomb-3", 1),
        ("napoleonin-hauta", 3),
    ],
)
def test_following_the_hints_from_the_start_wins(variant, deal):
    pos = start_position(deal, variant)
    first = hint(pos)
    assert first.verdict == "won" and first.score == 52
    for _ in range(400):
        h = hint(pos)
        if h.move is None:
            break
        assert h.verdict == "won", (pos.moves_played, h)
        assert h.score == 52 and h.reason is None
        assert h.line_length >= 1 and h.line[0] == h.move
        assert str(h).endswith(": this line wins.")
        pos = tomb.play(pos, h.move)  # the reference engine accepts every hint
    assert pos.won
    assert h.verdict == "won" and h.move is None and h.to_json()["move"] is None
    assert str(h) == "The deal is won: all 52 cards are home."
    # The whole game replays from the deal.
    assert tomb.replay(start_position(deal, variant), pos.history).won


def test_hint_after_a_detour_wins_from_where_the_player_is():
    """Hints start from the player's position, not from the solver's own line:
    after five turns that bury the card the solver's line parks (its fifth
    move), the hint's line wins from there."""
    line = solve(14).moves
    turns = [m for m in line if m.action == "turn"][:5]
    assert list(line[:5]) != turns
    pos = position_after(14, "napoleons-tomb", [m.to_json() for m in turns])
    h = hint(pos)
    assert h.verdict == "won"
    assert tomb.replay(pos, h.line).won


# ---------------------------------------------------------------------------
# Proven lost


def _simple_game_14():
    return play(14, "napoleons-tomb", "simple")


def test_a_lost_position_says_lost_and_its_move_keeps_the_best_score():
    game = _simple_game_14()
    assert not game.won
    pos = position_after(14, "napoleons-tomb", game.moves[:60])
    best = solve(pos, limit=Limit.none())
    assert best.verdict == "lost"
    h = hint(pos)
    assert h.verdict == "lost" and h.reason is None
    assert h.score == best.score > pos.score
    assert h.move in tomb.legal_moves(pos)
    text = str(h)
    assert "the deal can no longer be won" in text and f"keeps {h.score} cards reachable" in text
    # After the hinted move the best score is still reachable; after a worse
    # move it may not be.
    after = solve(tomb.play(pos, h.move), limit=Limit.none())
    assert after.verdict == "lost" and after.score == best.score
    # Following the hints all the way reaches that score.
    for _ in range(200):
        h = hint(pos)
        if h.move is None:
            break
        assert h.verdict == "lost" and h.score == best.score
        pos = tomb.play(pos, h.move)
    assert pos.score == best.score
    assert str(h) == f"No move is left: the game ends with {best.score} cards home."


def test_lost_with_nothing_better_to_do_still_offers_a_legal_move():
    """At the best score already, the line is empty: the move is a sensible legal one."""
    game = _simple_game_14()
    pos = position_after(14, "napoleons-tomb", game.moves)  # where the simple player stopped
    legal = tomb.legal_moves(pos)
    assert legal, "the simple player stops with waste-to-cell moves left"
    h = hint(pos)
    assert h.verdict == "lost" and h.line_length == 0 and h.score == pos.score
    assert h.move in legal
    assert f"keeps {pos.score} cards reachable" in str(h)


def test_no_legal_move_gives_no_move():
    game = play(1, "napoleons-tomb", "careful")
    pos = position_after(1, "napoleons-tomb", game.moves)
    assert not tomb.legal_moves(pos) and not pos.won
    h = hint(pos)
    assert h.move is None and h.verdict == "lost" and h.score == pos.score
    assert h.to_json() == {"move": None, "verdict": "lost", "score": pos.score, "reason": None, "status": "lost"}


# ---------------------------------------------------------------------------
# Unknown


def test_a_limited_search_says_unknown_with_a_legal_move():
    pos = start_position(1, "napoleons-tomb")  # lost: decided only after 300,000 positions
    h = hint(pos, limit=Limit(positions=20_000, seconds=None))
    assert h.verdict == "unknown" and h.reason == "positions"
    assert h.move in tomb.legal_moves(pos)
    assert "could not tell within the limit" in str(h)
    assert h.to_json()["verdict"] == "unknown" and h.to_json()["reason"] == "positions"


def test_unknown_with_an_empty_line_falls_back_to_a_legal_move():
    # Deal 2 after its first turn: one position searched finds nothing better yet.
    pos = position_after(2, "napoleons-tomb", [tomb.legal_moves(start_position(2))[0]])
    h = hint(pos, limit=Limit(positions=1, seconds=None))
    assert h.verdict == "unknown" and h.line_length == 0 and h.score == pos.score == 0
    assert h.move in tomb.legal_moves(pos)
    after = tomb.play(pos, h.move)
    assert after.won or tomb.legal_moves(after)  # not a move that ends the game at once


# ---------------------------------------------------------------------------
# The object


def test_to_json_is_the_solution_format_move_and_what_is_known():
    h = hint_after(14, "napoleons-tomb", [])
    data = h.to_json()
    assert list(data) == ["move", "verdict", "score", "reason", "status"]
    assert data == {
        "move": {"action": "turn", "cards": ["9C"]},
        "verdict": "won",
        "score": 52,
        "reason": None,
        "status": "won",
    }
    assert Move.from_json(data["move"]) == h.move
    json.dumps(data)


def test_the_text_of_a_turn_does_not_show_the_stock():
    h = hint_after(14, "napoleons-tomb", [])
    assert str(h) == "Turn the stock: this line wins."
    assert "9" not in str(h)
    h = hint_after(14, "napoleons-tomb", [{"action": "turn", "cards": [c]} for c in ("9C", "QC", "JH", "8H")])
    assert str(h) == "Play 8♥ waste → cell: this line wins."


def test_default_limit_is_a_short_one():
    assert DEFAULT_HINT_LIMIT.seconds is not None and DEFAULT_HINT_LIMIT.seconds <= 5
    assert isinstance(hint(start_position(14)), Hint)


def test_a_deal_number_means_its_start():
    assert hint(14).move == hint(start_position(14)).move
    assert hint(1, "napoleons-tomb-3").verdict == "won"


# ---------------------------------------------------------------------------
# Bad move lists


def test_an_illegal_move_is_named_by_its_number():
    moves = [
        {"action": "turn", "cards": ["JD"]},
        {"action": "turn", "cards": ["2D"]},
        {"action": "move", "card": "9H", "from": "waste", "to": "corner"},
    ]
    with pytest.raises(IllegalMoveError, match=r"move 3 \(9♥ waste → corner\)"):
        hint_after(1, "napoleons-tomb", moves)
    with pytest.raises(IllegalMoveError, match=r"move 1 \(turn 2♦\): the next stock card is J♦"):
        hint_after(1, "napoleons-tomb", [{"action": "turn", "cards": ["2D"]}])


def test_an_unreadable_move_is_named_by_its_number():
    with pytest.raises(MoveError, match=r"move 2: unknown place 'heaven'"):
        hint_after(
            1,
            "napoleons-tomb",
            [{"action": "turn", "cards": ["JD"]}, {"action": "move", "card": "JD", "from": "waste", "to": "heaven"}],
        )
    with pytest.raises(MoveError, match=r"move 1: .*'ZZ'"):
        hint_after(1, "napoleons-tomb", [{"action": "turn", "cards": ["ZZ"]}])


def test_a_redeal_in_a_one_pass_variant_is_refused():
    moves = [{"action": "turn", "cards": [c]} for c in "JD 2D".split()] + [{"action": "redeal"}]
    with pytest.raises(IllegalMoveError, match=r"move 3 \(redeal"):
        hint_after(1, "napoleons-tomb", moves)


# ---------------------------------------------------------------------------
# The command


def test_cli_hint_text_from_stdin():
    proc = run("hint", "--deal", "14", stdin="[]")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Turn the stock: this line wins.\n"
    # empty input: no move played yet
    proc = run("hint", "--deal", "14", "--moves", "-", stdin="")
    assert proc.returncode == 0 and proc.stdout == "Turn the stock: this line wins.\n"


def test_cli_hint_json_from_a_file(tmp_path):
    moves = [{"action": "turn", "cards": [c]} for c in ("9C", "QC", "JH", "8H")]
    f = tmp_path / "game.json"
    f.write_text(json.dumps(moves))
    proc = run("hint", "--variant", "napoleons-tomb", "--deal", "14", "--moves", str(f), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    data = json.loads(proc.stdout)
    assert data == {
        "move": {"action": "move", "card": "8H", "from": "waste", "to": "cell"},
        "verdict": "won",
        "score": 52,
        "reason": None,
        "status": "won",
    }


def test_cli_hint_reads_a_result_object(tmp_path):
    """An object with 'moves' (a result of `solve --json`) gives moves, deal and variant."""
    game = play(14, "napoleons-tomb", "simple")
    data = game.to_json()
    data["moves"] = data["moves"][:60]
    f = tmp_path / "game.json"
    f.write_text(json.dumps(data))
    proc = run("hint", "--moves", str(f), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    expected = hint_after(14, "napoleons-tomb", data["moves"])
    assert out == expected.to_json() and out["verdict"] == "lost"
    proc = run("hint", "--moves", str(f))
    assert proc.returncode == 0
    assert "the deal can no longer be won; this keeps 24 cards reachable." in proc.stdout


def test_cli_hint_reads_the_moves_as_solve_prints_them(tmp_path):
    """One printed move a line, numbered as `solve` prints its line or bare:
    the same hint as from the JSON of the same moves."""
    result = solve(14, "napoleons-tomb")
    lines = str(result).splitlines()[1:5]  # "  1. turn 9♣" ... "  4. turn 8♥"
    f = tmp_path / "game.txt"
    f.write_text("\n".join(lines[:2]) + "\n\n" + "\n".join(str(m) for m in result.moves[2:4]) + "\n", encoding="utf-8")
    proc = run("hint", "--deal", "14", "--moves", str(f), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == hint_after(14, "napoleons-tomb", result.moves[:4]).to_json()


def test_cli_hint_three_card_json():
    proc = run("hint", "--variant", "napoleons-tomb-3", "--deal", "1", "--json", stdin="[]")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["verdict"] == "won" and data["move"]["action"] == "turn" and len(data["move"]["cards"]) == 3


def test_cli_hint_unknown_with_a_small_limit():
    proc = run("hint", "--deal", "1", "--max-positions", "20000", "--json", stdin="[]")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["verdict"] == "unknown" and data["reason"] == "positions" and data["move"] is not None


@pytest.mark.parametrize(
    "stdin,words",
    [
        (
            '[{"action": "turn", "cards": ["JD"]}, {"action": "move", "card": "7H", "from": "waste", "to": "corner"}]',
            ["move 2 (7♥ waste → corner)", "the top of the waste is J♦"],
        ),
        ('[{"action": "turn", "cards": ["2D"]}]', ["move 1 (turn 2♦)", "the next stock card is J♦"]),
        ('{"moves": [{"action": "turn", "cards": ["JD"]}, {"action": "fly"}]}', ["move 2", "unknown action 'fly'"]),
        ('[{"action": "turn", "cards": ["JD"]}, 7]', ["move 2", "must be a JSON object"]),
        ('[{"action": "turn"', ["not JSON"]),
        ("not json", ["standard input, line 1", "'not json' is not a move"]),
        ("turn J♦\n7♥ waste → corner\n", ["move 2 (7♥ waste → corner)", "the top of the waste is J♦"]),
        ("turn J♦\n\n3. turn ZZ\n", ["standard input, line 3", "'ZZ' is not a card"]),
        ('{"turns": []}', ["'moves'"]),
        ('"moves"', ["expected a JSON list"]),
    ],
)
def test_cli_hint_bad_move_lists_exit_2_naming_the_move(stdin, words):
    proc = run("hint", "--deal", "1", stdin=stdin)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error:")
    for w in words:
        assert w in proc.stderr, (w, proc.stderr)


def test_cli_hint_needs_a_deal():
    proc = run("hint", stdin="[]")
    assert proc.returncode == 2 and "--deal" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_hint_missing_file():
    proc = run("hint", "--deal", "1", "--moves", "/nonexistent/game.json")
    assert proc.returncode == 2 and "cannot read the moves" in proc.stderr


def test_cli_hint_names_a_moves_file_that_is_not_utf8(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_bytes(b"\xff\xfe[]")
    proc = run("hint", "--deal", "1", "--moves", str(bad))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"error: {bad}: cannot read the moves (it is not UTF-8 text)")


def test_cli_hint_on_a_terminal_says_it_reads_standard_input():
    """Run on a pseudo-terminal with no --moves, hint says where it waits for
    the moves, then answers once they end (Ctrl-D)."""
    import os
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(
            sys.executable, [sys.executable, "-m", "solver", "hint", "--deal", "1", "--variant", "napoleons-tomb-3"]
        )
    seen = b""
    while b"Ctrl-D" not in seen:
        seen += os.read(fd, 1024)
    os.write(fd, b"[]\n\x04")
    try:
        while True:
            chunk = os.read(fd, 1024)
            if not chunk:
                break
            seen += chunk
    except OSError:  # the child closed the terminal
        pass
    _, status = os.waitpid(pid, 0)
    assert b"reading the moves played so far from standard input" in seen
    assert os.waitstatus_to_exitcode(status) == 0, seen


# ---------------------------------------------------------------------------
# The two-deck games


@pytest.mark.parametrize("variant,deal", [("paciencia-napoleao", 2), ("paciencia-porta-joias", 7)])
def test_hints_of_the_two_deck_games(variant, deal):
    from solver.rules import reference as engine

    pos = start_position(deal, variant)
    h = hint(pos)
    assert h.verdict == "won" and h.score == 104 and h.total == 104
    assert str(h).endswith(": this line wins.") and h.line[0] == h.move
    assert engine(pos.variant.family).replay(pos, h.line).won
    # A won position has no hint move, and says so with the game's own total.
    done = hint(engine(pos.variant.family).replay(pos, h.line))
    assert done.move is None and str(done) == "The deal is won: all 104 cards are home."


# ---------------------------------------------------------------------------
# Deprecated names (issue 48): they warn, and still answer, for one release


def test_hint_status_is_a_deprecated_name_of_verdict():
    h = hint_after(14, "napoleons-tomb", [])
    with pytest.warns(DeprecationWarning, match=r"Hint\.status is deprecated: use Hint\.verdict"):
        assert h.status == h.verdict == "won"
    # The JSON says "verdict", and "status" beside it for one release.
    data = h.to_json()
    assert data["verdict"] == data["status"] == "won"


def test_hint_statuses_is_a_deprecated_name_of_verdicts():
    import solver.hints
    from solver import VERDICTS

    with pytest.warns(DeprecationWarning, match="HINT_STATUSES is deprecated"):
        assert solver.hints.HINT_STATUSES == VERDICTS
    with pytest.warns(DeprecationWarning):
        from solver.hints import HINT_STATUSES
    assert HINT_STATUSES == ("won", "lost", "unknown")
    with pytest.raises(AttributeError):
        solver.hints.NO_SUCH_NAME  # noqa: B018
