"""Blind play: a player who cannot see the stock plays a deal to its end.

A :class:`Strategy` chooses each move from a :class:`View` -- what a player at
the table sees: the top of the waste (and the card just under it), the cells,
the sixes reserve, the tops of the foundations, how many cards the stock holds,
how many redeals are left, and the legal moves. The View never holds the order
of the stock, and the turn it offers names no card: turning is a leap in the
dark. :func:`play` plays a deal with a strategy and returns the game as a
:class:`BlindGame`: ``won`` or not, its score and its moves. A blind game has
no verdict: a player who got stuck proves nothing about the deal (only a
search, :func:`solver.solve`, answers a :data:`~solver.vocabulary.Verdict`).

>>> r = play(14, "napoleons-tomb", "careful")
>>> r.won in (True, False), r.score <= 52, "verdict" in r.to_json()
(True, True, False)
>>> BlindGame.from_json(r.to_json()) == r
True
>>> from solver import start_position
>>> from solver.rules import tomb
>>> tomb.score(tomb.replay(start_position(14), r.moves)) == r.score
True

Two strategies come with the library, the two players of the web page's
measurement (``shared/seeds/napoleons-tomb-web.en.txt``), registered by name
in :data:`STRATEGIES`:

- ``simple``: plays every card it can home; parks the top waste card (in a
  cell, or a 6 in the sixes reserve) only when that frees the card underneath
  and that card would then go home; otherwise turns the stock, or redeals.
- ``careful``: the same, and it also parks the top waste card when a
  foundation will want it within three ranks (see :meth:`View.distance`);
  in the 3-card deal it keeps the last empty cell for a card that frees the
  one underneath; a 6 goes to the sixes reserve whenever there is one
  (:class:`Careful`).

A strategy of one's own is any object with a ``choose(view, moves)`` method
(or a plain function of ``(view, moves)``) returning one of ``moves``, or
``None`` to stop playing.

Endless games: under the Finnish rules a cell card may go back onto the waste
or to another cell, so a strategy could go round in circles. :func:`play` never
offers a move that would bring back a position already met in the same game
(such a move is left out of ``moves``); positions are finite, so every game
ends. ``max_moves`` (default 10,000) is a second guard: a game that reaches it
ends there, as lost.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast, runtime_checkable

from . import families
from ._core import ffi, lib
from .api import DEFAULT_VARIANT, Result, line_position, to_deal
from .cards import Card
from .deals import Deal
from .errors import ResultError, VariantError
from .errors import StrategyError as StrategyError
from .families import AnyPosition
from .families.play import CorePlay
from .families.tomb import TombPosition, TombVariant
from .inputs import brief, check_depth, load_json
from .notation import FOUNDATIONS, Move
from .variants import BaseVariant, load, names

__all__ = [
    "STRATEGIES",
    "TURN",
    "BlindGame",
    "BlindStats",
    "Careful",
    "Simple",
    "Strategy",
    "StrategyError",
    "View",
    "careful",
    "careful_move",
    "play",
    "simple",
    "get_strategy",
    "view_of",
    "wilson",
]

#: The turn as a strategy sees it: it names no card (the stock is face down).
#: :func:`play` replaces it by the real turn.
TURN = Move("turn")

#: Where a View keeps what the core's players read of the position behind it.
_BEHIND = "_behind"


@dataclass(frozen=True)
class View:
    """What a player sees of a position, and nothing more.

    - ``waste_top``: the top waste card (the only playable one), or ``None``;
      ``waste_under``: the card just under it, which the player saw turned
      (in the 3-card deal it shows in the fan), or ``None``; ``waste_size``:
      how many cards the waste holds.
    - ``cells``: the cells in order, ``None`` for an empty one; ``reserve``:
      the 6s waiting in the sixes reserve (variants that have one).
    - ``corners``: the top card of each corner (``None`` if not started);
      ``tomb_top`` and ``tomb_count``: the tomb's top card and how many cards
      it holds (it wants rank :attr:`tomb_wants` next).
    - ``stock_count``: how many cards are face down in the stock (not which);
      ``redeals_left``: how many times the waste may still be turned over.
    - ``moves``: the legal moves (the core's rules of play), the turn written as
      :data:`TURN` with no cards, and without moves that would repeat a
      position of this game.

    What the foundations want (:attr:`tomb_wants`, :meth:`distance`) the
    core's rules say, from the position behind the view; the library's own
    players (:class:`Simple`, :class:`Careful`) are the core's too, and read
    of that position only what the fields above show.
    """

    variant: TombVariant
    waste_top: Card | None
    waste_under: Card | None
    waste_size: int
    cells: tuple[Card | None, ...]
    reserve: tuple[Card, ...]
    corners: tuple[Card | None, ...]
    tomb_top: Card | None
    tomb_count: int
    stock_count: int
    redeals_left: int
    moves: tuple[Move, ...]

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return int(self._position().score)

    @property
    def tomb_wants(self) -> int | None:
        """The rank the tomb takes next (6 down to 1, four times), ``None`` when full."""
        pos = self._position()
        wants = _core(pos).view(pos)["tomb"]["wants"]
        return None if wants is None else int(wants)

    def fits(self, card: Card | None) -> bool:
        """Whether ``card`` would go on a foundation now."""
        return card is not None and self.distance(card) == 0

    def distance(self, card: Card) -> int | None:
        """How many ranks a foundation must still build before it takes
        ``card``: 0 when it fits now; ``None`` when no foundation can take it
        any more (never the case for a card still in play). The nearest
        foundation counts: the tomb, wanting a 4, is 1 away from a 3 and 5
        away from a 5 (it runs 6..A and starts again); a corner showing a 7
        is 2 away from a 10. The core counts it (solver_play_distance)."""
        pos = self._position()
        return _core(pos).distance(pos, card)

    def _position(self) -> TombPosition:
        behind = self.__dict__.get(_BEHIND)
        if behind is None:
            raise StrategyError("this View was not made by play() or view_of(): there is no position behind it")
        return cast(TombPosition, behind[0])

    def find(self, card: Card | None, src: str, dests: Sequence[str]) -> Move | None:
        """The offered move of ``card`` from ``src`` to the first of ``dests``
        that has one, or ``None``."""
        if card is None:
            return None
        for dst in dests:
            for m in self.moves:
                if m.action == "move" and m.card == card and m.src == src and m.dst == dst:
                    return m
        return None

    def turn_or_redeal(self) -> Move | None:
        """The turn (as :data:`TURN`) or the redeal, if offered."""
        for m in self.moves:
            if m.action in ("turn", "redeal"):
                return m
        return None


@runtime_checkable
class Strategy(Protocol):
    """A blind player: ``choose`` returns one of ``moves`` (which are
    ``view.moves``), or ``None`` to stop. It sees nothing but the view. A
    ``name`` attribute, if it has one, names it in error messages."""

    def choose(self, view: View, moves: tuple[Move, ...]) -> Move | None: ...


def _core(pos: TombPosition) -> CorePlay:
    return families.of(pos.variant).player.core


def _core_choice(strategy: tuple[int, int, int], view: View, moves: tuple[Move, ...]) -> Move | None:
    """The core's player's choice among ``moves`` (of ``view.moves``), from
    the position behind the view."""
    pos = view._position()
    _, offered = view.__dict__[_BEHIND]
    chosen = [(shown, record) for shown in moves for seen, _, record in offered if seen == shown]
    records = ffi.new("solver_move[]", max(len(chosen), 1))
    for k, (_, record) in enumerate(chosen):
        records[k] = record[0]
    i = _core(pos).choose(pos, strategy, records, len(chosen))
    return None if i is None else chosen[i][0]


class Simple:
    """Plays anything home; parks the top waste card only to free the card
    underneath when that card would then go home; otherwise turns or redeals.
    Never plays a cell card anywhere but home. The core's player
    (SOLVER_BLIND_SIMPLE, csrc/play.h)."""

    name = "simple"

    def strategy(self) -> tuple[int, int, int]:
        """The core's player and its parameters (solver_play_choose)."""
        return (lib.SOLVER_BLIND_SIMPLE, 0, -1)

    def choose(self, view: View, moves: tuple[Move, ...]) -> Move | None:
        return _core_choice(self.strategy(), view, moves)

    def __repr__(self) -> str:
        return "Simple()"


class Careful(Simple):
    """Like :class:`Simple`, and also parks the top waste card when a foundation
    will want it within ``within`` ranks: when :meth:`View.distance` is at most
    ``within`` (a 4 when the tomb wants a 5 is 1 away; a 10 when the nearest
    corner shows a 7 is 2 away). Where there is a sixes reserve, a 6 that
    cannot go home always goes there (it costs no cell, and a 6 can leave the
    waste for nowhere else but the tomb).

    ``keep_last_cell``: parking a card only because it will be wanted soon
    never fills the last empty cell (that one is kept for a card that frees
    the one underneath). ``None`` (the default) keeps it in variants that turn
    the waste over again (the 3-card deal: a card left on the waste comes round
    once more), not in one-pass variants. See docs/winnability.md for how each
    choice plays.
    """

    name = "careful"

    def __init__(self, within: int = lib.SOLVER_BLIND_WITHIN, keep_last_cell: bool | None = None) -> None:
        self.within = within
        self.keep_last_cell = keep_last_cell

    def strategy(self) -> tuple[int, int, int]:
        keep = -1 if self.keep_last_cell is None else int(self.keep_last_cell)
        return (lib.SOLVER_BLIND_CAREFUL, self.within, keep)

    def __repr__(self) -> str:
        return f"Careful(within={self.within}, keep_last_cell={self.keep_last_cell})"


simple = Simple()
careful = Careful()

#: Strategies by name, for the command line: ``python -m solver play --strategy careful``.
STRATEGIES: dict[str, Strategy] = {"simple": simple, "careful": careful}


#: A strategy as a plain function: ``choose(view, moves)``.
Chooser = Callable[[View, tuple[Move, ...]], Move | None]


def get_strategy(which: str | Strategy | Chooser) -> Strategy | Chooser:
    """A strategy by name (from :data:`STRATEGIES`), or the object itself."""
    if isinstance(which, str):
        try:
            return STRATEGIES[which]
        except KeyError:
            raise StrategyError(f"unknown strategy {which!r}; strategies are {', '.join(STRATEGIES)}") from None
    if hasattr(which, "choose") or callable(which):
        return which
    raise StrategyError(f"a strategy is a name or an object with choose(view, moves), not {which!r}")


def _key(pos: TombPosition) -> bytes:
    """The position as the core tells repetitions apart (its canonical key:
    cells and the sixes reserve as sets, corners by their counts)."""
    return _core(pos).key(pos, canonical=True)


def _may_repeat(move: Move) -> bool:
    """Moves that might bring back an earlier position: those that change
    neither the foundations (which only grow), nor the stock (a turn), nor the
    redeal count."""
    return move.action == "move" and move.dst not in FOUNDATIONS


#: A legal move offered: as the strategy sees it, as the solution format
#: names it, and the core's record of it.
_Offer = tuple[Move, Move, Any]


def _offered(pos: TombPosition, seen: set[bytes] | None) -> list[_Offer]:
    """Every legal move of ``pos`` (each once, as :meth:`CorePlay.legal`)
    that does not repeat a position in ``seen``."""
    out: list[_Offer] = []
    core = _core(pos)
    moves, records = core.moves(pos, engine=True)
    for i, m in enumerate(moves):
        if any(m == real for _, real, _ in out):
            continue
        record = ffi.new("solver_move *", records[i])
        if m.action == "turn":
            out.append((TURN, m, record))
            continue
        if seen is not None and _may_repeat(m):
            after = core.apply(pos, records + i)
            if not isinstance(after, str) and _key(after[1]) in seen:
                continue
        out.append((m, m, record))
    return out


def _view(pos: TombPosition, offered: list[_Offer]) -> View:
    v = pos.variant
    view = View(
        variant=v,
        waste_top=pos.waste[-1] if pos.waste else None,
        waste_under=pos.waste[-2] if len(pos.waste) > 1 else None,
        waste_size=len(pos.waste),
        cells=tuple(pos.cells),
        reserve=tuple(pos.reserve),
        corners=tuple(c[-1] if c else None for c in pos.corners),
        tomb_top=pos.tomb[-1] if pos.tomb else None,
        tomb_count=len(pos.tomb),
        stock_count=len(pos.stock),
        redeals_left=v.passes - 1 - pos.redeals,
        moves=tuple(shown for shown, _, _ in offered),
    )
    # Beside the fields, as a position keeps its struct: the position and
    # the records of the moves, for the core's players.
    object.__setattr__(view, _BEHIND, (pos, offered))
    return view


def view_of(pos: TombPosition) -> View:
    """The :class:`View` of a position (all legal moves offered; no game history)."""
    return _view(pos, _offered(pos, None))


def careful_move(pos: TombPosition) -> Move | None:
    """The careful player's choice in ``pos`` (from what a player sees), as
    the legal move it stands for (a turn with the cards it turns); ``None``
    when it would stop. A hint that does not peek, and the hints' fallback."""
    core = _core(pos)
    moves, records = core.moves(pos, engine=True)
    i = core.choose(pos, careful.strategy(), records, len(moves))
    return None if i is None else moves[i]


def _choose(chooser: Strategy | Chooser, view: View) -> Move | None:
    if isinstance(chooser, Strategy):  # (runtime_checkable: it has a choose)
        return chooser.choose(view, view.moves)
    return chooser(view, view.moves)


@dataclass(frozen=True)
class BlindStats:
    """What a blind game counted: the positions it went through, and its
    seconds."""

    positions: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"positions": self.positions, "seconds": round(self.seconds, 6)}

    @classmethod
    def from_json(cls, s: Any) -> BlindStats:
        """Read them back (the stats of an old blind :class:`~solver.api.Result`
        too, whose search fields it leaves); raise :class:`ResultError`."""
        if not isinstance(s, dict):
            raise ResultError(f"blind game: field 'stats' must be an object, not {brief(s)}")
        for key, kind in (("positions", int), ("seconds", (int, float))):
            if key in s and (isinstance(s[key], bool) or not isinstance(s[key], kind)):
                raise ResultError(f"blind game: field 'stats.{key}' must be a number, not {brief(s[key])}")
        return cls(int(s.get("positions", 0)), float(s.get("seconds", 0.0)))


