"""Every written form of a move: the one module that reads and writes them.

A :class:`Move` is one move of any family: ``turn`` (cards from the stock),
``redeal``, ``move`` (a card from a place to a place), and in the two-deck
games ``deal`` (a round onto the piles) and ``jewel`` (a jewel opened into a
space). It is written in four forms, each read back by its pair:

- **the solution format** (docs/rules/solution-format.md): JSON naming every
  card, :meth:`Move.to_json` and :meth:`Move.from_json`; :meth:`Move.text`
  is its JSON text, which the core's ``csrc/search/linetext.c`` writes byte
  for byte;
- **the text form**, one line of the command line (``solve`` prints it,
  ``hint --moves`` reads it): ``str(move)`` and :meth:`Move.parse`, with
  the solution format's places and cards (``8♥ waste → cell``, ``turn 9♣``);
- **the player's notation**: JSON naming no card the player cannot see (a
  turn, a deal, a redeal and a jewel name none) and numbering the places a
  player chooses among (``cell:2``, ``corner:3``), :func:`move_json` and
  :func:`parse_move` (the web game's moves, :class:`~solver.session.Game`'s);
- **the words a player reads** (the web page, the hints, a game's errors):
  :func:`say`, in the tenses of :data:`TENSES`, and :func:`step_text` and
  :func:`step_name` for a step of a game (a player's move and what the rules
  then did by themselves). They name no hidden card, and write a place as
  the page labels it (:func:`say_place`): ``cell 2``, ``pile 7``,
  ``King base ♥``, ``foundation ♣``.

Machine forms write ``cell:2``; words for a player write ``cell 2``.

>>> m = Move.move(Card.parse("8H"), "waste", "cell")       # as the solver plays it
>>> str(m), m.text()
('8♥ waste → cell', '{"action": "move", "card": "8H", "from": "waste", "to": "cell"}')
>>> p = Move.move(Card.parse("8H"), "waste", "cell:2")     # as a player plays it: which cell
>>> move_json(p)
{'action': 'move', 'from': 'waste', 'to': 'cell:2', 'card': '8H'}
>>> say(p), say(p, "done")
('Play 8♥ waste → cell 2', 'Played 8♥ waste → cell 2')
>>> turn = Move.turn([Card.parse("9C")])
>>> str(turn), move_json(turn), say(turn), say(turn, "done"), say(turn, "name")
('turn 9♣', {'action': 'turn'}, 'Turn the stock', 'Turned the stock', 'turn the stock')
>>> Move.parse(str(m)) == m == Move.from_json(m.to_json()) and parse_move(move_json(p)) == p
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard, get_args

from .cards import SUIT_SYMBOLS, Card, CardError
from .errors import IllegalMoveError, MoveError
from .inputs import brief, check_depth

__all__ = [
    "Move",
    "MoveError",
    "IllegalMoveError",
    "PLACES",
    "FOUNDATIONS",
    "INDEXED_PLACES",
    "is_place",
    "place_kind",
    "place_index",
    "ACTIONS",
    "BLIND_ACTIONS",
    "HOME_PLACES",
    "parse_move",
    "move_json",
    "Tense",
    "TENSES",
    "say",
    "say_place",
    "step_text",
    "step_name",
    "describe",
    "describe_move",
]

# ---------------------------------------------------------------------------
# Places

#: Places a card can be moved from or to (the solution format's names).
PLACES = ("stock", "waste", "cell", "reserve", "corner", "tomb")
FOUNDATIONS = ("corner", "tomb")

#: Indexed places of the two-deck games: kind -> the indexes allowed.
#: ``pile:3``, ``kbase:H``, ``lid:2``, ``reserve:1``, ``foundation:S``...
INDEXED_PLACES = {
    "pile": tuple(str(i) for i in range(1, 13)),
    "kbase": tuple("CSHD"),
    "abase": tuple("CSHD"),
    "lid": tuple(str(i) for i in range(1, 6)),
    "side": tuple(str(i) for i in range(1, 5)),
    "bottom": tuple(str(i) for i in range(1, 5)),
    "reserve": tuple(str(i) for i in range(1, 4)),
    "foundation": tuple("CSHD"),
}


def is_place(text: object) -> TypeGuard[str]:
    """A place name of the solution format: ``waste``, ``pile:3``, ``kbase:H``..."""
    if not isinstance(text, str):
        return False
    if text in PLACES:
        return True
    kind, sep, index = text.partition(":")
    return bool(sep) and index in INDEXED_PLACES.get(kind, ())


def place_kind(place: str) -> str:
    """``pile`` of ``pile:3``; a place without an index is its own kind."""
    return place.partition(":")[0]


def place_index(place: str) -> str:
    """``3`` of ``pile:3``, ``H`` of ``kbase:H``; ``""`` for a place without an index."""
    return place.partition(":")[2]


# ---------------------------------------------------------------------------
# The move, the solution format and the text form


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``turn`` (cards from the stock), ``redeal`` or ``move`` (one card);
    in the two-deck games also ``deal`` (a round onto the piles) and ``jewel``
    (a jewel turned into a space: ``card`` and ``dst``)."""

    action: str
    cards: tuple[Card, ...] = ()
    card: Card | None = None
    src: str | None = None
    dst: str | None = None
    #: The JSON text of to_json, once made (:meth:`text`): a line's moves
    #: are few distinct objects (solver.core keeps one a move).
    _text: str | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def turn(cls, cards: Iterable[Card]) -> Move:
        return cls("turn", cards=tuple(cards))

    @classmethod
    def redeal(cls) -> Move:
        return cls("redeal")

    @classmethod
    def deal(cls, cards: Iterable[Card]) -> Move:
        return cls("deal", cards=tuple(cards))

    @classmethod
    def jewel(cls, card: Card, dst: str) -> Move:
        return cls("jewel", card=card, dst=dst)

    @classmethod
    def move(cls, card: Card, src: str, dst: str) -> Move:
        return cls("move", card=card, src=src, dst=dst)

    def to_json(self) -> dict[str, Any]:
        if self.action in ("turn", "deal"):
            return {"action": self.action, "cards": [str(c) for c in self.cards]}
        if self.action == "redeal":
            return {"action": "redeal"}
        if self.action == "jewel":
            return {"action": "jewel", "card": str(self.card), "to": self.dst}
        return {"action": "move", "card": str(self.card), "from": self.src, "to": self.dst}

    def text(self) -> str:
        """The JSON text of :meth:`to_json`."""
        text = self._text
        if text is None:
            if self.action in ("turn", "deal"):
                # Card names are letters and digits: JSON strings as they are.
                cards = ", ".join(f'"{c}"' for c in self.cards)
                text = f'{{"action": "{self.action}", "cards": [{cards}]}}'
            else:
                text = json.dumps(self.to_json(), ensure_ascii=False)
            object.__setattr__(self, "_text", text)
        return text

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read one move of the solution format; raise :class:`MoveError` saying what is wrong."""
        if not isinstance(data, dict):
            raise MoveError(f"a move must be a JSON object, not {brief(data)}")
        check_depth(data, "a move", MoveError, limit=4)
        action = data.get("action")
        try:
            if action in ("turn", "deal"):
                cards = data.get("cards")
                if not isinstance(cards, list) or not cards:
                    raise MoveError(f"a {action} needs a non-empty list 'cards': {brief(data)}")
                return cls(action, cards=tuple(Card.parse(str(c)) for c in cards))
            if action == "redeal":
                return cls.redeal()
            if action == "jewel":
                card, dst = data.get("card"), data.get("to")
                if not isinstance(card, str):
                    raise MoveError(f"a jewel needs a 'card': {brief(data)}")
                if not is_place(dst):
                    raise MoveError(f"unknown place {brief(dst)} in 'to' of {brief(data)}")
                return cls.jewel(Card.parse(card), dst)
            if action == "move":
                card, src, dst = data.get("card"), data.get("from"), data.get("to")
                if not isinstance(card, str):
                    raise MoveError(f"a move needs a 'card': {brief(data)}")

                def checked(name: str, place: object) -> str:
                    if not is_place(place):
                        raise MoveError(
                            f"unknown place {brief(place)} in '{name}' of {brief(data)}; places are"
                            f" {', '.join(PLACES)}, or {', '.join(k + ':N' for k in INDEXED_PLACES)}"
                        )
                    return place

                src, dst = checked("from", src), checked("to", dst)
                return cls.move(Card.parse(card), src, dst)
        except CardError as exc:
            raise MoveError(f"{exc} in move {brief(data)}") from None
        raise MoveError(f"unknown action {brief(action)} in {brief(data)}; actions are turn, redeal, move, deal, jewel")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move back from the notation ``str(move)`` prints (the places
        of the solution format; ``->`` may stand for ``→``); raise
        :class:`MoveError` saying what is wrong.

        >>> Move.parse("10♥ waste → corner"), Move.parse("turn 9♣ 2♦ 8S")
        (Move.move(TH, 'waste', 'corner'), Move.turn(9C 2D 8S))
        >>> Move.parse("jewel 6H -> bottom:2"), Move.parse("redeal")
        (Move.jewel(6H, 'bottom:2'), Move.redeal())
        >>> Move.parse("8♥ waste → pile")
        Traceback (most recent call last):
        ...
        solver.errors.MoveError: unknown place 'pile' in move '8♥ waste → pile'; places are ...
        """
        if not isinstance(text, str):
            raise MoveError(f"a move must be text, not {brief(text)}")
        words = text.replace("->", "→").replace("→", " → ").split()
        try:
            return cls._parse_words(words, text)
        except CardError as exc:
            raise MoveError(f"{exc} in move {brief(text)}") from None

    @classmethod
    def _parse_words(cls, words: list[str], text: str) -> Move:
        def place(word: str) -> str:
            if not is_place(word):
                raise MoveError(
                    f"unknown place {brief(word)} in move {brief(text)}; places are {', '.join(PLACES)},"
                    f" or {', '.join(k + ':N' for k in INDEXED_PLACES)}"
                )
            return word

        if not words:
            raise MoveError("an empty text is not a move")
        head, rest = words[0], words[1:]
        if head in ("turn", "deal") and "→" not in rest:
            return cls(head, cards=tuple(Card.parse(w) for w in rest))
        if head == "redeal" and not rest:
            return cls.redeal()
        if head == "jewel" and rest[-2:-1] == ["→"] and len(rest) in (2, 3):
            card = Card.parse(rest[0]) if len(rest) == 3 else None
            return cls("jewel", card=card, dst=place(rest[-1]))
        if len(words) in (3, 4) and words[-2] == "→":
            card = Card.parse(words[0]) if len(words) == 4 else None
            return cls("move", card=card, src=place(words[-3]), dst=place(words[-1]))
        raise MoveError(
            f"{brief(text)} is not a move: expected 'turn CARDS', 'deal CARDS', 'redeal',"
            " 'jewel CARD → PLACE' or 'CARD FROM → TO' (such as '8♥ waste → cell')"
        )

    def __str__(self) -> str:
        card = self.card.pretty() + " " if self.card is not None else ""
        if self.action in ("turn", "deal"):
            return " ".join([self.action, *(c.pretty() for c in self.cards)])
        if self.action == "redeal":
            return "redeal"
        if self.action == "jewel":
            return f"jewel {card}→ {self.dst}"
        return f"{card}{self.src} → {self.dst}"

    def __repr__(self) -> str:
        if self.action in ("turn", "deal"):
            return f"Move.{self.action}({' '.join(map(str, self.cards))})"
        if self.action == "redeal":
            return "Move.redeal()"
        if self.action == "jewel":
            return f"Move.jewel({self.card}, {self.dst!r})"
        return f"Move.move({self.card}, {self.src!r}, {self.dst!r})"


