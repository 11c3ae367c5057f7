"""The public API: :func:`solve`, :class:`Limit`, :class:`Result`, positions.

>>> result = solve(1, "napoleons-tomb")
>>> result.verdict in ("won", "lost")
True
>>> Result.from_json(result.to_json()) == result
True
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from . import core, families
from .cards import DECK, Card, CardError
from .deals import Deal, DealError, number_from_text
from .errors import LimitError as LimitError
from .errors import ResultError as ResultError
from .errors import SolverError, VariantError
from .families import AnyPosition
from .inputs import brief, check_depth, load_json
from .notation import Move, MoveError
from .variants import FINGERPRINT_BYTES, BaseVariant, load, names
from .vocabulary import REASONS, VERDICTS, Reason, Verdict

if TYPE_CHECKING:
    from .blind import BlindGame

DEFAULT_VARIANT = "napoleons-tomb"


#: The largest count of positions or bytes a limit may give (the core counts
#: them in 64 bits); ``None`` is no bound at all.
LIMIT_MAX = 2**63 - 1
MIB = 2**20


Cancel = core.Cancel


@dataclass(frozen=True)
class Limit:
    """Bounds on one search; ``None`` means no bound. A search stopped by a bound
    answers ``unknown`` with the bound as its reason, never ``lost``.

    >>> Limit(seconds=5).positions
    50000000
    """

    positions: int | None = 50_000_000
    seconds: float | None = 10.0
    memory: int | None = 2 * 2**30

    def __post_init__(self) -> None:
        for name, kinds in (("positions", (int,)), ("seconds", (int, float)), ("memory", (int,))):
            value = getattr(self, name)
            if value is None:
                continue
            finite = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
            if isinstance(value, bool) or not isinstance(value, kinds) or not finite or value <= 0:
                what = "a positive whole number" if kinds == (int,) else "a positive finite number"
                raise LimitError(f"Limit.{name} must be {what} or None, not {brief(value)}")
            if value > LIMIT_MAX:
                unit = " (bytes)" if name == "memory" else " (seconds)" if name == "seconds" else ""
                shown = f"{value:,}" if value < 10**30 else brief(value)
                raise LimitError(f"Limit.{name}{unit} must be at most {LIMIT_MAX:,} (None: no bound), not {shown}")

    @staticmethod
    def given(limit: object, default: Limit) -> Limit:
        """``limit``, a :class:`Limit`, or ``default`` for None; anything else
        (a number, 0) raises :class:`LimitError`."""
        if limit is None:
            return default
        if not isinstance(limit, Limit):
            raise LimitError(f"limit must be a Limit (Limit(seconds=5), Limit.none()) or None, not {brief(limit)}")
        return limit

    @classmethod
    def none(cls) -> Limit:
        """No bound at all: the search runs until it decides the deal."""
        return cls(positions=None, seconds=None, memory=None)


@dataclass(frozen=True)
class Stats:
    """What a search counted. Bytes are those of the C core's account
    (docs/search.md, "Limits and resuming"): ``table_bytes`` the position
    tables and the summaries when it stopped, ``peak_bytes`` every part at
    once at their largest, ``held_bytes`` every part when it stopped, ``held``
    those parts by name (largest first), ``refused_bytes`` the growth the
    memory limit refused (0: none)."""

    positions: int = 0
    seconds: float = 0.0
    table_bytes: int = 0
    peak_bytes: int = 0
    held_bytes: int = 0
    held: tuple[tuple[str, int], ...] = ()
    refused_bytes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "seconds": round(self.seconds, 6),
            "table_bytes": self.table_bytes,
            "peak_bytes": self.peak_bytes,
            "held_bytes": self.held_bytes,
            "held": dict(self.held),
            "refused_bytes": self.refused_bytes,
        }

    def text(self) -> str:
        """The JSON text of :meth:`to_json`, written field by field where the
        fields are plain numbers (a batch writes one a deal)."""
        counts = (self.positions, self.table_bytes, self.peak_bytes, self.held_bytes, self.refused_bytes)
        held = dict(self.held)
        seconds = round(self.seconds, 6)
        if (
            not _INT_TYPE.issuperset(map(type, counts))
            or type(seconds) is not float
            or not math.isfinite(seconds)
            or not _INT_TYPE.issuperset(map(type, held.values()))
        ):
            return _ENCODE(self.to_json())
        parts = ", ".join([f"{_ENCODE(name)}: {b}" for name, b in held.items()])
        return (
            f'{{"positions": {self.positions}, "seconds": {seconds!r}, "table_bytes": {self.table_bytes}, '
            f'"peak_bytes": {self.peak_bytes}, "held_bytes": {self.held_bytes}, "held": {{{parts}}}, '
            f'"refused_bytes": {self.refused_bytes}}}'
        )

    @classmethod
    def from_json(cls, s: Any) -> Stats:
        """Read the stats of a result back; raise :class:`ResultError` naming the bad field."""
        if not isinstance(s, dict):
            raise ResultError(f"result: field 'stats' must be an object, not {brief(s)}")
        for key, kind in (
            ("positions", int),
            ("seconds", (int, float)),
            ("table_bytes", int),
            ("peak_bytes", int),
            ("held_bytes", int),
            ("refused_bytes", int),
        ):
            if key in s and (isinstance(s[key], bool) or not isinstance(s[key], kind)):
                raise ResultError(f"result: field 'stats.{key}' must be a number, not {brief(s[key])}")
        held = s.get("held", {})
        if not isinstance(held, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in held.items()
        ):
            raise ResultError(f"result: field 'stats.held' must be an object of byte counts, not {brief(held)}")
        return cls(
            int(s.get("positions", 0)),
            float(s.get("seconds", 0.0)),
            int(s.get("table_bytes", 0)),
            int(s.get("peak_bytes", 0)),
            int(s.get("held_bytes", 0)),
            tuple(held.items()),
            int(s.get("refused_bytes", 0)),
        )

    def held_text(self) -> str:
        """What the search held, for a stop by the memory limit."""
        parts = ", ".join(f"{name} {b / MIB:.1f} MiB" for name, b in self.held if b >= MIB / 20)
        text = f"the search held {self.held_bytes / MIB:.1f} MiB" + (f" ({parts})" if parts else "")
        if self.refused_bytes:
            text += f" and needed {self.refused_bytes / MIB:.1f} MiB more"
        return text


#: json.dumps(..., ensure_ascii=False), its encoder made once; and each
#: card's JSON string (Result.text_with).
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_CARD_TEXTS = tuple(f'"{c}"' for c in DECK)
_INT_TYPE = frozenset((int,))


@functools.lru_cache(maxsize=64)
def _head_text(variant: str, fingerprint: str | None) -> str:
    return f'{{"variant": {_scalar_text(variant)}, "fingerprint": {_scalar_text(fingerprint)}, "deal": '


def _cards_text(cards: Iterable[Card]) -> str:
    return ", ".join([_CARD_TEXTS[c.index] for c in cards])


def _result_text(
    variant: str,
    fingerprint: str | None,
    deal: int | None,
    cards: str,
    verdict: str,
    reason: str | None,
    score: int,
    moves: str,
    stats: str,
) -> str:
    """The JSON text of a result (Result.dumps), of its fields, its cards'
    and its moves' texts joined by ", " and its stats' text."""
    v = _scalar_text
    return (
        f'{_head_text(variant, fingerprint)}{v(deal)}, "cards": [{cards}], "verdict": {v(verdict)}, '
        f'"reason": {v(reason)}, "score": {v(score)}, "moves": [{moves}], "stats": {stats}}}'
    )


def _scalar_text(value: object) -> str:
    """The JSON text of a string, a whole number or None; json's encoder
    takes a microsecond for a number, which str() writes alike."""
    kind = type(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    return _ENCODE(value)


@dataclass(frozen=True)
class Result:
    """What a search found. ``moves`` play from the start of the deal (a search
    from a later position lists the moves already played first: ``played`` of
    them), and end at ``score`` cards home: a win, or for a lost deal the most
    cards any line brings home."""

    variant: str
    deal: int | None
    cards: tuple[Card, ...]
    verdict: Verdict
    reason: Reason | None
    score: int
    moves: tuple[Move, ...]
    stats: Stats = field(default_factory=Stats, compare=False)
    played: int = field(default=0, compare=False)
    #: The variant's rules fingerprint (:attr:`BaseVariant.fingerprint`);
    #: ``None`` for a result read from JSON written before results carried it.
    fingerprint: str | None = None
    #: The variant object itself, for variants loaded from a file of the user's.
    rules: BaseVariant | None = field(default=None, compare=False, repr=False)

    @property
    def won(self) -> bool:
        return self.verdict == "won"

    def _head(self) -> dict[str, Any]:
        """The fields of :meth:`to_json` before the moves."""
        return {
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "deal": self.deal,
            "cards": [str(c) for c in self.cards],
            "verdict": self.verdict,
            "reason": self.reason,
            "score": self.score,
        }

    def to_json(self) -> dict[str, Any]:
        """The object of ``docs/rules/solution-format.md``."""
        return {**self._head(), "moves": [m.to_json() for m in self.moves], "stats": self.stats.to_json()}

    def dumps(self, **kwargs: Any) -> str:
        """The JSON text of :meth:`to_json` (``kwargs``: those of json.dumps).
        Without kwargs, each move's text is made once (:meth:`Move.text`): a
        batch writes one result a deal."""
        if kwargs:
            return json.dumps(self.to_json(), ensure_ascii=False, **kwargs)
        return self.text_with(", ".join(m.text() for m in self.moves))

    def text_with(self, moves: str) -> str:
        """:meth:`dumps` with ``moves`` for the moves' texts (joined by ", "):
        for a batch, whose core writes them (Search.line_text) without
        making the moves."""
        return _result_text(
            self.variant,
            self.fingerprint,
            self.deal,
            _cards_text(self.cards),
            self.verdict,
            self.reason,
            self.score,
            moves,
            self.stats.text(),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> Result:
        """Read a result back; raise :class:`ResultError` naming the bad field."""
        if isinstance(data, (str, bytes)):
            data = load_json(data, "result", ResultError)
        else:
            check_depth(data, "result", ResultError)
        data = _checked_head(data)
        stats = Stats.from_json(data.get("stats", {}))
        if not isinstance(data["cards"], list) or not isinstance(data["moves"], list):
            raise ResultError("result: fields 'cards' and 'moves' must be lists")
        try:
            cards = tuple(Card.parse(str(c)) for c in data["cards"])
        except CardError as exc:
            raise ResultError(f"result: field 'cards': {exc}") from None
        moves = []
        for i, m in enumerate(data["moves"], 1):
            try:
                moves.append(Move.from_json(m))
            except MoveError as exc:
                raise ResultError(f"result: move {i}: {exc}") from None
        return cls(
            variant=data["variant"],
            deal=data["deal"],
            cards=cards,
            verdict=data["verdict"],
            reason=data["reason"],
            score=data["score"],
            moves=tuple(moves),
            stats=stats,
            fingerprint=data.get("fingerprint"),
        )

    @classmethod
    def loads(cls, text: str) -> Result:
        return cls.from_json(text)

    def position(self, moves: int | None = None) -> AnyPosition:
        """The position after the first ``moves`` moves of this result (all by default),
        replayed by the reference engine."""
        return line_position(self, moves, "the result was found")

    def _label(self) -> str:
        """The variant's name, and its fingerprint when the rules are not the shipped ones."""
        if self.fingerprint is None or self.variant not in names():
            return self.variant if self.fingerprint is None else f"{self.variant} (rules {self.fingerprint})"
        if load(self.variant).fingerprint == self.fingerprint:
            return self.variant
        return f"{self.variant} (rules {self.fingerprint}, not the shipped ones)"

    def __str__(self) -> str:
        name = f"deal {self.deal}" if self.deal is not None else "the given deal"
        head = f"{self._label()}, {name}: {self.verdict.upper()}"
        if self.verdict == "unknown":
            head += " (interrupted)" if self.reason == "interrupted" else f" (stopped by the {self.reason} limit)"
        total = self.rules.cards if self.rules is not None else (104 if len(self.cards) > 52 else 52)
        head += f", {self.score}/{total} cards home"
        if self.verdict == "lost":
            head += " at best (proven: no line does better)"
        lines = [head]
        if self.reason == "memory":
            text = self.stats.held_text()
            lines.append(text[0].upper() + text[1:] + ".")
        if self.played:
            lines.append(f"(moves 1-{self.played} were played before the search)")
        width = len(str(len(self.moves)))
        lines += [f"{i:>{width}}. {m}" for i, m in enumerate(self.moves, 1)]
        st = self.stats
        lines.append(
            f"{st.positions:,} positions, {st.seconds:.3f} s, table {st.table_bytes / MIB:.1f} MiB, "
            f"{st.peak_bytes / MIB:.1f} MiB at most in all"
        )
        return "\n".join(lines)