@dataclass(frozen=True)
class BlindGame:
    """A game of a blind player (:func:`play`): ``won``, or not -- and a game
    not won proves nothing about the deal (the player got stuck, or
    stopped; a search may still win it). It has no verdict: only a search
    (:func:`solver.solve`) answers one.

    ``strategy``: the player's name (``None`` for a game read from the JSON of
    an older release, which did not record it). ``score``: the cards home at
    the end of ``moves``, the whole game (real cards, replayable by
    :func:`solver.rules.tomb.replay`). ``stats``: the positions the game went
    through and its seconds.
    """

    variant: str
    fingerprint: str | None
    deal: int | None
    cards: tuple[Card, ...]
    strategy: str | None
    won: bool
    score: int
    moves: tuple[Move, ...]
    stats: BlindStats = field(default_factory=BlindStats, compare=False)
    #: The variant object itself, for variants loaded from a file of the user's.
    rules: BaseVariant | None = field(default=None, compare=False, repr=False)

    @property
    def verdict(self) -> Literal["won", "lost"]:
        """Deprecated (removed in the next release): ``"won"``, or ``"lost"``
        for a game the player did not win -- which proves nothing about the
        deal. Use :attr:`won`."""
        _warn_verdict("verdict")
        return "won" if self.won else "lost"

    @property
    def reason(self) -> str | None:
        """Deprecated (removed in the next release): ``None`` when won, else
        ``"blind"``. Use :attr:`won`."""
        _warn_verdict("reason")
        return None if self.won else "blind"

    def to_json(self) -> dict[str, Any]:
        """``{"variant", "fingerprint", "deal", "cards", "strategy", "won", "score", "moves", "stats"}``:
        the moves in the solution format (docs/rules/solution-format.md); no
        ``verdict``."""
        return {
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "deal": self.deal,
            "cards": [str(c) for c in self.cards],
            "strategy": self.strategy,
            "won": self.won,
            "score": self.score,
            "moves": [m.to_json() for m in self.moves],
            "stats": self.stats.to_json(),
        }

    def dumps(self, **kwargs: Any) -> str:
        """The JSON text of :meth:`to_json` (``kwargs``: those of json.dumps)."""
        return json.dumps(self.to_json(), ensure_ascii=False, **kwargs)

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> BlindGame:
        """Read a game back: the JSON of :meth:`to_json`, or of a blind game of
        an older release (a :class:`~solver.api.Result` with verdict
        ``"lost"`` and reason ``"blind"``, or ``"won"``). Raise
        :class:`ResultError` naming the bad field."""
        if isinstance(data, (str, bytes)):
            data = load_json(data, "blind game", ResultError)
        else:
            check_depth(data, "blind game", ResultError)
        if not isinstance(data, dict):
            raise ResultError("blind game: expected a JSON object")
        won, strategy = _won_and_strategy(data)
        try:  # the fields it shares with a result, read as a result reads them
            common = Result.from_json({**data, "verdict": "won" if won else "lost", "reason": None, "stats": {}})
        except ResultError as exc:
            raise ResultError(f"blind game{str(exc).removeprefix('result')}") from None
        return cls(
            variant=common.variant,
            fingerprint=common.fingerprint,
            deal=common.deal,
            cards=common.cards,
            strategy=strategy,
            won=won,
            score=common.score,
            moves=common.moves,
            stats=BlindStats.from_json(data.get("stats", {})),
        )

    @classmethod
    def loads(cls, text: str) -> BlindGame:
        return cls.from_json(text)

    def position(self, moves: int | None = None) -> AnyPosition:
        """The position after the first ``moves`` moves of the game (all by
        default), replayed by the reference engine."""
        return line_position(self, moves, "the game was played")

    def __str__(self) -> str:
        shipped = self.fingerprint is None or (
            self.variant in names() and load(self.variant).fingerprint == self.fingerprint
        )
        label = self.variant if shipped else f"{self.variant} (rules {self.fingerprint}, not the shipped ones)"
        name = f"deal {self.deal}" if self.deal is not None else "the given deal"
        who = f"the {self.strategy} player" if self.strategy else "a blind player"
        total = len(self.cards)
        if self.won:
            head = f"{label}, {name}: a blind game: {who} won it, {self.score}/{total} cards home"
        else:
            head = (
                f"{label}, {name}: a blind game: {who} got stuck with {self.score}/{total} cards home, "
                "which proves nothing about the deal"
            )
        width = len(str(len(self.moves)))
        lines = [head, *(f"{i:>{width}}. {m}" for i, m in enumerate(self.moves, 1))]
        lines.append(f"{self.stats.positions:,} positions met, {self.stats.seconds:.3f} s")
        return "\n".join(lines)


