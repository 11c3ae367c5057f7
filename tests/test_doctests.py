"""The examples in the docstrings of every module of the package run and
give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import solver

#: The modules whose docstrings hold examples (a module dropped from here
#: would let its examples vanish unnoticed).
HAVE_EXAMPLES = {"solver.api", "solver.batch", "solver.blind", "solver.cards", "solver.deals", "solver.families",
                 "solver.game", "solver.hints", "solver.rules.jewel", "solver.rules.napoleao", "solver.rules.tomb",
                 "solver.session", "solver.variants", "solver.verdicts"}
MODULES = sorted(m.name for m in pkgutil.walk_packages(solver.__path__, "solver.")
                 if m.name not in ("solver.__main__", "solver._build"))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
    assert result.attempted > 0 or name not in HAVE_EXAMPLES, f"{name}: its examples are gone"
