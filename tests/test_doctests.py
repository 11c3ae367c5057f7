"""The examples in the docstrings of every module of the package run and
give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import solver
from solver.families import JewelPosition, NapoleaoPosition, TombPosition
from solver.variants import load

#: The modules whose docstrings hold examples, and how many at least (a
#: module dropped from here would let its examples vanish unnoticed).
LEAST_EXAMPLES = {
    "solver.api": 1,
    "solver.batch": 1,
    "solver.blind": 1,
    "solver.cards": 1,
    "solver.families.base": 1,
    "solver.families.tomb.position": 1,
    "solver.families.napoleao.position": 1,
    "solver.families.jewel.position": 1,
    "solver.notation": 1,
    "solver.deals": 1,
    "solver.errors": 1,
    "solver.families": 1,
    "solver.game": 1,
    "solver.hints": 1,
    "solver.rules.jewel": 16,
    "solver.rules.napoleao": 1,
    "solver.rules.tomb": 11,
    "solver.session": 1,
    "solver.variants": 1,
    "solver.verdicts": 1,
    "solver.vocabulary": 1,
}
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(solver.__path__, "solver.")
    if m.name not in ("solver.__main__", "solver._build")
)


#: What the reference engines' examples are given to play on: they import
#: nothing of the library they check (solver/rules/), so their examples
#: take the positions and variants from here.
ENGINE_GLOBALS = {
    "TombPosition": TombPosition,
    "NapoleaoPosition": NapoleaoPosition,
    "JewelPosition": JewelPosition,
    "load": load,
}


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module(name):
    module = importlib.import_module(name)
    extra = ENGINE_GLOBALS if name.startswith("solver.rules.") else None
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, extraglobs=extra)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
    assert result.attempted >= LEAST_EXAMPLES.get(name, 0), f"{name}: only {result.attempted} examples left"
