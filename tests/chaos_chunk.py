"""A batch on Dask in which one deal kills every worker process that solves it
(used by tests/test_cluster.py through ``python -m crashing_deal``, with tests/
on the path): a crash of the C core, or the out-of-memory killer, on that deal.

Run as ``python -m crashing_deal <batch arguments>``: the batch command of the
CLI with this chunk function in place of the real one. The client submits
``solver.batch._solve_chunk``, which is then ``__main__.solve_chunk``, and
cloudpickle sends a function of ``__main__`` by value: the workers need not
find this file. Every other chunk is solved by the real function.
"""

from __future__ import annotations

import os
import signal
import sys

from solver import batch

DEAL = 17


def solve_chunk(variant, deals, limit, pack=None):
    if DEAL in deals:
        os.kill(os.getpid(), signal.SIGKILL)
    return batch._solve_chunk(variant, deals, limit, pack)


if __name__ == "__main__":
    from solver.cli import main

    # On the workers, `batch` in solve_chunk is solver.batch as installed (a
    # module goes by reference), whose _solve_chunk is the real one.
    batch._solve_chunk = solve_chunk
    sys.exit(main(["batch", *sys.argv[1:]]))
