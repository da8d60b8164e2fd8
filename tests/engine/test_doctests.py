"""The examples in the engine's docstrings are tests too (run here so the suite's one command covers them)."""

import doctest
import importlib
import pkgutil

import pytest

import quatro_party.engine as engine

MODULES = sorted(m.name for m in pkgutil.iter_modules(engine.__path__, engine.__name__ + "."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
