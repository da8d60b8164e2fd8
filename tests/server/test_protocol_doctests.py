"""The examples in the protocol's docstrings are tests too (the parsers' documented behaviour)."""

import doctest
import importlib
import pkgutil

import pytest

import quatro_party.protocol as protocol

MODULES = [protocol.__name__] + sorted(m.name for m in pkgutil.iter_modules(protocol.__path__, protocol.__name__ + "."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_parser_examples_are_there():
    """The test above is not vacuous: the incoming parsers carry examples."""
    finder = doctest.DocTestFinder()
    tests = finder.find(importlib.import_module(protocol.__name__ + ".incoming"))
    assert sum(len(t.examples) for t in tests) >= 3
