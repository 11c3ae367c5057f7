"""Porta-Jóias positions lost with several stock cards still to come, proved
twice: by the C core and by the reference engine's exhaustive search
(solver/rules/jewel.py, which prunes nothing), with the same best score, and
the core's line to that score replayed by the reference engine.

`test_lost_positions_are_proven` (tests/test_deck2_core.py) takes positions
6 moves before the end of a line, where the stock is spent. These go deeper:
each is the first position of a deal's line (the search at 50,000
positions, `bench/jewel_losses.py`) with that many stock cards to come, so
a proof covers every order in which they can be spread over the three
reserves, piles and foundations. Figures from the bench (2-core machine):

| rules  | deal | to come | jewels | core positions | plain search | reference search |
| ------ | ---- | ------- | ------ | -------------- | ------------ | ---------------- |
| sheet  |   80 |      12 |      0 |          4,514 |        7,308 | 1.0 s            |
| sheet  |   36 |      10 |      0 |          6,515 |        8,882 | 1.3 s            |
| sheet  |   98 |      10 |      1 |          4,385 |        6,757 | 1.2 s            |
| sheet  |  110 |       8 |      7 |          4,441 |        6,223 | 0.9 s            |
| free   |   25 |       8 |      0 |             35 |       47,705 | 3.9 s            |
| free   |   67 |       6 |      0 |          1,180 |       13,482 | 2.0 s            |
| free   |   36 |       6 |      0 |             62 |        9,066 | 1.2 s            |
| free   |   39 |       5 |      4 |          2,716 |        8,340 | 1.6 s            |

("plain": the core with `shortcuts=False`.) On the lines of deals 1-120
the core proves lost positions with up to 20 (sheet) and 12 (free) stock
cards to come within 5 million positions; the reference search finishes on
those up to 12 and 8 within 60,000.
"""

from __future__ import annotations

import pytest

from solver.api import Limit, solve
from solver.cards import Card
from solver.families.jewel import JewelPosition
from solver.rules import reference as engine
from solver.variants import load

JEWEL = load("paciencia-porta-joias")  # the sheet's rules
JEWEL_FREE = load("paciencia-porta-joias-free")
LIMIT = Limit(positions=200_000, seconds=None, memory=None)