def line_position(line: Result | BlindGame, moves: int | None, found: str) -> AnyPosition:
    """The position after the first ``moves`` moves of a result's or a blind
    game's line (all by default), replayed by the reference engine under its
    rules (``found``: how the line came, for the message when the shipped
    variant's rules are no longer those)."""
    count = len(line.moves) if moves is None else moves
    if not 0 <= count <= len(line.moves):
        raise ResultError(f"a move count of {count} is not 0..{len(line.moves)}")
    decks = 2 if len(line.cards) > 52 else 1
    deal = Deal(line.cards, line.deal, decks) if line.deal is not None else Deal.from_cards(line.cards, decks)
    rules = line.rules or load(line.variant)
    if line.fingerprint is not None and rules.fingerprint != line.fingerprint:
        raise VariantError(
            f"{found} under the rules {line.fingerprint} of {line.variant}, "
            f"not those of the shipped variant ({rules.fingerprint}): "
            "replay it with solver.position_after and the variant file's variant"
        )
    return position_after(deal, rules, line.moves[:count])


def _checked_head(data: object) -> dict[str, Any]:
    """A result's JSON object, its fields before its cards and moves checked
    each of its type; raise :class:`ResultError` naming the first that is not."""
    if not isinstance(data, dict):
        raise ResultError("result: expected a JSON object")
    if "verdict" not in data and "won" in data and "strategy" in data:
        raise ResultError(
            "result: this is a blind player's game, which has no verdict: read it with BlindGame.from_json"
        )
    for key in ("variant", "deal", "cards", "verdict", "reason", "score", "moves"):
        if key not in data:
            raise ResultError(f"result: field {key!r} is missing")
    if data["reason"] == "blind":
        raise ResultError(
            "result: reason 'blind' is that of a blind player's game (solver.blind.play), which is"
            " no search's verdict and proves nothing about the deal: read it with"
            " BlindGame.from_json"
        )
    if data["verdict"] not in VERDICTS:
        raise ResultError(f"result: verdict {brief(data['verdict'])} is not one of {', '.join(VERDICTS)}")
    if data["reason"] is not None and data["reason"] not in REASONS:
        raise ResultError(f"result: reason {brief(data['reason'])} is not null or one of {', '.join(REASONS)}")
    if not isinstance(data["variant"], str) or not data["variant"]:
        raise ResultError(f"result: field 'variant' must be a variant name, not {brief(data['variant'])}")
    fingerprint = data.get("fingerprint")
    if fingerprint is not None and not _is_fingerprint(fingerprint):
        raise ResultError(f"result: field 'fingerprint' must be null or 16 hex digits, not {brief(fingerprint)}")
    deal = data["deal"]
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 1):
        raise ResultError(f"result: field 'deal' must be null or a deal number, not {brief(deal)}")
    score = data["score"]
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 104:
        raise ResultError(f"result: field 'score' must be a whole number 0..104, not {brief(score)}")
    return data


