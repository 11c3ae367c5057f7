"""What a player may see of a position, worked out from the engines' positions
themselves (not from solver.session), to check that no view, hint or error
names a hidden card."""

from __future__ import annotations

import json
import re

_CARD = re.compile(r"\b([A2-9TJQK][CSHD])\b")


def hidden(pos) -> set[str]:
    """The names of the cards face down: the stock, and the jewels."""
    cards = list(pos.stock) + list(getattr(pos, "jewels", ()))
    return {str(c) for c in cards}


def visible(pos) -> set[str]:
    """The names of the cards face up on the table."""
    fam = pos.variant.family
    if fam == "tomb":
        cards = [*pos.waste, *pos.reserve, *pos.tomb, *(c for c in pos.cells if c)]
        cards += [c for corner in pos.corners for c in corner]
    elif fam == "napoleao":
        cards = [c for pile in pos.piles for c in pile]
    else:
        cards = [c for c in pos.lid if c] + [c for p in pos.sides + pos.bottoms + pos.reserves for c in p]
        cards += [pos.turned] if pos.turned else []
    names = {str(c) for c in cards}
    if fam == "napoleao":  # the bases show their top cards, which the view names
        from solver.cards import SUITS, Card

        names |= {str(Card(14 - n, s)) for n, s in zip(pos.kbases, SUITS) if n}
        names |= {str(Card(n, s)) for n, s in zip(pos.abases, SUITS) if n}
    if fam == "jewel":
        from solver.cards import SUITS, Card

        names |= {str(Card(n, s)) for counts, s in zip(pos.foundations, SUITS) for n in counts if n}
    return names


def _without_slots(data):
    """``data`` without what a layout's spot says it takes: its empty slot's
    text ("A♣") and the card it takes next, which name the rules' wants,
    not a card of the deal."""
    if isinstance(data, dict):
        return {k: _without_slots(v) for k, v in data.items() if not (k in ("empty", "takes") and "fan" in data)}
    if isinstance(data, list):
        return [_without_slots(v) for v in data]
    return data


def cards_named(data) -> set[str]:
    """Every card name in a JSON value (as text: keys, values, messages).
    Messages write cards as 9♣; both spellings are found."""
    data = _without_slots(data)
    text = json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data
    for symbol, suit in (("♣", "C"), ("♠", "S"), ("♥", "H"), ("♦", "D")):
        text = re.sub(r"\b(10|[A2-9JQK])" + symbol, lambda m, suit=suit: ("T" if m[1] == "10" else m[1]) + suit, text)
    return set(_CARD.findall(text))


def leaked(data, *positions) -> set[str]:
    """The cards ``data`` names that none of ``positions`` shows face up
    (a response about a move may name cards of the position before it and
    of the one after it)."""
    seen = set().union(*(visible(p) for p in positions))
    return cards_named(data) - seen
