"""Property-based tests (hypothesis) of everything the library reads from a
user: deal text and deal numbers, moves in JSON (the solution format and the
player's notation), variant files, and positions handed to the C core.

Each property says: a random or mutated input gets either a clear error of
the library's own (``DealError``, ``CardError``, ``MoveError``,
``VariantError``, ``CoreError``...) or a correct answer -- a deal equal to the
one meant, a legal move, a variant that solves a deal, a verdict whose line
the reference engines replay. Any other exception (an ``IndexError``, a
``TypeError``, a bare ``ValueError``) fails the test.

The default run is short (the ``properties`` profile below: a few dozen
derandomized examples a test, no example database). A longer hunt with fresh
random examples: ``TOMB_PROPERTIES=properties-long pytest tests/test_properties.py``.
Each counterexample they found is a plain test with its concrete input in
the file it belongs to: tests/test_deals.py, tests/test_variants.py,
tests/test_core.py and tests/test_deck2_core.py (the tests that say
"found by tests/test_properties.py").
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import tomllib
from dataclasses import replace
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as st
from support import properties_profile

from solver import Game, Limit, hint, solve
from solver.api import position_after, start_position, to_deal
from solver.cards import DECK, RANKS, SUIT_SYMBOLS, Card, CardError
from solver.core import CoreError
from solver.deals import MAX_NUMBER, Deal, DealError
from solver.notation import INDEXED_PLACES, PLACES, Move, MoveError
from solver.rules import reference
from solver.session import ACTIONS, move_json, parse_move
from solver.variants import HERE as VARIANT_DIR
from solver.variants import VariantError, load, load_file, names
from solver.variants import parse as parse_variant

PROFILE = properties_profile()

VARIANTS = names()
#: A search small enough for an example: a few milliseconds.
SMALL = Limit(positions=3000, seconds=None, memory=2**28)
#: The reference engines' own search, to confirm a "lost" (it is plain and slow).
REFERENCE_POSITIONS = 3000


def outcome(call, *errors):
    """What ``call()`` returns, or the library error it raises (checked to
    have a message). Any other exception propagates and fails the test."""
    try:
        return call()
    except errors as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        return exc


def decks_of(variant: str) -> int:
    return 2 if variant.startswith("paciencia") else 1


# ===========================================================================
# Deals and cards
# ===========================================================================

CARD_TEXT = st.sampled_from([str(c) for c in DECK] + [c.pretty() for c in DECK])
CARD_ALPHABET = RANKS + RANKS.lower() + "CSHDcshd10" + "".join(SUIT_SYMBOLS.values()) + "♧♤♡♢ ,\t\n"
TEXTS = st.one_of(st.text(), st.text(alphabet=CARD_ALPHABET, max_size=400))
NUMBERS = st.integers(min_value=1, max_value=MAX_NUMBER)
SEPARATOR = st.sampled_from([" ", "  ", ", ", ",", "\t", "\n", " ,\n", "\u00a0", "\u2003"])


@st.composite
def spellings(draw, card: Card) -> str:
    """One of the ways a player may write ``card``: JD, jd, Jd, J♦, 10h, TD..."""
    rank = "10" if card.rank == 10 and draw(st.booleans()) else str(card)[0]
    suit = draw(st.sampled_from([card.suit, card.suit.lower(), SUIT_SYMBOLS[card.suit]]))
    return (rank.lower() if draw(st.booleans()) else rank) + suit


def written(draw, cards) -> str:
    """``cards`` as a player might type them: any spelling, any separators."""
    out = draw(st.sampled_from(["", " ", "\n", ", "]))
    for card in cards:
        out += draw(spellings(card)) + draw(SEPARATOR)
    return out


@PROFILE
@given(TEXTS, st.sampled_from([1, 2]))
def test_random_text_is_a_deal_or_a_deal_error(text, decks):
    got = outcome(lambda: Deal.parse(text, decks), DealError)
    if isinstance(got, Deal):
        assert len(got) == 52 * decks


@PROFILE
@given(st.one_of(st.text(max_size=6), st.text(alphabet=CARD_ALPHABET, max_size=4)))
def test_a_card_token_is_a_card_or_a_card_error(token):
    got = outcome(lambda: Card.parse(token), CardError)
    if isinstance(got, Card):
        assert Card.parse(str(got)) == got == Card.parse(got.pretty())


@PROFILE
@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.lists(st.text(max_size=3), max_size=3)))
def test_a_card_of_something_not_text_is_a_card_error(value):
    outcome(lambda: Card.parse(value), CardError)


@PROFILE
@given(NUMBERS, st.sampled_from([1, 2]), st.data())
def test_a_printed_deal_reads_back_as_the_same_deal(number, decks, data):
    deal = Deal.from_number(number, decks)
    assert Deal.parse(str(deal), decks).cards == deal.cards
    text = written(data.draw, deal.cards)
    assert Deal.parse(text, decks).cards == deal.cards


@st.composite
def mutated_deals(draw):
    """(deal, mutation, cards or tokens after it, the position it touched)."""
    deal = Deal.from_number(draw(NUMBERS), draw(st.sampled_from([1, 2])))
    cards = list(deal.cards)
    n = len(cards)
    i = draw(st.integers(0, n - 1))
    j = draw(st.integers(0, n - 1).filter(lambda j: j != i))
    kind = draw(st.sampled_from(["swap", "duplicate", "drop", "extra", "garble"]))
    if kind == "swap":
        cards[i], cards[j] = cards[j], cards[i]
    elif kind == "duplicate":
        assume(cards[i] != cards[j])
        cards[i] = cards[j]
    elif kind == "drop":
        del cards[i]
    elif kind == "extra":
        cards.insert(i, cards[j])
    tokens = [draw(spellings(c)) for c in cards]
    if kind == "garble":
        bad = draw(
            st.text(
                alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs"), blacklist_characters=","),
                min_size=1,
                max_size=5,
            )
        )
        try:
            Card.parse(bad)
        except CardError:
            pass
        else:
            assume(False)
        tokens[i] = bad
    return deal, kind, cards, tokens, i


@PROFILE
@given(mutated_deals(), st.data())
def test_a_mutated_deal_is_the_deal_meant_or_an_error_naming_the_problem(mutated, data):
    deal, kind, cards, tokens, i = mutated
    text = "".join(t + data.draw(SEPARATOR) for t in tokens)
    got = outcome(lambda: Deal.parse(text, deal.decks), DealError)
    if kind == "swap":
        assert isinstance(got, Deal) and got.cards == tuple(cards)
        return
    assert isinstance(got, DealError)
    message = str(got)
    if kind == "garble":
        assert f"card {i + 1}:" in message and repr(tokens[i]) in message
    elif kind in ("drop", "extra"):
        assert f"{len(cards)} cards given" in message
    else:
        assert str(cards[i]) in message


@PROFILE
@given(
    st.one_of(
        st.integers(),
        st.floats(),
        st.text(max_size=30),
        st.none(),
        st.booleans(),
        st.integers(min_value=10**19, max_value=10**30),
        st.text(alphabet="0123456789 +-_", max_size=40),
    ),
    st.sampled_from([1, 2]),
)
def test_a_deal_number_is_a_deal_or_a_deal_error(value, decks):
    got = outcome(lambda: to_deal(value, decks), DealError)
    if isinstance(got, Deal) and got.number is not None:
        assert got == Deal.from_number(got.number, decks)
    elif isinstance(got, Deal):
        assert len(got) == 52 * decks
    outcome(lambda: Deal.from_number(value, decks), DealError)


# ===========================================================================
# Moves in JSON
# ===========================================================================

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
ALL_PLACES = list(PLACES) + [f"{k}:{i}" for k, ix in INDEXED_PLACES.items() for i in ix] + list(INDEXED_PLACES)
PLACE_TEXT = st.one_of(
    st.sampled_from(ALL_PLACES + ["cell:0", "cell:5", "pile:13", "kbase:X", "lid:", ""]), st.text(max_size=8)
)
MOVE_KEYS = st.sampled_from(["action", "from", "to", "card", "cards"])
MOVE_VALUES = st.one_of(
    st.sampled_from(list(ACTIONS) + ["move", "turn"]), PLACE_TEXT, CARD_TEXT, st.lists(CARD_TEXT, max_size=3), JSON
)
MOVE_LIKE = st.one_of(JSON, st.dictionaries(MOVE_KEYS | st.text(max_size=5), MOVE_VALUES, max_size=5))


@PROFILE
@given(MOVE_LIKE)
def test_a_json_value_is_a_players_move_or_a_move_error(data):
    got = outcome(lambda: parse_move(data), MoveError)
    if isinstance(got, Move):
        assert got.action in ACTIONS


@PROFILE
@given(MOVE_LIKE)
def test_a_json_value_is_a_solution_format_move_or_a_move_error(data):
    got = outcome(lambda: Move.from_json(data), MoveError)
    if isinstance(got, Move):
        assert Move.from_json(got.to_json()) == got


def random_play(variant: str, number: int, steps: int, rnd):
    """The position after up to ``steps`` random legal moves (the reference engine's)."""
    pos = start_position(number, variant)
    engine = reference(pos.variant.family)
    for _ in range(steps):
        moves = engine.legal_moves(pos)
        if not moves:
            break
        pos = engine.play(pos, rnd.choice(moves))
    return pos


@st.composite
def games(draw):
    variant = draw(st.sampled_from(VARIANTS))
    number = draw(st.integers(1, 10**6))
    game = Game(variant, number)
    rnd = draw(st.randoms(use_true_random=False))
    for _ in range(draw(st.integers(0, 40))):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rnd.choice(legal))
    return game