def _warn_verdict(name: str) -> None:
    warnings.warn(
        f"BlindGame.{name} is deprecated: a blind game has no verdict, and one the player did not win "
        "proves nothing about the deal; use BlindGame.won",
        DeprecationWarning,
        stacklevel=3,
    )


def _won_and_strategy(data: dict[str, Any]) -> tuple[bool, str | None]:
    """``won`` and ``strategy`` of a blind game's JSON: this release's
    (``won``, ``strategy``), or an older release's (verdict and reason)."""
    if "verdict" not in data:
        for key in ("won", "strategy"):
            if key not in data:
                raise ResultError(f"blind game: field {key!r} is missing")
        if not isinstance(data["won"], bool):
            raise ResultError(f"blind game: field 'won' must be true or false, not {brief(data['won'])}")
        if data["strategy"] is not None and not isinstance(data["strategy"], str):
            raise ResultError(f"blind game: field 'strategy' must be null or a name, not {brief(data['strategy'])}")
        return data["won"], data["strategy"]
    old = (data.get("verdict"), data.get("reason"))
    if old not in (("won", None), ("lost", "blind")):
        raise ResultError(
            f"blind game: verdict {brief(old[0])} with reason {brief(old[1])} is no blind game's"
            " (a search's result: read it with Result.from_json)"
        )
    return old[0] == "won", None