# ---------------------------------------------------------------------------
# The player's notation

#: The actions of the player's notation, and the ones that name no card.
ACTIONS = ("turn", "deal", "redeal", "jewel", "move")
BLIND_ACTIONS = ("turn", "deal", "redeal", "jewel")

#: The places a card goes home to, in the player's notation (every family).
HOME_PLACES = frozenset(("corner", "tomb", "kbase", "abase", "foundation"))

#: The fields of a move of the player's notation. ``text`` is the words
#: :func:`move_json` adds for the page (``text=True``); it is read and ignored,
#: so that a move the server sent can be sent back as it came.
_FIELDS = ("action", "from", "to", "card", "text")


def parse_move(data: Any) -> Move:
    """A move of the player's notation from its JSON object; raise
    :class:`~solver.errors.MoveError` saying what is wrong. A turn, a deal or a
    jewel that names cards is refused: the player cannot see them.

    >>> parse_move({"action": "move", "from": "waste", "to": "corner:2"})
    Move.move(None, 'waste', 'corner:2')
    >>> parse_move({"action": "turn", "text": "Turn the stock"})
    Move.turn()
    >>> parse_move({"action": "turn", "cards": ["AS"]})
    Traceback (most recent call last):
    ...
    solver.errors.MoveError: a turn names no card: the player cannot see the stock
    """
    if isinstance(data, Move):
        return data
    if not isinstance(data, dict):
        raise MoveError(f"a move must be a JSON object, not {brief(data)}")
    check_depth(data, "a move", MoveError, limit=4)
    action = data.get("action")
    if action not in ACTIONS:
        raise MoveError(f"unknown action {brief(action)}; actions are {', '.join(ACTIONS)}")
    if action in BLIND_ACTIONS and ("card" in data or "cards" in data):
        hidden = {"turn": "the stock", "deal": "the stock", "jewel": "the jewels", "redeal": "the stock"}
        raise MoveError(f"a {action} names no card: the player cannot see {hidden[action]}")
    extra = set(data) - set(_FIELDS)
    if extra:
        raise MoveError(f"unknown field {brief(sorted(extra)[0])} in a move; fields are {', '.join(_FIELDS)}")
    if "text" in data and not isinstance(data["text"], str):
        raise MoveError(f"'text' of a move must be text, not {brief(data['text'])}")
    if action in BLIND_ACTIONS:
        if action == "jewel" and "to" in data:
            if not isinstance(data["to"], str):
                raise MoveError(f"'to' of a jewel must be a place name, not {brief(data['to'])}")
            return Move("jewel", dst=data["to"])
        if "from" in data or "to" in data:
            raise MoveError(f"a {action} takes no 'from' or 'to'")
        return Move(action)
    src, dst = data.get("from"), data.get("to")
    for name, place in (("from", src), ("to", dst)):
        if not isinstance(place, str) or not place:
            raise MoveError(f"a move needs '{name}': a place name such as 'waste', 'cell:2' or 'pile:7'")
    return Move("move", card=_named_card(data.get("card")), src=src, dst=dst)


