"""A batch on Dask whose chunk function misbehaves on one deal, as told by the
environment variable CHAOS (used by tests/test_cluster.py through ``python -m
chaos_chunk``, with tests/ on the path):

- ``CHAOS=crash:N``: the chunk that holds deal N kills its worker process,
  each time it runs (a crash of the C core, or the out-of-memory killer);
- ``CHAOS=pause:N:FILE``: the chunk that holds deal N writes the worker's pid
  to FILE and waits 2 s before it solves, so that the test can kill that
  worker in the middle of a chunk for certain.

Run as ``python -m chaos_chunk <batch arguments>``: the batch command of the
CLI with this chunk function in place of the real one. The client submits
``solver.batch.workers.solve_chunk``, which is then ``__main__.solve_chunk``, and
cloudpickle sends a function of ``__main__`` by value: the workers need not
find this file. Every other chunk is solved by the real function.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from solver.batch import workers


def solve_chunk(variant, deals, limit, pack=None):
    what, deal, *where = os.environ["CHAOS"].split(":", 2)
    if int(deal) in deals:
        if what == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        Path(where[0]).write_text(str(os.getpid()))
        time.sleep(2)
    return workers.solve_chunk(variant, deals, limit, pack)


if __name__ == "__main__":
    from solver.cli import main

    # On the workers, `workers` in solve_chunk is solver.batch.workers as
    # installed (a module goes by reference), whose solve_chunk is the real one.
    workers.solve_chunk = solve_chunk
    sys.exit(main(["batch", *sys.argv[1:]]))