def mutate_move(draw, data: dict) -> dict:
    """A legal move of the player's notation, changed in one or two ways."""
    data = dict(data)
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["from", "to", "card", "drop", "extra", "action"]))
        if kind in ("from", "to"):
            data[kind] = draw(PLACE_TEXT)
        elif kind == "card":
            data["card"] = draw(st.one_of(CARD_TEXT, JSON))
        elif kind == "drop" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif kind == "extra":
            data[draw(st.text(max_size=5))] = draw(JSON)
        else:
            data["action"] = draw(st.sampled_from(ACTIONS))
    return data


@PROFILE
@given(games(), st.data())
def test_a_mutated_move_is_played_as_a_legal_move_or_refused(game, data):
    legal = game.legal_moves()
    assume(legal)
    move = mutate_move(data.draw, move_json(data.draw(st.sampled_from(legal))))
    before = len(game.steps)
    got = outcome(lambda: game.play(move), MoveError)
    if isinstance(got, MoveError):
        assert len(game.steps) == before
        return
    assert got[0] in legal, f"{move} was played as {got[0]!r}, which is not a legal move"


@PROFILE
@given(games(), MOVE_LIKE)
def test_a_random_json_value_played_is_a_legal_move_or_refused(game, data):
    legal = game.legal_moves()
    got = outcome(lambda: game.play(data), MoveError)
    if not isinstance(got, MoveError):
        assert got[0] in legal