def _strategy_name(strategy: object, chooser: object) -> str:
    """The name a game records for its player."""
    if isinstance(strategy, str):
        return strategy
    name = getattr(chooser, "name", None)
    if isinstance(name, str):
        return name
    named = getattr(chooser, "__name__", None)
    return named if isinstance(named, str) else type(chooser).__name__


def _play_out(pos: TombPosition, chooser: Strategy | Chooser, max_moves: int) -> tuple[tuple[Move, ...], int, int]:
    """The game of ``chooser`` from ``pos`` to its end: its moves, its score
    at the end and the positions it went through. The library's players
    play the whole game in the core (solver_play_blind); any other strategy
    is asked each move here, from the same core's moves, by the same
    rule of repetition."""
    if type(chooser) in (Simple, Careful):
        moves, score, positions = _core(pos).blind(pos, cast(Simple, chooser).strategy(), max_moves)
        return tuple(moves), score, positions
    seen = {_key(pos)}
    while not pos.won and pos.moves_played < max_moves:
        offered = _offered(pos, seen)
        if not offered:
            break
        choice = _choose(chooser, _view(pos, offered))
        if choice is None:
            break
        real = next((r for shown, r, _ in offered if shown == choice), None)
        if real is None:
            name = getattr(chooser, "name", repr(chooser))
            raise StrategyError(f"strategy {name!r} chose {choice!r}, which is not one of the offered moves")
        _, pos = _core(pos).play(pos, real)
        seen.add(_key(pos))
    return pos.history, pos.score, len(seen)


