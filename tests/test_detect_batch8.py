"""Detection rules of the regenerated corpus's tune misses (issue 9): a TOML file the stdlib
parses is config even with a ``'''`` / ``\"\"\"`` string in it; a script's ``# comment`` over code is
not a Markdown heading (CMake modules were taken for documents); a shipped file that explains
itself in ``#`` comment blocks around terse lines is config. Real tune-split samples in
``tests/data/detect/batch8`` and the near misses that must not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.compressors import config as config_compressor
from cavemem.engine.detect import detect
from cavemem.formats.configs import classify_strict

DATA = Path(__file__).parent / "data" / "detect" / "batch8"

CASES = [
    ("maturin_pyproject.toml", "config"),  # ``extend-exclude = '''`` over three lines; was text
    ("FindXalanC.cmake", "code"),  # rst in a ``#[==[`` bracket comment, ``# Find include directory`` over find_path(); was text
    ("MatlabTestsRedirect.cmake", "code"),  # ``# Usage: cmake`` comment block over set()/if(); was text
    ("exim4_auth_examples", "config"),  # 86% ``#`` lines around ``driver = plaintext`` examples; was text
    ("sysstat.ioconf", "config"),  # a commented header over ``3:hd::...`` records; was text
    ("bind.keys", "config"),  # a licence comment over ``trust-anchors { ... };``; was text
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch8_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def _pyproject(with_string: bool) -> bytes:
    desc = 'readme = """\nA tool.\n\nIt does one thing well.\n"""\n' if with_string else 'readme = "README.md"\n'
    return (b'[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
            b'[project]\nname = "tool"\nversion = "1.0"\n' + desc.encode() +
            b'\n[tool.ruff]\nline-length = 100\nselect = ["E", "F"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n')


def test_a_toml_string_over_lines_is_a_value_not_prose():
    shape = classify_strict(_pyproject(True))
    assert shape is not None and shape.prose == 0
    assert detect(_pyproject(True)) == detect(_pyproject(False)) == "config"


def test_a_multiline_string_that_is_not_toml_still_fails_the_strict_reader():
    python = b'[x]\na = 1\nb = 2\n[y]\nc = 3\nd = 4\ndef f():\n    """Docstring.\n    more\n    """\n    return 1\n'
    assert classify_strict(python) is None
    spec_case = "\n".join(f"[feature.{i}]\nenabled = true\nowner = \"team-{i}\"\n" for i in range(30)) + 'doc = """\nmulti\n"""\n'
    assert config_compressor.ConfigCompressor().compress(spec_case.encode()) is None  # spec §7.10: one top-level table


def test_a_markdown_heading_still_counts_and_a_script_comment_does_not():
    doc = b"# Usage\n\nRun `tool --help` to see every option and what it does for you.\n\n## Options\n\nSee `tool(1)`.\n"
    assert detect(doc * 3) == "text"
    script = b"".join(b"\n\n# Find the %d library\nfind_library(LIB_%d NAMES lib%d)\nset(X_%d ${LIB_%d})\n" % ((i,) * 5)
                      for i in range(6))
    assert detect(script) == "code"


def test_commented_prose_with_few_settings_stays_text_and_c_defines_are_not_comments():
    notes = b"# Notes\n\nWe moved the build to the new runners and it is much faster than it used to be now.\n" * 6
    assert detect(notes) == "text"
    from cavemem.formats.settings import _commented_settings

    defines = "#ifndef X_H\n#define X_H\n" + "".join(f"#define TCA_X_{i} {i}\n" for i in range(12)) + "enum {\n\tX_A,\n};\n#endif\n"
    assert not _commented_settings(defines, 0.0)  # preprocessor lines are code, not comments
