"""A row of results, as every store of a batch keeps it (:data:`COLUMNS`,
:data:`Row`), the row of a deal that crashed its workers, and the error of
a batch (:class:`BatchError`)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from ..api import Limit
from ..errors import BatchError as BatchError

COLUMNS = (
    "variant",
    "deal",
    "verdict",
    "reason",
    "score",
    "positions",
    "seconds",
    "table_bytes",
    "line",
    "limits",
    "solved_at",
)
#: One row of the results, in the order of COLUMNS.
Row = tuple[str, int, str, str | None, int, int, float, int, str, str, str]
#: A path as the caller gives it.
StrPath = str | os.PathLike[str]


def limits_text(limit: Limit) -> str:
    """The ``limits`` column: the limits of the search as JSON."""
    return json.dumps({"positions": limit.positions, "seconds": limit.seconds, "memory": limit.memory})


def solved_at() -> str:
    """The ``solved_at`` column: now, as ISO-8601 UTC."""
    return datetime.now(UTC).isoformat()


def crashed_row(variant: str, deal: int, limit: Limit, why: str) -> Row:
    """The row of a deal whose search crashed every process that ran it: unknown,
    reason ``crashed``, no line to replay (``line`` holds the error instead)."""
    line = json.dumps(
        {"variant": variant, "deal": deal, "verdict": "unknown", "reason": "crashed", "error": why}, ensure_ascii=False
    )
    return (variant, deal, "unknown", "crashed", 0, 0, 0.0, 0, line, limits_text(limit), solved_at())
