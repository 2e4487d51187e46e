"""Detection of hand-written output shapes of tools a coding agent meets (issue 9): each file in
``tests/data/detect/shapes/`` is named ``<kind>_<what>.txt`` after the kind a person names."""

from __future__ import annotations

import pytest

from cavemem.engine.detect import detect

from conftest import REPO

SHAPES = REPO / "tests" / "data" / "detect" / "shapes"


@pytest.mark.parametrize("name", sorted(p.name for p in SHAPES.glob("*.txt")))
def test_tool_output_shape_detects_as_a_person_names_it(name):
    assert detect((SHAPES / name).read_bytes()) == name.split("_")[0]


def test_there_are_shapes_of_every_kind_they_claim():
    kinds = {p.name.split("_")[0] for p in SHAPES.glob("*.txt")}
    assert kinds == {"code", "config", "log", "tabular"}