def _is_fingerprint(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) == 2 * FINGERPRINT_BYTES and all(c in "0123456789abcdef" for c in value)
    )


#: What names a deal: its number, its cards as text, a Deal, or its cards.
DealLike = int | str | Deal | Iterable[Card]


def to_deal(deal: DealLike, decks: int = 1) -> Deal:
    """A deal number, a :class:`Deal`, a card text or a sequence of cards, as a
    Deal of ``decks`` decks."""
    if isinstance(deal, Deal):
        if deal.decks != decks:
            raise DealError(f"the deal has {deal.decks} deck(s); this game is played with {decks}")
        return deal
    if isinstance(deal, bool):
        raise DealError(f"a deal is a number or cards, not {brief(deal)}")
    if isinstance(deal, int):
        return Deal.from_number(deal, decks)
    if isinstance(deal, str):
        text = deal.strip()
        if text.isascii() and text.isdigit():
            return Deal.from_number(number_from_text(text), decks)
        return Deal.parse(text, decks)
    return Deal.from_cards(deal, decks)


def start_position(deal: DealLike, variant: str | BaseVariant = DEFAULT_VARIANT) -> AnyPosition:
    """The start of a deal: every card in the stock (for the two-deck games,
    the layout their rules deal)."""
    v = load(variant)
    start: AnyPosition = families.of(v).position.start(to_deal(deal, v.decks), v)
    return start


