"""A batch worker that dies halfway through handing back its result (used by
tests/test_batch.py through ``python -m dying_worker``, with tests/ on the path).

The chunk that holds deal ``DEAL`` is not solved: its worker takes the result
queue's write lock, writes the first bytes of a message announcing a megabyte,
and kills itself with SIGKILL. A worker killed from outside while it writes a
large result (a chunk of won deals with their lines) leaves the pipe in the same
state; this makes that moment certain instead of a matter of timing. Every other
chunk is solved as usual.

Run as ``python -m dying_worker <batch arguments>``: the batch command of the
CLI with this worker function in place of the real one.
"""

from __future__ import annotations

import os
import signal
import struct
import sys

from solver.batch import workers

DEAL = 40
_solve_chunk = workers.solve_chunk  # the real one, before __main__ below replaces it


def solve_chunk(variant, deals, limit):
    if DEAL not in deals:
        return _solve_chunk(variant, deals, limit)
    frame = sys._getframe()
    while frame.f_code.co_name != "_process_worker":  # concurrent.futures.process
        frame = frame.f_back
    results = frame.f_locals["result_queue"]
    results._wlock.acquire()
    os.write(results._writer.fileno(), struct.pack("!i", 1 << 20) + bytes(100))
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    from solver.cli import main

    # What run_batch submits (workers.solve_chunk, looked up when it submits),
    # pickled by name: __main__.solve_chunk, which forked workers have, and
    # spawned ones find in this file loaded as __mp_main__ (where this block
    # does not run).
    workers.solve_chunk = solve_chunk
    sys.exit(main(["batch", *sys.argv[1:]]))