@PROFILE
@given(games(), st.data())
def test_steps_with_one_changed_replay_or_are_refused_naming_the_step(game, data):
    steps = game.steps_json()
    assume(steps)
    k = data.draw(st.integers(0, len(steps) - 1))
    steps[k] = data.draw(
        st.one_of(st.just([mutate_move(data.draw, m) for m in steps[k]]), MOVE_LIKE, st.lists(MOVE_LIKE, max_size=2))
    )
    got = outcome(lambda: Game.replay(game.variant, game.deal, steps), MoveError)
    if isinstance(got, MoveError):
        assert str(got).startswith("step ")
        assert int(str(got).split()[1].rstrip(":")) >= k + 1
    else:
        assert got.legal_moves() is not None


@st.composite
def lines(draw):
    """(variant, deal, a line of solution-format moves of random legal play
    with one move changed, the 1-based number of the changed move)."""
    variant = draw(st.sampled_from(VARIANTS))
    number = draw(st.integers(1, 10**6))
    rnd = draw(st.randoms(use_true_random=False))
    end = random_play(variant, number, draw(st.integers(1, 30)), rnd)
    moves = [m.to_json() for m in end.history]
    assume(moves)
    k = draw(st.integers(0, len(moves) - 1))
    changed = dict(moves[k])
    key = draw(st.sampled_from(["action", "card", "cards", "from", "to"]))
    changed[key] = draw(
        st.one_of(
            CARD_TEXT,
            PLACE_TEXT,
            st.lists(CARD_TEXT, max_size=3),
            JSON,
            st.sampled_from(["turn", "move", "deal", "jewel", "redeal"]),
        )
    )
    moves[k] = changed
    return variant, number, moves, k + 1


