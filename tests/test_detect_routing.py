"""Detection and routing of the kinds the code and config readers gained this stop (issue 9):
Tcl / CMake / Vim script named code on their marks, INI files with multi-line values
(``tox.ini``, ``setup.cfg``) named config; what the CLI reports is what it compressed as."""

from __future__ import annotations

import pytest

from cavemem.engine.detect import detect

CMAKE_MODULE = b"""#[=======================================================================[.rst:
FindDemo
--------

Finds the Demo library and sets the variables below for the caller to use
when it links against it. This text is documentation, not code.

#]=======================================================================]

if(DEMO_FOUND)
  message(STATUS "demo already found")
endif()
find_path(DEMO_INCLUDE_DIR demo.h)
mark_as_advanced(DEMO_INCLUDE_DIR)
"""

CMAKE_CALLS = b"""# Distributed under the OSI-approved BSD 3-Clause License.
# This file is included before the compiler has been determined.

set(DEMO_EFFECTIVE_NAME "${DEMO_NAME}")
include(Platform/${DEMO_NAME}-Initialize
        OPTIONAL)
set(DEMO_INITIALIZE_LOADED 1)
"""

TCL_SCRIPT = b"""# demo.tcl -- helpers
package require Tcl 8.6

proc ::demo::greet {name} {
    puts "hello $name"
}
"""

TOX_INI = b"""[tox]
envlist = py311,lint

[testenv]
deps =
    pytest
    pytest-cov
    hypothesis
commands =
    pytest {posargs}
setenv =
    PYTHONHASHSEED=0

[testenv:lint]
deps = flake8
commands = flake8 src tests
"""


@pytest.mark.parametrize("data", [CMAKE_MODULE, CMAKE_CALLS, TCL_SCRIPT])
def test_line_shaped_languages_are_code(data):
    assert detect(data) == "code"


def test_calls_and_prose_are_told_apart():
    # a line that is not a call (prose) between the calls: not a CMake script
    assert detect(CMAKE_CALLS.replace(b"set(DEMO_INITIALIZE_LOADED 1)", b"Set it to one when loaded.")) != "code"


def test_ini_with_multi_line_values_is_config():
    assert detect(TOX_INI) == "config"


def test_commented_default_file_with_one_setting_left_on_is_config():
    comments = b"".join(b"# line %d of the licence and the notes on how to use this file\n" % i for i in range(14))
    assert detect(comments + b"\n.level = WARNING\n") == "config"
    # the same comments around two lines of prose are not settings
    assert detect(comments + b"\nSee the notes above.\nThen restart.\n") != "config"


def test_prose_with_indented_lines_after_a_setting_is_not_config():
    prose = (b"[Notes]\nsummary = the week in review\n    We met on Monday and talked about the plan for the\n"
             b"    release, which slipped again because of the tests.\n") + b"And then we went home early that day.\n" * 10
    assert detect(prose) != "config"


def test_cli_reports_the_kind_it_compressed_as(run_cli):
    got = run_cli("cavemem", "compress", input=TOX_INI * 4)
    assert got.rc == 0 and got.report["content_type"] == "config"
    src = TCL_SCRIPT + b"".join(
        b"proc ::demo::p%d {a b} {\n    set x $a\n    set y $b\n    incr x\n    incr y\n    puts $x\n    puts $y\n}\n\n" % i
        for i in range(6))
    got = run_cli("cavemem", "compress", input=src)
    assert got.rc == 0 and got.report["content_type"] == "code"
    assert b"proc ::demo::p5 {a b} {\n    # caveman: 6 lines elided\n}\n" in got.stdout
    back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
    assert back.stdout == src
