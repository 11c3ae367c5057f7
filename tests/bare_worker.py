"""``dask worker`` in a Python that cannot import the solver package: a worker
of a cluster on which patience-solver was not installed (used by
tests/test_cluster.py as ``python tests/bare_worker.py <dask worker arguments>``).

The test's Python has the package installed in editable mode: its finder is
taken off ``sys.meta_path``, and the checkout off ``sys.path``.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path[:] = [p for p in sys.path if p not in ("", ".", ROOT, str(Path(__file__).parent))]
try:
    import solver
except ImportError:
    pass
else:
    sys.exit(f"bare_worker: solver is still importable from {solver.__file__}")

if __name__ == "__main__":
    from distributed.cli.dask_worker import main

    sys.argv[0] = "dask worker"
    main()
