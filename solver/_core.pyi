"""Types of the C core built by cffi from csrc/solver.h, csrc/deck2.h and csrc/play.h
(solver/_build.py): the ``#define`` and ``enum`` constants, the functions,
and the FFI object that makes the structs they take.

A C struct or pointer (:data:`CData`) has the fields its header declares,
read and written by name; no static type says them, so it is ``Any`` here,
at this one boundary. tests/test_core.py checks that this file names every
constant and function of the built module.
"""

from collections.abc import Callable
from typing import Any, TypeAlias

CData: TypeAlias = Any

class _FFI:
    NULL: CData
    def new(self, cdecl: str, init: object = ...) -> CData: ...
    def gc(self, cdata: CData, destructor: Callable[[CData], None], size: int = ...) -> CData: ...
    def string(self, cdata: CData, maxlen: int = ...) -> bytes: ...
    def buffer(self, cdata: CData, size: int = ...) -> Any: ...
    def memmove(self, dest: CData, src: object, n: int) -> None: ...
    def typeof(self, cdecl: str | CData) -> Any: ...

ffi: _FFI

class _Lib:
    DECK2_ALL_SHORTCUTS: int
    DECK2_DEAD_CARDS: int
    DECK2_INTERCHANGEABLE: int
    DECK2_LAST_COPY_HOME: int
    DECK2_NO_CARD: int
    DECK2_ORDERS: int
    DECK2_RESTARTS: int
    JEWEL_EMPTY_ANY: int
    JEWEL_EMPTY_KING: int
    JEWEL_EMPTY_NONE: int
    JEWEL_JEWELS: int
    JEWEL_LID: int
    JEWEL_RESERVES: int
    JEWEL_TABLEAU: int
    NAPOLEAO_PILES: int
    PLAY_MAX_MOVES: int
    SOLVER_ALL_SHORTCUTS: int
    SOLVER_ANY_SUIT: int
    SOLVER_BLIND_CAREFUL: int
    SOLVER_BLIND_SIMPLE: int
    SOLVER_BLIND_WITHIN: int
    SOLVER_BY_PLACES: int
    SOLVER_DEAL: int
    SOLVER_EARLIEST_HOME: int
    SOLVER_ERROR: int
    SOLVER_FORCE_CELL_HOME: int
    SOLVER_FORCE_RESERVE_HOME: int
    SOLVER_FORCE_SEVEN_HOME: int
    SOLVER_FORCE_SIXES_RESERVE: int
    SOLVER_FORCE_WASTE_HOME: int
    SOLVER_FROZEN_FOUNDATIONS: int
    SOLVER_FULL_CELLS: int
    SOLVER_HAND_HOME: int
    SOLVER_INTERRUPTED: int
    SOLVER_JEWEL_FILL: int
    SOLVER_KEY_ROOM: int
    SOLVER_LC_MAX_CARDS: int
    SOLVER_LIMIT_MEMORY: int
    SOLVER_LIMIT_POSITIONS: int
    SOLVER_LIMIT_SECONDS: int
    SOLVER_LOST: int
    SOLVER_MAX_CELLS: int
    SOLVER_MEM_CACHES: int
    SOLVER_MEM_LINES: int
    SOLVER_MEM_PARTS: int
    SOLVER_MEM_SETS: int
    SOLVER_MEM_STACK: int
    SOLVER_MEM_SUMMARIES: int
    SOLVER_MEM_TABLE: int
    SOLVER_MOVE: int
    SOLVER_MOVES_CACHE: int
    SOLVER_NO_CARD: int
    SOLVER_NUMBERED_FOR_PLAYER: int
    SOLVER_NUMBERED_INDEX: int
    SOLVER_NUMBERED_NONE: int
    SOLVER_NUMBERED_SUIT: int
    SOLVER_PLACE_ABASE: int
    SOLVER_PLACE_BOTTOM: int
    SOLVER_PLACE_CELL: int
    SOLVER_PLACE_CORNER: int
    SOLVER_PLACE_FOUNDATION: int
    SOLVER_PLACE_KBASE: int
    SOLVER_PLACE_LID: int
    SOLVER_PLACE_PILE: int
    SOLVER_PLACE_RESERVE: int
    SOLVER_PLACE_RESERVE_PILE: int
    SOLVER_PLACE_SIDE: int
    SOLVER_PLACE_STOCK: int
    SOLVER_PLACE_TOMB: int
    SOLVER_PLACE_WASTE: int
    SOLVER_REDEAL: int
    SOLVER_RESTARTS: int
    SOLVER_STUCK_CELLS: int
    SOLVER_SUIT_SYMMETRY: int
    SOLVER_SUMMARIES: int
    SOLVER_TURN: int
    SOLVER_WON: int

    def solver_family_count(self) -> int: ...
    def solver_family(self, name: bytes) -> int: ...
    def solver_family_name(self, family: int) -> CData: ...
    def solver_new(self, family: int, rules: CData, pos: CData, flags: int, err: CData, errlen: int) -> CData: ...
    def solver_reset(self, s: CData, family: int, pos: CData, err: CData, errlen: int) -> int: ...
    def solver_set_limits(self, s: CData, max_positions: int, max_seconds: float, max_bytes: int) -> None: ...
    def solver_run(self, s: CData) -> int: ...
    def solver_stop(self, s: CData) -> None: ...
    def solver_get_stats(self, s: CData, out: CData) -> None: ...
    def solver_root_bound(self, s: CData) -> int: ...
    def solver_line_length(self, s: CData, which: int) -> int: ...
    def solver_line_move(self, s: CData, which: int, index: int, out: CData) -> int: ...
    def solver_line_pack(self, s: CData, which: int, out: CData, size: int) -> int: ...
    def solver_line_text(self, s: CData, which: int, out: CData, size: int) -> int: ...
    def solver_stats_text(self, st: CData, out: CData, size: int) -> int: ...
    def solver_lc_deal(self, number: int, fresh: CData | bytes, n: int, out: CData) -> None: ...
    def solver_deal(self, number: bytes, decks: int, out: CData) -> int: ...
    def solver_play_start(
        self, family: int, r: CData, cards: CData | bytes, n: int, out: CData, err: CData, errlen: int
    ) -> int: ...
    def solver_play_moves(
        self, family: int, r: CData, t: CData, out: CData, max: int, err: CData, errlen: int
    ) -> int: ...
    def solver_play_apply(
        self, family: int, r: CData, t: CData, m: CData, played: CData, err: CData, errlen: int
    ) -> int: ...
    def solver_play_view(self, family: int, r: CData, t: CData, out: CData, n: int, err: CData, errlen: int) -> int: ...
    def solver_play_layout(
        self, family: int, r: CData, t: CData, out: CData, n: int, err: CData, errlen: int
    ) -> int: ...
    def solver_play_auto(self, family: int, r: CData, t: CData, enabled: int, out: CData) -> int: ...
    def solver_play_score(self, family: int, r: CData, t: CData) -> int: ...
    def solver_play_restricted(self, family: int, r: CData, t: CData) -> int: ...
    def solver_play_key(
        self, family: int, r: CData, t: CData, canonical: int, out: CData, n: int, err: CData, errlen: int
    ) -> int: ...
    def solver_play_choose(
        self,
        family: int,
        r: CData,
        t: CData,
        strategy: int,
        within: int,
        keep_last_cell: int,
        offered: CData,
        n: int,
        err: CData,
        errlen: int,
    ) -> int: ...
    def solver_play_blind(
        self,
        family: int,
        r: CData,
        t: CData,
        strategy: int,
        within: int,
        keep_last_cell: int,
        max_moves: int,
        line: CData,
        cap: int,
        positions: CData,
        err: CData,
        errlen: int,
    ) -> int: ...
    def solver_play_distance(self, family: int, r: CData, t: CData, card: int) -> int: ...
    def solver_action_name(self, action: int) -> CData: ...
    def solver_place_name(self, kind: int) -> CData: ...
    def solver_place_numbering(self, kind: int) -> int: ...
    def solver_place_home(self, kind: int) -> int: ...
    def solver_family_place(self, family: int, i: int) -> int: ...
    def solver_place_kind(self, family: int, name: bytes) -> int: ...
    def solver_memory_part(self, part: int) -> CData: ...
    def solver_free(self, s: CData) -> None: ...

lib: _Lib