# variant, deal, stock (next card first), lid ("--": empty), the eight side and
# bottom piles (bottom card first), face-down jewels, the reserves, foundations.
POSITIONS = [
    (JEWEL, 80, "4C 7D 2C QS 5D 6C JH TH 4H AH 9S AS", "8S 7S KC QC 9S",
     "JH TS / 3H 2S / KC / KS QH JS / KS / TC / 8S 7H / QH JC TD", "",
     "KD 6S QS 9H 7S QD 9C 6S 3C 5C 5S KH 3S TC / 7C 5H JC 2H / 9C 8C 4S 8H JS 9D 8D 6H JD TS QC KH 6D",
     ((8, 1), (5, 0), (10, 0), (13, 4)), 53),
    (JEWEL, 36, "KD 4H 9C AD 3S 2D 2C 6C 2S 3D", "-- -- -- -- 6H",
     "TD 9S 8D / JD / JD / QH JC / JS TH / KH / 7S 6D 5C 4D 3C / TC 9D 8C 7H 6S 5H", "",
     "KH 9H / QC QS TS KS KD TD TH 7C QD 8H QD 4C QH JH 9H / JH 9D 5S 4S 5D 8H KC 8S 7D",
     ((13, 1), (13, 1), (7, 3), (8, 0)), 57),
    (JEWEL, 98, "3H 2D 5S 8C KC 9S JS 5D KC 4D", "8D QS 8C 8H JS",
     "QD JC TH 9C 8D 7S 6D / KH / QC JD TS 9H 8S 7D 6C 5H 4S 3D / JC TH 9C / KD QS JD TC 9D / KS QH / 9D 8S 7D / 5C 4H",
     "AH", "2H 9S 3S 7C 7S TS 5D 6C JH JH TD / 6H QD / TD TC 7H 4C QH 7C KS 6D QC 6S KH KD",
     ((5, 3), (6, 2), (9, 0), (4, 1)), 36),
    (JEWEL, 110, "5H JS 2H KD 2S 9D AD TH", "8H 6D 9S KD 8D",
     "7H 6C 5D / KS QD JC / 5C 4D / 4D 3C 2D / KH QS JH TC 9H 8S / 7D 6C 5D 4C 3H / TD 9C 8D 7C 6D / TH 9S",
     "AD 4H AS 4S KC 8H 2C",
     "6H 5S 4H 5S 6S 2D TD 9H 9D TS QC 9C TC QD QS JS 3D 7S 8C / 7C 6H 3S 3D KC QH KS JH 7D 6S JD QH 8S 8C"
     " / 7S TS 7H KH JC QC JD 5H",
     ((5, 1), (4, 0), (3, 1), (0, 0)), 18),
    (JEWEL_FREE, 25, "JS JD 4D KC AD AD 4H QC", "-- -- -- -- --",
     "JH TS 9D / KD / QD / TC 9D / KH QS JH / TH 9C 8D 7S 6D 5S 4D / JC TD 9S 8D / 7C 6D", "",
     "QH 3S 2D 2D TD QD KH 6S 7D 8H 5D 7H 4S / JD 8S 8C QH 3D 5D KS KD 7D 5H / 9H TH 6H 3D",
     ((13, 6), (13, 2), (9, 3), (0, 0)), 50),
    (JEWEL_FREE, 67, "9C AS 7C TD 2D 7D", "JD -- TC 8H QH",
     "JS TD / 8S 7H / KS QD / 9H / JS TH / QC JD TC 9H / 6H 5C 4D 3S / 9D 8C 7H 6C 5D 4S", "",
     "JC 9S 6S JH 9S JH 9D 2S 8H QD 5H / 7S 6H KD 8D 9C QH KS 5S KD QC KH TS TH KC / JC KC TS 6D 4H QS KH 3D QS 8D",
     ((8, 4), (8, 0), (5, 3), (7, 1)), 41),
    (JEWEL_FREE, 36, "3S 2D 2C 6C 2S 3D", "-- -- -- -- --",
     "TD 9S / JD / JD / QH JC TH 9C 8D / JS / KH / 7S 6D 5C 4D 3C / TC 9D 8C 7H 6S", "",
     "KH 9H / QC QS TS KS KD TD TH 7C QD 8H QD 4C QH JH 9H / JH 9D 5S 4S 5D 8H KC 8S 7D KD",
     ((13, 1), (13, 1), (7, 6), (8, 1)), 57),
    (JEWEL_FREE, 39, "QC 5S KH AC 6C", "TC 9D QH 7S 8C",
     "JC TD 9C / TS 9H 8S 7H 6S 5D / JC TH 9C 8D 7C / 6S / 9S / 8H 7C 6D 5C 4H / QS / KC QD JS TH 9S 8D 7S",
     "KS 2H 6H TS",
     "4S TD JD QC 7D 4D 4C 6C JD 3D 5S 9H KS 4D 9D 5D 2D 5C TC JS 3C 6D QD 7D QH 2S JH 2D JH KH 8S 3H KD QS KD 8C KC"
     " / 5H 3S 2C / 4C 3C 3D",
     ((2, 0), (4, 1), (8, 1), (1, 1)), 24),
]  # fmt: skip


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def _position(variant, stock, lid, piles, jewels, reserves, foundations) -> JewelPosition:
    """A position from the texts of POSITIONS; no card turned."""
    pile_list = tuple(_cards(p) for p in piles.split(" / "))
    return JewelPosition(
        variant=variant,
        stock=_cards(stock),
        turned=None,
        lid=tuple(None if t == "--" else Card.parse(t) for t in lid.split()),
        sides=pile_list[:4],
        bottoms=pile_list[4:],
        jewels=_cards(jewels),
        reserves=tuple(_cards(r) for r in reserves.split(" / ")),
        foundations=foundations,
    )


@pytest.mark.parametrize(
    "variant,deal,stock,lid,piles,jewels,reserves,foundations,best",
    POSITIONS,
    ids=[f"{p[0].name}-{p[1]}-{len(p[2].split())}-to-come" for p in POSITIONS],
)
def test_deep_lost_positions_are_proven_twice(variant, deal, stock, lid, piles, jewels, reserves, foundations, best):
    """The core (every shortcut, and none) and the reference search both
    prove the position lost at ``best``; the core's line reaches it."""
    pos = _position(variant, stock, lid, piles, jewels, reserves, foundations)
    places = (*pos.sides, *pos.bottoms, *pos.reserves, pos.stock, pos.jewels)
    assert sum(map(len, places)) + sum(c is not None for c in pos.lid) + pos.score == 104
    mod = engine("jewel")
    for shortcuts in (True, False):
        r = solve(pos, variant, LIMIT, shortcuts=shortcuts)
        assert (r.verdict, r.score) == ("lost", best), (deal, shortcuts)
        end = mod.replay(pos, r.moves[r.played :])
        assert (end.score, end.won) == (best, False), (deal, shortcuts)
    verdict, ref_best, line = mod.search(pos, max_positions=100_000)
    assert (verdict, ref_best) == ("lost", best), deal
    assert mod.replay(pos, line).score == best