@PROFILE
@given(lines())
def test_a_mutated_line_is_replayed_or_refused_naming_the_move(line):
    variant, number, moves, changed = line
    got = outcome(lambda: position_after(number, variant, moves), MoveError)
    if isinstance(got, MoveError):
        bad = int(str(got).split()[1].rstrip(":"))
        assert str(got).startswith("move ") and bad >= changed
        return
    h = outcome(lambda: hint(got, limit=SMALL), MoveError)
    engine = reference(got.variant.family)
    if h.move is None:
        assert got.won or not engine.legal_moves(got)
    else:
        assert h.move in engine.legal_moves(got)


# ===========================================================================
# Variant files
# ===========================================================================

SOURCES = {name: (VARIANT_DIR / f"{name}.toml").read_text(encoding="utf-8") for name in VARIANTS}
_FILES = tempfile.TemporaryDirectory(prefix="tomb-properties-")


def toml_value(value) -> str:
    """A TOML value for what tomllib reads (strings kept to printable ASCII by
    the strategies, so JSON's escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(data: dict) -> str:
    top = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    tables = [
        f"[{json.dumps(k)}]\n" + "".join(f"{json.dumps(s)} = {toml_value(x)}\n" for s, x in v.items())
        for k, v in data.items()
        if isinstance(v, dict)
    ]
    return "\n".join(top) + "\n\n" + "\n".join(tables)


def write(text: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=".toml", dir=_FILES.name)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return Path(name)


PRINTABLE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
TOML_SCALAR = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(-3, 60),
    st.floats(allow_nan=False),
    PRINTABLE,
    st.sampled_from(
        [
            "tomb",
            "napoleao",
            "jewel",
            "waste",
            "cell",
            "foundation",
            "reserve",
            "any",
            "king",
            "none",
            "pile-1",
            "pile-12",
            "nothing-fits",
            "any-time",
            "unplaceable",
            "",
        ]
    ),
    st.dates(),
    st.times(),
)
TOML_VALUE = st.recursive(
    TOML_SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "turn", "count"]), inner, max_size=2)
    ),
    max_leaves=6,
)


def leaves(data: dict) -> list[tuple[str, ...]]:
    return [
        (k,) if not isinstance(v, dict) else (k, s)
        for k, v in data.items()
        for s in (v if isinstance(v, dict) else [None])
    ]


@st.composite
def mutated_variants(draw):
    """(the mutated description, the field path it touched, how)."""
    name = draw(st.sampled_from(VARIANTS))
    data = tomllib.loads(SOURCES[name])
    data["name"] = "mutant"
    path = draw(st.sampled_from(leaves(data)))
    kind = draw(st.sampled_from(["remove", "retype", "range", "unknown", "table"]))
    node = data if len(path) == 1 else data[path[0]]
    if kind == "remove":
        del node[path[-1]]
    elif kind == "retype":
        node[path[-1]] = draw(TOML_VALUE)
    elif kind == "range":
        node[path[-1]] = draw(st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-2, 60)))
    elif kind == "unknown":
        node[draw(st.sampled_from(["extra", "turns", "Count"]))] = draw(TOML_SCALAR)
        path = ()
    else:
        data[path[0]] = draw(TOML_SCALAR) if len(path) == 2 else data[path[0]]
        path = path[:1]
    return data, ".".join(path), kind


def check_variant(variant, number: int) -> None:
    """A variant that loads solves a deal: a verdict whose line replays."""
    result = solve(number, variant, SMALL)
    assert result.verdict in ("won", "lost", "unknown")
    check_line(result, start_position(number, variant))


@PROFILE
@given(mutated_variants(), st.integers(1, 10**6))
def test_a_mutated_variant_file_names_the_field_or_solves_a_deal(mutated, number):
    data, field, kind = mutated
    path = write(toml_text(data))
    got = outcome(lambda: load_file(path), VariantError)
    if isinstance(got, VariantError):
        message = str(got)
        assert str(path) in message
        if kind == "unknown":
            assert "unknown field" in message
        elif field and field != "family" and kind != "table":
            assert repr(field) in message or "'reserve.sixes'" in message or "'cells." in message, message
        return
    check_variant(got, number)


@PROFILE
@given(st.sampled_from(VARIANTS), st.data(), st.integers(1, 10**6))
def test_a_mutated_variant_text_is_a_variant_error_or_solves_a_deal(name, data, number):
    text = SOURCES[name].replace(f'name = "{name}"', 'name = "mutant"')
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = (
            text[:at]
            + data.draw(st.text(max_size=6) | st.sampled_from(["\n", "=", "[", "]", '"', "#"]))
            + text[at + cut :]
        )
    got = outcome(lambda: load_file(write(text)), VariantError)
    if not isinstance(got, VariantError):
        check_variant(got, number)


@PROFILE
@given(st.one_of(st.sampled_from(VARIANTS), st.text(max_size=20), JSON), st.integers(1, 10**6))
def test_a_variant_name_is_a_variant_or_a_variant_error(name, number):
    got = outcome(lambda: load(name), VariantError)
    if isinstance(got, VariantError):
        assert "unknown variant" in str(got)
        if name is not None:  # solve's default: the classic
            assert isinstance(outcome(lambda: solve(number, name, SMALL), VariantError), VariantError)
    else:
        assert got.name == name


@PROFILE
@given(st.dictionaries(st.text(max_size=8), TOML_VALUE, max_size=6))
def test_a_random_description_is_a_variant_error_or_a_variant(data):
    got = outcome(lambda: parse_variant(data, "<random>"), VariantError)
    if isinstance(got, VariantError):
        assert str(got).startswith("<random>: ")


# ===========================================================================
# Positions handed to the core
# ===========================================================================


def check_line(result, pos) -> None:
    """The search's line replays from ``pos`` with the reference engine to
    the score it claims (a win for "won"); a "lost" the reference search
    decides is lost there too, with the same best score."""
    engine = reference(pos.variant.family)
    end = engine.replay(pos, result.moves[result.played :])
    assert end.score == result.score
    if result.verdict == "won":
        assert end.won
    if result.verdict == "lost":
        verdict, best, _ = engine.search(pos, max_positions=REFERENCE_POSITIONS)
        if verdict != "unknown":
            assert (verdict, best) == ("lost", result.score)


@st.composite
def played_positions(draw):
    variant = draw(st.sampled_from(VARIANTS))
    rnd = draw(st.randoms(use_true_random=False))
    return random_play(variant, draw(st.integers(1, 10**6)), draw(st.integers(0, 120)), rnd)


@PROFILE
@given(played_positions())
def test_a_position_of_random_play_gets_a_verdict_the_rules_confirm(pos):
    result = solve(pos, limit=SMALL)
    check_line(result, pos)
    h = hint(pos, limit=SMALL)
    engine = reference(pos.variant.family)
    if h.move is None:
        assert pos.won or not engine.legal_moves(pos)
    else:
        assert h.move in engine.legal_moves(pos)


#: The fields of each family's positions that hold a pile of cards (a tuple
#: of cards, or a tuple of such tuples), of single places (a card or None),
#: and of counts.
PILES = {
    "tomb": ("stock", "waste", "reserve", "tomb", "corners"),
    "napoleao": ("stock", "piles"),
    "jewel": ("stock", "jewels", "sides", "bottoms", "reserves"),
}
SLOTS = {"tomb": ("cells",), "napoleao": (), "jewel": ("lid", "turned")}
COUNTS = {"tomb": ("redeals",), "napoleao": ("redeals", "rounds", "kbases", "abases"), "jewel": ("foundations",)}
ODD = st.one_of(st.none(), st.text(max_size=3), st.integers(-3, 300), st.sampled_from(["AC", 7, 1.5, ()]))


def pile_paths(pos):
    out = []
    for name in PILES[pos.variant.family]:
        value = getattr(pos, name)
        if (value and isinstance(value[0], tuple)) or name in ("corners", "piles", "sides", "bottoms", "reserves"):
            out += [(name, i) for i in range(len(value))]
        else:
            out.append((name, None))
    return out


def get(pos, path):
    name, i = path
    return getattr(pos, name) if i is None else getattr(pos, name)[i]


def put(pos, path, cards):
    name, i = path
    if i is None:
        return replace(pos, **{name: tuple(cards)})
    outer = list(getattr(pos, name))
    outer[i] = tuple(cards)
    return replace(pos, **{name: tuple(outer)})


@st.composite
def mutated_positions(draw):
    """A position of random play changed in one way: a card moved to
    another place (possibly an impossible one), a card duplicated, dropped or
    swapped for another, a count or a shape changed, a card that is no card."""
    pos = draw(played_positions())
    family = pos.variant.family
    paths = pile_paths(pos)
    full = [p for p in paths if get(pos, p)]
    kind = draw(st.sampled_from(["move", "duplicate", "drop", "replace", "count", "shape", "odd", "slot"]))
    if kind in ("move", "duplicate", "drop", "replace", "odd") and full:
        src = draw(st.sampled_from(full))
        cards = list(get(pos, src))
        at = draw(st.integers(0, len(cards) - 1))
        card = cards[at]
        if kind == "replace":
            cards[at] = draw(st.sampled_from(DECK))
            return put(pos, src, cards)
        if kind == "odd":
            cards[at] = draw(ODD)
            return put(pos, src, cards)
        if kind != "duplicate":
            del cards[at]
        pos = put(pos, src, cards)
        if kind == "drop":
            return pos
        dst = draw(st.sampled_from(paths))
        target = list(get(pos, dst))
        target.insert(draw(st.integers(0, len(target))), card)
        return put(pos, dst, target)
    if kind == "slot" and SLOTS[family]:
        name = draw(st.sampled_from(SLOTS[family]))
        value = getattr(pos, name)
        new = draw(st.one_of(st.none(), st.sampled_from(DECK), ODD))
        if name == "turned":
            return replace(pos, turned=new)
        assume(value)
        i = draw(st.integers(0, len(value) - 1))
        return replace(pos, **{name: value[:i] + (new,) + value[i + 1 :]})
    if kind == "count":
        name = draw(st.sampled_from(COUNTS[family]))
        value = getattr(pos, name)
        number = draw(st.one_of(st.integers(-3, 300), st.integers(-(2**70), 2**70), ODD))
        if isinstance(value, int):
            return replace(pos, **{name: number})
        i = draw(st.integers(0, len(value) - 1))
        item = number if name != "foundations" else draw(st.sampled_from([(number, 0), (0, number), (number,)]))
        return replace(pos, **{name: value[:i] + (item,) + value[i + 1 :]})
    # The shape: one of the tuples of places one longer or shorter.
    name = draw(
        st.sampled_from(
            [
                n
                for n in PILES[family] + SLOTS[family]
                if isinstance(getattr(pos, n), tuple) and n not in ("stock", "waste", "tomb", "reserve", "jewels")
            ]
            + [n for n in COUNTS[family] if isinstance(getattr(pos, n), tuple)]
        )
    )
    value = getattr(pos, name)
    empty = (
        None
        if name in SLOTS[family]
        else 0
        if name in ("kbases", "abases")
        else (0, 0)
        if name == "foundations"
        else ()
    )
    return replace(pos, **{name: value[:-1] if value and draw(st.booleans()) else value + (empty,)})


@PROFILE
@given(mutated_positions())
def test_a_mutated_position_is_refused_or_gets_a_verdict_the_rules_confirm(pos):
    got = outcome(lambda: solve(pos, limit=SMALL), CoreError)
    if isinstance(got, CoreError):
        assert str(got).startswith(("position: ", "rules: "))
        assert isinstance(outcome(lambda: hint(pos, limit=SMALL), CoreError), CoreError)
        return
    check_line(got, pos)