def play(
    deal: int | str | Deal,
    variant: str | BaseVariant = DEFAULT_VARIANT,
    strategy: str | Strategy | Chooser = "careful",
    *,
    max_moves: int = 10_000,
) -> BlindGame:
    """Play ``deal`` blind with a strategy (a name of :data:`STRATEGIES` or an
    object) until the game is won, no move is left, or the strategy stops.

    Returns a :class:`BlindGame`: ``won``, or not -- which means only that
    *this player* got stuck (or stopped), not that the deal cannot be won.
    ``score`` is the cards home at the end, ``moves`` the whole game (real
    cards, replayable by :func:`solver.rules.tomb.replay`),
    ``stats.positions`` the positions the game went through. A move that
    would repeat a position of the game is not offered (see the module
    text); a game ends at ``max_moves`` moves.

    Raises :class:`StrategyError` if the strategy returns a move that was
    not offered.
    """
    chooser = get_strategy(strategy)
    started = time.perf_counter()
    rules_of = load(variant)
    family = families.of(rules_of)
    if not family.blind_players:
        raise VariantError(
            f"play (the blind players) is written for the Napoleon's Tomb variants; {rules_of.name} is not one"
        )
    the_deal = to_deal(deal)
    moves, score, positions = _play_out(family.position.start(the_deal, rules_of), chooser, max_moves)
    return BlindGame(
        variant=rules_of.name,
        fingerprint=rules_of.fingerprint,
        deal=the_deal.number,
        cards=tuple(the_deal.cards),
        strategy=_strategy_name(strategy, chooser),
        won=score == len(the_deal.cards),
        score=score,
        moves=moves,
        stats=BlindStats(positions=positions, seconds=time.perf_counter() - started),
        rules=rules_of,
    )


def wilson(won: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a rate ``won / n`` (95% by default).

    >>> [round(x, 4) for x in wilson(407, 2400)]
    [0.1551, 0.1851]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = won / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
