"""The words the library answers with, shared by every answer that uses them.

A :class:`~solver.api.Result`'s ``verdict`` and a :class:`~solver.hints.Hint`'s
``verdict`` are the same :data:`Verdict`: ``"won"``, ``"lost"`` or ``"unknown"``.
A blind player's game (:func:`solver.blind.play`) has no verdict: it is a
:class:`~solver.blind.BlindGame`, ``won`` or not, and proves nothing about
the deal.

>>> VERDICTS
('won', 'lost', 'unknown')
"""

from __future__ import annotations

from typing import Literal, get_args

#: What a search decided: a proven win, a proven loss, or not decided within
#: its limit.
Verdict = Literal["won", "lost", "unknown"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

#: Why a search's verdict is ``unknown``: the limit that stopped the search,
#: or a stop asked for.
Reason = Literal["positions", "seconds", "memory", "interrupted"]
REASONS: tuple[Reason, ...] = get_args(Reason)
