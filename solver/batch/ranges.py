"""Deal ranges: ``--deals 1-10,20-30`` as sorted, merged inclusive ranges
(:func:`parse_deals`), and back to text (:func:`format_ranges`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..deals import MIN_NUMBER, DealError, number_from_text

#: SQLite integers are signed 64-bit: the largest deal number a row can hold.
MAX_STORED_DEAL = 2**63 - 1
#: Ranges of deal numbers, both ends included.
Ranges = Sequence[tuple[int, int]]


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut short past 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:20] + "…" + text[-8:]) + f" ({len(text)} characters)"


def parse_deals(text: str) -> list[tuple[int, int]]:
    """``"1-1000"``, ``"5"``, ``"1-10,20-30"`` as sorted, merged inclusive ranges.

    >>> parse_deals("20-30, 1-10,5,9-12")
    [(1, 12), (20, 30)]
    """
    if not isinstance(text, str) or not text.strip():
        raise DealError("--deals: give deal numbers: N, A-B, or a comma list of both (e.g. 1-10,20-30)")
    ranges = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        lo, hi = lo.strip(), hi.strip()
        if not (lo.isascii() and lo.isdigit()) or (sep and not (hi.isascii() and hi.isdigit())):
            raise DealError(f"--deals: {_shown(part)} is not a deal number N or a range A-B")
        try:
            a = number_from_text(lo)
            b = number_from_text(hi) if sep else a
        except DealError:
            raise DealError(f"--deals: {_shown(part)}: deal numbers are {MIN_NUMBER}..10**20") from None
        if a > b:
            raise DealError(f"--deals: {_shown(part)} runs backwards; write the low number first")
        if b > MAX_STORED_DEAL:
            raise DealError(f"--deals: {_shown(part)}: a batch stores deal numbers up to 2**63-1 ({MAX_STORED_DEAL})")
        ranges.append((a, b))
    ranges.sort()
    merged = [ranges[0]]
    for a, b in ranges[1:]:
        if a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def format_ranges(ranges: Iterable[tuple[int, int]], most: int = 6) -> str:
    """``[(1, 12), (20, 20)]`` as ``"1-12,20"`` (the first ``most`` ranges, then ``...``)."""
    ranges = list(ranges)
    text = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:most])
    return text + (f",... ({len(ranges)} ranges)" if len(ranges) > most else "")
