"""The words the library answers with, shared by every answer that uses them.

A :class:`~solver.api.Result`'s ``verdict`` and a :class:`~solver.hints.Hint`'s
``status`` are the same :data:`Verdict`: ``"won"``, ``"lost"`` or ``"unknown"``.

>>> VERDICTS
('won', 'lost', 'unknown')
"""

from __future__ import annotations

from typing import Literal, get_args

#: What a search decided: a proven win, a proven loss, or not decided within
#: its limit.
Verdict = Literal["won", "lost", "unknown"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

#: Why a verdict is ``unknown`` (the limit that stopped the search, or a stop
#: asked for); ``blind`` is the reason of a blind player's game
#: (:mod:`solver.blind`), which proves nothing about the deal.
Reason = Literal["positions", "seconds", "memory", "interrupted", "blind"]
REASONS: tuple[Reason, ...] = get_args(Reason)