def position_after(deal: DealLike, variant: str | BaseVariant, moves: Iterable[Move | dict[str, Any]]) -> AnyPosition:
    """The position after playing ``moves`` (Move objects or solution-format dicts)
    from the start of ``deal``. The first illegal move raises
    :class:`~solver.errors.IllegalMoveError` naming it."""
    if isinstance(moves, (str, bytes, dict)) or not isinstance(moves, Iterable):
        raise MoveError(f"the moves must be a list of moves, not {brief(moves)}")
    parsed: list[Move] = []
    for i, m in enumerate(moves, 1):
        if isinstance(m, Move):
            parsed.append(m)
            continue
        try:
            parsed.append(Move.from_json(m))
        except MoveError as exc:
            raise MoveError(f"move {i}: {exc}") from None
    v = load(variant)
    after: AnyPosition = families.of(v).player.core.replay(start_position(deal, v), parsed)
    return after


def solve(
    deal: DealLike | AnyPosition,
    variant: str | BaseVariant | None = None,
    limit: Limit | None = None,
    *,
    shortcuts: bool | Iterable[str] = True,
    cancel: core.Cancel | None = None,
) -> Result:
    """Solve a deal (a number, a :class:`Deal`, a card text) or a :class:`TombPosition`.

    Returns a :class:`Result`: ``won`` with a win line, ``lost`` (every reachable
    position explored) with a line to the best score, or ``unknown`` with the
    limit that stopped the search. ``shortcuts`` switches the search shortcuts of
    docs/search.md: ``True`` all, ``False`` none, or a set of their names.
    ``cancel``: a :class:`Cancel` whose ``cancel()``, from any thread, stops
    the search (``unknown``, reason ``interrupted``).

    >>> solve(1).verdict in ("won", "lost")
    True
    """
    if families.is_position(deal):
        pos = deal
        if variant is not None and load(variant) != pos.variant:
            name = variant.name if isinstance(variant, BaseVariant) else variant
            raise VariantError(f"the position is of variant {pos.variant.name!r}, not {name!r}")
    else:
        pos = start_position(cast(DealLike, deal), DEFAULT_VARIANT if variant is None else variant)
    limit = Limit.given(limit, Limit())
    if cancel is not None and not isinstance(cancel, core.Cancel):
        raise SolverError(f"cancel must be a solver.Cancel or None, not {brief(cancel)}")
    search = core.search_for(pos, core.flags_for(shortcuts, pos.variant.family))
    search.set_limits(limit.positions, limit.seconds, limit.memory)
    out = search.outcome(search.run() if cancel is None else cancel.run(search))
    core.keep(search, out.held_bytes)
    return result_of(pos, out)