def _named_card(text: object) -> Card | None:
    """The card a move of the player's notation names, if any."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise MoveError(f"'card' must be a card such as '8H', not {brief(text)}")
    try:
        return Card.parse(text)
    except CardError as exc:
        raise MoveError(str(exc)) from None


def move_json(move: Move, *, text: bool = False) -> dict[str, Any]:
    """The JSON object of a move in the player's notation (no hidden card);
    ``text``: with the words of what to do, :func:`say` (``"text"``).

    >>> move_json(Move.move(Card.parse("8H"), "waste", "cell:2"))
    {'action': 'move', 'from': 'waste', 'to': 'cell:2', 'card': '8H'}
    >>> move_json(Move.turn([Card.parse("9C")]), text=True)
    {'action': 'turn', 'text': 'Turn the stock'}
    """
    out: dict[str, Any]
    if move.action == "move":
        out = {"action": "move", "from": move.src, "to": move.dst}
        if move.card is not None:
            out["card"] = str(move.card)
    elif move.action == "jewel" and move.dst:
        out = {"action": "jewel", "to": move.dst}
    else:
        out = {"action": move.action}
    if text:
        out["text"] = say(move)
    return out


# ---------------------------------------------------------------------------
# The words a player reads

#: The tenses of :func:`say`: ``do``, what to do (a hint: "Turn the stock");
#: ``done``, what the player just did ("Turned the stock"); ``auto``, what the
#: rules then did by themselves ("the next jewel opened into lid 2"); ``name``,
#: the move named inside a sentence (an error, an undo: "turn the stock").
Tense = Literal["do", "done", "auto", "name"]
TENSES: tuple[Tense, ...] = get_args(Tense)

#: Each action's words in each tense of :data:`TENSES`. ``{card}``: the
#: card moved and a space, when it is named; ``{src}``, ``{dst}``: places as
#: :func:`say_place` writes them; ``{into}``: " into " and the jewel's place.
WORDS: dict[str, tuple[str, str, str, str]] = {
    "turn": ("turn the stock", "turned the stock", "the stock turned", "turn the stock"),
    "deal": ("deal a round", "dealt a round", "a round dealt", "deal a round"),
    "redeal": ("redeal", "redealt", "the stock redealt", "redeal"),
    "jewel": (
        "open the next jewel{into}",
        "opened the next jewel{into}",
        "the next jewel opened{into}",
        "open the next jewel{into}",
    ),
    "move": ("play {card}{src} → {dst}", "played {card}{src} → {dst}", "{card}{src} → {dst}", "{card}{src} → {dst}"),
}

#: The words of the places whose name is not the page's label.
_PLACE_WORDS = {"stock": "turned card", "kbase": "King base", "abase": "Ace base"}


def say_place(place: str | None) -> str:
    """A place as a player reads it (the page's label): ``cell 2`` of
    ``cell:2``, ``King base ♥`` of ``kbase:H``, ``turned card`` of ``stock``
    (the jewel box's turned card: no card leaves the Tomb's stock).

    >>> say_place("pile:7"), say_place("foundation:C"), say_place("abase"), say_place("waste")
    ('pile 7', 'foundation ♣', 'Ace base', 'waste')
    """
    if not place:
        return "?"
    kind, sep, index = place.partition(":")
    word = _PLACE_WORDS.get(kind, kind)
    if not sep:
        return word
    return f"{word} {SUIT_SYMBOLS.get(index, index) if kind in ('kbase', 'abase', 'foundation') else index}"


def say(move: Move, tense: Tense = "do", *, capital: bool | None = None) -> str:
    """The words of ``move`` in ``tense`` (:data:`TENSES`), for a player: no
    card the player cannot see (a turn's, a deal's, a jewel's), the places
    as the page labels them. ``do`` and ``done`` begin a sentence with a
    capital, ``auto`` and ``name`` go inside one; ``capital`` says otherwise.

    >>> jewel = Move.jewel(Card.parse("QH"), "lid:2")
    >>> [say(jewel, t) for t in TENSES]
    ['Open the next jewel into lid 2', 'Opened the next jewel into lid 2', 'the next jewel opened into lid 2', \
'open the next jewel into lid 2']
    >>> say(Move("move", src="waste", dst="cell:1"), "name"), say(Move.redeal(), capital=False)
    ('waste → cell 1', 'redeal')
    """
    words = WORDS.get(move.action)
    if words is None:
        text = move.action
    else:
        text = words[TENSES.index(tense)].format(
            card=move.card.pretty() + " " if move.card is not None else "",
            src=say_place(move.src),
            dst=say_place(move.dst),
            into=f" into {say_place(move.dst)}" if move.dst else "",
        )
    if capital is None:
        capital = tense in ("do", "done")
    return text[:1].upper() + text[1:] if capital else text


def step_text(step: Sequence[Move]) -> str:
    """The sentence saying what a step of a game did: the player's move and
    what the rules then did by themselves (what the page says after a move).

    >>> C = Card.parse
    >>> step_text([Move.move(C("JD"), "waste", "cell:1"), Move.move(C("5H"), "cell:2", "tomb")])
    'Played J♦ waste → cell 1; then by itself: 5♥ cell 2 → tomb.'
    >>> step_text([Move.move(C("9C"), "lid:2", "foundation:C"), Move("jewel", dst="lid:2")])
    'Played 9♣ lid 2 → foundation ♣; then by itself: the next jewel opened into lid 2.'
    """
    if not step:
        return ""
    first, *auto = step
    then = f"; then by itself: {', '.join(say(m, 'auto') for m in auto)}" if auto else ""
    return f"{say(first, 'done')}{then}."


def step_name(step: Sequence[Move]) -> str:
    """A step of a game named inside a sentence (what the page says after
    an undo or a redo).

    >>> step_name([Move.turn([Card.parse("9C")])])
    'turn the stock'
    >>> step_name([Move.move(Card.parse("JD"), "waste", "cell:1"), Move("jewel", dst="lid:2")])
    'J♦ waste → cell 1, then the next jewel opened into lid 2'
    """
    if not step:
        return ""
    first, *auto = step
    return ", then ".join([say(first, "name"), *(say(m, "auto") for m in auto)])


def describe(move: Move) -> str:
    """A move named inside a sentence: :func:`say` in the tense ``name``
    (a game's error messages begin with it).

    >>> describe(Move.move(Card.parse("8H"), "waste", "cell:2")), describe(Move("deal"))
    ('8♥ waste → cell 2', 'deal a round')
    """
    return say(move, "name")


def describe_move(move: Move) -> str:
    """A move as a hint says it: :func:`say` in the tense ``do``. A turn does
    not name the cards it turns (the player is not shown the stock); the
    move's JSON does.

    >>> describe_move(Move.move(Card.parse("8H"), "waste", "cell"))
    'Play 8♥ waste → cell'
    >>> describe_move(Move.turn([Card.parse("9C")])), describe_move(Move.redeal())
    ('Turn the stock', 'Redeal')
    >>> describe_move(Move.deal([Card.parse("9C")])), describe_move(Move("jewel", dst="lid:2"))
    ('Deal a round', 'Open the next jewel into lid 2')
    """
    return say(move, "do")