def _deal_of(pos: AnyPosition) -> tuple[int | None, tuple[Card, ...]]:
    """A result's deal number and cards, of the position searched."""
    the_deal = pos.deal
    if the_deal is not None:
        return the_deal.number, tuple(the_deal.cards)
    return None, pos.unplaced


def deal_text(variant: BaseVariant, number: int, indexes: bytes, out: core.TextOutcome) -> str | None:
    """:func:`text_of` the start of deal ``number``, whose cards' indexes
    are ``indexes`` (deals.card_indexes): its position and cards not made."""
    if out.stats is None:
        return None
    return _result_text(
        variant.name,
        variant.fingerprint,
        number,
        ", ".join(map(_CARD_TEXTS.__getitem__, indexes)),
        out.verdict,
        out.reason,
        out.score,
        out.line,
        out.stats,
    )


def text_of(pos: AnyPosition, out: core.TextOutcome) -> str | None:
    """``result_of(pos, ...).dumps()`` of the search of ``pos`` that ended
    with ``out``, written from the core's texts (what a batch stores); None
    where the core wrote no stats text."""
    if out.stats is None:
        return None
    number, cards = _deal_of(pos)
    moves = out.line
    if pos.history:
        moves = ", ".join([m.text() for m in pos.history] + ([moves] if moves else []))
    return _result_text(
        pos.variant.name,
        pos.variant.fingerprint,
        number,
        _cards_text(cards),
        out.verdict,
        out.reason,
        out.score,
        moves,
        out.stats,
    )


def result_of(pos: AnyPosition, out: core.CoreOutcome) -> Result:
    """The Result of a search of ``pos`` that ended with ``out``."""
    number, cards = _deal_of(pos)
    return Result(
        variant=pos.variant.name,
        deal=number,
        cards=cards,
        verdict=out.verdict,
        reason=out.reason,
        score=out.score,
        moves=tuple(pos.history) + out.moves,
        stats=Stats(
            out.positions, out.seconds, out.table_bytes, out.peak_bytes, out.held_bytes, out.held, out.refused_bytes
        ),
        played=len(pos.history),
        fingerprint=pos.variant.fingerprint,
        rules=pos.variant,
    )
